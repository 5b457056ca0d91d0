//! Every board on a landscape phone (844x390) and a large screen (1920x1080), viewports measured
//! inside the page: from the home page's "Play the computer", once the cards are dealt (after the
//! guess, in Panjpar) and have landed, the hand and the action bar lie wholly in the first screen and nothing runs off to the side.

use crate::chromium::*;

#[actix_rt::test]
async fn every_board_keeps_the_hand_and_the_actions_in_sight_on_a_landscape_phone_and_a_large_screen(
) {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    for (width, height) in [(844, 390), (1920, 1080)] {
        for game in ["panjpar", "pishe-pasha", "ganjifa"] {
            let c = driver.viewport_session(width, height).await;
            let size = eval(&c, "return innerWidth + 'x' + innerHeight").await;
            assert_eq!(size, format!("{width}x{height}"), "the viewport");
            go(&c, &server.base, "/").await;
            assert!(click(&c, &format!("a[data-quick='{game} computer']")).await);
            // A Panjpar deal starts with the guess, and the hand is dealt only after it: a seat
            // that is to guess calls a colour first.
            wait_for(
                &c,
                "return location.pathname.startsWith('/t/') && (document.querySelector('[data-colour]') || document.querySelector('[data-area=hand] [data-card]')) && document.querySelector('[data-area=actions]')",
                30,
            )
            .await;
            if find(&c, "[data-colour]").await.is_some() {
                for _ in 0..20 {
                    if click(&c, "[data-colour]").await {
                        break;
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
            }
            wait_for(
                &c,
                "return document.querySelector('[data-area=hand] [data-card]') && document.querySelector('[data-area=actions]')",
                30,
            )
            .await;
            settle(&c).await;
            let wrong = out_of_sight(&c, Scroll::Sideways, false).await;
            screenshot(&c, &format!("{game}-{width}x{height}")).await;
            assert_eq!(wrong, "", "{game} at {width}x{height}");
            assert!(
                console_errors(&c).await.is_empty(),
                "{game} at {width}x{height}"
            );
            c.close().await.unwrap();
        }
    }
}
