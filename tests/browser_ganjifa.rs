//! Ganjifa in Chromium: a whole three-deal match against two computers played by clicking (leads
//! from the ladder's buttons or hand cards, cards put down, backs picked), with screenshots.

mod chromium;
mod support;

use fantoccini::Client;

use chromium::*;
use support::TestServer;

const BOARD_STATE: &str = r#"
const t = document.querySelector('.table');
if (!t) return 'none';
if (t.dataset.status === 'match-over') return 'over';
if (document.querySelector('#next-deal')) return 'next';
if (document.querySelector('.backs button')) return 'pick';
if (document.querySelector('.lead button[data-action]')) return 'lead-button';
if (document.querySelector('.ghand button.gcard.playable')) return 'card';
return 'wait';
"#;

/// Makes one move if this browser has one; `None` once its match is over.
async fn click_a_move(c: &Client) -> Option<bool> {
    let state = eval(c, BOARD_STATE).await;
    Some(match state.as_str().unwrap_or("none") {
        "over" => return None,
        "next" => click(c, "#next-deal").await,
        "pick" => click(c, ".backs button").await,
        "lead-button" => click(c, ".lead button[data-action]").await,
        "card" => click(c, ".ghand button.gcard.playable").await,
        _ => false,
    })
}

async fn play_to_the_end(c: &Client, name: &str) {
    let started = std::time::Instant::now();
    let mut moves = 0;
    while let Some(clicked) = click_a_move(c).await {
        if clicked {
            moves += 1;
            if moves == 40 {
                screenshot(c, name).await;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(started.elapsed().as_secs() < 400, "the match did not end");
    }
    assert!(moves > 0, "no move was made");
}

#[actix_rt::test]
async fn a_ganjifa_match_against_two_computers_played_by_clicking() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = TestServer::start(|s| s.bot_delay_ms = 2);
    let c = driver.session(1280, 800).await;
    c.goto(&format!("{}/ganjifa", server.base)).await.unwrap();
    screenshot(&c, "ganjifa-landing-1280x800").await;
    click(&c, "#play-computer").await;
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    play_to_the_end(&c, "ganjifa-1280x800").await;
    let result = wait_for(
        &c,
        "return document.querySelector('#result')?.textContent",
        10,
    )
    .await;
    assert!(
        result.as_str().unwrap().contains("won the match"),
        "{result}"
    );
    screenshot(&c, "ganjifa-result-1280x800").await;
    c.close().await.unwrap();
    let phone = driver.session(390, 844).await;
    phone
        .goto(&format!("{}/ganjifa", server.base))
        .await
        .unwrap();
    click(&phone, "#play-computer").await;
    wait_for(&phone, "return document.querySelector('.ghand')", 20).await;
    screenshot(&phone, "ganjifa-390x844").await;
    phone.close().await.unwrap();
}

#[actix_rt::test]
async fn a_ganjifa_room_of_three_joined_through_the_link_plays_a_match() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = TestServer::start(|s| s.bot_delay_ms = 2);
    let host = driver.session(1280, 800).await;
    host.goto(&format!("{}/ganjifa", server.base))
        .await
        .unwrap();
    click(&host, "#play-friends").await;
    let link = wait_for(
        &host,
        "return document.querySelector('#share-link')?.value",
        10,
    )
    .await;
    let link = link.as_str().unwrap().to_string();
    click(&host, "#go-to-table").await;
    wait_for(&host, "return document.querySelector('.table')", 10).await;
    let second = driver.session(390, 844).await;
    let third = driver.session(390, 844).await;
    for guest in [&second, &third] {
        guest.goto(&link).await.unwrap();
    }
    for c in [&host, &second, &third] {
        wait_for(
            c,
            "return document.querySelector('.table')?.dataset.status === 'playing'",
            20,
        )
        .await;
    }
    let started = std::time::Instant::now();
    let mut moves = 0;
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
        if moves == 30 {
            screenshot(&second, "ganjifa-friends-390x844").await;
        }
        assert!(started.elapsed().as_secs() < 400, "the match did not end");
    }
    for c in [&host, &second, &third] {
        let result = wait_for(
            c,
            "return document.querySelector('#result')?.textContent",
            10,
        )
        .await;
        assert!(
            result.as_str().unwrap().contains("won the match"),
            "{result}"
        );
    }
    for c in [host, second, third] {
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn the_staged_deal_plays_itself_pauses_and_steps() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = TestServer::start(|_| {});
    for (width, height) in [(390, 844), (1280, 800)] {
        let c = driver.session(width, height).await;
        c.goto(&format!("{}/ganjifa", server.base)).await.unwrap();
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
        tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
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

/// The animation the last move's cards were given, or `none`, once a step has put cards in the trick.
const ARRIVING: &str = "const a = document.querySelector('.trick .arriving'); const l = document.querySelector('.trick .last-move'); return a && l && getComputedStyle(a).animationName + ' ' + getComputedStyle(l).boxShadow";

#[actix_rt::test]
async fn the_staged_deal_steps_by_keyboard_and_moves_nothing_under_reduced_motion() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = TestServer::start(|_| {});
    for reduced in [false, true] {
        let c = if reduced {
            driver.reduced_motion_session(1280, 800).await
        } else {
            driver.session(1280, 800).await
        };
        c.goto(&format!("{}/ganjifa/staged", server.base))
            .await
            .unwrap();
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
        // The card that just arrived is ringed either way; it slides in only when motion is welcome.
        let arriving = wait_for(&c, ARRIVING, 5).await;
        let arriving = arriving.as_str().unwrap();
        assert!(
            arriving.starts_with(if reduced { "none " } else { "arrive " }),
            "{arriving}"
        );
        assert!(!arriving.ends_with(" none"), "{arriving}");
        c.close().await.unwrap();
    }
}
