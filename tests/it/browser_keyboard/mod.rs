//! Whole deals played from the keyboard alone in Chromium, at a phone's size, one per game: every
//! move is made by pressing Enter on a control of the board (Panjpar's colour, attack cards, Attack
//! button, attack card to beat and card that beats it, or Pick up; Pishe Pasha's Give, Turn a card and
//! Keep it; Ganjifa's hand cards, lead buttons and face-down cards), and after each move the keyboard
//! is still on the board, never dropped to the page, whoever plays next.

mod ganjifa;
mod panjpar;
mod pishe_pasha;

use fantoccini::key::Key;
use fantoccini::Client;

use crate::chromium::*;

/// Where the keyboard is: "board" when on a control of the board, else what holds it.
const FOCUS: &str = r#"
const b = document.getElementById('board'), a = document.activeElement;
return b.contains(a) && a !== b ? 'board' : (a ? a.tagName + '#' + a.id : 'nothing');
"#;

/// Keeps where the keyboard went and when, to say in a failure how it left the board.
const FOCUS_LOG: &str = r#"
const name = (e) => (e ? e.dataset?.card || e.dataset?.key || e.id || e.tagName : 'nothing');
window.__log = [];
document.addEventListener('focusin', (e) => window.__log.push(`in ${name(e.target)} at ${document.body.dataset.version}`), true);
document.addEventListener('focusout', (e) => window.__log.push(`out ${name(e.target)} to ${name(e.relatedTarget)} at ${document.body.dataset.version}`), true);
return true;
"#;

/// Focuses the first element matching `css` (as Tab would land on it) and presses Enter on it;
/// false when there is none.
async fn enter_on(c: &Client, css: &str) -> bool {
    let focused = eval(
        c,
        &format!(
            "const e = document.querySelector({}); if (!e) return false; e.focus(); return document.activeElement === e",
            serde_json::to_string(css).unwrap()
        ),
    )
    .await;
    if focused != true {
        return false;
    }
    let active = c.active_element().await.expect("a focused element");
    active
        .send_keys(&char::from(Key::Enter).to_string())
        .await
        .expect("Enter");
    true
}

/// The table's version as the board shows it.
async fn version(c: &Client) -> String {
    let v = eval(c, "return String(document.body.dataset.version ?? '')").await;
    v.as_str().unwrap_or_default().to_string()
}

/// Plays this seat's part of the deal on the open board from the keyboard, until `state` (a script
/// naming the decision the board offers) says "over" or "next": each decision in `decisions` is
/// made by `make` (false: it could not be), then the version must move and the keyboard must still
/// be on the board. Returns how many moves were made.
async fn play_from_the_keyboard(
    c: &Client,
    state: &str,
    decisions: &[&str],
    make: impl AsyncFn(&Client, &str) -> bool,
) -> usize {
    eval(c, FOCUS_LOG).await;
    let mut moves = 0;
    for _ in 0..2000 {
        let now = eval(c, state).await;
        let now = now.as_str().unwrap_or("none").to_string();
        if now == "over" || now == "next" {
            break;
        }
        if !decisions.contains(&now.as_str()) {
            settle(c).await;
            continue;
        }
        let before = version(c).await;
        assert!(make(c, &now).await, "no {now} could be made");
        moves += 1;
        let moved = format!(
            "return String(document.body.dataset.version ?? '') !== {}",
            serde_json::to_string(&before).unwrap()
        );
        wait_for(c, &moved, 10).await;
        settle(c).await;
        assert_eq!(
            eval(c, FOCUS).await,
            "board",
            "after move {moves} ({now}) the keyboard left the board: {}",
            eval(c, "return window.__log.join(' | ')").await
        );
    }
    assert_no_console_error(c, "a keyboard deal").await;
    moves
}
