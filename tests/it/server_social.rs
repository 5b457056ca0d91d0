//! Names and quick phrases over the wire: a name is cleaned of control characters and direction
//! marks and shown to every seat; one too long, or a frame with anything more, is refused and changes
//! nothing. A phrase travels as its id to every seat, only at a friends table, and never as free text.

use serde_json::json;

use crate::support::*;

#[actix_rt::test]
async fn a_name_is_cleaned_and_every_seat_sees_it() {
    let server = TestServer::start(|_| {});
    let (_, mut clients) = seat_friends(&server, "panjpar", 2, json!(1)).await;
    clients[0]
        .send(json!({"type": "name", "name": "  \u{202E}Ali\u{0007}  Reza  "}))
        .await;
    for client in clients.iter_mut() {
        let seats = loop {
            let seats = client.next_of("seats").await;
            if !seats["seats"][0]["name"].is_null() {
                break seats;
            }
        };
        assert_eq!(seats["seats"][0]["name"], "Ali Reza", "{seats}");
        assert!(seats["seats"][1]["name"].is_null(), "{seats}");
    }
    // Too long, or with a field the frame does not have: refused, and the name stays.
    clients[0]
        .send(json!({"type": "name", "name": "x".repeat(21)}))
        .await;
    assert_eq!(clients[0].next_of("error").await["code"], "bad-name");
    clients[0]
        .send(json!({"type": "name", "name": "Ok", "html": "<b>"}))
        .await;
    assert_eq!(clients[0].next_of("error").await["code"], "malformed");
    clients[1].send(json!({"type": "resync"})).await;
    let view = clients[1].next_of("view").await;
    assert_eq!(view["seats"][0]["name"], "Ali Reza", "{view}");
    // An empty name takes it away.
    clients[0].send(json!({"type": "name", "name": " "})).await;
    let seats = clients[1].next_of("seats").await;
    assert!(seats["seats"][0]["name"].is_null(), "{seats}");
}

#[actix_rt::test]
async fn a_phrase_reaches_every_seat_as_its_id_and_nothing_else_passes() {
    let server = TestServer::start(|_| {});
    let (_, mut clients) = seat_friends(&server, "ganjifa", 3, json!(3)).await;
    clients[1]
        .send(json!({"type": "phrase", "id": "good-game"}))
        .await;
    for client in clients.iter_mut() {
        let heard = client.next_of("phrase").await;
        assert_eq!(
            heard,
            json!({"type": "phrase", "seat": 1, "id": "good-game"})
        );
    }
    for wrong in [
        json!({"type": "phrase", "id": "you-cheat"}),
        json!({"type": "phrase", "id": "hello", "text": "free text"}),
        json!({"type": "phrase", "text": "free text"}),
    ] {
        clients[2].send(wrong.clone()).await;
        let error = clients[2].next_of("error").await;
        assert_eq!(error["code"], "malformed", "{wrong}: {error}");
    }
    // No phrase at a computer table.
    let me = server.open("panjpar", "computer", None).await;
    let mut alone = server.connect(&me).await;
    alone.send(json!({"type": "phrase", "id": "hello"})).await;
    assert_eq!(alone.next_of("error").await["code"], "phrases-friends-only");
}
