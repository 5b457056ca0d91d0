//! The tables these tests wait at, and how they leave them: one deal against the computer or among
//! friends from the Panjpar landing page, a move made on this seat's turn, a friend who closes the
//! tab, what the page keeps in its storage, and the end panel of a table that has closed.

use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use chaikhana::settings::Settings;

use crate::chromium::*;

/// A script: whether the badge says it is this seat's turn.
pub(super) const MY_TURN: &str =
    "const b = document.querySelector('#turn-badge'); return !!b && !b.hidden";

/// Makes one move by clicking, if the board offers one; true when it did.
pub(super) async fn click_a_move(client: &Client) -> bool {
    matches!(
        crate::browser_panjpar::click_panjpar_move(client).await,
        crate::browser_panjpar::Clicked::Moved(true)
    )
}

/// Waits for this seat's turn, then makes one move by clicking.
pub(super) async fn play_one_move(client: &Client) {
    for _ in 0..200 {
        let mine = eval(client, MY_TURN).await;
        if mine == json!(true) && click_a_move(client).await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no move could be made");
}

/// What the page keeps in its browser's storage under `key`.
pub(super) async fn stored(client: &Client, key: &str) -> Value {
    eval(
        client,
        &format!("return localStorage.getItem({})", json!(key)),
    )
    .await
}

/// From the Panjpar landing page, one deal against the computer; returns once the board is drawn.
pub(super) async fn start_against_the_computer(c: &Client, base: &str) -> String {
    go(c, base, "/panjpar").await;
    computer_table_from_landing(c, 1, ".table[data-status=playing]").await
}

/// A friends table of one deal of Panjpar between `host` and `guest` (who goes by `name`), both
/// boards playing; the table's id.
pub(super) async fn friends_at_panjpar(
    host: &Client,
    guest: &Client,
    base: &str,
    name: &str,
) -> String {
    let link = panjpar_friends_link(host, base).await;
    click(host, "#go-to-table").await;
    wait_for(host, "return document.querySelector('.table')", 10).await;
    guest.goto(&link).await.unwrap();
    wait_for_status(guest, "playing", 20).await;
    wait_for_status(host, "playing", 20).await;
    click(guest, "#name-button").await;
    let input = find(guest, "#name-input").await.expect("the name field");
    input.send_keys(name).await.unwrap();
    click(guest, "#name-form button[type=submit]").await;
    let named = format!(
        "return document.querySelector('#board').textContent.includes({})",
        json!(name)
    );
    wait_for(host, &named, 10).await;
    table_of(host).await
}

/// The server of the tests of a seat left away: the computer answers within 5 ms, and a seat away
/// for a second may be offered to someone else.
pub(super) fn offerable_at_once(settings: &mut Settings) {
    settings.bot_delay_ms = 5;
    settings.offer_seat_after_secs = 1;
}

/// A host on a desktop and a guest called Arash on a phone at a friends table of Panjpar, both
/// playing, until the guest closes its tab: the host, the guest and the table's id.
pub(super) async fn arash_goes_away(driver: &mut Driver, base: &str) -> (Client, Client, String) {
    let host = driver.session(1280, 800).await;
    let guest = driver.session(390, 844).await;
    let table = friends_at_panjpar(&host, &guest, base, "Arash").await;
    leave(&guest).await;
    (host, guest, table)
}

/// The guest closes its tab: its page goes (its socket with it), its storage stays.
pub(super) async fn leave(guest: &Client) {
    guest.goto("about:blank").await.unwrap();
}

/// Why the page says its table is closed (the end panel's reason), once it says so.
pub(super) async fn closed_reason(client: &Client, seconds: u64) -> String {
    wait_for_text(
        client,
        "return document.querySelector('#closed-table')?.dataset.reason",
        seconds,
    )
    .await
}

/// The page says, within `seconds`, that `table` has closed for `reason`, its panel's line saying
/// `why`; with `ways_on`, the panel offers another table and the home page; and the browser has
/// forgotten the table.
pub(super) async fn says_closed(
    c: &Client,
    table: &str,
    reason: &str,
    seconds: u64,
    why: &str,
    ways_on: bool,
) {
    assert_eq!(closed_reason(c, seconds).await, reason);
    let said = text_of(c, "#closed-why", 5).await;
    assert!(said.contains(why), "{said}");
    if ways_on {
        assert!(find(c, "#start-another").await.is_some());
        assert!(find(c, "#home-link").await.is_some());
    }
    assert_eq!(stored(c, table).await, Value::Null, "forgotten");
}
