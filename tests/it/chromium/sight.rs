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

/// How one card lies on the screen, in CSS pixels: see [`cards_as_seen`].
#[derive(Debug, serde::Deserialize)]
pub struct CardSeen {
    /// Its `data-card`.
    pub card: String,
    pub width: f64,
    /// How much of its width is in sight along its middle.
    pub shown: f64,
    /// What lies over the middle of the part in sight, when it is not the card itself.
    pub over: String,
    /// The size its smallest word is drawn at; none for a card with no words (a back).
    pub text: Option<f64>,
}

/// Every card matching `css`: its width; how much of it is in sight along its middle line (what the
/// cards drawn after it in its row, which lie over it, and the screen's edges leave of it, and none
/// of it when the page finds something else over the middle of that part: `elementFromPoint`); and
/// the size its smallest word is drawn at (the SVG text's font size times the scale the card's
/// drawing is shown at).
pub async fn cards_as_seen(client: &Client, css: &str) -> Vec<CardSeen> {
    let script = r#"
return [...document.querySelectorAll(arguments[0])].map((c) => {
  const r = c.getBoundingClientRect();
  const y = r.top + r.height / 2;
  let from = Math.max(r.left, 0);
  let to = Math.min(r.right, innerWidth);
  for (let n = c.nextElementSibling; n; n = n.nextElementSibling) {
    const o = n.getBoundingClientRect();
    if (o.top > y || o.bottom < y || o.left >= to || o.right <= from) continue;
    if (o.left > from) to = Math.min(to, o.left);
    else from = Math.max(from, o.right);
  }
  const top = document.elementFromPoint((from + to) / 2, y);
  const over = top && top.closest('[data-card]') === c ? '' : (top ? `${top.tagName}.${top.className}` : 'nothing');
  const svg = c.querySelector('svg');
  const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
  const sizes = [...c.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  return { card: c.dataset.card || '', width: r.width, shown: over ? 0 : Math.max(0, to - from), over, text: sizes.length ? Math.min(...sizes) : null };
});
"#;
    let seen = client
        .execute(script, vec![json!(css)])
        .await
        .expect("the script runs");
    serde_json::from_value(seen).expect("the cards as seen")
}

/// What of `cards` is too small for a finger or an eye: narrower than `width`, less than `shown`
/// in sight, or words under `text` pixels. Empty when none is.
pub fn too_small(cards: &[CardSeen], width: f64, shown: f64, text: f64) -> String {
    cards
        .iter()
        .filter(|c| c.width < width || c.shown < shown - 0.01 || c.text.is_some_and(|t| t < text))
        .map(|c| {
            let words = c
                .text
                .map(|t| format!(", words {t:.1}px"))
                .unwrap_or_default();
            format!(
                "{} {:.1}px wide, {:.1}px shown{words} {}",
                c.card, c.width, c.shown, c.over
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}
