//! Whole Ganjifa matches in Chromium: against two computers by clicking (the scores explained, the
//! deal checked fair, the result in sight), a room of three joined through the link (the trick in sight
//! on a phone), and a guided first match that speaks from the opening to the end.

use std::time::Instant;

use super::{click_a_move, play_to_the_end};
use crate::chromium::*;

/// What of the trick is out of sight: the zone outside the screen, or a card of it whose middle is
/// covered by something else or cut off by a box around it. Empty when every card can be seen.
const TRICK_HIDDEN: &str = r#"
const zone = document.querySelector('[data-area=trick]');
if (!zone) return 'no trick on the board';
const out = [];
const r = zone.getBoundingClientRect();
if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
  out.push(`the trick at ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`);
}
for (const card of zone.querySelectorAll('.gcard, .trick-card')) {
  const b = card.getBoundingClientRect();
  const at = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  if (!at || !zone.contains(at)) out.push(`a trick card at ${Math.round(b.left)},${Math.round(b.top)} is hidden`);
}
return out.join('; ');
"#;

#[actix_rt::test]
async fn a_ganjifa_match_against_two_computers_played_by_clicking() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 2;
        pages_shuffle(s);
    });
    let c = driver.session(1280, 800).await;
    go(&c, &server.base, "/ganjifa").await;
    screenshot(&c, "ganjifa-landing-1280x800").await;
    click(&c, "#play-computer").await;
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    play_to_the_end(&c, "ganjifa-match-1280x800").await;
    let result = text_of(&c, "#result", 10).await;
    assert!(result.contains("won the match"), "{result}");
    assert!(result.contains("less its share of the pack"), "{result}");
    // Each seat's score is explained: the cards won, less the share, with its sign; the totals signed.
    let explained = eval(
        &c,
        r"return [...document.querySelectorAll('#deal-scores li')].every((li) => {
            const m = li.textContent.match(/won (\d+) − share (\d+) = ([+−]?)(\d+)$/);
            if (!m) return false;
            const score = (m[3] === '−' ? -1 : 1) * Number(m[4]);
            return Number(m[1]) - Number(m[2]) === score && (score === 0) === (m[3] === '');
        }) && document.querySelectorAll('#deal-scores li').length === 3",
    )
    .await;
    assert_eq!(explained, true, "{result}");
    assert_fair_deal(&c).await;
    assert_eq!(result_out_of_sight(&c).await, "", "the result at 1280x800");
    docs_screenshot(&c, "ganjifa-result-1280x800").await;
    assert_no_console_error(&c, "in a whole match").await;
    c.close().await.unwrap();
    let phone = driver.session(390, 844).await;
    go(&phone, &server.base, "/ganjifa").await;
    click(&phone, "#play-computer").await;
    wait_for(&phone, "return document.querySelector('.ghand')", 20).await;
    screenshot(&phone, "ganjifa-start-390x844").await;
    assert_no_console_error(&phone, "on the phone").await;
    phone.close().await.unwrap();
}

#[actix_rt::test]
async fn a_ganjifa_room_of_three_joined_through_the_link_plays_a_match() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 2);
    let host = driver.session(1280, 800).await;
    go(&host, &server.base, "/ganjifa").await;
    let link = friends_link(&host).await;
    click(&host, "#go-to-table").await;
    wait_for(&host, "return document.querySelector('.table')", 10).await;
    let second = driver.session(390, 844).await;
    let third = driver.session(390, 844).await;
    second.goto(&link).await.unwrap();
    // With one seat left, the second player's link is for one more person.
    let told = text_of(&second, ".share p", 20).await;
    assert_eq!(
        told,
        "One seat is left: send this link to the person you want to play."
    );
    third.goto(&link).await.unwrap();
    for c in [&host, &second, &third] {
        wait_for_status(c, "playing", 20).await;
    }
    let started = Instant::now();
    let mut moves = 0;
    let mut looked = false;
    // When the last move was made: a match where none is made for a minute is stuck.
    let mut moved = Instant::now();
    loop {
        let mut going = false;
        for c in [&host, &second, &third] {
            if let Some(clicked) = click_a_move(c).await {
                going = true;
                moves += usize::from(clicked);
                if clicked {
                    moved = Instant::now();
                }
            }
        }
        if !going {
            break;
        }
        if moves >= 30 && !looked {
            // Mid-match at a friends table on a phone (the voice bar and two seats' panels on the
            // page too): the trick's cards all in sight, none cut off or covered.
            looked = true;
            screenshot(&second, "ganjifa-friends-390x844").await;
            // Looked at once the board is at rest (a trick swept to its winner passes over it).
            for phone in [&second, &third] {
                let mut hidden = serde_json::Value::Null;
                for _ in 0..30 {
                    settle(phone).await;
                    hidden = eval(phone, TRICK_HIDDEN).await;
                    if hidden == serde_json::json!("") {
                        break;
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
                assert_eq!(
                    hidden,
                    serde_json::json!(""),
                    "at a friends table on a phone"
                );
            }
        }
        if started.elapsed().as_secs() >= 400 || moved.elapsed().as_secs() >= 60 {
            let mut states = Vec::new();
            for (i, c) in [&host, &second, &third].into_iter().enumerate() {
                screenshot(c, &format!("ganjifa-friends-stuck-{i}")).await;
                states.push(eval(c, "return (document.querySelector('.table')?.dataset.status || '') + ' | ' + (document.querySelector('#status')?.textContent || '') + ' | ' + (document.querySelector('#why')?.textContent || '') + ' | ' + (document.querySelector('#ready-line')?.textContent || '') + ' | ' + [...document.querySelectorAll('[data-area=actions] button, .ghand button')].map((b) => (b.dataset.card || b.textContent) + (b.getAttribute('aria-pressed') === 'true' ? ' (pressed)' : '')).join(',')").await);
            }
            panic!("the match did not end after {moves} moves: {states:?}");
        }
    }
    for c in [&host, &second, &third] {
        let result = text_of(c, "#result", 10).await;
        assert!(result.contains("won the match"), "{result}");
    }
    for c in [host, second, third] {
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn a_guided_first_match_speaks_from_the_opening_to_the_end() {
    let (mut driver, server) = staged!(quick_and_fair);
    let c = driver.session(390, 844).await;
    let first = start_guided(&c, &server.base, "/ganjifa").await;
    assert!(!first.is_empty());
    docs_screenshot(&c, "ganjifa-guide-390x844").await;
    play_to_the_end(&c, "ganjifa-guided-390x844").await;
    // A phone sees the whole result, the totals line included.
    guided_deal_over(&c, "ganjifa-result-390x844").await;
    c.close().await.unwrap();
}
