//! Every board on a phone held upright (390x844, touched, a phone's browser), mid-deal with the
//! biggest hand the game reaches: every card a player chooses from is at least 48 px wide with 40 px
//! of it in sight (nothing lying over it) and its words drawn at 10 px or more, the hand and the
//! action bar lie in the first screen without scrolling, and axe-core finds nothing. The pictures go
//! to docs/screenshots.

use std::time::{Duration, Instant};

use fantoccini::Client;

use crate::browser_access::{axe_source, violations};
use crate::chromium::*;

/// The narrowest a card a player chooses may be, in CSS pixels.
const WIDE: f64 = 48.0;
/// The least of it that must be in sight.
const SHOWN: f64 = 40.0;
/// The smallest its words may be drawn.
const WORDS: f64 = 10.0;

/// Checks the cards matching `css` as they lie now (see [`cards_as_seen`]) and that the board is one
/// screen; answers how many cards there were.
async fn check_cards(c: &Client, css: &str, when: &str) -> usize {
    settle(c).await;
    let seen = cards_as_seen(c, css).await;
    assert!(!seen.is_empty(), "{when}: no card matches {css}");
    assert_eq!(too_small(&seen, WIDE, SHOWN, WORDS), "", "{when}");
    assert_eq!(out_of_sight(c, Scroll::Down, true).await, "", "{when}");
    seen.len()
}

/// Nothing axe-core checks is wrong on the page as it is now.
async fn assert_axe_clean(c: &Client, axe: &str, when: &str) {
    let found = violations(c, axe).await;
    assert!(found.is_empty(), "{when}: {found:#?}");
}

/// From the home page's "Play the computer" for `game`, until its board is drawn.
async fn play_the_computer(c: &Client, base: &str, game: &str) {
    go(c, base, "/").await;
    assert!(click(c, &format!("a[data-quick='{game} computer']")).await);
    wait_for(
        c,
        "return location.pathname.startsWith('/t/') && document.querySelector('.table')?.dataset.status === 'playing'",
        30,
    )
    .await;
}

/// Marks the hand's cards that lie wholly inside the hand's box (`data-in-box`): a long hand's box
/// scrolls, and the cards scrolled out of it are in sight once scrolled to.
const IN_THE_HAND_BOX: &str = "const box = document.querySelector('.hand .cards').getBoundingClientRect(); \
     for (const c of document.querySelectorAll('.hand [data-card]')) { const r = c.getBoundingClientRect(); \
     c.toggleAttribute('data-in-box', r.top >= box.top - 1 && r.bottom <= box.bottom + 1); } return true";

/// The version of the frame the page shows.
const VERSION: &str = "return document.body.dataset.version";

/// Waits until the page shows another frame than the one at `version`.
async fn moved_on(c: &Client, version: &serde_json::Value) {
    let script = format!("return document.body.dataset.version !== {version}");
    wait_for(c, &script, 30).await;
}

/// Waits until `state` (a script) says anything but `wait` or `none`, and answers it.
async fn next_state(c: &Client, state: &str) -> String {
    let script =
        format!("const s = (() => {{ {state} }})(); return s !== 'wait' && s !== 'none' && s");
    let s = wait_for(c, &script, 60).await;
    s.as_str().unwrap_or_default().to_string()
}

#[actix_rt::test]
async fn a_long_panjpar_hand_on_a_phone_is_in_rows_of_cards_big_enough_to_tap_and_read() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let Some(axe) = axe_source() else { return };
    let c = driver.phone_session().await;
    play_the_computer(&c, &server.base, "panjpar").await;
    let state = &*crate::browser_panjpar::BOARD_STATE;
    let started = Instant::now();
    let mut most = 0;
    // Every attack the computer makes is picked up, so that the hand grows as long as a deal makes
    // it: past what the screen leaves it (five rows here), its box scrolls, and the cards in its box
    // are checked.
    while most < 33 {
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "the hand reached only {most} cards"
        );
        let now = next_state(&c, state).await;
        if ["attack", "defend"].contains(&now.as_str()) {
            settle(&c).await;
            eval(&c, IN_THE_HAND_BOX).await;
            let in_box = check_cards(
                &c,
                ".hand [data-card][data-in-box]",
                &format!("{now}, {most} cards before"),
            )
            .await;
            let all = eval(
                &c,
                "return document.querySelectorAll('.hand [data-card]').length",
            )
            .await;
            let held = all.as_u64().unwrap_or(0) as usize;
            let rows = eval(
                &c,
                "return document.querySelectorAll('.hand .hand-row').length",
            )
            .await;
            let rows = rows.as_u64().unwrap_or(1) as usize;
            let scrolls = eval(&c, "const b = document.querySelector('.hand .cards'); return b.scrollHeight > b.clientHeight + 1").await;
            if scrolls == serde_json::json!(true) {
                // Only a hand of more than three rows scrolls, two whole rows at least in its box
                // (which may be scrolled part of the way to a third).
                assert!(rows > 3, "{held} cards in {rows} rows scroll");
                assert!(
                    in_box >= 2 * (held / rows),
                    "{in_box} of {held} cards in {rows} rows in the box"
                );
                docs_screenshot(&c, "panjpar-longest-hand-390x844").await;
            } else {
                assert_eq!(in_box, held, "a hand that does not scroll is whole");
            }
            if held > most {
                most = held;
                if (10..=14).contains(&most) {
                    docs_screenshot(&c, "panjpar-long-hand-390x844").await;
                }
            }
        }
        let version = eval(&c, VERSION).await;
        match now.as_str() {
            "guess" => assert!(click(&c, "[data-colour=red]").await),
            "defend" => press(&c, "#pick-up").await,
            "attack" => {
                let attack = "document.querySelector('.hand button.card').click(); document.querySelector('#attack').click(); return true";
                eval(&c, attack).await;
            }
            // A deal that ended before the hand grew long: the next one.
            "next" => press(&c, "#next-deal").await,
            other => panic!("the match ended with the hand at {most} cards ({other})"),
        }
        moved_on(&c, &version).await;
    }
    let scrolled = eval(&c, "const b = document.querySelector('.hand .cards'); return b.scrollHeight > b.clientHeight + 1").await;
    assert_eq!(
        scrolled,
        serde_json::json!(true),
        "a hand of {most} cards scrolls"
    );
    // The pile's line is shown on a phone once nothing is left to draw, and only then.
    let pile = eval(
        &c,
        "const p = document.querySelector('.stock-left'); return [p.classList.contains('pile-out'), p.checkVisibility()]",
    )
    .await;
    assert_eq!(pile[0], pile[1], "the pile's line: {pile}");
    assert_axe_clean(&c, &axe, "Panjpar with a long hand").await;
    assert_no_console_error(&c, "Panjpar on a phone").await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_full_ganjifa_hand_on_a_phone_is_in_suit_rows_of_cards_big_enough_to_tap_and_read() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let Some(axe) = axe_source() else { return };
    let c = driver.phone_session().await;
    play_the_computer(&c, &server.base, "ganjifa").await;
    let state = &*crate::browser_ganjifa::BOARD_STATE;
    // The hand is longest at the deal's first turns: all of a third of the pack.
    let first = next_state(&c, state).await;
    assert_ne!(first, "pick", "a blind pick at the deal's start");
    let held = check_cards(&c, ".ghand [data-card]", "the first turn").await;
    assert!(held >= 30, "only {held} cards at the deal's start");
    docs_screenshot(&c, "ganjifa-full-hand-390x844").await;
    assert_axe_clean(&c, &axe, "Ganjifa with a full hand").await;
    // At a lead a card clicked is chosen and lifts (at a put-down it is played): the cards about it
    // stay as easy to tap.
    let leading = eval(
        &c,
        "return /^Your lead/.test(document.querySelector('#status')?.textContent || '')",
    )
    .await;
    if first == "card" && leading == true {
        press(&c, ".ghand button.gcard.playable:not(.chosen)").await;
        wait_for(&c, "return document.querySelector('.ghand .chosen')", 10).await;
        check_cards(&c, ".ghand [data-card]", "a card chosen").await;
        assert_axe_clean(&c, &axe, "Ganjifa with a card chosen").await;
    }
    // A few moves on, the same.
    for turn in 0..3 {
        if crate::browser_ganjifa::click_a_move(&c).await.is_none() {
            break;
        }
        let now = next_state(&c, state).await;
        let cards = if now == "pick" {
            ".g-backs [data-card]"
        } else {
            ".ghand [data-card]"
        };
        if now != "over" && now != "next" {
            check_cards(&c, cards, &format!("turn {turn} ({now})")).await;
        }
    }
    assert_no_console_error(&c, "Ganjifa on a phone").await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_pishe_pasha_seat_on_a_phone_shows_its_cards_big_enough_to_read() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let Some(axe) = axe_source() else { return };
    let c = driver.phone_session().await;
    play_the_computer(&c, &server.base, "pishe-pasha").await;
    let state = r#"
if (!document.querySelector('.table')) return 'none';
if (document.querySelector('#next-deal, #rematch')) return 'over';
for (const id of ['give', 'keep', 'turn']) if (document.querySelector(`#${id}[aria-disabled=false]`)) return id;
return 'wait';
"#;
    // The cards a player decides about: their stock, the card just turned and their pile's top.
    let mine = ".pp-mine [data-card]";
    let mut looked = 0;
    while looked < 6 {
        let now = next_state(&c, state).await;
        if now == "over" {
            break;
        }
        // A card turned by itself may be on its way over them: they are looked at otherwise.
        if now != "turn" {
            check_cards(&c, mine, &format!("look {looked} ({now})")).await;
        }
        if looked == 0 {
            assert_axe_clean(&c, &axe, "Pishe Pasha mid-deal").await;
        }
        looked += 1;
        // A card is turned by itself when that is all there is to do; the rest is clicked.
        let version = eval(&c, VERSION).await;
        if now != "turn" {
            click(&c, &format!("#{now}")).await;
        }
        moved_on(&c, &version).await;
    }
    assert!(looked >= 3, "only {looked} turns were seen");
    assert_no_console_error(&c, "Pishe Pasha on a phone").await;
    c.close().await.unwrap();
}
