//! Panjpar when the network fails under the page: a dropped connection shows the banner and the seat
//! resumes by itself; a move from a tab with an old view gets a clear message; a table gone back after
//! a reconnect is followed and said; a move tried offline is refused with a sentence, the choice kept
//! and sent once back online.

use std::time::{Duration, Instant};

use super::{
    choose_the_first_card, click_a_move, move_and_see_it_taken, moved_on, play_to_an_attack,
    wait_for_our_turn, with_state,
};
use crate::chromium::proxy::Proxy;
use crate::chromium::*;

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
    wait_for(&second, &with_state(&format!("return s === '{turn}'")), 20).await;
    proxy.hold_replies(true);
    move_and_see_it_taken(&first, &server, &table).await;
    // The second tab still shows the old view, and moves on it.
    click_a_move(&second).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
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

#[actix_rt::test]
async fn a_move_tried_offline_is_refused_with_a_sentence_and_the_choice_is_kept() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    let proxy = Proxy::start(server.running.addr).await;
    let c = driver.session(390, 844).await;
    let table = open_panjpar_computer_table(&c, &proxy.base).await;
    play_to_an_attack(&c).await;
    let code = choose_the_first_card(&c).await;
    // The network goes; the board is locked and says so.
    proxy.go_offline(&c, 10).await;
    let version = server.record(&table).await.version;
    click(&c, "#attack").await;
    let said = wait_for(&c, "return document.querySelector('#why').textContent", 5).await;
    assert!(said.as_str().unwrap().contains("Not sent"), "{said}");
    let shown = banner(&c, 5).await;
    assert!(shown.contains("Not sent"), "{shown}");
    // The socket keeps retrying meanwhile; the refusal stays up long enough to be read.
    tokio::time::sleep(Duration::from_millis(1500)).await;
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
    moved_on(
        &server,
        &table,
        version,
        Instant::now(),
        "the attack was not taken",
    )
    .await;
    c.close().await.unwrap();
}
