//! Ganjifa from the keyboard: a face-down card picked for a blind lead, a lead from the ladder's
//! buttons, a hand card chosen and led by its button, or a hand card put down.

use fantoccini::Client;

use super::{enter_on, play_from_the_keyboard};
use crate::chromium::*;

/// The control that makes the lead of the chosen cards, or any lead the board offers by a button.
const LEAD: &str = "[data-area=actions] button[data-action]";

/// Makes this seat's move from the keyboard for the decision `state`; whether one was made.
async fn keyboard_move(c: &Client, state: &str) -> bool {
    match state {
        "pick" => enter_on(c, ".g-backs button").await,
        "lead" => enter_on(c, LEAD).await,
        _ => {
            if !enter_on(c, ".ghand button.gcard.playable:not(.chosen)").await {
                return false;
            }
            // Put down at once when following; chosen when leading, then led by its button.
            settle(c).await;
            let chosen = eval(
                c,
                "return !!document.querySelector('.ghand button.gcard.chosen')",
            );
            chosen.await != true || enter_on(c, LEAD).await
        }
    }
}

#[actix_rt::test]
async fn a_ganjifa_deal_from_the_keyboard_alone_keeps_the_keyboard_on_the_board() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 50);
    let c = driver.touch_session(390, 844).await;
    go(&c, &server.base, "/ganjifa").await;
    click(&c, "#play-computer").await;
    wait_for(
        &c,
        "return document.querySelector('.gtable')?.dataset.status === 'playing'",
        30,
    )
    .await;
    let state = board_state(&format!(
        r#"
if (document.querySelector('.g-backs button')) return 'pick';
if (document.querySelector('{LEAD}')) return 'lead';
if (document.querySelector('.ghand button.gcard.playable')) return 'card';
"#
    ));
    let moves = play_from_the_keyboard(
        &c,
        &state,
        &["pick", "lead", "card"],
        async |c: &Client, s: &str| keyboard_move(c, s).await,
    )
    .await;
    assert!(moves > 10, "the deal was played ({moves} moves)");
}
