//! Ganjifa in Chromium: a whole three-deal match against two computers played by clicking (leads
//! from the ladder's buttons or hand cards, cards put down, backs picked); the one-screen board at a
//! desktop and a phone (hand and action bar always in sight, no console error; the landscape phone
//! and the large screen are in browser_layouts.rs);
//! cards that travel, and stay still under reduced motion; focus kept across redraws; a move tried
//! offline said, not lost; the staged deal; and the screenshots in docs/screenshots.

use crate::chromium;

use std::time::{Duration, Instant};

use std::sync::LazyLock;

use fantoccini::Client;
use serde_json::Value;

use crate::chromium::proxy::Proxy;
use crate::chromium::*;

/// What this browser may do now: the selector of the control a player would click, or a word.
static BOARD_STATE: LazyLock<String> = LazyLock::new(|| {
    board_state(
        r#"
if (document.querySelector('.g-backs button')) return 'pick';
if (document.querySelector('[data-area=actions] button[data-action]')) return 'lead-button';
if (document.querySelector('.ghand button.gcard.playable')) return 'card';
"#,
    )
});

/// Empty when every face-down card offered for a blind pick lies wholly on screen with nothing over
/// its visible edge (the backs overlap like a hand); otherwise what is wrong with the first that is not.
const BACKS_IN_REACH: &str = r#"
for (const b of document.querySelectorAll('.g-backs button')) {
  const r = b.getBoundingClientRect();
  const where = `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)} in ${innerWidth}x${innerHeight}`;
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) return `a back at ${where} is off the screen`;
  const top = document.elementFromPoint(r.left + Math.min(8, r.width / 2), r.top + r.height / 2);
  if (!top || top.closest('button') !== b) return `a back at ${where} is under ${top ? top.tagName + '.' + top.className : 'nothing'}`;
}
return '';
"#;

/// Makes one move if this browser has one; `None` once its match is over.
async fn click_a_move(c: &Client) -> Option<bool> {
    let state = eval(c, &BOARD_STATE).await;
    Some(match state.as_str().unwrap_or("none") {
        "over" => return None,
        "next" => click(c, "#next-deal").await,
        "pick" => {
            // The backs travel into the hand's place first; a click aimed at one on its way lands beside it.
            settle(c).await;
            let out_of_reach = eval(c, BACKS_IN_REACH).await;
            assert_eq!(
                out_of_reach, "",
                "a blind pick's cards must be in sight and in reach"
            );
            let width = eval(c, "return innerWidth").await;
            screenshot(c, &format!("ganjifa-blind-pick-{width}")).await;
            click(c, ".g-backs button").await
        }
        "lead-button" => click(c, "[data-area=actions] button[data-action]").await,
        // A lead by a hand card: the first click chooses it, and its button then appears.
        "card" => click(c, ".ghand button.gcard.playable:not(.chosen)").await,
        _ => false,
    })
}

/// Waits until this seat has something to do, and says what.
async fn wait_for_our_turn(c: &Client) -> String {
    let script = format!(
        "const s = (() => {{ {} }})(); return s !== 'wait' && s !== 'none' && s",
        *BOARD_STATE
    );
    let state = wait_for(c, &script, 60).await;
    state.as_str().unwrap_or_default().to_string()
}

/// Empty when nothing covers the buttons of the hand and the action bar and the other seats' cards
/// are big enough to read; otherwise what is wrong.
const READABLE: &str = r#"
const out = [];
for (const b of document.querySelectorAll('[data-area=actions] button, .ghand button')) {
  const r = b.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!top || top.closest('button') !== b) out.push(`${b.dataset.card || b.textContent} is covered by ${top?.className}`);
}
const seat = [...document.querySelectorAll('.g-seat .seat-card')].map((c) => c.getBoundingClientRect().width);
if (seat.length && Math.min(...seat) < 34) out.push(`the other seats' cards are ${Math.min(...seat)}px wide`);
return out.join('; ');
"#;

/// Empty when the hand and the action bar lie wholly inside the first screen, the page does not
/// scroll down and the board is readable (`READABLE`); otherwise what is wrong.
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

async fn fits(c: &Client) -> String {
    let out = out_of_sight(c, Scroll::Down, false).await;
    let unreadable = eval(c, READABLE).await;
    let unreadable = unreadable.as_str().unwrap_or_default();
    [out.as_str(), unreadable]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// From the home page's "Play the computer" to the Ganjifa table, until the deal is on.
async fn play_the_computer_from_home(c: &Client, base: &str) {
    go(c, base, "/").await;
    assert!(click(c, "a[data-quick='ganjifa computer']").await);
    wait_for(
        c,
        "return document.querySelector('.gtable')?.dataset.status === 'playing'",
        30,
    )
    .await;
}

async fn play_to_the_end(c: &Client, name: &str) {
    let started = Instant::now();
    let mut moves = 0;
    while let Some(clicked) = click_a_move(c).await {
        if clicked {
            moves += 1;
            if moves == 40 {
                screenshot(c, name).await;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(started.elapsed().as_secs() < 400, "the match did not end");
    }
    assert!(moves > 0, "no move was made");
}

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
    for guest in [&second, &third] {
        guest.goto(&link).await.unwrap();
    }
    for c in [&host, &second, &third] {
        wait_for_status(c, "playing", 20).await;
    }
    let started = Instant::now();
    let mut moves = 0;
    let mut looked = false;
    loop {
        let mut going = false;
        for c in [&host, &second, &third] {
            if let Some(clicked) = click_a_move(c).await {
                going = true;
                moves += usize::from(clicked);
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
        if started.elapsed().as_secs() >= 400 {
            let mut states = Vec::new();
            for c in [&host, &second, &third] {
                states.push(eval(c, "return (document.querySelector('#status')?.textContent || '') + ' | ' + (document.querySelector('#why')?.textContent || '') + ' | ' + [...document.querySelectorAll('[data-area=actions] button, .ghand button')].map((b) => b.dataset.card || b.textContent).join(',')").await);
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
async fn the_staged_deal_plays_itself_pauses_and_steps() {
    let (mut driver, server) = staged!(|_| {});
    for (width, height) in [(390, 844), (1280, 800)] {
        let c = driver.session(width, height).await;
        go(&c, &server.base, "/ganjifa").await;
        click(&c, "#staged-link").await;
        wait_for(
            &c,
            "return document.body.dataset.step === '0' && document.querySelector('.table')",
            20,
        )
        .await;
        let opening = eval(
            &c,
            "return document.querySelector('#staged-line').textContent",
        )
        .await;
        assert!(
            opening.as_str().unwrap().starts_with("The opening"),
            "{opening}"
        );
        // Played from the start, it moves on by itself; paused, it stays put.
        click(&c, "#staged-play").await;
        assert_eq!(
            eval(&c, "return document.body.dataset.playing").await,
            "true"
        );
        wait_for(&c, "return Number(document.body.dataset.step) >= 3", 30).await;
        click(&c, "#staged-play").await;
        let paused = eval(&c, "return document.body.dataset.step").await;
        assert_eq!(
            eval(&c, "return document.body.dataset.playing").await,
            "false"
        );
        tokio::time::sleep(Duration::from_millis(2500)).await;
        assert_eq!(eval(&c, "return document.body.dataset.step").await, paused);
        // One step forward and back, by button and by arrow key.
        let at: u64 = paused.as_str().unwrap().parse().unwrap();
        click(&c, "#staged-step").await;
        assert_eq!(
            eval(&c, "return document.body.dataset.step").await,
            (at + 1).to_string()
        );
        click(&c, "#staged-back").await;
        assert_eq!(
            eval(&c, "return document.body.dataset.step").await,
            at.to_string()
        );
        // The next highlight is one of the rules at work, said in its line; the page draws the
        // trick the server's view holds.
        click(&c, "#staged-highlight").await;
        let line = wait_for(&c, "const l = document.querySelector('#staged-line').textContent; return /^A (run|deni|talafa|face-down talafa|blind lead)|^An utari/.test(l) && l", 5).await;
        assert!(!line.as_str().unwrap().is_empty());
        let trick = eval(
            &c,
            "return document.querySelector('.trick h2')?.textContent || ''",
        )
        .await;
        assert!(trick.as_str().unwrap().contains("led by"), "{trick}");
        screenshot(&c, &format!("ganjifa-staged-{width}x{height}")).await;
        // Scrolled down to the trick, the buttons and the line stay in sight.
        eval(
            &c,
            "document.querySelector('.trick').scrollIntoView({ block: 'end' }); return true",
        )
        .await;
        let bar_seen = eval(
            &c,
            "return document.querySelector('.staged-bar').getBoundingClientRect().top >= 0",
        )
        .await;
        assert_eq!(bar_seen, true);
        screenshot(&c, &format!("ganjifa-staged-trick-{width}x{height}")).await;
        c.close().await.unwrap();
    }
}

/// The glow the last move's cards were given and its ring, once a step has put cards in the trick.
const ARRIVING: &str = "const l = document.querySelector('.trick .last-move'); return l && getComputedStyle(l).animationName + ' ' + getComputedStyle(l).boxShadow";

#[actix_rt::test]
async fn the_staged_deal_steps_by_keyboard_and_moves_nothing_under_reduced_motion() {
    let (mut driver, server) = staged!(|_| {});
    for reduced in [false, true] {
        let c = driver.motion_session(reduced, 1280, 800).await;
        go(&c, &server.base, "/ganjifa/staged").await;
        wait_for(&c, "return document.body.dataset.step === '0'", 20).await;
        let motion = eval(&c, "return document.body.dataset.motion").await;
        assert_eq!(motion, if reduced { "reduced" } else { "full" });
        // The arrow keys step forward and back.
        let body = c.find(fantoccini::Locator::Css("body")).await.unwrap();
        for _ in 0..2 {
            body.send_keys(&char::from(fantoccini::key::Key::Right).to_string())
                .await
                .unwrap();
        }
        wait_for(&c, "return document.body.dataset.step === '2'", 5).await;
        body.send_keys(&char::from(fantoccini::key::Key::Left).to_string())
            .await
            .unwrap();
        wait_for(&c, "return document.body.dataset.step === '1'", 5).await;
        body.send_keys(&char::from(fantoccini::key::Key::Right).to_string())
            .await
            .unwrap();
        wait_for(&c, "return document.body.dataset.step === '2'", 5).await;
        // The card that just arrived glows once when motion is welcome, and is ringed without it.
        let arriving = wait_for(&c, ARRIVING, 5).await;
        let arriving = arriving.as_str().unwrap();
        if reduced {
            assert!(arriving.starts_with("none "), "{arriving}");
            assert!(!arriving.ends_with(" none"), "{arriving}");
        } else {
            assert!(arriving.starts_with("glow "), "{arriving}");
        }
        c.close().await.unwrap();
    }
}

/// Plays from the home page at one size: at every turn the hand and the action bar are wholly in the
/// first screen and nothing scrolls; a screenshot once the trick has cards from several seats.
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
    // The drawers open over the felt and still leave the hand and the action bar in sight.
    press(&c, "[data-key='drawer:tracker']").await;
    wait_for(&c, "return document.querySelector('#drawer-tracker')", 10).await;
    assert_eq!(fits(&c).await, "", "with the tracker open");
    screenshot(&c, &format!("ganjifa-tracker-{width}x{height}")).await;
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

/// Waits for a turn where a card is put down from the hand (the opening or following a lead),
/// making whatever other moves come first.
async fn play_to_a_put_down(c: &Client) {
    let started = Instant::now();
    loop {
        let state = wait_for_our_turn(c).await;
        let put_down = eval(
            c,
            "return /^Put down/.test(document.querySelector('#status')?.textContent || '')",
        )
        .await;
        if state == "card" && put_down == true {
            return;
        }
        assert_ne!(state, "over", "the match ended before a card was put down");
        click_a_move(c).await;
        tokio::time::sleep(Duration::from_millis(250)).await;
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no card to put down"
        );
    }
}

/// Puts down the first playable card and, at the first redraw after it, answers which card elements
/// run Web Animations (the travel; the glow and hover are CSS) and how many animations run at all.
const PUT_DOWN_AND_WATCH: &str = r#"
const done = arguments[arguments.length - 1];
const card = document.querySelector('.ghand button.gcard.playable');
const played = card.dataset.card;
const seen = new MutationObserver(() => {
  seen.disconnect();
  const all = [...document.querySelectorAll('[data-card]')];
  const travelling = all.filter((c) => c.getAnimations().some((a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition)));
  done({
    played,
    travelling: travelling.map((c) => c.dataset.card),
    any: all.reduce((n, c) => n + c.getAnimations().length, 0),
    in_trick: !!document.querySelector(`.trick [data-card="${played}"]`),
  });
});
seen.observe(document.getElementById('board'), { childList: true, subtree: true });
card.click();
"#;

#[actix_rt::test]
async fn a_card_put_down_travels_to_the_trick_and_stays_still_under_reduced_motion() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    for reduced in [false, true] {
        let c = driver.motion_session(reduced, 1280, 800).await;
        play_the_computer_from_home(&c, &server.base).await;
        play_to_a_put_down(&c).await;
        let seen = c
            .execute_async(PUT_DOWN_AND_WATCH, vec![])
            .await
            .expect("the board is redrawn after the move");
        let played = seen["played"].as_str().unwrap();
        assert_eq!(seen["in_trick"], true, "{seen}");
        let travelling: Vec<&str> = seen["travelling"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        if reduced {
            assert_eq!(seen["any"], 0, "nothing moves under reduced motion: {seen}");
        } else {
            assert!(
                travelling.contains(&played),
                "the card played travels: {seen}"
            );
        }
        // The computers' cards travel too: one that comes into the trick from another seat, seen
        // while play goes on.
        if !reduced {
            let watch = r#"
window.theirs = [];
new MutationObserver(() => {
  for (const c of document.querySelectorAll('.trick .g-pile:not(.mine) [data-card]')) {
    if (c.getAnimations().some((a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition))) window.theirs.push(c.dataset.card);
  }
}).observe(document.getElementById('board'), { childList: true, subtree: true });
return true;
"#;
            eval(&c, watch).await;
            let started = Instant::now();
            while eval(&c, "return window.theirs.length").await == 0 {
                assert!(
                    started.elapsed() < Duration::from_secs(90),
                    "no computer's card travelled"
                );
                if click_a_move(&c).await.is_none() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
            assert_ne!(eval(&c, "return window.theirs.length").await, 0);
        }
        assert_no_console_error(&c, "while cards travel").await;
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn focus_stays_on_the_same_control_and_card_after_a_redraw() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    let c = driver.session(390, 844).await;
    play_the_computer_from_home(&c, &server.base).await;
    // A drawer's switch, pressed from the keyboard: the board is drawn anew and focus stays on it.
    // The computers' moves redraw the board meanwhile: a key sent to the switch just replaced is
    // sent again to the new one.
    let enter = char::from(fantoccini::key::Key::Enter).to_string();
    let mut pressed = false;
    for _ in 0..20 {
        eval(
            &c,
            "document.querySelector('[data-key=\"drawer:tracker\"]').focus(); return true",
        )
        .await;
        let focused = c.active_element().await.unwrap();
        if focused.send_keys(&enter).await.is_ok() {
            pressed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(pressed, "Enter never reached the tracker's switch");
    wait_for(&c, "return document.querySelector('#drawer-tracker')", 10).await;
    let key = "return document.activeElement?.dataset.key || document.activeElement?.tagName";
    assert_eq!(eval(&c, key).await, "drawer:tracker");
    // A move made by the mouse (a script's click leaves focus alone) and the computers' answers
    // redraw the board again: focus is still there.
    wait_for_our_turn(&c).await;
    eval(
        &c,
        "document.querySelector('.gtable').dataset.old = '1'; return true",
    )
    .await;
    let move_by_script = r#"
const el = document.querySelector('#next-deal') || document.querySelector('.g-backs button')
  || document.querySelector('[data-area=actions] button[data-action]') || document.querySelector('.ghand button.gcard.playable');
el.click();
return true;
"#;
    eval(&c, move_by_script).await;
    wait_for(
        &c,
        "return !document.querySelector('.gtable').dataset.old",
        30,
    )
    .await;
    assert_eq!(eval(&c, key).await, "drawer:tracker");
    // A card in the hand keeps focus too, when the board is drawn again around it.
    play_to_a_put_down(&c).await;
    let card = eval(
        &c,
        "const c = document.querySelector('.ghand button.gcard.playable'); c.focus(); return c.dataset.card",
    )
    .await;
    eval(
        &c,
        "document.querySelector('[data-key=\"drawer:tracker\"]').click(); return true",
    )
    .await;
    wait_for(&c, "return !document.querySelector('#drawer-tracker')", 10).await;
    assert_eq!(
        eval(&c, "return document.activeElement?.dataset.card").await,
        card
    );
    assert_no_console_error(&c, "while focus is kept").await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_ganjifa_move_tried_offline_is_said_and_kept_and_goes_once_back_online() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    let proxy = Proxy::start(server.running.addr).await;
    let c = driver.session(390, 844).await;
    play_the_computer_from_home(&c, &proxy.base).await;
    play_to_a_put_down(&c).await;
    let card = eval(
        &c,
        "return document.querySelector('.ghand button.gcard.playable').dataset.card",
    )
    .await;
    let card = card.as_str().unwrap().to_string();
    // The network goes.
    proxy.go_offline(&c, 20).await;
    // The move is tried: the page says it was not sent, and the card is still in the hand. A
    // player waits for the cards to land before aiming at one.
    settle(&c).await;
    press(&c, &format!(".ghand [data-card='{card}']")).await;
    let said = wait_for_text(
        &c,
        "const b = document.querySelector('#banner'); return !b.hidden && /Not sent/.test(b.textContent) && b.textContent",
        10,
    )
    .await;
    assert!(said.contains("Not sent"), "{said}");
    let in_hand = format!("return !!document.querySelector(\".ghand [data-card='{card}']\")");
    assert_eq!(eval(&c, &in_hand).await, true);
    assert_eq!(fits(&c).await, "", "offline");
    screenshot(&c, "ganjifa-offline-390x844").await;
    // Back online, the same card goes into the trick.
    proxy.come_back(&c, 30).await;
    wait_for(
        &c,
        &format!(
            "return !!document.querySelector(\".ghand button.gcard.playable[data-card='{card}']\")"
        ),
        20,
    )
    .await;
    settle(&c).await;
    press(&c, &format!(".ghand [data-card='{card}']")).await;
    wait_for(
        &c,
        &format!("return !!document.querySelector(\".trick [data-card='{card}']\")"),
        20,
    )
    .await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_guided_first_match_speaks_from_the_opening_to_the_end() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        pages_shuffle(s);
    });
    let c = driver.session(390, 844).await;
    go(&c, &server.base, "/ganjifa").await;
    click(&c, "#play-guided").await;
    let first = wait_for_text(&c, GUIDE_HEADING, 20).await;
    assert!(!first.is_empty());
    docs_screenshot(&c, "ganjifa-guide-390x844").await;
    play_to_the_end(&c, "ganjifa-guided-390x844").await;
    // A phone sees the whole result, the totals line included.
    guided_deal_over(&c, "ganjifa-result-390x844").await;
    c.close().await.unwrap();
}
