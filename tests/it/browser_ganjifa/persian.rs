//! Ganjifa in Persian: the rules and the landing page right to left with the cards' rows left to
//! right; a Persian match against two computers played to its end on a phone, its board, the lead's
//! ladder and the result in Persian with no run of English words; the Persian table at a desktop; a
//! guided match started from the Persian landing page whose guide speaks Persian; the coach's hint in
//! Persian; no accessibility violation on the way.

use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::{json, Value};

use super::{click_a_move, wait_for_our_turn};
use crate::browser_access::{axe_source, violations};
use crate::chromium::*;

/// Every run of two or more Latin words in the page's visible text (a card's two-letter suit code
/// stands alone between Persian words, so it never makes one).
const LATIN_RUNS: &str =
    r"return document.body.innerText.match(/[A-Za-z]+(?:[^\S\n]+[A-Za-z]+)+/g) || []";

/// Asserts that the page shows no run of Latin words, and that axe finds nothing (`when` says where).
async fn persian_and_accessible(c: &Client, when: &str) {
    let runs = eval(c, LATIN_RUNS).await;
    assert_eq!(runs, json!([]), "English on the Persian page {when}");
    if let Some(axe) = axe_source() {
        let found = violations(c, &axe).await;
        assert!(found.is_empty(), "{when}: {found:#?}");
    }
}

/// The page is right to left in Persian, and every row of drawn cards left to right.
async fn right_to_left(c: &Client, rows: &str) {
    assert_eq!(eval(c, "return document.documentElement.dir").await, "rtl");
    assert_eq!(eval(c, "return document.documentElement.lang").await, "fa");
    rows_left_to_right(c, rows).await;
}

/// Every element matching `rows` (rows of drawn cards) runs left to right, and there is one.
async fn rows_left_to_right(c: &Client, rows: &str) {
    let script = format!(
        "return [...document.querySelectorAll({})].map(r => r.dir)",
        json!(rows)
    );
    let dirs = eval(c, &script).await;
    let dirs = dirs.as_array().cloned().unwrap_or_default();
    assert!(
        !dirs.is_empty() && dirs.iter().all(|d| d == "ltr"),
        "{dirs:?}"
    );
}

/// Opens the lead's ladder ("چرا؟") when this seat leads, and checks that every rung's reason is
/// Persian; answers whether it was open to look at.
async fn ladder_in_persian(c: &Client) -> bool {
    if !click(c, "[data-key='drawer:ladder']").await {
        return false;
    }
    let rungs = wait_for(
        c,
        "const d = document.querySelector('#drawer-ladder'); return d && [...d.querySelectorAll('.rung')].map(r => r.textContent)",
        10,
    )
    .await;
    let rungs = rungs.as_array().cloned().unwrap_or_default();
    assert_eq!(rungs.len(), 4, "{rungs:?}");
    for rung in &rungs {
        let text = rung.as_str().unwrap_or_default();
        assert!(
            !text.chars().any(|ch| ch.is_ascii_alphabetic()),
            "a rung: {text}"
        );
    }
    persian_and_accessible(c, "with the ladder open").await;
    click(c, "[data-key='close:ladder']").await;
    true
}

/// Plays this browser's moves to the end of the match; midway (once the trick has cards) checks the
/// board in Persian and keeps its picture as `picture`, and opens the ladder once at a lead.
async fn play_in_persian(c: &Client, picture: &str) {
    let started = Instant::now();
    let (mut moves, mut checked, mut ladder) = (0, false, false);
    loop {
        let state = wait_for_our_turn(c).await;
        if state == "over" {
            break;
        }
        if !ladder && state != "next" {
            ladder = ladder_in_persian(c).await;
        }
        if !checked && moves >= 6 && state != "next" {
            settle(c).await;
            persian_and_accessible(c, "mid-deal").await;
            docs_screenshot(c, picture).await;
            checked = true;
        }
        if click_a_move(c).await == Some(true) {
            moves += 1;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
        assert!(started.elapsed().as_secs() < 500, "the match did not end");
    }
    assert!(
        checked && ladder,
        "{moves} moves, checked {checked}, ladder {ladder}"
    );
}

/// The last deal's replay and the coach's analysis of it, in Persian: the analysis's line, each
/// mark's label and the note at the first mark's step.
async fn analysed_in_persian(c: &Client) {
    click_when_shown(c, "#replay-open", 30).await;
    open_replay_list(c).await;
    click_when_shown(c, "[data-key='coach:analyse']", 30).await;
    let judged = wait_for_text(
        c,
        "const l = document.querySelector('#coach-analysis .coach-line'); return l && l.textContent.includes('تصمیم شما را سنجید') && l.textContent",
        180,
    )
    .await;
    assert!(
        !judged.chars().any(|ch| ch.is_ascii_alphabetic()),
        "{judged}"
    );
    let marks = eval(c, "return [...document.querySelectorAll('.coach-mark')].map(b => [b.dataset.key, b.textContent])").await;
    let marks = marks.as_array().cloned().unwrap_or_default();
    for mark in &marks {
        let label = mark[1].as_str().unwrap_or_default();
        assert!(
            !label.chars().any(|ch| ch.is_ascii_alphabetic()),
            "a mark: {label}"
        );
    }
    if let Some(first) = marks.first() {
        assert!(
            click(
                c,
                &format!("[data-key='{}']", first[0].as_str().unwrap_or_default())
            )
            .await
        );
        let note = text_of(c, "#coach-note", 10).await;
        assert!(note.starts_with("تصمیم شما این‌جا"), "{note}");
        assert!(
            !note.chars().any(|ch| ch.is_ascii_alphabetic()),
            "a mark's note: {note}"
        );
    }
    settle(c).await;
    persian_and_accessible(c, "in the analysed replay").await;
    screenshot(c, "ganjifa-fa-analysis-390x844").await;
}

#[actix_rt::test]
async fn the_persian_ganjifa_pages_are_right_to_left_and_a_persian_match_plays_to_its_end() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 2;
        s.strong_budget_ms = 10;
    });
    let c = driver.session(390, 844).await;
    go(&c, &server.base, "/fa/ganjifa/rules").await;
    right_to_left(&c, "[data-gcards]").await;
    persian_and_accessible(&c, "on the rules page").await;
    screenshot(&c, "fa-ganjifa-rules-390x844").await;
    go(&c, &server.base, "/fa/ganjifa").await;
    right_to_left(&c, "[data-gcards]").await;
    persian_and_accessible(&c, "on the landing page").await;
    click(&c, "#play-computer").await;
    wait_for(&c, "return document.querySelector('.gtable')", 20).await;
    assert_eq!(
        eval(&c, "return document.querySelector('#board').dir").await,
        "rtl"
    );
    assert_eq!(eval(&c, "return document.documentElement.lang").await, "fa");
    rows_left_to_right(&c, "#board .ghand, #board .g-open").await;
    let (_, said) = level_shown(&c).await;
    assert!(said.contains("رایانهٔ معمولی"), "{said}");
    play_in_persian(&c, "ganjifa-fa-390x844").await;
    let result = text_of(&c, "#result", 10).await;
    assert!(
        result.contains("مسابقه را") && result.contains("سهم"),
        "{result}"
    );
    settle(&c).await;
    persian_and_accessible(&c, "at the match's end").await;
    screenshot(&c, "ganjifa-fa-result-390x844").await;
    analysed_in_persian(&c).await;
    assert_no_console_error(&c, "a Persian match").await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn the_persian_ganjifa_table_at_a_desktop() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    let c = driver.session(1280, 800).await;
    go(&c, &server.base, "/fa/ganjifa").await;
    click(&c, "#play-computer").await;
    wait_for(&c, "return document.querySelector('.gtable')", 20).await;
    let started = Instant::now();
    let mut moves = 0;
    // A few moves, until the trick on the felt holds cards of several seats.
    loop {
        wait_for_our_turn(&c).await;
        settle(&c).await;
        let seats_in_trick = eval(
            &c,
            "return new Set([...document.querySelectorAll('.g-pile')].filter((p) => p.querySelector('.gcard')).map((p) => p.className)).size",
        )
        .await;
        if moves >= 3 && seats_in_trick.as_u64().unwrap_or(0) >= 2 {
            break;
        }
        if click_a_move(&c).await == Some(true) {
            moves += 1;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
        assert!(started.elapsed().as_secs() < 150, "no trick with cards");
    }
    tokio::time::sleep(Duration::from_millis(600)).await;
    persian_and_accessible(&c, "at 1280x800").await;
    docs_screenshot(&c, "ganjifa-fa-1280x800").await;
    // The suit tracker speaks Persian too.
    press(&c, "[data-key='drawer:tracker']").await;
    let tracker = text_of(&c, "#drawer-tracker", 10).await;
    assert!(
        tracker.contains("تاج") && tracker.contains("قماش") && tracker.contains("۱۰↑"),
        "{tracker}"
    );
    persian_and_accessible(&c, "with the tracker open").await;
    assert_no_console_error(&c, "the Persian table at a desktop").await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn the_persian_landing_starts_a_guided_match_and_the_coach_hints_in_persian() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 10;
    });
    let c = driver.session(390, 844).await;
    let heading = start_guided(&c, &server.base, "/fa/ganjifa").await;
    let step = text_of(&c, "#guide p", 5).await;
    for said in [&heading, &step] {
        assert!(
            !said.is_empty() && !said.chars().any(|ch| ch.is_ascii_alphabetic()),
            "the guide: {said}"
        );
    }
    assert_eq!(eval(&c, "return document.documentElement.lang").await, "fa");
    assert_eq!(
        eval(&c, "return document.getElementById('guide').dir").await,
        "rtl"
    );
    assert_eq!(text_of(&c, "#guide-leave", 5).await, "بیرون رفتن از راهنما");
    // The coach's hint at this seat's turn, in Persian.
    wait_for(
        &c,
        "const b = document.querySelector('#hint'); return b && !b.hidden && b.getAttribute('aria-disabled') === 'false'",
        60,
    )
    .await;
    assert_eq!(text_of(&c, "#hint", 5).await, "راهنمایی");
    let mut pressed = false;
    for _ in 0..20 {
        pressed = click(&c, "#hint").await;
        if pressed {
            break;
        }
        settle(&c).await;
    }
    assert!(pressed, "the hint button could not be pressed");
    let said: Value = wait_for(
        &c,
        "const p = document.querySelector('#coach'); return p && !p.hidden && p.textContent.startsWith('مربی:') && !p.textContent.includes('…') && p.textContent",
        60,
    )
    .await;
    let said = said.as_str().unwrap_or_default();
    assert!(
        said.chars().count() > 20 && !said.chars().any(|ch| ch.is_ascii_alphabetic()),
        "the hint: {said}"
    );
    settle(&c).await;
    persian_and_accessible(&c, "with the guide and the hint").await;
    screenshot(&c, "ganjifa-fa-hint-390x844").await;
    assert_no_console_error(&c, "a Persian guided match").await;
    c.close().await.unwrap();
}
