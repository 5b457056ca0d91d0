//! Panjpar in Chromium: whole matches played by clicking against the computer, between two browsers
//! joined through the friends link, and in Persian; high contrast across a reload; a keyboard-only move;
//! a defence made by dragging; the reconnecting banner when the network drops; the message for a move
//! made on an out-of-date view. The table on one screen at 1280x800 and 390x844 (hand and action bar in
//! sight at every turn, no console error, screenshots for the README); a move that travels, and does not
//! under reduced motion; focus kept across redraws; a move tried offline refused with a sentence and the
//! choice kept.

use fantoccini::actions::{
    InputSource, MouseActions, PointerAction, TouchActions, MOUSE_BUTTON_LEFT,
};
use fantoccini::elements::Element;
use fantoccini::key::Key;
use std::sync::LazyLock;

use fantoccini::Client;
use serde_json::Value;

use crate::chromium::proxy::Proxy;
use crate::chromium::*;
use crate::support::TestServer;

/// What the Panjpar board offers now, read from the page.
static BOARD_STATE: LazyLock<String> = LazyLock::new(|| {
    board_state(
        r#"
if (document.querySelector('[data-colour]')) return 'guess';
if (document.querySelector('#attack')) return 'attack';
if (document.querySelector('#pick-up')) return 'defend';
"#,
    )
});

/// What a click at the Panjpar board did.
pub(crate) enum Clicked {
    /// Nothing: the match is over.
    Over,
    /// A move was made (or none was open to this seat).
    Moved(bool),
}

/// Makes one move by clicking, as a player would, if the board offers one.
pub(crate) async fn click_panjpar_move(client: &Client) -> Clicked {
    settle(client).await;
    let state = eval(client, &BOARD_STATE).await;
    let moved = match state.as_str().unwrap_or("none") {
        "over" => return Clicked::Over,
        "next" => click(client, "#next-deal").await,
        "guess" => click(client, "[data-colour=red]").await,
        // One card is always an attack; the Attack button lights up only for a legal choice.
        "attack" if click(client, ".hand button.card").await => {
            wait_for(
                client,
                "return !document.querySelector('#attack')?.disabled",
                5,
            )
            .await;
            click(client, "#attack").await
        }
        "defend" => {
            click(client, ".hand button.card:not([aria-disabled=true])").await
                || click(client, "#pick-up").await
        }
        _ => false,
    };
    tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    Clicked::Moved(moved)
}

/// Makes one move by clicking, as a player would; returns false once the match is over.
async fn click_a_move(client: &Client) -> bool {
    !matches!(click_panjpar_move(client).await, Clicked::Over)
}

pub(crate) async fn play_to_the_end(clients: &[&Client], screenshots: Option<&str>) {
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

#[actix_rt::test]
async fn a_panjpar_match_against_the_computer_played_by_clicking() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        pages_shuffle(s);
    });
    for (width, height) in [(390, 844), (1280, 800)] {
        let c = driver.session(width, height).await;
        go(&c, &server.base, "/panjpar").await;
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
        // One panel tells the end, with its reason; nothing else on the board repeats it.
        assert!(
            result
                .as_str()
                .unwrap()
                .contains("played out every card first"),
            "{result}"
        );
        let told = eval(
            &c,
            "return (document.getElementById('board').innerText.match(/won the (match|deal)/g) || []).length",
        )
        .await;
        assert_eq!(told, 1, "the result is said once");
        assert_fair_deal(&c).await;
        assert_eq!(
            result_out_of_sight(&c).await,
            "",
            "the result at {width}x{height}"
        );
        docs_screenshot(&c, &format!("panjpar-result-{width}x{height}")).await;
        c.close().await.unwrap();
    }
}

/// A name that would run a script if a page ever put it into the document as markup (and fits the
/// 20 characters a name may have).
const HOSTILE_NAME: &str = "<img src onerror=a>";

/// Gives this browser's player a name through the header's name form.
async fn give_name(c: &Client, name: &str) {
    click(c, "#name-button").await;
    let input = find(c, "#name-input").await.expect("the name field");
    input.clear().await.unwrap();
    input.send_keys(name).await.unwrap();
    click(c, "#name-form button[type=submit]").await;
    wait_for(c, "return document.querySelector('#name-form').hidden", 5).await;
}

#[actix_rt::test]
async fn a_panjpar_friends_match_between_two_browsers_joined_by_the_link() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let host = driver.session(1280, 800).await;
    let guest = driver.session(390, 844).await;
    go(&host, &server.base, "/panjpar").await;
    click(&host, "input[name=length][value='1']").await;
    let link = friends_link(&host).await;
    assert!(link.contains("/t/"), "{link}");
    click(&host, "#go-to-table").await;
    wait_for(
        &host,
        "return document.querySelector('#share-link') && document.querySelector('.table')",
        10,
    )
    .await;
    // The waiting room says who is here and how many seats are free.
    let room = text_of(&host, "#waiting-room", 10).await;
    assert!(room.contains("1 of 2 here"), "{room}");
    // The host goes by a name that is markup; every page shows it as text.
    give_name(&host, HOSTILE_NAME).await;
    // Its lines stand together at the top of the felt, not spread over its height.
    let gathered = eval(
        &host,
        "return document.querySelector('#share-link').getBoundingClientRect().bottom < innerHeight * 0.75",
    )
    .await;
    assert_eq!(gathered, true, "the waiting room's lines are together");
    screenshot(&host, "panjpar-friends-waiting-1280x800").await;
    guest.goto(&link).await.unwrap();
    wait_for_status(&guest, "playing", 20).await;
    give_name(&guest, "Mina").await;
    let shown = format!(
        "return document.querySelector('#board').textContent.includes({HOSTILE_NAME:?}) && !document.querySelector('img[onerror]')"
    );
    wait_for(&guest, &shown, 10).await;
    wait_for(
        &host,
        "return document.querySelector('#board').textContent.includes('Mina')",
        10,
    )
    .await;
    // A quick phrase from the guest appears beside its seat on the host's board.
    click(&guest, "#say-button").await;
    click(&guest, "[data-phrase=good-game]").await;
    let bubble = text_of(&host, ".phrase-bubble", 10).await;
    assert_eq!(bubble, "Mina Good game!");
    // A name in the middle of a sentence keeps its capitals; "you" and "the computer" do not.
    let words = guest
        .execute_async(
            "import('/static/panjpar-words.js').then(({ WORDS }) => arguments[0](['Mina', 'You', 'The computer'].map(WORDS.en.lastBattle)))",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        words,
        serde_json::json!([
            "The last battle: Mina's attack",
            "The last battle: your attack",
            "The last battle: the computer's attack"
        ])
    );
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
    // It may watch instead, through the link the table gave.
    click(&third, "#watch-instead").await;
    wait_for(
        &third,
        "return document.body.hasAttribute('data-watching') && document.querySelector('.table')",
        20,
    )
    .await;
    // Playing again takes both: the host asks, the guest sees it and keeps the result until it asks too.
    click(&host, "#rematch").await;
    let waiting = wait_for(
        &host,
        "const b = document.querySelector('#rematch'); return b && b.disabled && document.querySelector('#ready-line')?.textContent",
        10,
    )
    .await;
    assert!(
        waiting.as_str().unwrap().contains("Waiting for Mina"),
        "{waiting}"
    );
    let told = text_of(&guest, "#ready-line", 10).await;
    assert!(
        told.contains(&format!("{HOSTILE_NAME} is ready to play again")),
        "{told}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    for c in [&host, &guest] {
        let status = eval(c, "return document.querySelector('.table').dataset.status").await;
        assert_eq!(status, "match-over", "the match started before both asked");
    }
    screenshot(&guest, "panjpar-friends-ready-390x844").await;
    click(&guest, "#rematch").await;
    for c in [&host, &guest] {
        wait_for_status(c, "playing", 10).await;
    }
    for c in [host, guest, third] {
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn the_persian_pages_are_right_to_left_and_the_persian_table_plays() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let c = driver.session(390, 844).await;
    go(&c, &server.base, "/fa/panjpar/rules").await;
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
    go(&c, &server.base, "/fa/panjpar").await;
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
    // The computer's level is said in Persian too (the shared level words, by the board's language).
    let (_, said) = level_shown(&c).await;
    assert!(said.contains("رایانهٔ معمولی"), "{said}");
    play_to_the_end(&[&c], Some("panjpar-fa-390x844")).await;
    let result = eval(&c, "return document.querySelector('#result').textContent").await;
    assert!(result.as_str().unwrap().contains("مسابقه"), "{result}");
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_strong_computer_table_started_from_the_landing_shows_its_level() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 5;
    });
    let c = driver.session(1280, 800).await;
    go(&c, &server.base, "/panjpar").await;
    click(&c, "input[name=length][value='1']").await;
    click(&c, "#level-strong").await;
    click(&c, "#play-computer").await;
    let (shown, said) = level_shown(&c).await;
    assert_eq!(shown, "strong", "{said}");
    assert!(said.contains("strong computer"), "{said}");
    screenshot(&c, "panjpar-strong-1280x800").await;
    // Once the match is over, the next one may be against the standard computer.
    play_to_the_end(&[&c], None).await;
    // Chosen until it is checked: a click that lands while the result panel is still drawn in is
    // made again.
    wait_for(
        &c,
        "const e = document.querySelector('#rematch-level input[value=standard]'); if (e && !e.checked) e.click(); return e && e.checked",
        20,
    )
    .await;
    // The board is drawn again (the language switch redraws it) before the player presses: the
    // choice stays.
    click(&c, "[data-lang=en]").await;
    let kept = eval(
        &c,
        "return document.querySelector('#rematch-level input:checked')?.value",
    )
    .await;
    assert_eq!(kept, "standard", "the level chosen was lost on a redraw");
    click_when_shown(&c, "#rematch", 20).await;
    wait_for(
        &c,
        "return document.querySelector('#level-shown')?.dataset.level === 'standard'",
        30,
    )
    .await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn high_contrast_survives_a_reload_and_the_keyboard_alone_makes_a_move() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 600);
    let c = driver.session(1280, 800).await;
    go(&c, &server.base, "/panjpar/rules").await;
    click(&c, "[data-contrast-switch]").await;
    c.refresh().await.unwrap();
    let on = eval(
        &c,
        "return document.documentElement.classList.contains('contrast')",
    )
    .await;
    assert_eq!(on, true, "high contrast was forgotten");
    go(&c, &server.base, "/panjpar").await;
    click(&c, "#play-computer").await;
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    // Wait for our first decision: the guess, or an attack or defence after the computer's guess.
    let state = wait_for(
        &c,
        &format!(
            "const s = (() => {{ {} }})(); return ['guess','attack','defend'].includes(s) && s",
            *BOARD_STATE
        ),
        20,
    )
    .await;
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
    // The computer answers and the turn comes back: the keyboard was kept on the board all along,
    // so the next move is a key away, not a walk through the header.
    let on_board = "const b = document.getElementById('board'), a = document.activeElement; return b.contains(a) && a !== b && document.querySelector('.hand button.card')";
    wait_for(&c, on_board, 15).await;
    // Arrow keys walk along the hand.
    tab_to(&c, ".hand button.card").await;
    let first = eval(&c, "return document.activeElement.dataset.card").await;
    press(&c, Key::Right).await;
    let next = eval(&c, "return document.activeElement.dataset.card").await;
    assert!(next.is_string() && next != first, "{first} -> {next}");
    press(&c, Key::Left).await;
    assert_eq!(
        eval(&c, "return document.activeElement.dataset.card").await,
        first
    );
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
    let turn = wait_for(c, &format!("const s = (() => {{ {} }})(); return ['guess','attack','defend','next','over'].includes(s) && s", *BOARD_STATE), 30).await;
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
                "Lower than the ",
                "A trump is beaten only by a higher trump.",
                "Not the same suit and not a trump."
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
async fn a_dropped_connection_shows_the_banner_and_the_seat_resumes_by_itself() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 600);
    let proxy = Proxy::start(server.running.addr).await;
    let c = driver.session(1280, 800).await;
    let table = open_panjpar_computer_table(&c, &proxy.base).await;
    wait_for_our_turn(&c).await;
    // The network goes: every connection is cut and, for a moment, nothing gets through.
    proxy.refuse_new(true);
    proxy.drop_connections();
    let said = banner(&c, 10).await;
    assert!(said.contains("Reconnecting"), "{said}");
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
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 600);
    // The second tab reaches the server over a slow link: the relay can hold its replies back.
    let proxy = Proxy::start(server.running.addr).await;
    let first = driver.session(1280, 800).await;
    let second = driver.session(390, 844).await;
    let table = open_panjpar_computer_table(&first, &server.base).await;
    let token = eval(&first, &format!("return localStorage.getItem('{table}')")).await;
    // The same seat in the second tab: the token the browser keeps for this table.
    go(&second, &proxy.base, "/panjpar").await;
    eval(
        &second,
        &format!("localStorage.setItem('{table}', {token}); return true"),
    )
    .await;
    go(&second, &proxy.base, &format!("/t/{table}")).await;
    let turn = wait_for_our_turn(&first).await;
    assert!(
        ["guess", "attack", "defend"].contains(&turn.as_str()),
        "{turn}"
    );
    wait_for(
        &second,
        &format!(
            "const s = (() => {{ {} }})(); return s === '{turn}'",
            *BOARD_STATE
        ),
        20,
    )
    .await;
    proxy.hold_replies(true);
    move_and_see_it_taken(&first, &server, &table).await;
    // The second tab still shows the old view, and moves on it.
    click_a_move(&second).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    proxy.hold_replies(false);
    let said = banner(&second, 10).await;
    assert!(said.contains("moved on"), "{said}");
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

#[actix_rt::test]
async fn the_page_follows_a_table_gone_back_after_a_reconnect_and_says_so() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let c = driver.session(1280, 800).await;
    go(&c, &server.base, "/panjpar").await;
    // The page's own socket module, fed frames as the server would send them.
    let script = r#"
        const done = arguments[arguments.length - 1];
        import("/static/socket.js").then(({ TableSocket }) => {
          const views = [], errors = [];
          const socket = Object.create(TableSocket.prototype);
          socket.version = null;
          socket.handlers = {
            onView: (f) => views.push(f.version), onError: (f) => errors.push(f.code),
            onSeats() {}, onState() {}, onSignal() {},
          };
          socket.send = () => true;
          const view = (version) => socket.receive(JSON.stringify({ type: "view", version }));
          view(10);
          view(9);            // late: dropped
          socket.fresh = true; // the socket has just (re)connected
          view(8);            // the table as the server holds it now: followed, and said
          view(9);
          done({ views, errors });
        });
    "#;
    let seen = c.execute_async(script, vec![]).await.unwrap();
    assert_eq!(seen["views"], serde_json::json!([10, 8, 9]), "{seen}");
    assert_eq!(seen["errors"], serde_json::json!(["went-back"]), "{seen}");
    c.close().await.unwrap();
}

async fn assert_in_sight(c: &Client, when: &str) {
    let out = out_of_sight(c, Scroll::Either, false).await;
    assert_eq!(out, "", "{when}");
}

/// Makes one move and waits (a while, without failing) until the board has been drawn again.
async fn a_move_then_a_redraw(c: &Client) -> bool {
    eval(
        c,
        "window.__drawn = document.querySelector('.table'); return true",
    )
    .await;
    // An attack is chosen and sent in one script, so no frame can come between the two clicks.
    let attack = "const s = (() => { BOARD })(); if (s !== 'attack') return false; document.querySelector('.hand button.card').click(); document.querySelector('#attack').click(); return true";
    let attacked = eval(c, &attack.replace("BOARD", &BOARD_STATE)).await == true;
    let going = attacked || click_a_move(c).await;
    let started = std::time::Instant::now();
    while going
        && started.elapsed().as_secs() < 10
        && eval(
            c,
            "return document.querySelector('.table') === window.__drawn",
        )
        .await
            == true
    {
        tokio::time::sleep(std::time::Duration::from_millis(40)).await;
    }
    going
}

#[actix_rt::test]
async fn the_panjpar_table_is_one_screen_at_every_turn_without_console_errors() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 150);
    for (width, height) in [(1280, 800), (390, 844)] {
        let c = driver.session(width, height).await;
        go(&c, &server.base, "/panjpar").await;
        assert_no_console_error(&c, "on the landing page").await;
        click(&c, "input[name=length][value='3']").await;
        click(&c, "#play-computer").await;
        wait_for(
            &c,
            "return location.pathname.startsWith('/t/') && document.querySelector('.table [data-area=hand]')",
            20,
        )
        .await;
        let mut shot = false;
        for step in 0..16 {
            let state = wait_for_our_turn(&c).await;
            assert_in_sight(&c, &format!("{width}x{height}, step {step}, {state}")).await;
            let battle = eval(
                &c,
                "return document.querySelectorAll('.battle .pair').length",
            )
            .await;
            let good_moment = state == "defend" && step >= 3 && battle.as_u64() >= Some(1);
            if !shot && (good_moment || step == 15 || state == "over") {
                // Let the cards finish travelling before the picture.
                tokio::time::sleep(std::time::Duration::from_millis(700)).await;
                docs_screenshot(&c, &format!("panjpar-{width}x{height}")).await;
                shot = true;
            }
            if state == "over" || !a_move_then_a_redraw(&c).await {
                break;
            }
        }
        assert!(shot, "no screenshot was taken at {width}x{height}");
        assert_no_console_error(&c, &format!("at the table, {width}x{height}")).await;
        // A reload of the table page is quiet too (no vibration refused, no missing file).
        c.refresh().await.unwrap();
        wait_for(
            &c,
            "return document.querySelector('.table [data-area=actions]')",
            20,
        )
        .await;
        assert_in_sight(&c, &format!("{width}x{height}, after a reload")).await;
        assert_no_console_error(&c, &format!("after a reload, {width}x{height}")).await;
        c.close().await.unwrap();
    }
    // A large screen gets a table on one screen as well.
    for (width, height) in [(1920, 1080)] {
        let c = driver.session(width, height).await;
        open_panjpar_computer_table(&c, &server.base).await;
        let state = wait_for_our_turn(&c).await;
        assert_in_sight(&c, &format!("{width}x{height}, {state}")).await;
        screenshot(&c, &format!("panjpar-{width}x{height}")).await;
        c.close().await.unwrap();
    }
}

/// Counts every card the page asks to travel (motion.js animates with `Element.animate`), with the
/// number of animations its element has right after; installed on the page now.
const COUNT_TRAVELS: &str = r#"
window.__travels = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const flight = animate.apply(this, args);
  window.__travels.push([this.dataset.card || '', this.getAnimations().length]);
  return flight;
};
return true;
"#;

/// Plays by clicking until this browser is to attack.
pub(crate) async fn play_to_an_attack(c: &Client) {
    let started = std::time::Instant::now();
    loop {
        let state = wait_for_our_turn(c).await;
        if state == "attack" {
            return;
        }
        if state == "over" {
            click(c, "#rematch").await;
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        } else {
            a_move_then_a_redraw(c).await;
        }
        assert!(started.elapsed().as_secs() < 200, "no attack came up");
    }
}

/// Attacks with the first card of the hand and waits until the battle shows it; returns its code.
async fn attack_with_the_first_card(c: &Client) -> String {
    let code = eval(
        c,
        "const b = document.querySelector('.hand button.card'); b.click(); return b.dataset.card",
    )
    .await;
    let code = code.as_str().unwrap().to_string();
    wait_for(c, "return !document.querySelector('#attack').disabled", 5).await;
    click(c, "#attack").await;
    wait_for(
        c,
        &format!("return !!document.querySelector('.battle [data-card=\"{code}\"]')"),
        10,
    )
    .await;
    code
}

#[actix_rt::test]
async fn a_move_travels_across_the_table_and_stays_still_under_reduced_motion() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 800);
    for reduced in [false, true] {
        let c = driver.motion_session(reduced, 1280, 800).await;
        open_panjpar_computer_table(&c, &server.base).await;
        play_to_an_attack(&c).await;
        eval(&c, COUNT_TRAVELS).await;
        let code = attack_with_the_first_card(&c).await;
        let travels = eval(&c, "return window.__travels").await;
        let travelled: Vec<&Value> = travels.as_array().unwrap().iter().collect();
        if reduced {
            assert_eq!(
                eval(
                    &c,
                    "return matchMedia('(prefers-reduced-motion: reduce)').matches"
                )
                .await,
                true
            );
            assert!(
                travelled.is_empty(),
                "cards moved under reduced motion: {travels}"
            );
            let moving =
                "return document.getAnimations().filter(a => a.constructor === Animation).length";
            assert_eq!(eval(&c, moving).await, 0);
        } else {
            // The attack card slid from the hand into the battle, animated as it went.
            assert!(
                travelled
                    .iter()
                    .any(|t| t[0] == code.as_str() && t[1].as_u64() > Some(0)),
                "{code} did not travel: {travels}"
            );
            // The computer's answer travels too: a card of its own comes into the battle, or the
            // attack card flies into its hand.
            eval(&c, "window.__travels = []; return true").await;
            wait_for(
                &c,
                "return window.__travels.length > 0 && window.__travels",
                20,
            )
            .await;
        }
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn focus_stays_on_the_same_card_and_button_when_the_board_is_drawn_again() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 4000);
    let c = driver.session(390, 844).await;
    open_panjpar_computer_table(&c, &server.base).await;
    play_to_an_attack(&c).await;
    // Choose a card with the keyboard: the card lifts, and focus stays on it.
    let first = eval(
        &c,
        "const b = document.querySelector('.hand button.card'); b.focus(); return b.dataset.card",
    )
    .await;
    press(&c, Key::Enter).await;
    let chosen = format!(
        "const e = document.activeElement; return e.dataset.card === {first} && e.classList.contains('chosen')"
    );
    wait_for(&c, &chosen, 5).await;
    // Attack, then rest on another card while our move comes back and the board is drawn again.
    eval(&c, "document.querySelector('#attack').click(); return true").await;
    let other = eval(
        &c,
        "window.__drawn = document.querySelector('.table'); const b = document.querySelectorAll('.hand button.card')[1]; b.focus(); return b.dataset.card",
    )
    .await;
    wait_for(
        &c,
        "return document.querySelector('.table') !== window.__drawn",
        10,
    )
    .await;
    let focused = eval(&c, "return document.activeElement.dataset.card ?? null").await;
    assert_eq!(focused, other, "focus left the card after a redraw");
    // The moves button keeps focus when the computer's answer is drawn.
    eval(
        &c,
        "window.__drawn = document.querySelector('.table'); document.querySelector('#moves-toggle').focus(); return true",
    )
    .await;
    // On a slow machine the computer's answer may already be drawn by now: then it is our turn.
    let answered = format!(
        "const s = (() => {{ {} }})(); return document.querySelector('.table') !== window.__drawn \
         || ['guess','attack','defend','next','over'].includes(s)",
        *BOARD_STATE
    );
    wait_for(&c, &answered, 20).await;
    let focused = eval(&c, "return document.activeElement.id").await;
    assert_eq!(
        focused, "moves-toggle",
        "focus left the button after a redraw"
    );
    // An attack made from the keyboard: the Attack button and the card go, and the keyboard lands
    // on what is still there rather than on the page.
    play_to_an_attack(&c).await;
    settle(&c).await;
    eval(
        &c,
        "document.querySelector('.hand button.card').click(); return true",
    )
    .await;
    wait_for(&c, "return !document.querySelector('#attack').disabled", 5).await;
    eval(
        &c,
        "window.__drawn = document.querySelector('.table'); document.querySelector('#attack').focus(); return true",
    )
    .await;
    press(&c, Key::Enter).await;
    wait_for(
        &c,
        "return document.querySelector('.table') !== window.__drawn",
        10,
    )
    .await;
    let landed = eval(
        &c,
        "const e = document.activeElement; return document.querySelector('#board').contains(e) && e.tagName",
    )
    .await;
    assert_eq!(landed, "BUTTON", "focus fell to the page after the attack");
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

#[actix_rt::test]
async fn a_move_tried_offline_is_refused_with_a_sentence_and_the_choice_is_kept() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    let proxy = Proxy::start(server.running.addr).await;
    let c = driver.session(390, 844).await;
    let table = open_panjpar_computer_table(&c, &proxy.base).await;
    play_to_an_attack(&c).await;
    let code = eval(
        &c,
        "const b = document.querySelector('.hand button.card'); b.click(); return b.dataset.card",
    )
    .await;
    wait_for(&c, "return !document.querySelector('#attack').disabled", 5).await;
    // The network goes; the board is locked and says so.
    proxy.go_offline(&c, 10).await;
    let version = server.record(&table).await.version;
    click(&c, "#attack").await;
    let said = wait_for(&c, "return document.querySelector('#why').textContent", 5).await;
    assert!(said.as_str().unwrap().contains("Not sent"), "{said}");
    let shown = banner(&c, 5).await;
    assert!(shown.contains("Not sent"), "{shown}");
    // The socket keeps retrying meanwhile; the refusal stays up long enough to be read.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let still = eval(&c, "return document.querySelector('#banner').textContent").await;
    assert!(still.as_str().unwrap().contains("Not sent"), "{still}");
    let kept = format!(
        "const e = document.querySelector('.hand [data-card=\"' + {code} + '\"]'); return !!e && e.classList.contains('chosen') && e.getAttribute('aria-pressed') === 'true'"
    );
    assert_eq!(eval(&c, &kept).await, true, "the choice was dropped");
    screenshot(&c, "panjpar-offline-390x844").await;
    assert_eq!(server.record(&table).await.version, version);
    // Back online, the choice is still there and the same button sends it.
    proxy.come_back(&c, 30).await;
    assert_eq!(
        eval(&c, &kept).await,
        true,
        "the choice was dropped on reconnecting"
    );
    click(&c, "#attack").await;
    let started = std::time::Instant::now();
    while server.record(&table).await.version == version {
        assert!(started.elapsed().as_secs() < 10, "the attack was not taken");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_guided_first_deal_points_the_way_to_its_end_and_can_be_left_halfway() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        pages_shuffle(s);
    });
    // Played through on a phone: the guide speaks at every step, marks what it speaks of, and the
    // board stays on one screen beside it.
    let c = driver.session(390, 844).await;
    go(&c, &server.base, "/panjpar").await;
    click(&c, "#play-guided").await;
    let first = wait_for_text(&c, GUIDE_HEADING, 20).await;
    assert!(
        [
            "Guess the trump colour",
            "The computer guesses",
            "Beat the attack",
            "Your attack"
        ]
        .contains(&first.as_str()),
        "{first}"
    );
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    let marked = wait_for(
        &c,
        "return document.getElementById('guide').hidden || document.querySelectorAll('#board [data-guide-here]').length > 0 || /computer/i.test(document.querySelector('#guide h2').textContent)",
        10,
    )
    .await;
    assert_eq!(marked, true);
    docs_screenshot(&c, "panjpar-guide-390x844").await;
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..400 {
        seen.insert(
            eval(&c, GUIDE_HEADING)
                .await
                .as_str()
                .unwrap_or("")
                .to_string(),
        );
        if !click_a_move(&c).await {
            break;
        }
    }
    guided_deal_over(&c, "panjpar-guide-end-390x844").await;
    assert!(
        seen.contains("Your attack") || seen.contains("Beat the attack"),
        "{seen:?}"
    );
    c.close().await.unwrap();

    // Left halfway on a desktop, from the rules page, after a reload that keeps the guide: the
    // guide goes, and stays gone on the next reload.
    let c = driver.session(1280, 800).await;
    go(&c, &server.base, "/panjpar/rules").await;
    click(&c, "[data-guided]").await;
    wait_for_text(&c, GUIDE_HEADING, 20).await;
    click_a_move(&c).await;
    c.refresh().await.unwrap();
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    let kept = wait_for_text(&c, GUIDE_HEADING, 20).await;
    assert!(!kept.is_empty(), "the guide is kept through a reload");
    crate::chromium::press(&c, "#guide-leave").await;
    wait_for(&c, "return document.getElementById('guide').hidden", 10).await;
    assert_eq!(
        eval(
            &c,
            "return document.querySelectorAll('[data-guide-here]').length"
        )
        .await,
        0
    );
    c.refresh().await.unwrap();
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    click_a_move(&c).await;
    assert_eq!(eval(&c, GUIDE_HEADING).await, "");
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_reload_keeps_the_whole_deals_moves_in_the_log() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let c = driver.session(1280, 800).await;
    let table = open_panjpar_computer_table(&c, &server.base).await;
    let logged = "return document.querySelectorAll('#board ol.log li').length";
    for _ in 0..40 {
        if eval(&c, logged).await.as_u64() >= Some(4) {
            break;
        }
        move_and_see_it_taken(&c, &server, &table).await;
    }
    settle(&c).await;
    let before = eval(&c, logged).await.as_u64().unwrap();
    assert!(before >= 4, "{before} moves logged");
    let lines = eval(
        &c,
        "return [...document.querySelectorAll('#board ol.log li')].map(li => li.textContent)",
    )
    .await;
    c.refresh().await.unwrap();
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    let after = eval(
        &c,
        "return [...document.querySelectorAll('#board ol.log li')].map(li => li.textContent)",
    )
    .await;
    // The computer may have answered meanwhile: the log then holds one line more, after the others.
    let (lines, after) = (lines.as_array().unwrap(), after.as_array().unwrap());
    assert!(
        after.len() >= lines.len() && after[..lines.len()] == lines[..],
        "the log after a reload: {after:?}, before: {lines:?}"
    );
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn the_persian_landing_starts_a_guided_deal_in_persian() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
    });
    // The guided deal's button of the Persian landing page seats the player at a Persian table, whose
    // guide speaks Persian from its first step, its way out included.
    let c = driver.session(390, 844).await;
    go(&c, &server.base, "/fa/panjpar").await;
    click(&c, "#play-guided").await;
    let heading = wait_for_text(&c, GUIDE_HEADING, 20).await;
    assert!(
        [
            "رنگ حکم را حدس بزنید",
            "رایانه حدس می‌زند",
            "حمله را ببُرید",
            "نوبت حملهٔ شما",
            "رایانه حمله می‌کند",
            "رایانه دفاع می‌کند",
        ]
        .contains(&heading.as_str()),
        "{heading}"
    );
    assert_eq!(eval(&c, "return document.documentElement.lang").await, "fa");
    assert_eq!(
        eval(&c, "return document.getElementById('guide').dir").await,
        "rtl"
    );
    let leave = text_of(&c, "#guide-leave", 5).await;
    assert_eq!(leave, "بیرون رفتن از راهنما");
    assert_no_console_error(&c, "a Persian guided deal").await;
    c.close().await.unwrap();
}
