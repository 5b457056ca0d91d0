//! Pishe Pasha from the keyboard: Give, Turn a card and Keep it, whichever the board offers.

use fantoccini::Client;

use super::{enter_on, play_from_the_keyboard};
use crate::browser_pishe_pasha::open_computer_table;
use crate::chromium::*;

#[actix_rt::test]
async fn a_pishe_pasha_deal_from_the_keyboard_alone_keeps_the_keyboard_on_the_board() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 100);
    let c = driver.touch_session(390, 844).await;
    open_computer_table(&c, &server.base).await;
    let state = board_state(
        r#"
for (const key of ['give', 'turn', 'keep']) if (document.querySelector(`#${key}[aria-disabled=false]`)) return key;
"#,
    );
    let moves = play_from_the_keyboard(
        &c,
        &state,
        &["give", "turn", "keep"],
        async |c: &Client, s: &str| enter_on(c, &format!("#{s}")).await,
    )
    .await;
    assert!(moves > 10, "the deal was played ({moves} moves)");
}
