//! The Panjpar board in Chromium: the table on one screen at every turn (hand and action bar in sight,
//! no console error, a reload as quiet, the screenshots for the README); a move that travels across the
//! table, and stays still under reduced motion; the whole deal's moves kept in the log across a reload.

use fantoccini::Client;
use serde_json::Value;

use super::{
    a_move_then_a_redraw, attack_with_the_first_card, move_and_see_it_taken, play_to_an_attack,
    reload_the_table, wait_for_our_turn,
};
use crate::chromium::*;

/// A script: every line of the moves log, as text.
const LOG_LINES: &str =
    "return [...document.querySelectorAll('#board ol.log li')].map(li => li.textContent)";

/// A script: each part of the page and of the board with its height and, for a line, its words (what
/// took the room when something is out of sight).
const PARTS: &str = "return [...document.querySelectorAll('body > *:not(script), main > *, .table.panjpar > *')].map(e => `${e.className}: ${Math.round(e.getBoundingClientRect().height)}px` + (e.matches('p, .action-bar') ? ` \"${e.textContent}\"` : '')).join('; ')";

async fn assert_in_sight(c: &Client, when: &str) {
    let out = out_of_sight(c, Scroll::Either, false).await;
    if !out.is_empty() {
        screenshot(c, "panjpar-out-of-sight").await;
        panic!("{when}: {out}; the board: {}", eval(c, PARTS).await);
    }
}

#[actix_rt::test]
async fn the_panjpar_table_is_one_screen_at_every_turn_without_console_errors() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 150);
    for (width, height) in [(1280, 800), (390, 844)] {
        let c = driver.session(width, height).await;
        go(&c, &server.base, "/panjpar").await;
        assert_no_console_error(&c, "on the landing page").await;
        computer_table_from_landing(&c, 3, ".table [data-area=hand]").await;
        let mut shot = false;
        for step in 0..16 {
            let state = wait_for_our_turn(&c).await;
            assert_in_sight(&c, &format!("{width}x{height}, step {step}, {state}")).await;
            let battle = eval(
                &c,
                "return document.querySelectorAll('.battle .pair').length",
            )
            .await;
            let good_moment = state == "defend" && step >= 3 && battle.as_u64() >= Some(1);
            if !shot && (good_moment || step == 15 || state == "over") {
                // Let the cards finish travelling before the picture.
                tokio::time::sleep(std::time::Duration::from_millis(700)).await;
                docs_screenshot(&c, &format!("panjpar-{width}x{height}")).await;
                shot = true;
            }
            if state == "over" || !a_move_then_a_redraw(&c).await {
                break;
            }
        }
        assert!(shot, "no screenshot was taken at {width}x{height}");
        assert_no_console_error(&c, &format!("at the table, {width}x{height}")).await;
        // A reload of the table page is quiet too (no vibration refused, no missing file).
        c.refresh().await.unwrap();
        wait_for(
            &c,
            "return document.querySelector('.table [data-area=actions]')",
            20,
        )
        .await;
        assert_in_sight(&c, &format!("{width}x{height}, after a reload")).await;
        assert_no_console_error(&c, &format!("after a reload, {width}x{height}")).await;
        c.close().await.unwrap();
    }
    // A large screen gets a table on one screen as well.
    for (width, height) in [(1920, 1080)] {
        let c = driver.session(width, height).await;
        open_panjpar_computer_table(&c, &server.base).await;
        let state = wait_for_our_turn(&c).await;
        assert_in_sight(&c, &format!("{width}x{height}, {state}")).await;
        screenshot(&c, &format!("panjpar-{width}x{height}")).await;
        c.close().await.unwrap();
    }
}

/// Counts every card the page asks to travel (motion.js animates with `Element.animate`), with the
/// number of animations its element has right after; installed on the page now.
const COUNT_TRAVELS: &str = r#"
window.__travels = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const flight = animate.apply(this, args);
  window.__travels.push([this.dataset.card || '', this.getAnimations().length]);
  return flight;
};
return true;
"#;

#[actix_rt::test]
async fn a_move_travels_across_the_table_and_stays_still_under_reduced_motion() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 800);
    for reduced in [false, true] {
        let c = driver.motion_session(reduced, 1280, 800).await;
        open_panjpar_computer_table(&c, &server.base).await;
        play_to_an_attack(&c).await;
        eval(&c, COUNT_TRAVELS).await;
        let code = attack_with_the_first_card(&c).await;
        let travels = eval(&c, "return window.__travels").await;
        let travelled: Vec<&Value> = travels.as_array().unwrap().iter().collect();
        if reduced {
            assert_eq!(
                eval(
                    &c,
                    "return matchMedia('(prefers-reduced-motion: reduce)').matches"
                )
                .await,
                true
            );
            assert!(
                travelled.is_empty(),
                "cards moved under reduced motion: {travels}"
            );
            let moving =
                "return document.getAnimations().filter(a => a.constructor === Animation).length";
            assert_eq!(eval(&c, moving).await, 0);
        } else {
            // The attack card slid from the hand into the battle, animated as it went.
            assert!(
                travelled
                    .iter()
                    .any(|t| t[0] == code.as_str() && t[1].as_u64() > Some(0)),
                "{code} did not travel: {travels}"
            );
            // The computer's answer travels too: a card of its own comes into the battle, or the
            // attack card flies into its hand.
            eval(&c, "window.__travels = []; return true").await;
            wait_for(
                &c,
                "return window.__travels.length > 0 && window.__travels",
                20,
            )
            .await;
        }
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn a_reload_keeps_the_whole_deals_moves_in_the_log() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let c = driver.session(1280, 800).await;
    let table = open_panjpar_computer_table(&c, &server.base).await;
    let logged = "return document.querySelectorAll('#board ol.log li').length";
    for _ in 0..40 {
        if eval(&c, logged).await.as_u64() >= Some(4) {
            break;
        }
        move_and_see_it_taken(&c, &server, &table).await;
    }
    settle(&c).await;
    let before = eval(&c, logged).await.as_u64().unwrap();
    assert!(before >= 4, "{before} moves logged");
    let lines = eval(&c, LOG_LINES).await;
    reload_the_table(&c).await;
    let after = eval(&c, LOG_LINES).await;
    // The computer may have answered meanwhile: the log then holds one line more, after the others.
    let (lines, after) = (lines.as_array().unwrap(), after.as_array().unwrap());
    assert!(
        after.len() >= lines.len() && after[..lines.len()] == lines[..],
        "the log after a reload: {after:?}, before: {lines:?}"
    );
    c.close().await.unwrap();
}
