//! Panjpar from the keyboard: high contrast kept across a reload, a move made with Tab and Enter
//! alone, the arrow keys walking along the hand, and focus kept on the same card or button when the
//! board is drawn again.

use fantoccini::key::Key;
use fantoccini::Client;

use super::{play_to_an_attack, with_state};
use crate::chromium::*;

/// A script: whether the board was drawn again since the page marked it as `window.__drawn`.
const REDRAWN: &str = "return document.querySelector('.table') !== window.__drawn";

#[actix_rt::test]
async fn high_contrast_survives_a_reload_and_the_keyboard_alone_makes_a_move() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 600);
    let c = driver.session(1280, 800).await;
    go(&c, &server.base, "/panjpar/rules").await;
    click(&c, "[data-contrast-switch]").await;
    c.refresh().await.unwrap();
    let on = eval(
        &c,
        "return document.documentElement.classList.contains('contrast')",
    )
    .await;
    assert_eq!(on, true, "high contrast was forgotten");
    go(&c, &server.base, "/panjpar").await;
    click(&c, "#play-computer").await;
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    // Wait for our first decision: the guess, or an attack or defence after the computer's guess.
    let state = wait_for(
        &c,
        &with_state("return ['guess','attack','defend'].includes(s) && s"),
        20,
    )
    .await;
    let target = match state.as_str().unwrap() {
        "guess" => "[data-colour]",
        "attack" => ".hand button.card",
        _ => "#pick-up",
    };
    tab_to(&c, target).await;
    press_key(&c, Key::Enter).await;
    if state == "attack" {
        tab_to(&c, "#attack").await;
        press_key(&c, Key::Enter).await;
    }
    // The computer waits 600 ms before its move, so the spoken line still tells ours.
    let moved = "return /^You (called|attacked|picked up)/.test(document.querySelector('#live').textContent)";
    wait_for(&c, moved, 10).await;
    screenshot(&c, "panjpar-contrast-1280x800").await;
    // The computer answers and the turn comes back: the keyboard was kept on the board all along,
    // so the next move is a key away, not a walk through the header.
    let on_board = "const b = document.getElementById('board'), a = document.activeElement; return b.contains(a) && a !== b && document.querySelector('.hand button.card')";
    wait_for(&c, on_board, 15).await;
    // Arrow keys walk along the hand.
    tab_to(&c, ".hand button.card").await;
    let first = eval(&c, "return document.activeElement.dataset.card").await;
    press_key(&c, Key::Right).await;
    let next = eval(&c, "return document.activeElement.dataset.card").await;
    assert!(next.is_string() && next != first, "{first} -> {next}");
    press_key(&c, Key::Left).await;
    assert_eq!(
        eval(&c, "return document.activeElement.dataset.card").await,
        first
    );
    c.close().await.unwrap();
}

/// Presses `key` on the focused element.
async fn press_key(c: &Client, key: Key) {
    let active = c.active_element().await.expect("a focused element");
    key_press(&active, key).await.expect("a key press");
}

/// Presses Tab until the focused element matches `css`.
async fn tab_to(c: &Client, css: &str) {
    let check = format!(
        "return document.activeElement && document.activeElement.matches({})",
        serde_json::to_string(css).unwrap()
    );
    for _ in 0..80 {
        if eval(c, &check).await == true {
            return;
        }
        press_key(c, Key::Tab).await;
    }
    panic!("Tab never reached {css}");
}

#[actix_rt::test]
async fn focus_stays_on_the_same_card_and_button_when_the_board_is_drawn_again() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 4000);
    let c = driver.session(390, 844).await;
    open_panjpar_computer_table(&c, &server.base).await;
    play_to_an_attack(&c).await;
    // Choose a card with the keyboard: the card lifts, and focus stays on it.
    let first = eval(
        &c,
        "const b = document.querySelector('.hand button.card'); b.focus(); return b.dataset.card",
    )
    .await;
    press_key(&c, Key::Enter).await;
    let chosen = format!(
        "const e = document.activeElement; return e.dataset.card === {first} && e.classList.contains('chosen')"
    );
    wait_for(&c, &chosen, 5).await;
    // Attack, then rest on another card while our move comes back and the board is drawn again.
    eval(&c, "document.querySelector('#attack').click(); return true").await;
    let other = eval(
        &c,
        "window.__drawn = document.querySelector('.table'); const b = document.querySelectorAll('.hand button.card')[1]; b.focus(); return b.dataset.card",
    )
    .await;
    wait_for(&c, REDRAWN, 10).await;
    let focused = eval(&c, "return document.activeElement.dataset.card ?? null").await;
    assert_eq!(focused, other, "focus left the card after a redraw");
    // The moves button keeps focus when the computer's answer is drawn.
    eval(
        &c,
        "window.__drawn = document.querySelector('.table'); document.querySelector('#moves-toggle').focus(); return true",
    )
    .await;
    // On a slow machine the computer's answer may already be drawn by now: then it is our turn.
    let answered = with_state(
        "return document.querySelector('.table') !== window.__drawn \
         || ['guess','attack','defend','next','over'].includes(s)",
    );
    wait_for(&c, &answered, 20).await;
    let focused = eval(&c, "return document.activeElement.id").await;
    assert_eq!(
        focused, "moves-toggle",
        "focus left the button after a redraw"
    );
    // An attack made from the keyboard: the Attack button and the card go, and the keyboard lands
    // on what is still there rather than on the page.
    play_to_an_attack(&c).await;
    settle(&c).await;
    eval(
        &c,
        "document.querySelector('.hand button.card').click(); return true",
    )
    .await;
    wait_for(&c, "return !document.querySelector('#attack').disabled", 5).await;
    eval(
        &c,
        "window.__drawn = document.querySelector('.table'); document.querySelector('#attack').focus(); return true",
    )
    .await;
    press_key(&c, Key::Enter).await;
    wait_for(&c, REDRAWN, 10).await;
    let landed = eval(
        &c,
        "const e = document.activeElement; return document.querySelector('#board').contains(e) && e.tagName",
    )
    .await;
    assert_eq!(landed, "BUTTON", "focus fell to the page after the attack");
    c.close().await.unwrap();
}
