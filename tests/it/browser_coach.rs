//! The coach in Chromium, at a desktop's size and a phone's: at a table against the computer the
//! "Hint" button at this seat's turn brings the coach's sentence, the deal's end says how many hints
//! were taken, and the replay's "Analyse my moves" marks the costly decisions, each taking the replay
//! to the move it names with the coach's sentence, with no accessibility violation.

use chaikhana_rules::cards::Seat;
use serde_json::json;

use crate::browser_access::{axe_source, violations};
use crate::chromium::*;
use crate::support::{play_against_computer, rng, TestServer};

/// Waits for the Hint button at this seat's turn, and presses it.
async fn press_hint(c: &fantoccini::Client) {
    wait_for(
        c,
        "const b = document.querySelector('#hint'); return b && !b.hidden && b.getAttribute('aria-disabled') === 'false'",
        60,
    )
    .await;
    for _ in 0..20 {
        if click(c, "#hint").await {
            return;
        }
        settle(c).await;
    }
    panic!("the hint button could not be pressed");
}

async fn coached_in_the_page(
    driver: &mut Driver,
    server: &TestServer,
    game: &str,
    size: (u32, u32),
) {
    let (width, height) = size;
    let length = match game {
        "pishe-pasha" => json!("one-deal"),
        "ganjifa" => json!(3),
        _ => json!(1),
    };
    let seated = server.open(game, "computer", Some(length)).await;
    let c = driver.session(width, height).await;
    open_as_seat(&c, &server.base, &seated).await;
    // The hint button is there at this seat's turn; the coach answers in a sentence.
    press_hint(&c).await;
    let said = wait_for(
        &c,
        "const p = document.querySelector('#coach'); return p && !p.hidden && p.textContent.startsWith('Coach:') && p.textContent",
        60,
    )
    .await;
    assert!(said.as_str().unwrap().len() > "Coach: ".len(), "{said}");
    // The board marks what the hint recommends: a card of the hand, or the control that makes it.
    let marked = wait_for(
        &c,
        "return [...document.querySelectorAll('#board .recommended')].filter((e) => e.checkVisibility()).length",
        5,
    )
    .await;
    assert!(marked.as_u64() >= Some(1), "{game}: {said}");
    settle(&c).await;
    screenshot(&c, &format!("{game}-hint-{width}x{height}")).await;
    // The coach's words cover none of the moves offered: each button is what its middle shows.
    let covered = eval(
        &c,
        "return [...document.querySelectorAll('#board [data-area=actions] button, #board [data-area=hand] button')].filter(b => { const r = b.getBoundingClientRect(); if (!r.width) return false; const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); return at && !b.contains(at); }).map(b => b.textContent)",
    )
    .await;
    assert_eq!(
        covered,
        json!([]),
        "{game} at {width}x{height}: moves under the coach"
    );
    // The coach's words lie above the board, which still keeps its hand and buttons in sight.
    let out = out_of_sight(&c, Scroll::Down, true).await;
    assert_eq!(out, "", "{game} at {width}x{height} with a hint");
    // Put away with its close button.
    assert!(click(&c, "#coach button").await);
    wait_for(&c, "return document.querySelector('#coach').hidden", 5).await;

    // The rest of the match over a second socket of the same seat; the page follows it.
    let mut client = server.connect(&seated).await;
    play_against_computer(&mut client, &mut rng(11)).await;
    wait_for_status(&c, "match-over", 60).await;
    // The deal's end says how many hints were taken in it (a drawn Panjpar deal is dealt again: the
    // hint was in an earlier deal then).
    let deals = server.record(&seated.table).await.deals.len();
    let hinted = if deals == 1 { "1" } else { "0" };
    let taken = wait_for(
        &c,
        &format!("const p = document.querySelector('#coach'); return p && p.dataset.hints === '{hinted}' && p.textContent"),
        20,
    )
    .await;
    if deals == 1 {
        assert!(taken.as_str().unwrap().contains("1 hint"), "{taken}");
    }
    // Nothing covers the fair-deal line: the coach's words lie below it, once the deal check has
    // said its verdict too (after its sums, which may come after the coach has spoken).
    wait_for(
        &c,
        "const a = document.querySelector('#deal-check'); return !a.hidden && !!a.dataset.state",
        20,
    )
    .await;
    let overlap = eval(
        &c,
        "const a = document.querySelector('#deal-check'), b = document.querySelector('#coach'); if (a.hidden || b.hidden) return false; const r = a.getBoundingClientRect(), s = b.getBoundingClientRect(); return r.bottom > s.top && s.bottom > r.top && r.right > s.left && s.right > r.left",
    )
    .await;
    assert_eq!(
        overlap,
        json!(false),
        "{game} at {width}x{height}: the fair line covered"
    );

    // The replay's analysis: asked, thought behind the moves, then each mark leads to its step.
    screenshot(&c, &format!("{game}-hints-taken-{width}x{height}")).await;
    click_when_shown(&c, "#replay-open", 30).await;
    // The analysis lies in the replay's list, beside the moves it judges (folded on a phone).
    open_replay_list(&c).await;
    click_when_shown(&c, "[data-key='coach:analyse']", 30).await;
    let judged = wait_for_text(
        &c,
        "const l = document.querySelector('#coach-analysis .coach-line'); return l && l.textContent.startsWith('The coach judged') && l.textContent",
        120,
    )
    .await;
    assert!(judged.contains("decisions"), "{judged}");
    let marks = eval(
        &c,
        "return [...document.querySelectorAll('.coach-mark')].map(b => [b.dataset.key, b.dataset.grade, b.textContent])",
    )
    .await;
    let marks = marks.as_array().cloned().unwrap_or_default();
    if let Some(first) = marks.first() {
        let key = first[0].as_str().unwrap();
        // The mark opens the move it names, in the replay's own numbering: "Move 47" is the 47th.
        let step = open_mark(&c, key).await;
        let label = first[2].as_str().unwrap();
        assert!(label.starts_with(&format!("Move {}:", step + 1)), "{label}");
        let line = text_of(&c, "#replay-line", 10).await;
        assert!(
            line.contains(&format!("move {} of", step + 1)),
            "{label} opened {line}"
        );
        let note = text_of(&c, "#coach-note", 10).await;
        assert!(note.starts_with("Your decision here"), "{note}");
        // The note lies in the list beside the step it judges, not over the board.
        let beside = eval(
            &c,
            "const n = document.getElementById('coach-note'); const b = document.getElementById('board').getBoundingClientRect(), r = n.getBoundingClientRect();              return [!!n.closest('li')?.querySelector('[aria-current=\"step\"]'), r.right > b.left && b.right > r.left && r.bottom > b.top && b.bottom > r.top]",
        )
        .await;
        assert_eq!(
            beside,
            json!([true, false]),
            "{game} at {width}x{height}: the note beside its step"
        );
        let grade = eval(
            &c,
            "return document.querySelector('#coach-note').dataset.grade",
        )
        .await;
        assert_eq!(grade, first[1], "the note is the mark's");
    }
    settle(&c).await;
    screenshot(&c, &format!("{game}-analysis-{width}x{height}")).await;
    if let Some(axe) = axe_source() {
        let found = violations(&c, &axe).await;
        assert!(
            found.is_empty(),
            "{game} analysis at {width}x{height}: {found:#?}"
        );
    }
    // The analysis was made once and the table keeps it with the deal, as many marks as the page shows.
    let record = server.record(&seated.table).await;
    let kept = record
        .deals
        .last()
        .and_then(|deal| deal.coaching.analysis(Seat::new(0)).cloned());
    let kept = kept.unwrap_or_else(|| panic!("{game}: no analysis kept with the deal"));
    assert_eq!(kept.marks.len(), marks.len(), "{game}: {kept:?}");
    assert_no_console_error(&c, "the coach").await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_hint_and_an_analysis_in_the_page_at_both_sizes() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 10;
    });
    // A short window (514 px left to the page): the board keeps to it beside the coach's words.
    coached_in_the_page(&mut driver, &server, "panjpar", (1280, 657)).await;
    coached_in_the_page(&mut driver, &server, "pishe-pasha", (390, 844)).await;
}

/// A hint that takes the coach long to think is never a silent wait: after two seconds the page says
/// the coach is busy, and the hint still comes.
#[actix_rt::test]
async fn a_slow_hint_is_said_to_be_on_its_way_within_two_seconds() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 4000;
    });
    let seated = server.open("panjpar", "computer", Some(json!(1))).await;
    let c = driver.session(390, 844).await;
    open_as_seat(&c, &server.base, &seated).await;
    press_hint(&c).await;
    // The page's own timer says it (at two seconds) while the coach still thinks (four).
    wait_for(
        &c,
        "return document.querySelector('#coach').textContent.startsWith('The coach is busy')",
        10,
    )
    .await;
    wait_for(
        &c,
        "return document.querySelector('#coach').textContent.startsWith('Coach:')",
        60,
    )
    .await;
    assert_no_console_error(&c, "a slow hint").await;
    c.close().await.unwrap();
}

/// A host offers hints when making a friends table; the friend opening the link reads what that
/// means and agrees before the seat is theirs; a seat asks at its turn, and when the deal ends both
/// pages say how many hints each seat took.
#[actix_rt::test]
async fn hints_among_friends_offered_agreed_at_the_link_and_counted_on_both_pages() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 10;
    });
    let host = driver.session(1280, 800).await;
    let guest = driver.session(390, 844).await;
    go(&host, &server.base, "/panjpar").await;
    click(&host, "input[name=length][value='1']").await;
    assert!(click(&host, "#friends-hints").await);
    let link = friends_link(&host).await;
    click(&host, "#go-to-table").await;
    wait_for(&host, "return document.querySelector('.table')", 10).await;

    guest.goto(&link).await.unwrap();
    let offered = text_of(&guest, "#opening", 10).await;
    assert!(offered.contains("hints"), "{offered}");
    wait_for(
        &guest,
        "return !!document.querySelector('#agree-hints')",
        10,
    )
    .await;
    screenshot(&guest, "panjpar-friends-hints-agree-390x844").await;
    if let Some(axe) = axe_source() {
        let found = violations(&guest, &axe).await;
        assert!(found.is_empty(), "the agreement: {found:#?}");
    }
    assert!(click(&guest, "#agree-hints").await);
    wait_for_status(&guest, "playing", 20).await;
    wait_for_status(&host, "playing", 20).await;

    // Whichever seat is to play has the Hint button, and the coach answers it.
    let asker = loop {
        let mut found = None;
        for page in [&host, &guest] {
            let shown = eval(
                page,
                "const b = document.querySelector('#hint'); return !!b && !b.hidden && b.getAttribute('aria-disabled') === 'false'",
            )
            .await;
            if shown == json!(true) {
                found = Some(page);
            }
        }
        if let Some(page) = found {
            break page;
        }
        settle(&host).await;
    };
    assert!(click(asker, "#hint").await);
    wait_for(
        asker,
        "return document.querySelector('#coach').textContent.startsWith('Coach:')",
        60,
    )
    .await;
    crate::browser_panjpar::play_to_the_end(&[&host, &guest], None).await;
    // A drawn deal is dealt again: the hint was in an earlier deal then, and the last one has none.
    let table = table_of(&host).await;
    let deals = server.record(&table).await.deals.len();
    let hinted = if deals == 1 { ": 1" } else { ": 0" };
    for page in [&host, &guest] {
        let said = wait_for_text(
            page,
            "const p = document.querySelector('#coach'); return !p.hidden && p.textContent.includes('Hints taken in this deal') && p.textContent",
            20,
        )
        .await;
        assert!(said.contains(hinted), "{deals} deals: {said}");
    }
    screenshot(&guest, "panjpar-friends-hints-taken-390x844").await;
    assert_no_console_error(&host, "hints among friends").await;
    // The one line the guest's browser logs is the table's answer asking for the agreement.
    let errors = console_errors(&guest).await;
    assert!(
        errors
            .iter()
            .all(|e| e.contains("/join") && e.contains("428")),
        "{errors:?}"
    );
}

/// Latin letters in `text`: a Persian sentence has none (card names, numbers and the coach's words are
/// all Persian on the Persian page).
fn latin(text: &str) -> Vec<char> {
    text.chars().filter(|c| c.is_ascii_alphabetic()).collect()
}

/// A guided Panjpar deal on the Persian table at `size`: the guide's steps, the coach's hint and the
/// analysis's marks are all in Persian, with no accessibility violation. Returns how many marks the
/// analysis had.
async fn coached_in_persian(driver: &mut Driver, server: &TestServer, size: (u32, u32)) -> usize {
    let (width, height) = size;
    let seated = server.open("panjpar", "computer", Some(json!(1))).await;
    let c = driver.session(width, height).await;
    // The page in Persian, with the guided deal asked for at this table, as the Persian landing page's
    // "guided deal" button does.
    go(&c, &server.base, "/").await;
    let ask = format!(
        "localStorage.setItem('chaikhana.lang', 'fa'); sessionStorage.setItem('chaikhana.guide.' + {}, 'on'); return true",
        json!(seated.table)
    );
    eval(&c, &ask).await;
    open_as_seat(&c, &server.base, &seated).await;
    wait_for(
        &c,
        "return document.documentElement.lang === 'fa' && document.querySelector('.table')",
        30,
    )
    .await;
    let heading = wait_for_text(&c, GUIDE_HEADING, 20).await;
    let step = text_of(&c, "#guide p", 5).await;
    let leave = text_of(&c, "#guide-leave", 5).await;
    for said in [&heading, &step, &leave] {
        assert!(
            latin(said).is_empty(),
            "the guide at {width}x{height}: {said}"
        );
    }

    // A hint at this seat's turn, said in Persian.
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
    let said = wait_for_text(
        &c,
        "const p = document.querySelector('#coach'); return p && !p.hidden && p.textContent.startsWith('مربی:') && !p.textContent.includes('…') && p.textContent",
        60,
    )
    .await;
    assert!(
        latin(&said).is_empty(),
        "the hint at {width}x{height}: {said}"
    );
    assert!(
        said.chars().count() > "مربی: ".chars().count() + 20,
        "{said}"
    );
    settle(&c).await;
    // The coach's words lie below the guide's step, which stays in sight.
    let overlap = eval(
        &c,
        "const a = document.querySelector('#guide'), b = document.querySelector('#coach'); if (a.hidden || b.hidden) return 'hidden'; const r = a.getBoundingClientRect(), s = b.getBoundingClientRect(); return r.bottom > s.top && s.bottom > r.top && r.right > s.left && s.right > r.left",
    )
    .await;
    assert_eq!(
        overlap,
        json!(false),
        "the guide covered at {width}x{height}"
    );
    screenshot(&c, &format!("panjpar-fa-hint-{width}x{height}")).await;
    if let Some(axe) = axe_source() {
        let found = violations(&c, &axe).await;
        assert!(
            found.is_empty(),
            "the Persian hint at {width}x{height}: {found:#?}"
        );
    }

    // The rest of the match over a second socket of the seat; the guide says the deal is over.
    let mut client = server.connect(&seated).await;
    play_against_computer(&mut client, &mut rng(17)).await;
    wait_for_status(&c, "match-over", 60).await;
    let over = wait_for_text(&c, GUIDE_HEADING, 20).await;
    assert_eq!(over, "این دست تمام شد");

    // The analysis: its lines, its marks and the note at a mark's step in Persian.
    click_when_shown(&c, "#replay-open", 30).await;
    // The analysis lies in the replay's list, beside the moves it judges (folded on a phone).
    open_replay_list(&c).await;
    click_when_shown(&c, "[data-key='coach:analyse']", 30).await;
    let judged = wait_for_text(
        &c,
        "const l = document.querySelector('#coach-analysis .coach-line'); return l && l.textContent.includes('تصمیم شما را سنجید') && l.textContent",
        120,
    )
    .await;
    assert!(latin(&judged).is_empty(), "{judged}");
    // The replay's line is in Persian too, its numbers in Persian digits.
    let line = text_of(&c, "#replay-line", 5).await;
    assert!(
        !line.chars().any(|ch| ch.is_ascii_alphanumeric()),
        "the replay's line: {line}"
    );
    let marks = eval(
        &c,
        "return [...document.querySelectorAll('.coach-mark')].map(b => [b.dataset.key, b.textContent])",
    )
    .await;
    let marks = marks.as_array().cloned().unwrap_or_default();
    for mark in &marks {
        let label = mark[1].as_str().unwrap();
        assert!(latin(label).is_empty(), "a mark's label: {label}");
        let key = mark[0].as_str().unwrap();
        open_mark(&c, key).await;
        let note = text_of(&c, "#coach-note", 10).await;
        assert!(note.starts_with("تصمیم شما این‌جا"), "{note}");
        assert!(
            latin(&note).is_empty(),
            "a mark's note at {width}x{height}: {note}"
        );
    }
    settle(&c).await;
    screenshot(&c, &format!("panjpar-fa-analysis-{width}x{height}")).await;
    if let Some(axe) = axe_source() {
        let found = violations(&c, &axe).await;
        assert!(
            found.is_empty(),
            "the Persian analysis at {width}x{height}: {found:#?}"
        );
    }
    assert_no_console_error(&c, "the coach in Persian").await;
    c.close().await.unwrap();
    marks.len()
}

#[actix_rt::test]
async fn the_coach_the_guide_and_the_analysis_speak_persian_on_the_persian_table() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 10;
    });
    let mut marked = 0;
    for size in [(390, 844), (1280, 800)] {
        marked += coached_in_persian(&mut driver, &server, size).await;
    }
    // Random moves against the computer cost something somewhere: some mark's note was read.
    assert!(marked > 0, "no mark in either analysis");
}

/// Ganjifa's coach is worded by its own board's words (its moves are its actions): a hint and the
/// last deal's analysis in the page, with no console error from a reason the page could not word.
#[actix_rt::test]
async fn a_ganjifa_hint_and_analysis_are_worded_by_its_board() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 10;
    });
    coached_in_the_page(&mut driver, &server, "ganjifa", (1280, 800)).await;
}

/// Clicks the analysis's mark `key` (its data-key, ending in its replay step) and waits until the
/// replay shows that move, numbered from 1; answers the step.
async fn open_mark(c: &fantoccini::Client, key: &str) -> usize {
    let step: usize = key.rsplit(':').next().unwrap().parse().unwrap();
    assert!(click(c, &format!("[data-key='{key}']")).await);
    let shown = format!(
        "return (document.body.dataset.replay || '').startsWith('{}/')",
        step + 1
    );
    wait_for(c, &shown, 10).await;
    step
}
