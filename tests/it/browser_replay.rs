//! A finished deal replayed in Chromium, for each game: the match is played to its end over a
//! second socket of the page's own seat (quicker than clicking through it), then the page offers
//! "Replay the deal"; its bar steps through every action of the deal from the deal as dealt to its
//! last move (and back, to the first and the last), the board drawing each step with no move open,
//! shows the whole deal from its reveal (every card of the pack once), and "Back to the table" brings the result back.

use serde_json::json;

use crate::chromium::*;
use crate::support::{play_against_computer, rng, TestServer};

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
        }
    }
    assert!(click(&c, "[data-key='replay:back']").await);
    at_step(&c, steps - 1, steps).await;
    assert!(click(&c, "[data-key='replay:first']").await);
    at_step(&c, 0, steps).await;
    assert!(click(&c, "[data-key='replay:last']").await);
    at_step(&c, steps, steps).await;
    settle(&c).await;
    screenshot(&c, &format!("{game}-replay-{width}x{height}")).await;
    // The whole deal, from the deal's reveal: every place of the pack, each card face up once, and
    // face down the places kept secret from this seat (Pishe Pasha's unturned stock cards, Ganjifa's
    // face-down talafas of the others).
    assert!(click(&c, "[data-key='replay:whole']").await);
    let shown = wait_for(
        &c,
        "const cards = [...document.querySelectorAll('#replay-whole .card, #replay-whole .gcard')]; const up = cards.filter((c) => !c.classList.contains('back')); return cards.length && [cards.length, new Set(up.map(c => c.getAttribute('aria-label'))).size + (cards.length - up.length)]",
        10,
    )
    .await;
    let pack = if game == "ganjifa" { 96 } else { 52 };
    assert_eq!(shown, json!([pack, pack]), "{game}: the whole deal");
    screenshot(&c, &format!("{game}-replay-whole-{width}x{height}")).await;
    assert!(click(&c, "[data-key='replay:whole']").await);
    wait_for(&c, "return !document.querySelector('#replay-whole')", 10).await;
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
