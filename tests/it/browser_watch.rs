//! Watching in Chromium: the seat's page gives its watch link; a second browser opens it and follows
//! the whole match as it is played (over a second socket of the seat, quicker than clicking): the
//! page says it is watching, draws every board with names and no "you", shows no hand, offers no
//! move, no name and no phrase, and the seat's page shows how many watch.

use crate::chromium::*;
use crate::support::leaks::Tested;
use crate::support::{play_against_computer, rng};

/// Which text on the watcher's board speaks to a player ("you", "your"), if any.
const SPEAKS_TO_A_PLAYER: &str = r#"
const text = document.getElementById('board').innerText;
const found = text.match(/\b(you|your)\b/i);
return found ? text.slice(Math.max(0, found.index - 40), found.index + 40) : '';
"#;

/// A seat's page opens a short match of `G` against the computer and gives its watch link; a phone
/// follows the whole match through it. Run for every game by `each_game`.
pub async fn watch_a_match<G: Tested>() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 1);
    let game = G::NAME;
    let seated = server.open(game, "computer", Some(G::short())).await;
    let seat = driver.session(1280, 800).await;
    open_as_seat(&seat, &server.base, &seated).await;
    click_when_shown(&seat, "#watch-link", 30).await;
    let shared = "return document.getElementById('watch-line').dataset.link";
    let link = wait_for_text(&seat, shared, 10).await;
    assert!(
        link.contains("/w/") && !link.contains(&seated.table),
        "{link}"
    );

    let watcher = driver.session(390, 844).await;
    watcher.goto(&link).await.unwrap();
    wait_for(
        &watcher,
        "return document.body.hasAttribute('data-watching') && document.querySelector('.table')",
        30,
    )
    .await;
    let said = eval(
        &watcher,
        "return document.getElementById('watch-line').textContent",
    )
    .await;
    assert!(said.as_str().unwrap().contains("watching"), "{said}");
    wait_for(
        &seat,
        "return /1 watching/.test(document.getElementById('watching-count')?.textContent || '')",
        10,
    )
    .await;
    // Mid-deal, with the seat to play, as at the match's end: nothing speaks to the watcher as a
    // player and nothing is offered to it.
    wait_for_status(&watcher, "playing", 30).await;
    settle(&watcher).await;
    nothing_to_play(&watcher, game, "mid-deal").await;
    // What the first seat shows everyone (Ganjifa's face-up cards), the watcher sees too.
    let face_up = "return [...document.querySelectorAll('.ghand .face-up, .g-watched .seat-card')].map(c => c.dataset.card).sort()";
    assert_eq!(
        eval(&watcher, face_up).await,
        eval(&seat, face_up).await,
        "{game}: the first seat's face-up cards"
    );
    screenshot(&watcher, &format!("{game}-watching-mid-deal-390x844")).await;
    // The match is played; the watcher's page follows it to the end.
    let mut client = server.connect(&seated).await;
    play_against_computer(&mut client, &mut rng(3)).await;
    wait_for_status(&watcher, "match-over", 30).await;
    settle(&watcher).await;
    docs_screenshot(&watcher, &format!("{game}-watching-390x844")).await;
    nothing_to_play(&watcher, game, "at the match's end").await;
    // Its page checked the deal it watched, and found it honest.
    let checked = wait_for_text(
        &watcher,
        "const m = document.querySelector('#deal-check'); return m && !m.hidden && m.dataset.state && m.dataset.state + '|' + m.textContent",
        20,
    )
    .await;
    assert!(checked.starts_with("watched|"), "{game}: {checked}");
    // The hints are counted for the person alone: a computer never asks the coach.
    if G::coach().is_some() {
        let said = wait_for_text(
            &watcher,
            "const p = document.querySelector('#coach'); return !p.hidden && p.textContent.includes('Hints taken') && p.textContent",
            10,
        )
        .await;
        assert!(
            said.contains("Hints taken in this deal: Player 1: 0.") && !said.contains("Player 2"),
            "{game}: {said}"
        );
    }
    let header = eval(
        &watcher,
        "return document.querySelector('header.site').innerText",
    )
    .await;
    assert!(
        !header.as_str().unwrap().contains("Your name")
            && !header.as_str().unwrap().contains("Watch link"),
        "{header}"
    );
    assert!(
        console_errors(&watcher).await.is_empty(),
        "{game}: the watcher's console"
    );
    watcher.close().await.unwrap();
    seat.close().await.unwrap();
}

/// Asserts that the watcher's board says "you" to no one and offers no control: no move, no card to
/// choose, no choice to tick, no next deal (a mark that only explains itself is no control).
async fn nothing_to_play(watcher: &fantoccini::Client, game: &str, when: &str) {
    assert_eq!(eval(watcher, SPEAKS_TO_A_PLAYER).await, "", "{game} {when}");
    let which = eval(
        watcher,
        "return [...document.querySelectorAll('[data-area=actions] button:not([hidden]):not([data-key^=new-]):not(.g-explain), .hand button.card:not(:disabled), #board input, #next-deal, #rematch')].map(b => b.outerHTML.slice(0, 120))",
    )
    .await;
    assert_eq!(
        which,
        serde_json::json!([]),
        "{game} {when}: a watcher has nothing to play"
    );
}
