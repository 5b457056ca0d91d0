//! Whose turn it is, told by a page in Chromium: the tab's title says "Your turn", and a turn that
//! comes while the tab is hidden is told once by a notification (the page's own Notifications API,
//! stubbed in the page), not again on a redraw of the same turn.

use std::time::Duration;

use serde_json::json;

use super::{click_a_move, start_against_the_computer, MY_TURN};
use crate::chromium::*;

#[actix_rt::test]
async fn the_title_says_your_turn_and_a_hidden_tab_is_told_once() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 1500);
    let c = driver.session(1280, 800).await;
    start_against_the_computer(&c, &server.base).await;
    // The page's Notifications, stubbed: allowed, and each one shown is kept.
    eval(
        &c,
        r#"window.told = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title) { window.told.push(title); }
  addEventListener() {}
  close() {}
};
return true"#,
    )
    .await;
    click_when_shown(&c, "#turn-alerts", 10).await;
    wait_for(
        &c,
        "return document.querySelector('#turn-alerts').getAttribute('aria-pressed') === 'true'",
        5,
    )
    .await;
    let title = wait_for_text(
        &c,
        "const b = document.querySelector('#turn-badge'); return !!b && !b.hidden && document.title",
        20,
    )
    .await;
    assert_eq!(title, "● Your turn · Panjpar · chaikhana");
    // The tab goes to the background; the move is made, and the computer's turn is not ours.
    eval(
        &c,
        "Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' }); return true",
    )
    .await;
    // Moves until the turn passes (a right guess, say, leaves it with this seat).
    let mut resting = None;
    for _ in 0..50 {
        let shown = eval(
            &c,
            "const b = document.querySelector('#turn-badge'); return !!b && b.hidden && document.title",
        )
        .await;
        if let Some(title) = shown.as_str() {
            resting = Some(title.to_string());
            break;
        }
        click_a_move(&c).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(resting.as_deref(), Some("Panjpar · chaikhana"));
    // The turn comes back while hidden: told once.
    wait_for(&c, MY_TURN, 30).await;
    let told = wait_for(&c, "return window.told.length > 0 && window.told", 5).await;
    assert_eq!(told, json!(["Your turn at Panjpar"]));
    // Drawn again on the same turn (a seats frame, a language switch): not told again.
    eval(
        &c,
        "document.querySelector('[data-lang=en]')?.click(); return true",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(eval(&c, "return window.told").await, told);
    assert_no_console_error(&c, "with turn alerts").await;
}
