//! A finished deal replayed in Chromium, for each game: the match is played to its end over a
//! second socket of the page's own seat (quicker than clicking through it), then the page offers
//! "Replay the deal"; its bar steps through every action of the deal from the deal as dealt to its
//! last move (and back, to the first and the last), the board drawing each step with no move open,
//! shows the whole deal from its reveal (every card of the pack once), and "Back to the table" brings the result back.

use serde_json::json;

use crate::chromium::*;
use crate::support::{play_against_computer, play_deals, rng, take_seats, TestServer};

mod list;

/// Waits until the page shows step `step` of the `steps` of the deal replayed.
async fn at_step(c: &fantoccini::Client, step: usize, steps: usize) {
    wait_for(
        c,
        &format!("return document.body.dataset.replay === '{step}/{steps}'"),
        10,
    )
    .await;
}

async fn replays_in_the_page(
    driver: &mut Driver,
    server: &TestServer,
    game: &str,
    length: serde_json::Value,
    (width, height): (u32, u32),
) {
    let seated = server.open(game, "computer", Some(length)).await;
    let mut client = server.connect(&seated).await;
    play_against_computer(&mut client, &mut rng(5)).await;
    let record = server.record(&seated.table).await;
    let steps = record.deals.last().expect("a deal").actions.len();

    let c = driver.session(width, height).await;
    open_as_seat(&c, &server.base, &seated).await;
    wait_for_status(&c, "match-over", 30).await;
    click_when_shown(&c, "#replay-open", 30).await;
    at_step(&c, 0, steps).await;
    let line = eval(
        &c,
        "return document.querySelector('#replay-line').textContent",
    )
    .await;
    assert!(
        line.as_str().unwrap().contains(&steps.to_string()),
        "{line}"
    );
    // Step by step through every action of the deal, the board shows each moment with nothing
    // to play; then back one, to the first, and to the last.
    for step in 1..=steps {
        press(&c, "[data-key='replay:forward']").await;
        at_step(&c, step, steps).await;
        if step % 10 == 1 {
            let offered = eval(
                &c,
                "return document.querySelectorAll('[data-area=actions] button[data-action]:not(:disabled), .hand button.playable, .ghand button.playable').length",
            )
            .await;
            assert_eq!(offered, 0, "step {step} offers no move");
            // Nor asks anything of the seat: no "your turn: turn a card", no choice to tick.
            let asked = eval(
                &c,
                "return [...document.querySelectorAll('#board :is([data-area=actions], .live-only, input)')].filter((e) => e.checkVisibility()).map((e) => e.textContent || e.id)",
            )
            .await;
            assert_eq!(asked, serde_json::json!([]), "{game}: step {step}");
        }
    }
    assert!(click(&c, "[data-key='replay:back']").await);
    at_step(&c, steps - 1, steps).await;
    assert!(click(&c, "[data-key='replay:first']").await);
    at_step(&c, 0, steps).await;
    assert!(click(&c, "[data-key='replay:last']").await);
    at_step(&c, steps, steps).await;
    settle(&c).await;
    docs_screenshot(&c, &format!("{game}-replay-{width}x{height}")).await;
    // The whole deal, from the deal's reveal: every place of the pack, each card face up once, and
    // face down the places kept secret from this seat (Pishe Pasha's unturned stock cards, Ganjifa's
    // face-down talafas of the others). It lies in the list, which folds on a phone.
    open_replay_list(&c).await;
    assert!(click(&c, "[data-key='replay:whole']").await);
    let shown = wait_for(
        &c,
        "const cards = [...document.querySelectorAll('#replay-whole .card, #replay-whole .gcard')]; const up = cards.filter((c) => !c.classList.contains('back')); return cards.length && [cards.length, new Set(up.map(c => c.getAttribute('aria-label'))).size + (cards.length - up.length)]",
        10,
    )
    .await;
    let pack = if game == "ganjifa" { 96 } else { 52 };
    assert_eq!(shown, json!([pack, pack]), "{game}: the whole deal");
    docs_screenshot(&c, &format!("{game}-replay-whole-{width}x{height}")).await;
    assert!(click(&c, "[data-key='replay:whole']").await);
    wait_for(&c, "return !document.querySelector('#replay-whole')", 10).await;
    // Each deal of the match is offered too, from the list: the one before, from its first step.
    let deals = record.deals.len();
    if game == "ganjifa" {
        assert_eq!(
            deals, 3,
            "a Ganjifa match of three deals offers earlier ones"
        );
    }
    let offered = eval(
        &c,
        "return [...document.querySelectorAll('[data-key^=\"replay:deal:\"]')].map(b => [b.textContent, b.getAttribute('aria-current')])",
    )
    .await;
    let expected: Vec<_> = (0..deals)
        .map(|d| json!([format!("Deal {}", d + 1), (d + 1 == deals).to_string()]))
        .collect();
    assert_eq!(offered, json!(if deals > 1 { expected } else { vec![] }));
    if deals > 1 {
        let before = record.deals[deals - 2].actions.len();
        press(&c, &format!("[data-key='replay:deal:{}']", deals - 2)).await;
        at_step(&c, 0, before).await;
        let line = text_of(&c, "#replay-line", 10).await;
        assert!(
            line.starts_with(&format!("Deal {} of the {deals} played", deals - 1)),
            "{line}"
        );
        press(&c, &format!("[data-key='replay:deal:{}']", deals - 1)).await;
        at_step(&c, 0, steps).await;
    }
    // Back at the table: the match's end is shown again.
    assert!(click(&c, "[data-key='replay:leave']").await);
    wait_for(
        &c,
        "return !document.body.hasAttribute('data-replay') && document.querySelector('#replay').hidden && document.querySelector('.table')?.dataset.status === 'match-over'",
        10,
    )
    .await;
    assert!(
        console_errors(&c).await.is_empty(),
        "no console error in {game}'s replay"
    );
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_finished_deal_of_each_game_replays_step_by_step_in_the_page() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 1);
    replays_in_the_page(&mut driver, &server, "panjpar", json!(1), (1280, 800)).await;
    replays_in_the_page(
        &mut driver,
        &server,
        "pishe-pasha",
        json!("one-deal"),
        (390, 844),
    )
    .await;
    replays_in_the_page(&mut driver, &server, "ganjifa", json!(3), (390, 844)).await;
}

/// Keeps, in the page, what its board showed at each version while the table was played live:
/// the board's visible text (the move line, the piles and counts, the score and the header, the
/// result), with the action bar left out, since a replay opens no move, the turn badge, which
/// signals a turn to take now, and the count of watchers, which is today's; a card's name is compared
/// as its name, whether a label (a card drawn) or words inside it (a card to pick), not as text.
const KEEP_WHAT_WAS_SHOWN: &str = r#"
    window.shown = {};
    // The board's visible text, then each card drawn on it: its name, or a back, or an empty place.
    window.boardShown = () => {
        const board = document.getElementById('board');
        const cards = [...board.querySelectorAll('.card, .gcard')]
            .filter((c) => c.getClientRects().length && !c.closest('[data-area=actions]'))
            .map((c) => `${c.classList.contains('back') ? 'back' : c.classList.contains('empty') ? 'empty' : 'face'} ${c.getAttribute('aria-label') ?? c.querySelector('.unseen')?.textContent ?? ''}`);
        return `${board.innerText}\n${cards.join('\n')}`;
    };
    document.addEventListener('DOMContentLoaded', () => {
        const board = document.getElementById('board');
        if (!board) return;
        // A constructed sheet: the site's content policy refuses a <style> element.
        const hide = new CSSStyleSheet();
        hide.replaceSync('#board :is([data-area=actions], .live-only), #turn-badge, #watching-count, #board .gcard .unseen { display: none !important; }');
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, hide];
        const keep = () => {
            const version = document.body.dataset.version;
            if (version && !document.body.hasAttribute('data-replay')) window.shown[version] = window.boardShown();
        };
        new MutationObserver(keep).observe(board, { subtree: true, childList: true, characterData: true, attributes: true });
    });
"#;

/// A friends match played while the page shows it to the first seat (every seat's moves, the first
/// seat's included, sent over sockets of their own), then its last deal replayed in the page: every
/// step draws exactly what the board showed at that moment of play, the move line, piles, scores,
/// header and result included.
async fn replays_what_was_shown(
    driver: &mut Driver,
    server: &TestServer,
    game: &str,
    (seats, length, deals): (usize, serde_json::Value, usize),
    (width, height): (u32, u32),
) {
    let seated = take_seats(server, game, seats, length).await;
    let c = driver.session(width, height).await;
    before_every_page(&c, KEEP_WHAT_WAS_SHOWN).await;
    open_as_seat(&c, &server.base, &seated[0]).await;
    // The page has drawn the deal as dealt before anyone moves.
    wait_for(&c, "return document.body.dataset.version === '1'", 20).await;
    let mut clients = Vec::new();
    for seat in &seated {
        clients.push(server.connect(seat).await);
    }
    play_deals(&mut clients, deals, 11).await;
    let record = server.record(&seated[0].table).await;
    wait_for(
        &c,
        &format!(
            "return document.body.dataset.version === '{}'",
            record.version
        ),
        30,
    )
    .await;
    let deal = record.deals.last().expect("a deal");
    let steps = deal.actions.len();
    settle(&c).await;
    click_when_shown(&c, "#replay-open", 30).await;
    for step in 0..=steps {
        if step > 0 {
            press(&c, "[data-key='replay:forward']").await;
        }
        at_step(&c, step, steps).await;
        let version = match step {
            0 => deal.dealt_at,
            _ => deal.actions[step - 1].2,
        };
        let compared = eval(
            &c,
            &format!("return [window.boardShown(), window.shown['{version}'] ?? null]"),
        )
        .await;
        assert!(
            !compared[1].is_null(),
            "{game}: the page drew version {version} in play"
        );
        assert_eq!(
            compared[0], compared[1],
            "{game} at {width}x{height}: replay step {step} of {steps} draws what version {version} showed"
        );
        // The line under the board says whose turn it is as English does, even where a replay
        // hides it with the action bar ("You are leading.").
        let said = eval(
            &c,
            "return [...document.querySelectorAll('#board .status-line')].map(l => l.textContent).join(' ')",
        )
        .await;
        assert!(
            !said.as_str().unwrap().contains("You is"),
            "{game}: step {step}: {said}"
        );
    }
    let errors = console_errors(&c).await;
    assert!(
        errors.is_empty(),
        "no console error in {game}'s replay: {errors:?}"
    );
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn each_replay_step_draws_what_the_seat_saw_in_play() {
    let (mut driver, server) = staged!(|_| ());
    let phone = (390, 844);
    let desktop = (1280, 800);
    replays_what_was_shown(&mut driver, &server, "panjpar", (2, json!(3), 2), phone).await;
    replays_what_was_shown(
        &mut driver,
        &server,
        "pishe-pasha",
        (2, json!("one-deal"), 1),
        desktop,
    )
    .await;
    replays_what_was_shown(&mut driver, &server, "ganjifa", (3, json!(3), 3), desktop).await;
    replays_what_was_shown(&mut driver, &server, "ganjifa", (3, json!(3), 2), phone).await;
}
