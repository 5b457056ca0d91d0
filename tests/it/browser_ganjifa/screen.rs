//! The Ganjifa table on one screen in Chromium, at a desktop and a phone: at every turn the hand and
//! the action bar wholly in the first screen, nothing covered, the other seats' cards readable, no
//! scrolling down, no console error, the drawers over the felt; the trick on a desktop whole however
//! long; the screenshots for the README.

use std::time::{Duration, Instant};

use fantoccini::Client;

use super::{click_a_move, play_the_computer_from_home, wait_for_our_turn};
use crate::chromium;
use crate::chromium::*;

/// Empty when nothing covers the buttons of the hand and the action bar and the other seats' cards
/// are big enough to read (on a phone whole, four to a row inside their panel, their words 10 px or more);
/// otherwise what is wrong.
const READABLE: &str = r#"
const out = [];
for (const b of document.querySelectorAll('[data-area=actions] button, .ghand button')) {
  const r = b.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!top || top.closest('button') !== b) out.push(`${b.dataset.card || b.textContent} is covered by ${top?.className}`);
}
const seat = [...document.querySelectorAll('.g-seat .seat-card svg')].map((c) => c.getBoundingClientRect().width);
if (seat.length && Math.min(...seat) < 34) out.push(`the other seats' cards are ${Math.min(...seat)}px wide`);
// On a phone each seat's face-up cards lie whole, four to a row at most, every one inside its
// panel, with the words on them at least 10 px high.
if (innerWidth <= 704) {
  for (const row of document.querySelectorAll('.g-seat .g-open')) {
    const panel = row.closest('.g-seat').getBoundingClientRect();
    const cards = [...row.querySelectorAll('.seat-card svg')].map((c) => c.getBoundingClientRect());
    const rows = new Map();
    for (const r of cards) rows.set(Math.round(r.top), (rows.get(Math.round(r.top)) || 0) + 1);
    if (Math.max(0, ...rows.values()) > 4) out.push(`a seat's row holds ${Math.max(...rows.values())} face-up cards`);
    if (cards.some((r, i) => i > 0 && Math.round(r.top) === Math.round(cards[i - 1].top) && r.left < cards[i - 1].right - 0.5)) {
      out.push(`a seat's face-up cards overlap`);
    }
    if (cards.some((r) => r.left < panel.left - 0.5 || r.right > panel.right + 0.5 || r.bottom > panel.bottom + 0.5)) {
      out.push(`a seat's face-up card is cut off (${cards.length} of them)`);
    }
    for (const t of row.querySelectorAll('.seat-card svg text')) {
      if (getComputedStyle(t).display === 'none') continue;
      const px = parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getBoundingClientRect().width / 100;
      if (px < 10) out.push(`"${t.textContent}" on a seat's card is ${px.toFixed(1)} px`);
    }
  }
}
return out.join('; ');
"#;

/// Empty when the hand and the action bar lie wholly inside the first screen, the page does not
/// scroll down and the board is readable (`READABLE`); otherwise what is wrong.
pub(super) async fn fits(c: &Client) -> String {
    let out = out_of_sight(c, Scroll::Down, false).await;
    let unreadable = eval(c, READABLE).await;
    let unreadable = unreadable.as_str().unwrap_or_default();
    [out.as_str(), unreadable]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Plays from the home page at one size: at every turn the hand and the action bar are wholly in the
/// first screen and nothing scrolls; a screenshot once the trick has cards from several seats.
/// What the popover of a small mark says, once open.
const TIP: &str =
    "const t = document.querySelector('#g-tip:popover-open'); return t ? t.textContent : ''";

async fn one_screen_at(driver: &mut chromium::Driver, base: &str, width: u32, height: u32) {
    let c = driver.session(width, height).await;
    play_the_computer_from_home(&c, base).await;
    let started = Instant::now();
    let mut turns = 0;
    let mut shot = false;
    while turns < 14 && started.elapsed() < Duration::from_secs(150) {
        let state = wait_for_our_turn(&c).await;
        if state == "over" {
            break;
        }
        // Cards still on their way (the deal, the computers' cards) lie over the hand until they land.
        settle(&c).await;
        let wrong = fits(&c).await;
        assert_eq!(wrong, "", "at {width}x{height}, turn {turns} ({state})");
        if turns == 0 {
            // Beside what to do now, a "?" says what this moment asks and what its words mean.
            press(&c, ".g-line .g-about").await;
            let said = wait_for(&c, TIP, 10).await;
            assert!(said.as_str().is_some_and(|t| t.len() > 60), "{said}");
            eval(&c, "document.querySelector('#g-tip').hidePopover()").await;
            // Where a panel has room, its face-up cards are captioned as what they are.
            if width > 600 {
                let caption = text_of(&c, ".g-seat .g-open-caption", 5).await;
                assert_eq!(caption, "Face up, seen by all:");
            }
        }
        let cards_in_trick = eval(
            &c,
            "return new Set([...document.querySelectorAll('.g-pile')].filter((p) => p.querySelector('.gcard')).map((p) => p.className)).size",
        )
        .await;
        if !shot && turns >= 3 && cards_in_trick.as_u64().unwrap_or(0) >= 2 {
            // The cards have settled: a still picture of the table at play.
            tokio::time::sleep(Duration::from_millis(600)).await;
            docs_screenshot(&c, &format!("ganjifa-{width}x{height}")).await;
            shot = true;
        }
        if click_a_move(&c).await == Some(true) {
            turns += 1;
        }
        // A beat for the frame to come back before looking again.
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(
        turns >= 6,
        "only {turns} moves were made at {width}x{height}"
    );
    if !shot {
        docs_screenshot(&c, &format!("ganjifa-{width}x{height}")).await;
    }
    // A seat's lost leads and its hidden cards say what they mean on a tap, not only on a hover.
    // So do day or night and the second phase, where the header has room for them.
    let marks: &[&str] = if width > 600 {
        &[".g-seat .g-dots", ".g-seat .g-stack", ".g-top .g-phase"]
    } else {
        &[".g-seat .g-dots", ".g-seat .g-stack"]
    };
    for &mark in marks {
        press(&c, mark).await;
        let said = wait_for(&c, TIP, 10).await;
        assert!(said.as_str().is_some_and(|t| t.len() > 5), "{mark}: {said}");
        eval(&c, "document.querySelector('#g-tip').hidePopover()").await;
    }
    // The drawers open over the felt and still leave the hand and the action bar in sight.
    press(&c, "[data-key='drawer:tracker']").await;
    wait_for(&c, "return document.querySelector('#drawer-tracker')", 10).await;
    // It says what the "10↑" and "1↑" on the cards mean, for a finger that cannot hover.
    let key = text_of(&c, "#drawer-tracker .tracker-key", 5).await;
    assert!(key.contains("10↑") && key.contains("1↑"), "{key}");
    // The computers play on meanwhile: their cards land before the board is measured.
    settle(&c).await;
    screenshot(&c, &format!("ganjifa-tracker-{width}x{height}")).await;
    assert_eq!(fits(&c).await, "", "with the tracker open");
    assert_no_console_error(&c, &format!("at {width}x{height}")).await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn the_ganjifa_table_fits_one_screen_at_every_turn_without_console_errors() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    for (width, height) in [(1280, 800), (390, 844)] {
        one_screen_at(&mut driver, &server.base, width, height).await;
    }
}

/// Empty when the trick on the felt neither scrolls nor is cut off: what it holds fits its box, and
/// every card of it lies inside its box, the felt and the screen; otherwise what is wrong.
const TRICK_WHOLE: &str = r#"
const t = document.querySelector('[data-area=trick]');
if (!t) return '';
const out = [];
if (t.scrollWidth > t.clientWidth || t.scrollHeight > t.clientHeight) {
  out.push(`the trick scrolls: ${t.scrollWidth}x${t.scrollHeight} in ${t.clientWidth}x${t.clientHeight}`);
}
const boxes = [t, t.closest('.g-felt')].map((e) => e.getBoundingClientRect());
for (const c of t.querySelectorAll('.trick-card')) {
  const r = c.getBoundingClientRect();
  const cut = boxes.some((b) => r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5);
  if (cut || r.bottom > innerHeight || r.right > innerWidth) out.push(`${c.dataset.card || 'a back'} cut off at ${Math.round(r.left)},${Math.round(r.top)}`);
}
return out.join('; ');
"#;

/// The most cards one seat has in the trick on the felt.
const LONGEST_PILE: &str = "return Math.max(0, ...[...document.querySelectorAll('.g-pile-cards')].map((p) => p.querySelectorAll('.trick-card').length))";

#[actix_rt::test]
async fn the_trick_on_a_desktop_is_never_cut_off_nor_scrolled_however_many_cards_it_holds() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let c = driver.session(1280, 800).await;
    play_the_computer_from_home(&c, &server.base).await;
    let started = Instant::now();
    let mut longest = 0;
    // A whole deal, to its result over the last trick.
    loop {
        let state = wait_for_our_turn(&c).await;
        settle(&c).await;
        let wrong = eval(&c, TRICK_WHOLE).await;
        assert_eq!(wrong.as_str(), Some(""), "{state}, {longest} cards at most");
        let pile = eval(&c, LONGEST_PILE).await.as_u64().unwrap_or(0);
        if pile >= 3 && longest < 3 {
            docs_screenshot(&c, "ganjifa-long-trick-1280x800").await;
        }
        longest = longest.max(pile);
        if state == "next" || state == "over" {
            break;
        }
        click_a_move(&c).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the deal did not end"
        );
    }
    assert!(longest >= 3, "no trick had three cards from one seat");
    assert_no_console_error(&c, "a long trick").await;
    c.close().await.unwrap();
}
