//! The staged Ganjifa deal in Chromium: it plays itself, pauses, steps forward and back by button and
//! by arrow key, says which rule each highlight shows, keeps its bar in sight, and moves nothing under
//! reduced motion (the card just arrived ringed instead of glowing).

use std::time::Duration;

use fantoccini::key::Key;

use crate::chromium::*;

/// A script: the step the staged deal shows.
const STEP: &str = "return document.body.dataset.step";

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
        let paused = eval(&c, STEP).await;
        assert_eq!(
            eval(&c, "return document.body.dataset.playing").await,
            "false"
        );
        tokio::time::sleep(Duration::from_millis(2500)).await;
        assert_eq!(eval(&c, STEP).await, paused);
        // One step forward and back, by button and by arrow key.
        let at: u64 = paused.as_str().unwrap().parse().unwrap();
        click(&c, "#staged-step").await;
        assert_eq!(eval(&c, STEP).await, (at + 1).to_string());
        click(&c, "#staged-back").await;
        assert_eq!(eval(&c, STEP).await, at.to_string());
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
            key_press(&body, Key::Right).await.unwrap();
        }
        wait_for(&c, "return document.body.dataset.step === '2'", 5).await;
        key_press(&body, Key::Left).await.unwrap();
        wait_for(&c, "return document.body.dataset.step === '1'", 5).await;
        key_press(&body, Key::Right).await.unwrap();
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
