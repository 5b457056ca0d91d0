//! The Panjpar hand in Chromium: a card dragged onto an attack card beats it, by mouse and by finger
//! (a card that cannot beat it stays, and the line under it says why, in the board's words for the
//! server's code); a choice of cards that is no attack worded from the server's code; and the coach's
//! hint to beat shown on the cards.

use fantoccini::actions::{
    InputSource, MouseActions, PointerAction, TouchActions, MOUSE_BUTTON_LEFT,
};
use fantoccini::elements::Element;
use fantoccini::Client;

use super::{click_a_move, play_to_an_attack, BOARD_STATE};
use crate::chromium::*;

/// Drags `card` onto `target` with a mouse or a finger, as WebDriver pointer actions.
async fn drag(c: &Client, card: Element, target: Element, touch: bool) {
    use std::time::Duration;
    let steps = [
        PointerAction::MoveToElement {
            element: card,
            duration: None,
            x: 0.0,
            y: 0.0,
        },
        PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        },
        PointerAction::MoveBy {
            duration: Some(Duration::from_millis(100)),
            x: 0.0,
            y: -30.0,
        },
        PointerAction::MoveToElement {
            element: target,
            duration: Some(Duration::from_millis(250)),
            x: 0.0,
            y: 0.0,
        },
        PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        },
    ];
    if touch {
        let finger = steps
            .into_iter()
            .fold(TouchActions::new("finger".into()), |a, s| a.then(s));
        c.perform_actions(finger).await.unwrap();
    } else {
        let mouse = steps
            .into_iter()
            .fold(MouseActions::new("mouse".into()), |a, s| a.then(s));
        c.perform_actions(mouse).await.unwrap();
    }
}

/// Plays by clicking until this browser defends and holds a card that beats the chosen attack card.
async fn play_to_a_defence(c: &Client) {
    let ready = "return document.querySelector('#pick-up') && document.querySelector('.battle [data-open].target') && document.querySelector('.hand button.card:not([aria-disabled=true])') && true";
    let started = std::time::Instant::now();
    while eval(c, ready).await != true {
        if eval(c, &BOARD_STATE).await == "over" {
            click(c, "#rematch").await;
        }
        // A defence this browser could drag is left for the drag.
        if eval(c, ready).await != true {
            click_a_move(c).await;
        }
        assert!(
            started.elapsed().as_secs() < 200,
            "no defence with a beating card came up"
        );
    }
}

/// Drags the first card that beats the chosen attack card onto it, and sees it lie there.
async fn defend_by_dragging(c: &Client, touch: bool) {
    settle(c).await;
    let card = find(c, ".hand button.card:not([aria-disabled=true])")
        .await
        .unwrap();
    let target = find(c, ".battle [data-open].target").await.unwrap();
    let code = card.attr("data-card").await.unwrap().unwrap();
    let attack = target.attr("data-card").await.unwrap().unwrap();
    drag(c, card, target, touch).await;
    let beaten = format!(
        "return !document.querySelector('.hand [data-card=\"{code}\"]') && [...document.querySelectorAll('.battle .pair')].some(p => [...p.querySelectorAll('[data-card]')].map(e => e.dataset.card).join(' ') === '{attack} {code}')"
    );
    wait_for(c, &beaten, 10).await;
    assert!(
        find(c, ".drag-ghost").await.is_none(),
        "the dragged copy was left behind"
    );
}

#[actix_rt::test]
async fn a_hand_card_dragged_onto_an_attack_card_beats_it() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let c = driver.session(390, 844).await;
    open_panjpar_computer_table(&c, &server.base).await;
    play_to_a_defence(&c).await;
    settle(&c).await;
    // A dimmed card dropped on the attack card stays in the hand, and the line under it says why.
    if let Some(weak) = find(&c, ".hand button.card[aria-disabled=true]").await {
        let code = weak.attr("data-card").await.unwrap().unwrap();
        let target = find(&c, ".battle [data-open].target").await.unwrap();
        drag(&c, weak, target, false).await;
        let why = wait_for(&c, "return document.querySelector('#why').textContent", 5).await;
        // The server's reason travels as a code; the board words it.
        let why = why.as_str().unwrap();
        assert!(
            why.starts_with("The ") && why.contains(" cannot beat it: "),
            "{why}"
        );
        assert!(
            [
                "lower than the ",
                "a trump is beaten only by a higher trump.",
                "not the same suit and not a trump."
            ]
            .iter()
            .any(|reason| why.contains(reason)),
            "{why}"
        );
        assert!(find(&c, &format!(".hand [data-card=\"{code}\"]"))
            .await
            .is_some());
        screenshot(&c, "panjpar-refused-drop-390x844").await;
    }
    defend_by_dragging(&c, false).await;
    screenshot(&c, "panjpar-dragged-defence-390x844").await;
    // A finger does the same as a mouse.
    play_to_a_defence(&c).await;
    defend_by_dragging(&c, true).await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_selection_that_is_not_an_attack_is_worded_from_the_servers_code() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let c = driver.session(390, 844).await;
    open_panjpar_computer_table(&c, &server.base).await;
    play_to_an_attack(&c).await;
    settle(&c).await;
    let pair = "return document.querySelectorAll('.hand button.card').length >= 2";
    assert_eq!(
        eval(&c, pair).await,
        true,
        "the attacker holds two cards or more"
    );
    let why = "return document.querySelector('#why').textContent";
    let two = "const b = document.querySelectorAll('.hand button.card'); b[0].click(); b[1].click(); return true";
    eval(&c, two).await;
    let said = wait_for(&c, why, 5).await;
    let said = said.as_str().unwrap();
    assert!(
        said == "2 cards are not an attack: lay 1, 3 or 5."
            || said.starts_with("The other seat holds "),
        "{said}"
    );
    // Both taken back: nothing chosen.
    eval(&c, two).await;
    let said = wait_for(&c, why, 5).await;
    assert_eq!(said, "Choose 1, 3 or 5 cards to attack with.");
    c.close().await.unwrap();
}

/// The coach's hint shows on the board what it says: a beat it recommends makes the attack card it
/// beats the one chosen to beat, and marks the hand card to beat it with; a pick-up it recommends
/// rings the Pick up button and marks no card (and the next defence is tried).
/// Whether the Pick up button is ringed as the coach's hint.
const PICK_UP_RINGED: &str = "return !!document.querySelector('#pick-up.recommended')";

#[actix_rt::test]
async fn a_hint_to_beat_points_at_the_attack_card_and_the_card_to_beat_it_with() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 10;
    });
    let c = driver.session(390, 844).await;
    open_panjpar_computer_table(&c, &server.base).await;
    let mut pointed = false;
    for _ in 0..8 {
        play_to_a_defence(&c).await;
        settle(&c).await;
        assert!(click(&c, "#hint").await, "the hint button at a defence");
        // The coach's words are put away as the view changes: these are this defence's.
        let action = wait_for(
            &c,
            "const p = document.querySelector('#coach'); return p.textContent.startsWith('Coach:') && p.dataset.action",
            30,
        )
        .await;
        let action: serde_json::Value = serde_json::from_str(action.as_str().unwrap()).unwrap();
        let marked = eval(
            &c,
            "return [...document.querySelectorAll('.hand .recommended')].map(b => b.dataset.card)",
        )
        .await;
        if action["type"] == "beat" {
            let target = eval(
                &c,
                "return document.querySelector('.battle [data-open].target').dataset.card",
            )
            .await;
            assert_eq!(target, action["attack"], "{action}");
            // The whole defence is marked: every card it beats with, and Pick up if it ends in one.
            let with = marked.as_array().cloned().unwrap_or_default();
            assert!(with.contains(&action["with"]), "{action}: {with:?}");
            let said = text_of(&c, "#coach", 5).await;
            let ringed = eval(&c, PICK_UP_RINGED).await;
            assert_eq!(
                ringed,
                serde_json::json!(said.contains("picking up")),
                "{said}"
            );
            pointed = true;
            break;
        }
        assert_eq!(marked, serde_json::json!([]), "{action}");
        // A pick-up it recommends rings the Pick up button.
        let ringed = eval(&c, PICK_UP_RINGED).await;
        assert_eq!(
            ringed,
            serde_json::json!(action["type"] == "pick-up"),
            "{action}"
        );
        click_a_move(&c).await;
    }
    assert!(pointed, "no beat was recommended in eight defences");
    assert_no_console_error(&c, "after the hints").await;
    c.close().await.unwrap();
}
