//! Panjpar from the keyboard: the colour, the attack's cards and the Attack button, the attack card
//! to beat and the card that beats it, or Pick up.

use fantoccini::Client;

use super::{enter_on, play_from_the_keyboard};
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
    let c = driver.touch_session(390, 844).await;
    open_panjpar_computer_table(&c, &server.base).await;
    let moves = play_from_the_keyboard(
        &c,
        STATE,
        &["guess", "attack", "defend"],
        async |c: &Client, s: &str| keyboard_move(c, s).await,
    )
    .await;
    assert!(moves > 3, "the deal was played ({moves} moves)");
}
