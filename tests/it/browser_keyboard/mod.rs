//! A whole Panjpar deal played from the keyboard alone in Chromium, at a phone's size: every move is
//! made by pressing Enter on a control of the board (the colour, the attack's cards and the Attack
//! button, the attack card to beat and the card that beats it, or Pick up), and after each move the
//! keyboard is still on the board, never dropped to the page, whoever plays next.

use fantoccini::key::Key;
use fantoccini::Client;

use crate::chromium::*;

/// Which decision the board offers this seat now.
const STATE: &str = r#"
const t = document.querySelector('.table');
if (!t) return 'none';
if (t.dataset.status === 'match-over' || t.dataset.status === 'deal-over') return 'over';
if (document.querySelector('[data-colour]')) return 'guess';
if (document.querySelector('#attack')) return 'attack';
if (document.querySelector('#pick-up')) return 'defend';
return 'wait';
"#;

/// Where the keyboard is: "board" when on a control of the board, else what holds it.
const FOCUS: &str = r#"
const b = document.getElementById('board'), a = document.activeElement;
return b.contains(a) && a !== b ? 'board' : (a ? a.tagName + '#' + a.id : 'nothing');
"#;

/// Keeps where the keyboard went and when, to say in a failure how it left the board.
const FOCUS_LOG: &str = r#"
const name = (e) => (e ? e.dataset?.card || e.id || e.tagName : 'nothing');
window.__log = [];
document.addEventListener('focusin', (e) => window.__log.push(`in ${name(e.target)} at ${document.body.dataset.version}`), true);
document.addEventListener('focusout', (e) => window.__log.push(`out ${name(e.target)} to ${name(e.relatedTarget)} at ${document.body.dataset.version}`), true);
return true;
"#;

/// Focuses the first element matching `css` (as Tab would land on it) and presses Enter on it.
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
async fn version(c: &Client) -> serde_json::Value {
    eval(c, "return document.body.dataset.version ?? null").await
}

/// Makes this seat's move from the keyboard for the decision `state`; whether one was made.
async fn keyboard_move(c: &Client, state: &str) -> bool {
    match state {
        "guess" => enter_on(c, "[data-colour]").await,
        "attack" => {
            enter_on(c, ".hand button.card").await;
            wait_for(c, "return !document.querySelector('#attack').disabled", 5).await;
            enter_on(c, "#attack").await
        }
        _ => {
            // The first attack card still open, then a card of the hand that beats it, or Pick up.
            if enter_on(c, "[data-open=true]").await {
                settle(c).await;
                if enter_on(c, ".hand button.card:not([aria-disabled=true])").await {
                    return true;
                }
            }
            enter_on(c, "#pick-up").await
        }
    }
}

#[actix_rt::test]
async fn a_panjpar_deal_from_the_keyboard_alone_keeps_the_keyboard_on_the_board() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 200);
    let c = driver.session(390, 844).await;
    open_panjpar_computer_table(&c, &server.base).await;
    eval(&c, FOCUS_LOG).await;
    let mut moves = 0;
    for _ in 0..400 {
        let state = eval(&c, STATE).await;
        let state = state.as_str().unwrap_or("none").to_string();
        if state == "over" {
            break;
        }
        if !["guess", "attack", "defend"].contains(&state.as_str()) {
            settle(&c).await;
            continue;
        }
        let before = version(&c).await;
        assert!(keyboard_move(&c, &state).await, "no {state} could be made");
        moves += 1;
        let moved = format!(
            "return String(document.body.dataset.version ?? '') !== {}",
            serde_json::to_string(&before.to_string().trim_matches('"')).unwrap()
        );
        wait_for(&c, &moved, 10).await;
        settle(&c).await;
        assert_eq!(
            eval(&c, FOCUS).await,
            "board",
            "after move {moves} ({state}) the keyboard left the board: {}",
            eval(&c, "return window.__log.join(' | ')").await
        );
    }
    assert!(moves > 3, "the deal was played ({moves} moves)");
    assert_no_console_error(&c, "a keyboard deal").await;
}
