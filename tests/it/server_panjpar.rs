//! The game server over real HTTP and WebSocket, with Panjpar tables: whole matches against the computer
//! and among friends, reconnecting, hostile frames, and every frame checked against the truth.

use serde_json::json;

use crate::support::leaks::*;
use crate::support::*;
use chaikhana_rules::games::panjpar::Panjpar;

#[actix_rt::test]
async fn a_whole_match_against_the_computer() {
    let server = TestServer::start(|_| {});
    let (client, deals) = computer_match::<Panjpar>(&server, json!(3), 1, panjpar_leaks).await;
    assert!(
        deals >= 3,
        "first to three deals won takes three deals at least"
    );
    let last = client.last_view();
    let winners = last["match"]["winners"].as_array().unwrap();
    assert_eq!(winners.len(), 1);
    let winner = winners[0].as_u64().unwrap() as usize;
    assert_eq!(last["match"]["deals_won"][winner].as_u64(), Some(3));
    assert!(
        last["view"]["hands_shown"].is_array(),
        "both hands are shown at the end"
    );
}

#[actix_rt::test]
async fn the_first_seat_waits_for_the_second() {
    let server = TestServer::start(|_| {});
    let host = server.open("panjpar", "friends", None).await;
    let mut first = server.connect(&host).await;
    let waiting = first.next_of("view").await;
    assert_eq!(waiting["status"], "waiting");
    assert!(waiting["view"].is_null());
    let (status, guest) = server.join(&host.table).await;
    assert_eq!(status, 201);
    assert_eq!(guest["link"], format!("/t/{}", host.table));
    let dealt = first.next_of("view").await;
    assert_eq!(dealt["status"], "playing");
    assert_eq!(dealt["version"], 1);
}

/// Plays up to `moves` random actions of the deal between two friends' sockets (fewer if it ends).
async fn play_a_few(a: &mut Client, b: &mut Client, seed: u64, moves: usize) {
    let mut rng = rng(seed);
    for _ in 0..moves {
        let va = a.next_of("view").await;
        let vb = b.next_of("view").await;
        let (actor, view) = if va["actions"].as_array().unwrap().is_empty() {
            (&mut *b, vb)
        } else {
            (&mut *a, va)
        };
        if view["status"] != "playing" {
            return;
        }
        let version = view["version"].as_u64().unwrap();
        actor
            .send(action(version, "r", &choose(&view, &mut rng)))
            .await;
    }
}

#[actix_rt::test]
async fn a_seat_reconnects_mid_deal_to_the_same_view_and_version() {
    let server = TestServer::start(|_| {});
    let (host, _, mut a, mut b) = friends_pair(&server, "panjpar", None).await;
    // Play a few actions, then the seat to act drops and comes back.
    play_a_few(&mut a, &mut b, 3, 4).await;
    let before_a = a.next_of("view").await;
    let _ = b.next_of("view").await;
    a.close().await;
    let mut again = server.connect(&host).await;
    let resumed = again.next_of("view").await;
    assert_eq!(resumed["version"], before_a["version"]);
    assert_eq!(resumed["view"], before_a["view"]);
    assert_eq!(resumed["seat"], 0);
}

#[actix_rt::test]
async fn a_view_carries_only_what_changed_and_resync_carries_it_all() {
    let server = TestServer::start(|_| {});
    let (_, _, mut a, mut b) = friends_pair(&server, "panjpar", None).await;
    play_a_few(&mut a, &mut b, 5, 12).await;
    let last = a.next_of("view").await;
    let sent: Vec<_> = a.as_sent.iter().filter(|f| f["type"] == "view").collect();
    let fields = |f: &serde_json::Value| f["view"].as_object().map_or(0, |v| v.len());
    let whole = fields(sent[0]);
    assert!(whole > 10, "the first view is whole: {}", sent[0]);
    // The seat never changes, and the trump only when it is chosen.
    assert!(
        sent[1..].iter().all(|f| fields(f) < whole),
        "the views after the first leave out what did not change"
    );
    let with_trump = sent[1..]
        .iter()
        .filter(|f| f["view"].get("trump").is_some());
    assert!(
        with_trump.count() <= 1,
        "the trump is sent once it is chosen"
    );
    // The head (the seat, the status...) comes with the first view, and again when it changes or
    // after a seats frame (the other seat connecting): not with every move.
    let head = [
        "game", "kind", "level", "status", "seat", "watching", "outcome",
    ];
    assert!(head.iter().all(|h| sent[0].get(h).is_some()), "{}", sent[0]);
    let with_head = sent.iter().filter(|f| f.get("status").is_some()).count();
    assert!(with_head <= 3, "{with_head} of {} views", sent.len());
    assert_eq!(
        last["seat"], 0,
        "laid over each other, the views keep the head"
    );
    assert_eq!(last["status"], "playing");
    a.send(json!({"type": "resync"})).await;
    let again = a.next_of("view").await;
    let resent = a.as_sent.last().unwrap();
    assert_eq!(fields(resent), whole, "the answer to resync is whole");
    assert!(head.iter().all(|h| resent.get(h).is_some()), "{resent}");
    assert_eq!(
        again["view"], last["view"],
        "laid over each other, the views were whole"
    );
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
    assert!(page.contains("a Panjpar table"), "{page}");
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
    let (_, _, mut a, mut b) = friends_pair(&server, "panjpar", None).await;
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
        actor.next_ack().await["version"].as_u64(),
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
