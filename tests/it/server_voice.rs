//! Voice over real WebSockets: the table relays the WebRTC handshake between seats of one friends table
//! that have voice on, and refuses everything else with a clear error; voice never moves the version.

use serde_json::{json, Value};

use crate::support::*;

fn voice(on: bool) -> Value {
    json!({ "type": "voice", "on": on })
}

fn signal(to: u64, kind: &str, data: Value) -> Value {
    json!({ "type": "signal", "to": to, "kind": kind, "data": data })
}

/// Every seat of `clients` switches voice on, and each sees them all on.
async fn all_voice_on(clients: &mut [Client]) {
    for client in clients.iter_mut() {
        client.send(voice(true)).await;
    }
    let on = vec![true; clients.len()];
    for client in clients.iter_mut() {
        until_voice(client, &on).await;
    }
}

/// Sends `frame` and answers the code of the error it brings.
async fn refusal(client: &mut Client, frame: Value) -> Value {
    client.send(frame).await;
    client.next_of("error").await["code"].clone()
}

/// Reads until the deal is dealt, so later frames come only from what the test does.
async fn until_dealt(client: &mut Client) {
    while client.next_of("view").await["status"] == "waiting" {}
}

/// Reads `seats` frames until one shows these voice switches, seat by seat.
async fn until_voice(client: &mut Client, wanted: &[bool]) {
    loop {
        let frame = client.next_of("seats").await;
        let voice: Vec<bool> = frame["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["voice"].as_bool().unwrap())
            .collect();
        if voice == wanted {
            return;
        }
    }
}

/// Asks for a resync and returns every frame that came before the view it brings. Frames the table
/// sent this socket earlier are queued ahead of that view, so this shows whether any came.
async fn frames_before_a_resync(client: &mut Client) -> Vec<Value> {
    client.send(json!({ "type": "resync" })).await;
    let mut before = Vec::new();
    loop {
        let frame = client.next().await.expect("the resync is answered");
        if frame["type"] == "view" {
            return before;
        }
        before.push(frame);
    }
}

fn signals(frames: &[Value]) -> Vec<&Value> {
    frames.iter().filter(|f| f["type"] == "signal").collect()
}

/// A friends table of `seats` with every client past the deal.
async fn friends(server: &TestServer, game: &str, seats: usize) -> (String, Vec<Client>) {
    let length = match game {
        "pishe-pasha" => json!("one-deal"),
        _ => json!(3),
    };
    let (table, mut clients) = seat_friends(server, game, seats, length).await;
    for client in clients.iter_mut() {
        until_dealt(client).await;
    }
    (table, clients)
}

#[actix_rt::test]
async fn a_handshake_goes_between_two_seats_with_voice_on_and_never_moves_the_version() {
    let server = TestServer::start(|_| {});
    let (table, mut clients) = friends(&server, "panjpar", 2).await;
    let version = server.record(&table).await.version;
    clients[0].send(voice(true)).await;
    until_voice(&mut clients[1], &[true, false]).await;
    clients[1].send(voice(true)).await;
    until_voice(&mut clients[0], &[true, true]).await;
    let offer = json!({ "type": "offer", "sdp": "v=0 offer", "call": "c1" });
    clients[0].send(signal(1, "offer", offer.clone())).await;
    let relayed = clients[1].next_of("signal").await;
    assert_eq!(
        relayed,
        json!({ "type": "signal", "from": 0, "kind": "offer", "data": offer })
    );
    let answer = json!({ "type": "answer", "sdp": "v=0 answer", "call": "c1" });
    clients[1].send(signal(0, "answer", answer.clone())).await;
    let relayed = clients[0].next_of("signal").await;
    assert_eq!(relayed["from"], 1);
    assert_eq!(relayed["kind"], "answer");
    assert_eq!(relayed["data"], answer);
    clients[0]
        .send(signal(
            1,
            "ice",
            json!({ "candidate": "candidate:1 1 udp 1 192.0.2.2 5000 typ host", "call": "c1" }),
        ))
        .await;
    assert_eq!(clients[1].next_of("signal").await["kind"], "ice");
    // Voice is not a move: the table's version and record are untouched, and no view went out.
    assert_eq!(server.record(&table).await.version, version);
    for client in clients.iter_mut() {
        let before = frames_before_a_resync(client).await;
        assert!(before.iter().all(|f| f["type"] != "view"), "{before:?}");
    }
    let view = clients[0].received.last().unwrap().clone();
    assert_eq!(view["version"].as_u64(), Some(version));
    assert_eq!(view["seats"][0]["voice"], true);
    assert_eq!(view["seats"][1]["voice"], true);
}

#[actix_rt::test]
async fn a_signal_is_refused_from_or_to_a_seat_with_voice_off() {
    let server = TestServer::start(|_| {});
    let (_, mut clients) = friends(&server, "pishe-pasha", 2).await;
    // Neither has voice on: the sender is told, the other seat hears nothing.
    clients[0]
        .send(signal(1, "offer", json!({ "sdp": "x" })))
        .await;
    let refused = clients[0].next_of("error").await;
    assert_eq!(refused["code"], "voice-off", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("voice on"));
    assert!(signals(&frames_before_a_resync(&mut clients[1]).await).is_empty());
    // The sender has voice on, the other seat not.
    clients[0].send(voice(true)).await;
    until_voice(&mut clients[0], &[true, false]).await;
    assert_eq!(
        refusal(&mut clients[0], signal(1, "offer", json!({ "sdp": "x" }))).await,
        "peer-voice-off"
    );
    // The other seat has voice on, the sender not any more.
    clients[1].send(voice(true)).await;
    until_voice(&mut clients[0], &[true, true]).await;
    clients[0].send(voice(false)).await;
    until_voice(&mut clients[1], &[false, true]).await;
    assert_eq!(
        refusal(
            &mut clients[0],
            signal(1, "ice", json!({ "candidate": "" }))
        )
        .await,
        "voice-off"
    );
    // Nor to itself, nor to a seat the table does not have.
    assert_eq!(
        refusal(&mut clients[1], signal(1, "ice", json!({}))).await,
        "bad-signal"
    );
    assert_eq!(
        refusal(&mut clients[1], signal(2, "ice", json!({}))).await,
        "bad-signal"
    );
    assert!(signals(&frames_before_a_resync(&mut clients[1]).await).is_empty());
}

#[actix_rt::test]
async fn voice_is_refused_at_a_computer_table() {
    let server = TestServer::start(|_| {});
    let me = server.open("ganjifa", "computer", None).await;
    let mut client = server.connect(&me).await;
    client.next_of("view").await;
    client.send(voice(true)).await;
    let refused = client.next_of("error").await;
    assert_eq!(refused["code"], "voice-friends-only", "{refused}");
    assert_eq!(
        refusal(&mut client, signal(1, "offer", json!({ "sdp": "x" }))).await,
        "voice-friends-only"
    );
    client.send(json!({ "type": "resync" })).await;
    let view = client.next_of("view").await;
    assert!(view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["voice"] == false));
}

#[actix_rt::test]
async fn an_oversized_signal_is_refused_and_not_relayed() {
    let server = TestServer::start(|_| {});
    let (_, mut clients) = friends(&server, "panjpar", 2).await;
    all_voice_on(&mut clients).await;
    let sdp = "a=x\r\n".repeat(1400);
    clients[0]
        .send(signal(1, "offer", json!({ "type": "offer", "sdp": sdp })))
        .await;
    let refused = clients[0].next_of("error").await;
    assert_eq!(refused["code"], "too-large", "{refused}");
    assert!(signals(&frames_before_a_resync(&mut clients[1]).await).is_empty());
}

#[actix_rt::test]
async fn a_signal_flood_is_limited_apart_from_moves_then_closed() {
    let server = TestServer::start(|s| {
        s.voice_rate_per_second = 1;
        s.voice_rate_burst = 3;
    });
    let (_, mut clients) = friends(&server, "panjpar", 2).await;
    clients[0].send(voice(true)).await;
    clients[1].send(voice(true)).await;
    until_voice(&mut clients[1], &[true, true]).await;
    for n in 0..6 {
        clients[0]
            .send(signal(1, "ice", json!({ "candidate": n })))
            .await;
    }
    let mut limited = 0;
    while limited < 3 {
        let frame = clients[0].next_of("error").await;
        assert_eq!(frame["code"], "rate-limited", "{frame}");
        limited += 1;
    }
    // The moves' allowance is untouched: a resync is still answered.
    let before = frames_before_a_resync(&mut clients[0]).await;
    assert!(before.iter().all(|f| f["type"] != "signal"), "{before:?}");
    let relayed = signals(&frames_before_a_resync(&mut clients[1]).await).len();
    assert!((2..=4).contains(&relayed), "{relayed} relayed");
    // Kept up, the flood closes the socket, and its voice goes off for the other seat.
    for n in 0..30 {
        clients[0]
            .send(signal(1, "ice", json!({ "candidate": n })))
            .await;
    }
    assert_eq!(clients[0].close_code().await, Some(1008));
    until_voice(&mut clients[1], &[false, true]).await;
}

#[actix_rt::test]
async fn signals_never_cross_to_another_table_and_reach_only_the_seat_named() {
    let server = TestServer::start(|_| {});
    let (_, mut here) = friends(&server, "ganjifa", 3).await;
    let (_, mut there) = friends(&server, "ganjifa", 3).await;
    all_voice_on(&mut here).await;
    all_voice_on(&mut there).await;
    here[0]
        .send(signal(
            2,
            "offer",
            json!({ "sdp": "for seat 2", "call": "a" }),
        ))
        .await;
    here[1]
        .send(signal(
            2,
            "offer",
            json!({ "sdp": "from seat 1", "call": "b" }),
        ))
        .await;
    let mut got: Vec<Value> = Vec::new();
    while got.len() < 2 {
        got.push(here[2].next_of("signal").await);
    }
    got.sort_by_key(|f| f["from"].as_u64());
    assert_eq!(got[0]["from"], 0);
    assert_eq!(got[0]["data"]["sdp"], "for seat 2");
    assert_eq!(got[1]["from"], 1);
    assert_eq!(got[1]["data"]["sdp"], "from seat 1");
    // A signal has no way to name another table: one that tries is refused whole.
    let aimed =
        json!({ "type": "signal", "table": "elsewhere", "to": 1, "kind": "offer", "data": {} });
    here[0].send(aimed).await;
    assert_eq!(here[0].next_of("error").await["code"], "malformed");
    for client in here[..2].iter_mut().chain(there.iter_mut()) {
        assert!(signals(&frames_before_a_resync(client).await).is_empty());
    }
}

#[actix_rt::test]
async fn closing_a_socket_or_switching_off_ends_its_voice_for_everyone() {
    let server = TestServer::start(|_| {});
    let (_, mut clients) = friends(&server, "ganjifa", 3).await;
    all_voice_on(&mut clients).await;
    clients[1].send(voice(false)).await;
    until_voice(&mut clients[0], &[true, false, true]).await;
    assert_eq!(
        refusal(&mut clients[0], signal(1, "offer", json!({}))).await,
        "peer-voice-off"
    );
    let gone = clients.pop().unwrap();
    gone.close().await;
    until_voice(&mut clients[0], &[true, false, false]).await;
    assert_eq!(
        refusal(&mut clients[0], signal(2, "offer", json!({}))).await,
        "peer-voice-off"
    );
}

#[actix_rt::test]
async fn a_second_tab_of_a_seat_takes_its_voice_and_the_first_is_told() {
    let server = TestServer::start(|_| {});
    let host = server.open("panjpar", "friends", Some(json!(1))).await;
    let mut first = server.connect(&host).await;
    let (status, answer) = server.join(&host.table).await;
    assert_eq!(status, 201);
    let guest = Seated::from_answer(&host.table, &answer);
    let mut other = server.connect(&guest).await;
    first.send(voice(true)).await;
    other.send(voice(true)).await;
    until_voice(&mut other, &[true, true]).await;
    let mut second = server.connect(&host).await;
    second.next_of("view").await;
    second.send(voice(true)).await;
    assert_eq!(first.next_of("error").await["code"], "voice-moved");
    // The other seat sees the voice go off and on again, and its signals reach the second tab.
    until_voice(&mut other, &[false, true]).await;
    until_voice(&mut other, &[true, true]).await;
    other
        .send(signal(0, "answer", json!({ "sdp": "to the new tab" })))
        .await;
    assert_eq!(
        second.next_of("signal").await["data"]["sdp"],
        "to the new tab"
    );
    assert!(signals(&frames_before_a_resync(&mut first).await).is_empty());
    first
        .send(signal(1, "ice", json!({ "candidate": "" })))
        .await;
    assert_eq!(first.next_of("error").await["code"], "voice-off");
}
