//! Ganjifa boards drawn again in Chromium: a card put down travels to the trick (and the computers'
//! cards too), and nothing moves under reduced motion; focus stays on the same control and card when
//! the board is drawn anew.

use std::time::{Duration, Instant};

use fantoccini::key::Key;
use serde_json::Value;

use super::{click_a_move, play_the_computer_from_home, play_to_a_put_down, wait_for_our_turn};
use crate::chromium::*;

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
    let mut pressed = false;
    for _ in 0..20 {
        eval(
            &c,
            "document.querySelector('[data-key=\"drawer:tracker\"]').focus(); return true",
        )
        .await;
        let focused = c.active_element().await.unwrap();
        if key_press(&focused, Key::Enter).await.is_ok() {
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
