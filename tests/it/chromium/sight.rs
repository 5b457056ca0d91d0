//! Whether a page fits its screen: the hand and the action bar in sight without scrolling, and the
//! deal's result panel whole, neither off the screen nor clipped by a box around it.

use fantoccini::Client;
use serde_json::json;

/// How the page may not scroll, for [`out_of_sight`].
#[derive(Clone, Copy)]
pub enum Scroll {
    Down,
    Sideways,
    Either,
}

/// What of the hand and the action bar lies outside the first screen (or is missing), or how the page
/// scrolls that `scroll` forbids; with `flat_is_out`, a hand or bar of no height counts as out of
/// sight. Empty when all is in sight.
pub async fn out_of_sight(client: &Client, scroll: Scroll, flat_is_out: bool) -> String {
    let (down, sideways) = match scroll {
        Scroll::Down => (true, false),
        Scroll::Sideways => (false, true),
        Scroll::Either => (true, true),
    };
    let script = r#"
const [down, sideways, flatIsOut] = arguments;
const out = [];
for (const sel of ['[data-area=hand]', '[data-area=actions]']) {
  const e = document.querySelector(sel);
  if (!e) { out.push(sel + ' missing'); continue; }
  const r = e.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5 || (flatIsOut && r.height === 0)) {
    out.push(`${sel} at ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)} in ${innerWidth}x${innerHeight}`);
  }
}
const page = document.scrollingElement;
if (down && page.scrollHeight > innerHeight + 1) out.push(`the page is ${page.scrollHeight}px tall`);
if (sideways && page.scrollWidth > innerWidth + 1) out.push(`the page is ${page.scrollWidth}px wide`);
return out.join('; ');
"#;
    let args = vec![json!(down), json!(sideways), json!(flat_is_out)];
    let said = client.execute(script, args).await.expect("the script runs");
    said.as_str().unwrap_or_default().to_string()
}

/// What of the deal's result panel (`#result`: who won, why, the scores) is not in sight: outside the
/// first screen, or cut off by a box around it that scrolls or clips (the panel's own included).
/// Empty when the whole of it can be read without scrolling.
pub async fn result_out_of_sight(client: &Client) -> String {
    let script = r#"
const result = document.querySelector('#result');
if (!result) return '#result missing';
// The part of the screen a box leaves its contents: the screen, cut by every ancestor that clips.
const clip = (e) => {
  let c = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
  for (let a = e.parentElement; a; a = a.parentElement) {
    const style = getComputedStyle(a);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const r = a.getBoundingClientRect();
    c = { top: Math.max(c.top, r.top), left: Math.max(c.left, r.left), bottom: Math.min(c.bottom, r.bottom), right: Math.min(c.right, r.right) };
  }
  return c;
};
const out = [];
for (const e of [result, ...result.querySelectorAll('*')]) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  const c = clip(e);
  if (r.top < c.top - 0.5 || r.left < c.left - 0.5 || r.bottom > c.bottom + 0.5 || r.right > c.right + 0.5) {
    out.push(`${e.tagName.toLowerCase()}.${e.className} at ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)} in ${Math.round(c.left)},${Math.round(c.top)} to ${Math.round(c.right)},${Math.round(c.bottom)}`);
  }
}
return out.join('; ');
"#;
    let said = client
        .execute(script, vec![])
        .await
        .expect("the script runs");
    said.as_str().unwrap_or_default().to_string()
}
