//! Panjpar in Chromium: whole matches played by clicking against the computer, between two browsers
//! joined through the friends link, and in Persian; high contrast across a reload; a keyboard-only move;
//! a defence made by dragging; the reconnecting banner when the network drops; the message for a move
//! made on an out-of-date view.

mod chromium;
mod support;

use fantoccini::actions::{
    InputSource, MouseActions, PointerAction, TouchActions, MOUSE_BUTTON_LEFT,
};
use fantoccini::elements::Element;
use fantoccini::key::Key;
use fantoccini::Client;

use chromium::proxy::Proxy;
use chromium::*;
use support::TestServer;

/// What the Panjpar board offers now, read from the page.
const BOARD_STATE: &str = r#"
const t = document.querySelector('.table');
if (!t) return 'none';
if (t.dataset.status === 'match-over') return 'over';
if (document.querySelector('#next-deal')) return 'next';
if (document.querySelector('[data-colour]')) return 'guess';
if (document.querySelector('#attack')) return 'attack';
if (document.querySelector('#pick-up')) return 'defend';
return 'wait';
"#;

/// Makes one move by clicking, as a player would; returns false once the match is over.
async fn click_a_move(client: &Client) -> bool {
    let state = eval(client, BOARD_STATE).await;
    match state.as_str().unwrap_or("none") {
        "over" => return false,
        "next" => {
            click(client, "#next-deal").await;
        }
        "guess" => {
            click(client, "[data-colour=red]").await;
        }
        "attack" => {
            // One card is always an attack; the Attack button lights up only for a legal choice.
            let chosen = click(client, ".hand button.card").await;
            if chosen {
                wait_for(
                    client,
                    "return !document.querySelector('#attack')?.disabled",
                    5,
                )
                .await;
                click(client, "#attack").await;
            }
        }
        "defend" => {
            let beaten = click(client, ".hand button.card:not([aria-disabled=true])").await;
            if !beaten {
                click(client, "#pick-up").await;
            }
        }
        _ => {}
    }
    tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    true
}

async fn play_to_the_end(clients: &[&Client], screenshots: Option<&str>) {
    let started = std::time::Instant::now();
    let mut moves = 0;
    loop {
        let mut going = false;
        for c in clients {
            going |= click_a_move(c).await;
        }
        if !going {
            break;
        }
        moves += 1;
        if moves == 6 {
            if let Some(name) = screenshots {
                screenshot(clients[0], name).await;
            }
        }
        assert!(started.elapsed().as_secs() < 240, "the match did not end");
    }
    for c in clients {
        wait_for(c, "return document.querySelector('#rematch') !== null", 10).await;
    }
}

fn server() -> TestServer {
    TestServer::start(|s| s.bot_delay_ms = 5)
}

#[actix_rt::test]
async fn a_panjpar_match_against_the_computer_played_by_clicking() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = server();
    for (width, height) in [(390, 844), (1280, 800)] {
        let c = driver.session(width, height).await;
        c.goto(&format!("{}/panjpar", server.base)).await.unwrap();
        click(&c, "input[name=length][value='1']").await;
        click(&c, "#play-computer").await;
        wait_for(
            &c,
            "return location.pathname.startsWith('/t/') && document.querySelector('.table')",
            20,
        )
        .await;
        play_to_the_end(&[&c], Some(&format!("panjpar-{width}x{height}"))).await;
        let result = eval(&c, "return document.querySelector('#result').textContent").await;
        assert!(
            result.as_str().unwrap().contains("won the match"),
            "{result}"
        );
        screenshot(&c, &format!("panjpar-result-{width}x{height}")).await;
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn a_panjpar_friends_match_between_two_browsers_joined_by_the_link() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = server();
    let host = driver.session(1280, 800).await;
    let guest = driver.session(390, 844).await;
    host.goto(&format!("{}/panjpar", server.base))
        .await
        .unwrap();
    click(&host, "input[name=length][value='1']").await;
    click(&host, "#play-friends").await;
    let link = wait_for(
        &host,
        "return document.querySelector('#share-link')?.value",
        10,
    )
    .await;
    let link = link.as_str().unwrap().to_string();
    assert!(link.contains("/t/"), "{link}");
    click(&host, "#go-to-table").await;
    wait_for(
        &host,
        "return document.querySelector('#share-link') && document.querySelector('.table')",
        10,
    )
    .await;
    screenshot(&host, "panjpar-friends-waiting-1280x800").await;
    guest.goto(&link).await.unwrap();
    wait_for(
        &guest,
        "return document.querySelector('.table')?.dataset.status === 'playing'",
        20,
    )
    .await;
    play_to_the_end(&[&host, &guest], Some("panjpar-friends-1280x800")).await;
    screenshot(&guest, "panjpar-friends-result-390x844").await;
    // A third browser finds the table full.
    let third = driver.session(390, 844).await;
    third.goto(&link).await.unwrap();
    let refused = wait_for(&third, "return document.body.dataset.refused", 10).await;
    assert_eq!(refused, "409");
    let said = eval(
        &third,
        "return document.querySelector('#opening').textContent",
    )
    .await;
    assert!(said.as_str().unwrap().contains("full"), "{said}");
    for c in [host, guest, third] {
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn the_persian_pages_are_right_to_left_and_the_persian_table_plays() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = server();
    let c = driver.session(390, 844).await;
    c.goto(&format!("{}/fa/panjpar/rules", server.base))
        .await
        .unwrap();
    assert_eq!(eval(&c, "return document.documentElement.dir").await, "rtl");
    let rows = eval(
        &c,
        "return [...document.querySelectorAll('[data-cards]')].map(r => r.dir + r.children.length)",
    )
    .await;
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .all(|r| r.as_str().unwrap().starts_with("ltr")),
        "{rows}"
    );
    screenshot(&c, "fa-panjpar-rules-390x844").await;
    c.goto(&format!("{}/fa/panjpar", server.base))
        .await
        .unwrap();
    assert_eq!(eval(&c, "return document.documentElement.dir").await, "rtl");
    click(&c, "input[name=length][value='1']").await;
    click(&c, "#play-computer").await;
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    assert_eq!(
        eval(&c, "return document.querySelector('#board').dir").await,
        "rtl"
    );
    let hand_rows = eval(
        &c,
        "return [...document.querySelectorAll('#board .cards')].every(r => r.dir === 'ltr')",
    )
    .await;
    assert_eq!(hand_rows, true);
    play_to_the_end(&[&c], Some("panjpar-fa-390x844")).await;
    let result = eval(&c, "return document.querySelector('#result').textContent").await;
    assert!(result.as_str().unwrap().contains("مسابقه"), "{result}");
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_strong_computer_table_started_from_the_landing_shows_its_level() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = TestServer::start(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 5;
    });
    let c = driver.session(1280, 800).await;
    c.goto(&format!("{}/panjpar", server.base)).await.unwrap();
    click(&c, "input[name=length][value='1']").await;
    click(&c, "#level-strong").await;
    click(&c, "#play-computer").await;
    let shown = wait_for(
        &c,
        "const l = document.querySelector('#level-shown'); return l && [l.dataset.level, l.textContent]",
        20,
    )
    .await;
    assert_eq!(shown[0], "strong", "{shown}");
    assert!(
        shown[1].as_str().unwrap().contains("strong computer"),
        "{shown}"
    );
    screenshot(&c, "panjpar-strong-1280x800").await;
    // Once the match is over, the next one may be against the standard computer.
    play_to_the_end(&[&c], None).await;
    click(&c, "#rematch-level input[value=standard]").await;
    click(&c, "#rematch").await;
    wait_for(
        &c,
        "return document.querySelector('#level-shown')?.dataset.level === 'standard'",
        20,
    )
    .await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn high_contrast_survives_a_reload_and_the_keyboard_alone_makes_a_move() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = TestServer::start(|s| s.bot_delay_ms = 600);
    let c = driver.session(1280, 800).await;
    c.goto(&format!("{}/panjpar/rules", server.base))
        .await
        .unwrap();
    click(&c, "[data-contrast-switch]").await;
    c.refresh().await.unwrap();
    let on = eval(
        &c,
        "return document.documentElement.classList.contains('contrast')",
    )
    .await;
    assert_eq!(on, true, "high contrast was forgotten");
    c.goto(&format!("{}/panjpar", server.base)).await.unwrap();
    click(&c, "#play-computer").await;
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    // Wait for our first decision: the guess, or an attack or defence after the computer's guess.
    let state = wait_for(&c, &format!("const s = (() => {{ {BOARD_STATE} }})(); return ['guess','attack','defend'].includes(s) && s"), 20).await;
    let target = match state.as_str().unwrap() {
        "guess" => "[data-colour]",
        "attack" => ".hand button.card",
        _ => "#pick-up",
    };
    tab_to(&c, target).await;
    press(&c, Key::Enter).await;
    if state == "attack" {
        tab_to(&c, "#attack").await;
        press(&c, Key::Enter).await;
    }
    // The computer waits 600 ms before its move, so the spoken line still tells ours.
    let moved = "return /^You (called|attacked|picked up)/.test(document.querySelector('#live').textContent)";
    wait_for(&c, moved, 10).await;
    screenshot(&c, "panjpar-contrast-1280x800").await;
    c.close().await.unwrap();
}

async fn press(c: &Client, key: Key) {
    let active = c.active_element().await.expect("a focused element");
    active
        .send_keys(&char::from(key).to_string())
        .await
        .expect("a key press");
}

/// Presses Tab until the focused element matches `css`.
async fn tab_to(c: &Client, css: &str) {
    let check = format!(
        "return document.activeElement && document.activeElement.matches({})",
        serde_json::to_string(css).unwrap()
    );
    for _ in 0..80 {
        if eval(c, &check).await == true {
            return;
        }
        press(c, Key::Tab).await;
    }
    panic!("Tab never reached {css}");
}

/// Opens a one-deal table against the computer from `base` and waits for the board.
async fn open_computer_table(c: &Client, base: &str) -> String {
    c.goto(&format!("{base}/panjpar")).await.unwrap();
    click(c, "input[name=length][value='1']").await;
    click(c, "#play-computer").await;
    wait_for(
        c,
        "return location.pathname.startsWith('/t/') && document.querySelector('.table')",
        20,
    )
    .await;
    let path = eval(c, "return location.pathname").await;
    path.as_str().unwrap().trim_start_matches("/t/").to_string()
}

/// Makes one move in this browser and waits until the table has taken it (its version moved on).
async fn move_and_see_it_taken(c: &Client, server: &TestServer, table: &str) {
    let before = server.record(table).await.version;
    let started = std::time::Instant::now();
    click_a_move(c).await;
    while server.record(table).await.version == before {
        assert!(
            started.elapsed().as_secs() < 10,
            "the table never took the move"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Waits until this browser has a decision to make (guess, attack or defend) and says which.
async fn wait_for_our_turn(c: &Client) -> String {
    let turn = wait_for(c, &format!("const s = (() => {{ {BOARD_STATE} }})(); return ['guess','attack','defend','next','over'].includes(s) && s"), 30).await;
    turn.as_str().unwrap().to_string()
}

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
        if eval(c, BOARD_STATE).await == "over" {
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
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = server();
    let c = driver.session(390, 844).await;
    open_computer_table(&c, &server.base).await;
    play_to_a_defence(&c).await;
    // A dimmed card dropped on the attack card stays in the hand, and the line under it says why.
    if let Some(weak) = find(&c, ".hand button.card[aria-disabled=true]").await {
        let code = weak.attr("data-card").await.unwrap().unwrap();
        let target = find(&c, ".battle [data-open].target").await.unwrap();
        drag(&c, weak, target, false).await;
        let why = wait_for(&c, "return document.querySelector('#why').textContent", 5).await;
        assert!(why.as_str().unwrap().contains("cannot beat it"), "{why}");
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
async fn a_dropped_connection_shows_the_banner_and_the_seat_resumes_by_itself() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = TestServer::start(|s| s.bot_delay_ms = 600);
    let proxy = Proxy::start(server.running.addr).await;
    let c = driver.session(1280, 800).await;
    let table = open_computer_table(&c, &proxy.base).await;
    wait_for_our_turn(&c).await;
    // The network goes: every connection is cut and, for a moment, nothing gets through.
    proxy.refuse_new(true);
    proxy.drop_connections();
    let shown = "const b = document.querySelector('#banner'); return !b.hidden && b.textContent";
    let said = wait_for(&c, shown, 10).await;
    assert!(said.as_str().unwrap().contains("Reconnecting"), "{said}");
    screenshot(&c, "panjpar-reconnecting-1280x800").await;
    // It comes back: the page reconnects on its own, the banner goes, and the seat plays on.
    proxy.refuse_new(false);
    wait_for(&c, "return document.querySelector('#banner').hidden", 30).await;
    let path = eval(&c, "return location.pathname").await;
    assert_eq!(path, format!("/t/{table}"));
    wait_for_our_turn(&c).await;
    move_and_see_it_taken(&c, &server, &table).await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_move_from_a_tab_with_an_old_view_gets_a_clear_message() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = TestServer::start(|s| s.bot_delay_ms = 600);
    // The second tab reaches the server over a slow link: the relay can hold its replies back.
    let proxy = Proxy::start(server.running.addr).await;
    let first = driver.session(1280, 800).await;
    let second = driver.session(390, 844).await;
    let table = open_computer_table(&first, &server.base).await;
    let token = eval(&first, &format!("return localStorage.getItem('{table}')")).await;
    // The same seat in the second tab: the token the browser keeps for this table.
    second
        .goto(&format!("{}/panjpar", proxy.base))
        .await
        .unwrap();
    eval(
        &second,
        &format!("localStorage.setItem('{table}', {token}); return true"),
    )
    .await;
    second
        .goto(&format!("{}/t/{table}", proxy.base))
        .await
        .unwrap();
    let turn = wait_for_our_turn(&first).await;
    assert!(
        ["guess", "attack", "defend"].contains(&turn.as_str()),
        "{turn}"
    );
    wait_for(
        &second,
        &format!("const s = (() => {{ {BOARD_STATE} }})(); return s === '{turn}'"),
        20,
    )
    .await;
    proxy.hold_replies(true);
    move_and_see_it_taken(&first, &server, &table).await;
    // The second tab still shows the old view, and moves on it.
    click_a_move(&second).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    proxy.hold_replies(false);
    let said = wait_for(
        &second,
        "const b = document.querySelector('#banner'); return !b.hidden && b.textContent",
        10,
    )
    .await;
    assert!(said.as_str().unwrap().contains("moved on"), "{said}");
    screenshot(&second, "panjpar-stale-view-390x844").await;
    // The current view followed the message: both tabs show the same table again.
    let score = "return document.querySelector('.score').textContent";
    wait_for(
        &second,
        &format!(
            "return document.querySelector('.score').textContent === {}",
            eval(&first, score).await
        ),
        10,
    )
    .await;
    for c in [first, second] {
        c.close().await.unwrap();
    }
}
