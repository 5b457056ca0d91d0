//! A guided first deal of Panjpar: played through on a phone with the guide speaking at every step
//! and marking what it speaks of, to its end; and left halfway on a desktop, where the board
//! stays on one screen under the guide, after a reload that keeps the guide, never to come back.

use super::{click_a_move, reload_the_table};
use crate::chromium::*;

#[actix_rt::test]
async fn a_guided_first_deal_points_the_way_to_its_end_and_can_be_left_halfway() {
    let (mut driver, server) = staged!(quick_and_fair);
    // Played through on a phone: the guide speaks at every step, marks what it speaks of, and the
    // board stays on one screen beside it.
    let c = driver.session(390, 844).await;
    let first = start_guided(&c, &server.base, "/panjpar").await;
    assert!(
        [
            "Guess the trump colour",
            "The computer guesses",
            "Beat the attack",
            "Your attack"
        ]
        .contains(&first.as_str()),
        "{first}"
    );
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    let marked = wait_for(
        &c,
        "return document.getElementById('guide').hidden || document.querySelectorAll('#board [data-guide-here]').length > 0 || /computer/i.test(document.querySelector('#guide h2').textContent)",
        10,
    )
    .await;
    assert_eq!(marked, true);
    docs_screenshot(&c, "panjpar-guide-390x844").await;
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..400 {
        seen.insert(
            eval(&c, GUIDE_HEADING)
                .await
                .as_str()
                .unwrap_or("")
                .to_string(),
        );
        if !click_a_move(&c).await {
            break;
        }
    }
    guided_deal_over(&c, "panjpar-guide-end-390x844").await;
    assert!(
        seen.contains("Your attack") || seen.contains("Beat the attack"),
        "{seen:?}"
    );
    c.close().await.unwrap();

    // Left halfway on a desktop (a 1280x800 window, 657 px of it left to the page), from the rules
    // page, after a reload that keeps the guide: the guide goes, and stays gone on the next reload.
    // With the guide above it, the board still keeps its hand and buttons in sight.
    let c = driver.session(1280, 800).await;
    go(&c, &server.base, "/panjpar/rules").await;
    click(&c, "[data-guided]").await;
    wait_for_text(&c, GUIDE_HEADING, 20).await;
    click_a_move(&c).await;
    reload_the_table(&c).await;
    let kept = wait_for_text(&c, GUIDE_HEADING, 20).await;
    assert!(!kept.is_empty(), "the guide is kept through a reload");
    wait_for(
        &c,
        "return document.querySelector('.table [data-area=actions]')",
        20,
    )
    .await;
    settle(&c).await;
    screenshot(&c, "panjpar-guide-1280x800").await;
    assert_eq!(
        out_of_sight(&c, Scroll::Down, false).await,
        "",
        "the guide above the board"
    );
    press(&c, "#guide-leave").await;
    wait_for(&c, "return document.getElementById('guide').hidden", 10).await;
    assert_eq!(
        eval(
            &c,
            "return document.querySelectorAll('[data-guide-here]').length"
        )
        .await,
        0
    );
    reload_the_table(&c).await;
    click_a_move(&c).await;
    assert_eq!(eval(&c, GUIDE_HEADING).await, "");
    c.close().await.unwrap();
}
