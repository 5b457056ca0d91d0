//! The game server over real HTTP and WebSocket, with Panjpar tables: whole matches against the computer
//! and among friends, reconnecting, hostile frames, and every frame checked against the truth.

mod support;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde_json::{json, Value};

use chaikhana::cards::{cards_in_json, deal_rng, Seat};
use chaikhana::game::Game;
use chaikhana::games::panjpar::{view::visible_to, Action, Panjpar, State};
use chaikhana::table::TableRecord;
use support::{action, Client, TestServer};

type Rng = rand_chacha::ChaCha8Rng;

/// The deal's state at `version`, rebuilt from the table's record.
fn state_at(record: &TableRecord, version: u64) -> Option<State> {
    let deal = record.deals.iter().rev().find(|d| d.dealt_at <= version)?;
    let mut state = Panjpar::deal(&deal.setup, &mut deal_rng(deal.seed));
    for (seat, json, made) in &deal.actions {
        if *made > version {
            break;
        }
        let action: Action = serde_json::from_value(json.clone()).unwrap();
        Panjpar::apply(&mut state, *seat, &action).expect("recorded actions replay");
    }
    Some(state)
}

/// No frame a seat received holds a card that seat could not know at that version.
fn assert_frames_hide_the_truth(record: &TableRecord, seat: u64, frames: &[Value]) {
    let mut checked = 0;
    for frame in frames {
        let shown = cards_in_json(frame);
        if shown.is_empty() {
            continue;
        }
        let version = frame["version"].as_u64().expect("only views show cards");
        let state = state_at(record, version).expect("a view with cards belongs to a deal");
        let leaked = shown.minus(visible_to(&state, Some(Seat::new(seat as usize))));
        assert!(
            leaked.is_empty(),
            "seat {seat} was shown {leaked:?} at version {version}"
        );
        checked += 1;
    }
    assert!(checked > 0);
}

fn choose(view: &Value, rng: &mut Rng) -> Value {
    view["actions"]
        .as_array()
        .unwrap()
        .choose(rng)
        .cloned()
        .unwrap()
}

#[actix_rt::test]
async fn a_whole_match_against_the_computer() {
    let server = TestServer::start(|_| {});
    let me = server.open("panjpar", "computer", Some(json!(3))).await;
    assert_eq!(me.seat, 0);
    let mut client = server.connect(&me).await;
    let mut rng = Rng::seed_from_u64(1);
    let mut deals_ended = 0;
    loop {
        let view = client.next_of("view").await;
        let version = view["version"].as_u64().unwrap();
        assert_eq!(view["game"], "panjpar");
        assert_eq!(view["kind"], "computer");
        match view["status"].as_str().unwrap() {
            "match-over" => {
                let winners = view["match"]["winners"].as_array().unwrap();
                assert_eq!(winners.len(), 1);
                let won =
                    view["match"]["deals_won"][winners[0].as_u64().unwrap() as usize].as_u64();
                assert_eq!(won, Some(3));
                break;
            }
            "deal-over" => {
                deals_ended += 1;
                assert!(
                    view["view"]["hands_shown"].is_array(),
                    "both hands are shown at the end"
                );
                client
                    .send(json!({ "type": "next-deal", "version": version }))
                    .await;
            }
            "playing" if !view["actions"].as_array().unwrap().is_empty() => {
                let chosen = choose(&view, &mut rng);
                client.send(action(version, "a", &chosen)).await;
                let ack = client.next_of("ack").await;
                assert_eq!(ack["version"].as_u64(), Some(version + 1));
            }
            _ => {}
        }
    }
    assert!(deals_ended + 1 >= 3, "the last deal ends the match");
    let record = server.record(&me.table).await;
    assert_frames_hide_the_truth(&record, 0, &client.received);
}

/// Plays a friends match to its end with every seat's client, checking each seat's frames.
async fn play_friends_match(server: &TestServer, clients: &mut [Client], rng: &mut Rng) {
    let mut target = 1;
    loop {
        let mut views = Vec::new();
        for client in clients.iter_mut() {
            let view = loop {
                let view = client.next_of("view").await;
                if view["version"].as_u64().unwrap() >= target {
                    break view;
                }
            };
            views.push(view);
        }
        for view in &views {
            assert_eq!(view["version"].as_u64(), Some(target));
            assert_eq!(view["status"], views[0]["status"]);
        }
        match views[0]["status"].as_str().unwrap() {
            "match-over" => break,
            "deal-over" => {
                clients[1]
                    .send(json!({ "type": "next-deal", "version": target }))
                    .await;
            }
            "playing" => {
                let acting: Vec<usize> = (0..clients.len())
                    .filter(|i| !views[*i]["actions"].as_array().unwrap().is_empty())
                    .collect();
                assert_eq!(acting.len(), 1, "exactly one seat acts");
                let chosen = choose(&views[acting[0]], rng);
                clients[acting[0]].send(action(target, "x", &chosen)).await;
            }
            other => panic!("unexpected status {other}"),
        }
        target += 1;
    }
    let _ = server;
}

#[actix_rt::test]
async fn a_friends_match_and_a_third_player_refused() {
    let server = TestServer::start(|_| {});
    let host = server.open("panjpar", "friends", Some(json!(1))).await;
    let mut first = server.connect(&host).await;
    let waiting = first.next_of("view").await;
    assert_eq!(waiting["status"], "waiting");
    assert!(waiting["view"].is_null());
    let (status, guest) = server.join(&host.table).await;
    assert_eq!(status, 201, "{guest}");
    assert_eq!(guest["seat"], 1);
    assert_eq!(guest["link"], format!("/t/{}", host.table));
    let (status, full) = server.join(&host.table).await;
    assert_eq!(status, 409);
    assert!(full["message"].as_str().unwrap().contains("taken"));
    let guest = support::Seated::from_answer(&host.table, &guest);
    let second = server.connect(&guest).await;
    let mut clients = [first, second];
    play_friends_match(&server, &mut clients, &mut Rng::seed_from_u64(2)).await;
    let record = server.record(&host.table).await;
    for (seat, client) in clients.iter().enumerate() {
        assert_frames_hide_the_truth(&record, seat as u64, &client.received);
    }
}

#[actix_rt::test]
async fn a_seat_reconnects_mid_deal_to_the_same_view_and_version() {
    let server = TestServer::start(|_| {});
    let host = server.open("panjpar", "friends", None).await;
    let (_, guest) = server.join(&host.table).await;
    let guest = support::Seated::from_answer(&host.table, &guest);
    let mut a = server.connect(&host).await;
    let mut b = server.connect(&guest).await;
    let mut rng = Rng::seed_from_u64(3);
    // Play a few actions, then the seat to act drops and comes back.
    let mut last = Value::Null;
    for _ in 0..4 {
        let va = a.next_of("view").await;
        let vb = b.next_of("view").await;
        let (actor, view) = if va["actions"].as_array().unwrap().is_empty() {
            (&mut b, vb)
        } else {
            (&mut a, va)
        };
        let version = view["version"].as_u64().unwrap();
        actor
            .send(action(version, "r", &choose(&view, &mut rng)))
            .await;
        last = view;
    }
    let before_a = a.next_of("view").await;
    let _ = b.next_of("view").await;
    a.close().await;
    let mut again = server.connect(&host).await;
    let resumed = again.next_of("view").await;
    assert_eq!(resumed["version"], before_a["version"]);
    assert_eq!(resumed["view"], before_a["view"]);
    assert_eq!(resumed["seat"], 0);
    assert!(last.is_object());
}

#[actix_rt::test]
async fn http_requests_are_checked() {
    let server = TestServer::start(|_| {});
    for (body, says) in [
        ("not json", "Send JSON"),
        (
            r#"{"game":"chess","opponents":"computer"}"#,
            "no game called",
        ),
        (
            r#"{"game":"panjpar","opponents":"robots"}"#,
            "\"computer\" or \"friends\"",
        ),
        (
            r#"{"game":"panjpar","opponents":"computer","length":4}"#,
            "1, 3 or 5",
        ),
        (
            r#"{"game":"panjpar","opponents":"computer","length":"long"}"#,
            "1, 3 or 5",
        ),
        (
            r#"{"game":"panjpar","opponents":"computer","colour":"red"}"#,
            "unknown field",
        ),
    ] {
        let (status, answer) = server.post("/api/tables", body).await;
        assert_eq!(status, 400, "{body}");
        assert!(
            answer["message"].as_str().unwrap().contains(says),
            "{body}: {answer}"
        );
    }
    let (status, answer) = server.join("AAAAAAAAAAAAAAAAAAAAAA").await;
    assert_eq!(status, 404, "{answer}");
    let (status, _) = server.join("not-an-id").await;
    assert_eq!(status, 404);
    let computer = server.open("panjpar", "computer", None).await;
    assert_eq!(computer.token.len(), 22);
    assert_eq!(computer.table.len(), 22);
    let (status, _) = server.join(&computer.table).await;
    assert_eq!(status, 409, "a computer table has no free seat");
    let (status, page) = server.get(&format!("/t/{}", computer.table)).await;
    assert_eq!(status, 200);
    assert!(page.contains("panjpar"));
    let (status, _) = server.get("/t/AAAAAAAAAAAAAAAAAAAAAA").await;
    assert_eq!(status, 404);
    // A wrong or missing token opens no socket.
    let wrong = Client::connect(&server.base, &computer.table, "AAAAAAAAAAAAAAAAAAAAAA").await;
    assert!(wrong.is_err());
    let missing = Client::connect(&server.base, &computer.table, "").await;
    assert!(missing.is_err());
}

#[actix_rt::test]
async fn hostile_frames_are_refused_and_change_nothing() {
    let server = TestServer::start(|s| s.bot_delay_ms = 1);
    let host = server.open("panjpar", "friends", None).await;
    let (_, guest) = server.join(&host.table).await;
    let guest = support::Seated::from_answer(&host.table, &guest);
    let mut a = server.connect(&host).await;
    let mut b = server.connect(&guest).await;
    let va = a.next_of("view").await;
    let vb = b.next_of("view").await;
    let version = va["version"].as_u64().unwrap();
    let (actor, idle, view) = if va["actions"].as_array().unwrap().is_empty() {
        (&mut b, &mut a, vb)
    } else {
        (&mut a, &mut b, va)
    };
    let legal = view["actions"][0].clone();

    // Out of turn: the idle seat plays the actor's legal action.
    idle.send(action(version, "o", &legal)).await;
    let error = idle.next_of("error").await;
    assert_eq!(error["code"], "not-your-turn");
    assert_eq!(error["id"], "o");
    // A stale version.
    actor.send(action(version + 5, "s", &legal)).await;
    assert_eq!(actor.next_of("error").await["code"], "stale-version");
    assert_eq!(
        actor.next_of("view").await["version"].as_u64(),
        Some(version)
    );
    // Not an action of this game, an illegal one, malformed, unknown, binary and oversized frames.
    actor
        .send(action(version, "b", &json!({"type": "fly"})))
        .await;
    assert_eq!(actor.next_of("error").await["code"], "bad-action");
    actor
        .send(action(
            version,
            "i",
            &json!({"type": "attack", "cards": ["2C", "3C"]}),
        ))
        .await;
    let code = actor.next_of("error").await["code"].clone();
    assert!(
        code == "wrong-phase"
            || code.as_str().unwrap().starts_with("attack-")
            || code == "not-in-hand",
        "{code}"
    );
    actor.send_text("{\"type\":".into()).await;
    assert_eq!(actor.next_of("error").await["code"], "malformed");
    actor.send(json!({"type": "dance"})).await;
    assert_eq!(actor.next_of("error").await["code"], "unknown-type");
    actor.send_binary(vec![1, 2, 3]).await;
    assert_eq!(actor.next_of("error").await["code"], "binary");
    actor
        .send_text(format!(
            "{{\"type\":\"resync\",\"pad\":\"{}\"}}",
            "x".repeat(9000)
        ))
        .await;
    assert_eq!(actor.next_of("error").await["code"], "too-large");
    // Nothing moved: a resync shows the same version, and the honest move still plays.
    actor.send(json!({"type": "resync"})).await;
    assert_eq!(
        actor.next_of("view").await["version"].as_u64(),
        Some(version)
    );
    actor.send(action(version, "ok", &legal)).await;
    assert_eq!(
        actor.next_of("ack").await["version"].as_u64(),
        Some(version + 1)
    );
    assert_eq!(
        idle.next_of("view").await["version"].as_u64(),
        Some(version + 1)
    );
}

#[actix_rt::test]
async fn a_flood_is_limited_then_closed() {
    let server = TestServer::start(|s| {
        s.rate_per_second = 1;
        s.rate_burst = 2;
    });
    let me = server.open("panjpar", "computer", None).await;
    let mut client = server.connect(&me).await;
    for _ in 0..20 {
        client.send(json!({"type": "resync"})).await;
    }
    let mut limited = 0;
    while let Some(frame) = client.next().await {
        if frame["code"] == "rate-limited" {
            limited += 1;
        }
    }
    assert!(limited >= 1, "{:?}", client.received);
}
