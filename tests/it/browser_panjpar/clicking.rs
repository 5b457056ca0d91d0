//! Panjpar played by clicking, as a player would: the board's state read from the page, one move, a
//! match to its end, up to this browser's turn or an attack, and a move seen taken by the table.

use std::sync::LazyLock;
use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::Value;

use crate::chromium::*;
use crate::support::TestServer;

/// What the Panjpar board offers now, read from the page.
pub(crate) static BOARD_STATE: LazyLock<String> = LazyLock::new(|| {
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
    tokio::time::sleep(Duration::from_millis(30)).await;
    Clicked::Moved(moved)
}

/// Makes one move by clicking, as a player would; returns false once the match is over.
pub(super) async fn click_a_move(client: &Client) -> bool {
    !matches!(click_panjpar_move(client).await, Clicked::Over)
}

pub(crate) async fn play_to_the_end(clients: &[&Client], screenshots: Option<&str>) {
    let started = Instant::now();
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

/// A script that runs `then` with `s`, what the board offers now ([`BOARD_STATE`]), at hand.
pub(super) fn with_state(then: &str) -> String {
    format!("const s = (() => {{ {} }})(); {then}", *BOARD_STATE)
}

/// Makes one move in this browser and waits until the table has taken it (its version moved on).
pub(super) async fn move_and_see_it_taken(c: &Client, server: &TestServer, table: &str) {
    let before = server.record(table).await.version;
    let started = Instant::now();
    click_a_move(c).await;
    moved_on(
        server,
        table,
        before,
        started,
        "the table never took the move",
    )
    .await;
}

/// Waits, until 10 s after `started` at the most, until the table's version is no longer `before`;
/// `what` says what was not taken if it stays.
pub(super) async fn moved_on(
    server: &TestServer,
    table: &str,
    before: u64,
    started: Instant,
    what: &str,
) {
    while server.record(table).await.version == before {
        assert!(started.elapsed().as_secs() < 10, "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until this browser has a decision to make (guess, attack or defend) and says which.
pub(super) async fn wait_for_our_turn(c: &Client) -> String {
    let turn = wait_for(
        c,
        &with_state("return ['guess','attack','defend','next','over'].includes(s) && s"),
        30,
    )
    .await;
    turn.as_str().unwrap().to_string()
}

/// Makes one move and waits (a while, without failing) until the board has been drawn again.
pub(super) async fn a_move_then_a_redraw(c: &Client) -> bool {
    eval(
        c,
        "window.__drawn = document.querySelector('.table'); return true",
    )
    .await;
    // An attack is chosen and sent in one script, so no frame can come between the two clicks.
    let attack = "if (s !== 'attack') return false; document.querySelector('.hand button.card').click(); document.querySelector('#attack').click(); return true";
    let attacked = eval(c, &with_state(attack)).await == true;
    let going = attacked || click_a_move(c).await;
    let started = Instant::now();
    while going
        && started.elapsed().as_secs() < 10
        && eval(
            c,
            "return document.querySelector('.table') === window.__drawn",
        )
        .await
            == true
    {
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    going
}

/// Plays by clicking until this browser is to attack.
pub(crate) async fn play_to_an_attack(c: &Client) {
    let started = Instant::now();
    loop {
        let state = wait_for_our_turn(c).await;
        if state == "attack" {
            return;
        }
        if state == "over" {
            click(c, "#rematch").await;
            tokio::time::sleep(Duration::from_millis(300)).await;
        } else {
            a_move_then_a_redraw(c).await;
        }
        assert!(started.elapsed().as_secs() < 200, "no attack came up");
    }
}

/// Chooses the first card of the hand and waits until the Attack button takes it; answers its code
/// as the page gave it (a JSON string).
pub(super) async fn choose_the_first_card(c: &Client) -> Value {
    let code = eval(
        c,
        "const b = document.querySelector('.hand button.card'); b.click(); return b.dataset.card",
    )
    .await;
    wait_for(c, "return !document.querySelector('#attack').disabled", 5).await;
    code
}

/// Attacks with the first card of the hand and waits until the battle shows it; returns its code.
pub(super) async fn attack_with_the_first_card(c: &Client) -> String {
    let code = choose_the_first_card(c).await;
    let code = code.as_str().unwrap().to_string();
    click(c, "#attack").await;
    wait_for(
        c,
        &format!("return !!document.querySelector('.battle [data-card=\"{code}\"]')"),
        10,
    )
    .await;
    code
}

/// Reloads the table page and waits until the board is drawn again.
pub(super) async fn reload_the_table(c: &Client) {
    c.refresh().await.unwrap();
    wait_for(c, "return document.querySelector('.table')", 20).await;
}
