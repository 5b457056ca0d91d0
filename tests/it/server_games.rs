//! What is particular to a game's tables over real HTTP and WebSocket (every game's whole matches are
//! in `each_game`): Ganjifa's match totals against two computers, each game's match lengths, and a
//! Panjpar match through a second WebSocket client library.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::support::leaks::*;
use crate::support::*;
use chaikhana_rules::games::ganjifa::Ganjifa;

#[actix_rt::test]
async fn a_ganjifa_match_against_two_computers() {
    let server = TestServer::start(|_| {});
    let (client, deals) = computer_match::<Ganjifa>(&server, json!(3), 6, ganjifa_leaks).await;
    assert_eq!(deals, 3);
    let last = client.last_view();
    let totals: Vec<i64> = serde_json::from_value(last["match"]["totals"].clone()).unwrap();
    assert_eq!(totals.iter().sum::<i64>(), 0, "deal scores add up to zero");
    assert_eq!(last["seats"][1]["who"], "computer");
    assert_eq!(last["seats"][2]["who"], "computer");
}

#[actix_rt::test]
async fn match_lengths_are_checked_per_game() {
    let server = TestServer::start(|_| {});
    for (game, length, ok) in [
        ("pishe-pasha", json!("one-deal"), true),
        ("pishe-pasha", json!(50), true),
        ("pishe-pasha", json!(100), true),
        ("pishe-pasha", json!(75), false),
        ("ganjifa", json!(6), true),
        ("ganjifa", json!(4), false),
        ("panjpar", json!(5), true),
    ] {
        let body = json!({ "game": game, "opponents": "computer", "length": length });
        let (status, answer) = server.post("/api/tables", &body.to_string()).await;
        assert_eq!(status == 201, ok, "{game} {length}: {answer}");
    }
}

/// A whole match through tokio-tungstenite's client, which shares no code with the usual test client
/// (awc): the socket speaks plain RFC 6455 to any library.
#[actix_rt::test]
async fn a_panjpar_match_through_another_websocket_library() {
    let server = TestServer::start(|_| {});
    let me = server.open("panjpar", "computer", Some(json!(1))).await;
    let url = format!("ws://{}/ws/{}", server.running.addr, me.table);
    let (mut socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("the socket opens");
    let hello = json!({ "type": "hello", "token": me.token }).to_string();
    socket
        .send(Message::Text(hello.into()))
        .await
        .expect("the hello is sent");
    let mut rng = rng(12);
    let mut moves = 0;
    // A view leaves out its head (the status among it) while it is as last sent (docs/protocol.md).
    let mut status = String::new();
    loop {
        let message = socket.next().await.expect("the socket stays open");
        let Message::Text(text) = message.expect("a frame") else {
            continue;
        };
        let frame: Value = serde_json::from_str(text.as_str()).expect("frames are JSON");
        if frame["type"] != "view" {
            continue;
        }
        let version = frame["version"].as_u64().unwrap();
        if let Some(now) = frame.get("status") {
            now.as_str().unwrap().clone_into(&mut status);
        }
        let reply = match status.as_str() {
            "match-over" => break,
            "deal-over" => json!({ "type": "next-deal", "version": version }),
            "playing" if !frame["actions"].as_array().unwrap().is_empty() => {
                moves += 1;
                action(version, "t", &choose(&frame, &mut rng))
            }
            _ => continue,
        };
        socket
            .send(Message::text(reply.to_string()))
            .await
            .expect("the frame is sent");
    }
    assert!(moves > 0);
    socket.close(None).await.expect("the close is sent");
}
