//! Open tables: listed through one node and shown on another, their names cleaned, gone from every
//! list once their seats are taken; kept listed or closed by the host alone; a computer table never
//! listed.

use std::time::{Duration, Instant};

use serde_json::json;

use super::open_tables;
use crate::support::*;

/// Opens a friends table listed as open, through `base`; answers the host's seat.
pub(super) async fn open_listed(base: &str, game: &str, name: &str) -> Seated {
    let body = json!({ "game": game, "opponents": "friends", "open": true, "name": name });
    let (host, answer) = open_table(base, &body).await;
    assert_eq!(answer["listed"], true);
    host
}

/// The host's word to the list: "here" or "close", with `token`.
async fn host_says(base: &str, table: &str, token: &str, close: bool) -> u16 {
    let body = json!({ "table": table, "token": token, "close": close });
    post(base, "/api/open-tables/host", &body.to_string())
        .await
        .0
}

/// An open table listed through `a` shows on `b`'s list too; its seats taken through `b` (the third
/// of a Ganjifa table through `a`), it is gone from both lists.
pub(super) async fn open_tables_listed_and_taken(a: &str, b: &str) {
    let host = open_listed(a, "ganjifa", "  Parvin\u{202E} ").await;
    let other = open_listed(a, "ganjifa", "").await;
    let listed = open_tables(b, "ganjifa").await;
    let mine = listed
        .iter()
        .find(|t| t["table"] == host.table.as_str())
        .expect("listed on the other node");
    assert_eq!(mine["name"], "Parvin", "cleaned as a seat's name");
    assert_eq!(
        (mine["seats"].as_u64(), mine["free"].as_u64()),
        (Some(3), Some(2))
    );
    assert!(open_tables(a, "panjpar").await.is_empty());
    let joined = post(b, &format!("/api/tables/{}/join", host.table), "").await;
    assert_eq!(joined.0, 201, "{}", joined.1);
    let listed = open_tables(a, "ganjifa").await;
    let mine = listed.iter().find(|t| t["table"] == host.table.as_str());
    assert_eq!(mine.expect("one seat still free")["free"], 1);
    assert_eq!(
        post(a, &format!("/api/tables/{}/join", host.table), "")
            .await
            .0,
        201
    );
    for base in [a, b] {
        let listed = open_tables(base, "ganjifa").await;
        assert!(
            listed.iter().all(|t| t["table"] != host.table.as_str()),
            "{listed:?}"
        );
    }
    // Only the host keeps the other listed, or closes it.
    assert_eq!(host_says(b, &other.table, &host.token, true).await, 404);
    assert_eq!(host_says(b, &other.table, &other.token, false).await, 200);
    listed_soon(a, "ganjifa", 1).await;
    assert_eq!(host_says(b, &other.table, &other.token, true).await, 200);
    listed_soon(a, "ganjifa", 0).await;
}

/// Waits until `base` lists `count` open tables of `game`: at once through the node that changed
/// the list, within its second of reading through another.
async fn listed_soon(base: &str, game: &str, count: usize) {
    let started = Instant::now();
    loop {
        let listed = open_tables(base, game).await;
        if listed.len() == count {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(2), "{listed:?}");
        actix_rt::time::sleep(Duration::from_millis(100)).await;
    }
}

#[actix_rt::test]
async fn open_tables_are_listed_until_their_seats_are_taken() {
    let server = TestServer::start(|_| {});
    open_tables_listed_and_taken(&server.base, &server.base).await;
    // A computer table is never listed.
    let body = json!({ "game": "panjpar", "opponents": "computer", "open": true });
    assert_eq!(server.post("/api/tables", &body.to_string()).await.0, 400);
}
