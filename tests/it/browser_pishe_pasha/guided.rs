//! Guided Pishe Pasha deals in Chromium: one spoken at every turn to its end on a phone, turning no
//! card by itself, and one whose computer plays first but moves no card before the guide has spoken.

use std::time::Duration;

use super::play_to_the_end;
use crate::chromium::*;

#[actix_rt::test]
async fn a_guided_first_deal_speaks_at_every_turn_to_its_end() {
    let (mut driver, server) = staged!(quick_and_fair);
    let c = driver.session(390, 844).await;
    let first = start_guided(&c, &server.base, "/pishe-pasha").await;
    assert!(
        [
            "Turn a card",
            "A card to give",
            "Give it, or keep it",
            "The computer's turn"
        ]
        .contains(&first.as_str()),
        "{first}"
    );
    // The guide teaches the turn: no card is turned by itself until the player ticks the box.
    let auto = "return document.querySelector('#auto-turn')?.checked";
    assert_eq!(
        eval(&c, auto).await,
        false,
        "automatic turns in a guided deal"
    );
    // Gives and keeps are made until turning is all the player may do.
    let started = std::time::Instant::now();
    loop {
        let now = super::state(&c).await;
        if now == "turn" {
            break;
        }
        if now == "give" || now == "keep" {
            click(&c, &format!("#{now}")).await;
        }
        assert!(
            started.elapsed().as_secs() < 60,
            "no turn came to the player"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let version = eval(&c, super::VERSION).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        eval(&c, super::VERSION).await,
        version,
        "a card was turned for the player"
    );
    let moves = play_to_the_end(&c, "pishe-pasha-guided-390x844")
        .await
        .moves;
    assert!(moves > 0);
    guided_deal_over(&c, "pishe-pasha-guide-end-390x844").await;
    c.close().await.unwrap();
}

/// Before every page: what the guided deal's guide says first, and how many moves the turn log held
/// at that moment (`window.__firstWords`).
const FIRST_WORDS: &str = r#"
new MutationObserver(() => {
  const g = document.getElementById('guide');
  const heading = g && !g.hidden && g.querySelector('h2')?.textContent;
  if (window.__firstWords || !heading) return;
  const moves = document.querySelectorAll('#turn-log li:not(.pp-none)').length;
  window.__firstWords = { heading, moves };
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"#;

#[actix_rt::test]
async fn no_card_moves_in_a_guided_deal_before_the_guide_has_spoken() {
    // Dealt at once, with a computer that answers at once: a computer that plays first would have
    // turned its cards before the page had drawn anything, were it not held for the guide.
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.shuffle_wait_ms = 0;
    });
    // Who plays first is drawn: guided deals are begun until the computer does.
    for attempt in 0..10 {
        let c = driver.session(390, 844).await;
        before_every_page(&c, FIRST_WORDS).await;
        start_guided(&c, &server.base, "/pishe-pasha").await;
        let first = wait_for(&c, "return window.__firstWords", 10).await;
        assert_eq!(first["moves"], 0, "attempt {attempt}: {first}");
        let computer_first = first["heading"] == "The computer's turn";
        if computer_first {
            // Once the guide has spoken, the computer plays.
            let played =
                "return document.querySelectorAll('#turn-log li:not(.pp-none)').length > 0";
            wait_for(&c, played, 20).await;
        }
        assert_no_console_error(&c, "a guided deal's start").await;
        c.close().await.unwrap();
        if computer_first {
            return;
        }
    }
    panic!("the computer never played first");
}
