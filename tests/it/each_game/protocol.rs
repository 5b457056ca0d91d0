//! The protocol's refusals at a table of any game: a move sent by a seat whose turn it is not, a move
//! with a field the game does not have, a move no seat could make and a move on a stale version each
//! get an error with a code and a sentence, and the table stays where it was; the honest move is then
//! taken, and sent again it is stale.

use serde_json::{json, Value};

use crate::support::leaks::Tested;
use crate::support::*;

/// A seat's view at the table's `version`, asked for again (views sent before it are passed over).
async fn at(client: &mut Client, version: u64) -> Value {
    client.send(json!({"type": "resync"})).await;
    loop {
        let view = client.next_of("view").await;
        if view["version"] == version {
            return view;
        }
    }
}

pub async fn refusals_change_nothing<G: Tested>() {
    let server = TestServer::start(|_| {});
    let (table, mut clients) = seat_friends(&server, G::NAME, G::SEATS, G::short()).await;
    let dealt = server.record(&table).await.version;
    let mut views = Vec::new();
    for client in &mut clients {
        views.push(at(client, dealt).await);
    }
    let acting = views
        .iter()
        .position(|v| !v["actions"].as_array().unwrap().is_empty())
        .unwrap_or_else(|| panic!("{}: one seat has moves: {views:?}", G::NAME));
    let version = views[acting]["version"].as_u64().unwrap();
    let honest = choose(&views[acting], &mut rng(33));
    let mut with_more = honest.clone();
    with_more["cheat"] = json!(true);
    let waiting = (acting + 1) % G::SEATS;
    for (seat, frame, code) in [
        (waiting, action(version, "a", &honest), "not-your-turn"),
        (acting, action(version, "b", &with_more), "bad-action"),
        (
            acting,
            action(version, "c", &json!({"type": "checkmate"})),
            "bad-action",
        ),
        (acting, action(version + 7, "d", &honest), "stale-version"),
        (acting, action(version - 1, "e", &honest), "stale-version"),
    ] {
        clients[seat].send(frame.clone()).await;
        let error = clients[seat].next_of("error").await;
        assert_eq!(
            error["code"],
            code,
            "{}: {frame} from seat {seat}: {error}",
            G::NAME
        );
        assert!(
            error["message"].as_str().is_some_and(|m| m.len() > 8),
            "{error}"
        );
    }
    assert_eq!(server.record(&table).await.version, version, "{}", G::NAME);
    clients[acting].send(action(version, "h", &honest)).await;
    assert_eq!(clients[acting].next_ack().await["version"], version + 1);
    clients[acting].send(action(version, "h", &honest)).await;
    let again = clients[acting].next_of("error").await;
    assert_eq!(again["code"], "stale-version", "{}: {again}", G::NAME);
    assert_eq!(server.record(&table).await.version, version + 1);
}
