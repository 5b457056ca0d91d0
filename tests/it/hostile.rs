//! Hostile clients over real HTTP and WebSocket: junk frames of every kind, moves that are not theirs
//! to make, replays, floods, a reader that never reads, a crowd of sockets at one table, guessed links
//! and tokens, and a race for the last seat. Each gets a clear error or a close; the table's version and
//! state stay as they were; the honest seats play on to the end.

use std::time::Duration;

use futures_util::future::join_all;
use serde_json::{json, Value};

use crate::support::*;

/// A two-seat Panjpar friends table with both seats connected, its first view read by each.
async fn panjpar_pair(server: &TestServer) -> (Seated, Seated, Client, Client) {
    let (host, guest, mut a, mut b) = friends_pair(server, "panjpar", Some(json!(1))).await;
    a.next_of("view").await;
    b.next_of("view").await;
    (host, guest, a, b)
}

/// The seat's current view, asked for afresh.
async fn current(client: &mut Client) -> Value {
    client.send(json!({ "type": "resync" })).await;
    client.next_of("view").await
}

/// The table has not moved: the same version and the same view as `before`.
async fn unchanged(client: &mut Client, before: &Value) {
    let now = current(client).await;
    assert_eq!(now["version"], before["version"]);
    assert_eq!(now["view"], before["view"]);
    assert_eq!(now["actions"], before["actions"]);
}

#[actix_rt::test]
async fn junk_frames_get_a_clear_error_and_change_nothing() {
    let server = TestServer::start(|_| {});
    let (_, _, mut a, mut b) = panjpar_pair(&server).await;
    let before = current(&mut a).await;
    let version = before["version"].as_u64().unwrap();
    let long = "x".repeat(7000);
    let junk: Vec<(String, &str)> = vec![
        (String::new(), "malformed"),
        ("{".into(), "malformed"),
        (
            r#"{"type":"action","version":1,"action":{"type":"pick-up"}"#.into(),
            "malformed",
        ),
        ("null".into(), "malformed"),
        ("[1,2,3]".into(), "malformed"),
        ("\"resync\"".into(), "malformed"),
        ("\u{0}\u{1}\u{2}".into(), "malformed"),
        (
            "{\"type\":\"resync\"}{\"type\":\"resync\"}".into(),
            "malformed",
        ),
        (r#"{"type":"teleport"}"#.into(), "unknown-type"),
        (r#"{"type":42}"#.into(), "malformed"),
        (
            r#"{"type":"action","version":"1","action":{}}"#.into(),
            "malformed",
        ),
        (
            r#"{"type":"action","version":1.5,"action":{}}"#.into(),
            "malformed",
        ),
        (
            r#"{"type":"action","version":-1,"action":{}}"#.into(),
            "malformed",
        ),
        (
            r#"{"type":"action","version":18446744073709551616,"action":{}}"#.into(),
            "malformed",
        ),
        (
            r#"{"type":"action","version":1e308,"action":{}}"#.into(),
            "malformed",
        ),
        (
            r#"{"type":"action","version":1,"id":7,"action":{}}"#.into(),
            "malformed",
        ),
        (
            format!(r#"{{"type":"action","version":1,"id":"{long}","action":{{}}}}"#),
            "malformed",
        ),
        (
            format!(r#"{{"type":"resync","x":"{}"}}"#, "y".repeat(9000)),
            "too-large",
        ),
        (
            format!("{}{}", "[".repeat(3000), "]".repeat(3000)),
            "malformed",
        ),
        (r#"{"type":"next-deal","version":true}"#.into(), "malformed"),
    ];
    for (text, code) in &junk {
        a.send_text(text.clone()).await;
        let error = a.next_of("error").await;
        assert_eq!(error["code"], *code, "{text:.80}");
        assert!(!error["message"].as_str().unwrap().is_empty());
    }
    // Actions that parse as frames but not as this game's moves, or are not this seat's to make.
    let acting_view = current(&mut b).await;
    let theirs = if before["actions"].as_array().unwrap().is_empty() {
        acting_view["actions"][0].clone()
    } else {
        before["actions"][0].clone()
    };
    for (bad, codes) in [
        (
            json!({"type": "guess", "colour": "green"}),
            &["bad-action"][..],
        ),
        (
            json!({"type": "guess", "colour": "red", "extra": 1}),
            &["bad-action"],
        ),
        (
            json!({"type": "attack", "cards": ["2C", "2C"]}),
            &["bad-action"],
        ),
        (json!({"type": "attack", "cards": ["ZZ"]}), &["bad-action"]),
        (json!({"type": "attack", "cards": "2C"}), &["bad-action"]),
        (
            json!({"type": "beat", "attack": "2C", "with": 3}),
            &["bad-action"],
        ),
        (json!("pick-up"), &["bad-action"]),
        (json!(null), &["bad-action"]),
    ] {
        a.send(action(version, "bad", &bad)).await;
        let code = a.next_of("error").await["code"].clone();
        assert!(codes.contains(&code.as_str().unwrap()), "{bad}: {code}");
    }
    // A binary frame.
    a.send_binary(vec![0xff; 100]).await;
    assert_eq!(a.next_of("error").await["code"], "binary");
    // The other seat's move, played by this one (whichever is not to act).
    let (idle, _) = if before["actions"].as_array().unwrap().is_empty() {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    idle.send(action(version, "theirs", &theirs)).await;
    assert_eq!(idle.next_of("error").await["code"], "not-your-turn");
    unchanged(&mut a, &before).await;
    unchanged(&mut b, &acting_view).await;
}

#[actix_rt::test]
async fn cards_not_held_duplicates_replays_and_stale_moves_are_refused() {
    let server = TestServer::start(|_| {});
    let (_, _, mut a, mut b) = panjpar_pair(&server).await;
    let mut clients = [&mut a, &mut b];
    let mut rng = rng(21);
    // Play to the first attack, so that cards are in play.
    loop {
        let views = [current(clients[0]).await, current(clients[1]).await];
        let acting = usize::from(views[0]["actions"].as_array().unwrap().is_empty());
        let view = &views[acting];
        if view["view"]["phase"]["name"] == "attack" {
            let version = view["version"].as_u64().unwrap();
            let hand: Vec<String> = serde_json::from_value(view["view"]["hand"].clone()).unwrap();
            let mut not_held: Vec<String> = chaikhana_rules::cards::deck()
                .iter()
                .map(|c| c.to_string())
                .filter(|c| !hand.contains(c))
                .collect();
            not_held.truncate(3);
            let client = &mut clients[acting];
            for (cards, code) in [
                (json!([not_held[0]]), "not-in-hand"),
                (json!([hand[0], not_held[1], not_held[2]]), "not-in-hand"),
                (json!([hand[0], hand[0]]), "bad-action"),
                (json!([hand[0], hand[0], hand[0]]), "bad-action"),
            ] {
                let attack = json!({"type": "attack", "cards": cards});
                client.send(action(version, "n", &attack)).await;
                let error = client.next_of("error").await;
                let got = error["code"].as_str().unwrap();
                // A set of three that is not held may be refused for its shape before its cards.
                assert!(got == code || got.starts_with("attack-"), "{cards}: {got}");
            }
            unchanged(client, view).await;
            // An honest move, then the same frame again: a replay is stale.
            let honest = choose(view, &mut rng);
            client.send(action(version, "h", &honest)).await;
            assert_eq!(
                client.next_ack().await["version"].as_u64(),
                Some(version + 1)
            );
            client.send(action(version, "h", &honest)).await;
            assert_eq!(client.next_of("error").await["code"], "stale-version");
            assert_eq!(
                client.next_of("view").await["version"].as_u64(),
                Some(version + 1)
            );
            // A move made on a version the table has not reached.
            client.send(action(version + 100, "f", &honest)).await;
            assert_eq!(client.next_of("error").await["code"], "stale-version");
            return;
        }
        let chosen = choose(view, &mut rng);
        let version = view["version"].as_u64().unwrap();
        clients[acting].send(action(version, "m", &chosen)).await;
        clients[acting].next_ack().await;
    }
}

#[actix_rt::test]
async fn an_oversized_frame_closes_only_its_own_socket() {
    let server = TestServer::start(|_| {});
    let (host, _, mut a, mut b) = panjpar_pair(&server).await;
    let before = current(&mut b).await;
    let mut rude = server.connect(&host).await;
    rude.send_text(format!(
        r#"{{"type":"resync","x":"{}"}}"#,
        "z".repeat(200_000)
    ))
    .await;
    assert_eq!(rude.close_code().await, Some(1009));
    unchanged(&mut b, &before).await;
    let again = current(&mut a).await;
    assert_eq!(again["version"], before["version"]);
}

#[actix_rt::test]
async fn a_flood_past_the_rate_limit_is_refused_then_closed_and_the_table_goes_on() {
    let server = TestServer::start(|s| {
        s.rate_per_second = 5;
        s.rate_burst = 5;
    });
    let (host, _, mut a, mut b) = panjpar_pair(&server).await;
    let before = current(&mut b).await;
    let mut flooder = server.connect(&host).await;
    for _ in 0..40 {
        flooder.send(json!({ "type": "resync" })).await;
    }
    let code = flooder.close_code().await;
    let limited = flooder
        .received
        .iter()
        .filter(|f| f["code"] == "rate-limited")
        .count();
    assert!(limited >= 1, "rate-limited errors came first");
    assert_eq!(code, Some(1008));
    actix_rt::time::sleep(Duration::from_millis(400)).await;
    unchanged(&mut b, &before).await;
    let seen = current(&mut a).await;
    assert_eq!(seen["version"], before["version"]);
}

#[actix_rt::test]
async fn a_reader_that_never_reads_is_dropped_and_the_match_goes_on() {
    let server = TestServer::start(|_| {});
    let (_, guest, a, b) = friends_pair(&server, "pishe-pasha", Some(json!("one-deal"))).await;
    let mut clients = vec![a, b];
    let dropped_before = server_metric(&server, "chaikhana_outbound_overflows_total").await;
    // A second socket for the guest's seat that asks for view after view and reads none of them,
    // until its sends block or the server has closed it.
    let mut sleeper = server.connect(&guest).await;
    for _ in 0..20_000 {
        let sent = actix_rt::time::timeout(
            Duration::from_millis(200),
            sleeper.try_send_text(r#"{"type":"resync"}"#.into()),
        )
        .await;
        if sent != Ok(true) {
            break;
        }
    }
    // The honest seats play the whole deal; the sleeper's queue overflows on the way.
    play_among_friends(&mut clients, &mut rng(31)).await;
    let dropped_after = server_metric(&server, "chaikhana_outbound_overflows_total").await;
    assert!(dropped_after > dropped_before, "a socket was dropped");
    // The metrics are the process's, shared with every other test's server: this server's own
    // count of open sockets shows that the one dropped was the sleeper (its close may wait for the
    // write timeout, as nothing reads it).
    let started = std::time::Instant::now();
    while server.running.registry.open() > 2 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the sleeper was dropped"
        );
        actix_rt::time::sleep(Duration::from_millis(100)).await;
    }
    drop(sleeper);
}

async fn server_metric(server: &TestServer, name: &str) -> f64 {
    let (_, text) = server.get("/metrics").await;
    text.lines()
        .filter(|l| l.starts_with(name))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

#[actix_rt::test]
async fn guessed_links_and_tokens_find_nothing() {
    let server = TestServer::start(|_| {});
    let (host, _, mut a, _b) = panjpar_pair(&server).await;
    let before = current(&mut a).await;
    for i in 0..300 {
        let guess = chaikhana::table::TableId::random();
        assert_eq!(server.get(&format!("/t/{guess}")).await.0, 404);
        assert_eq!(server.join(guess.as_str()).await.0, 404);
        let token = chaikhana::table::TableId::random();
        let table = if i % 2 == 0 {
            host.table.as_str()
        } else {
            guess.as_str()
        };
        let refused = Client::connect(&server.base, table, token.as_str()).await;
        match refused {
            Err(e) => assert!(e.contains("wrong-token") || e.contains("404"), "{e}"),
            Ok(_) => panic!("a guessed token was let in"),
        }
    }
    for bad in ["", "short", "../../etc/passwd", "%00", &"A".repeat(5000)] {
        let status = server.get(&format!("/t/{bad}")).await.0;
        assert_eq!(status, 404, "{bad:.20}");
        let status = server.join(bad).await.0;
        assert!(status == 404 || status == 405, "{bad:.20}: {status}");
    }
    unchanged(&mut a, &before).await;
}

#[actix_rt::test]
async fn a_crowd_of_sockets_at_one_table_changes_nothing() {
    // The caps on sockets per seat and per address have tests of their own (hostile_wire.rs).
    let server = TestServer::start(|s| {
        s.sockets_per_seat = 400;
        s.sockets_per_address = 2_000;
    });
    let (host, _, mut a, mut b) = panjpar_pair(&server).await;
    let before = current(&mut b).await;
    // A thousand upgrades with wrong tokens, at once.
    let attempts = (0..1000).map(|_| {
        let token = chaikhana::table::TableId::random();
        let (base, table) = (&server.base, &host.table);
        async move { Client::connect(base, table, token.as_str()).await.is_ok() }
    });
    let admitted = join_all(attempts)
        .await
        .into_iter()
        .filter(|ok| *ok)
        .count();
    assert_eq!(admitted, 0);
    // Three hundred real sockets for seat 0, all held open while the seats play on.
    let mut crowd = Vec::new();
    for _ in 0..300 {
        crowd.push(server.connect(&host).await);
    }
    unchanged(&mut b, &before).await;
    let now = current(&mut a).await;
    assert_eq!(now["version"], before["version"]);
    drop(crowd);
    // The honest seats play their match to the end (the table has not moved: version 1).
    assert_eq!(before["version"], 1);
    let mut clients = vec![a, b];
    for client in clients.iter_mut() {
        client.send(json!({ "type": "resync" })).await;
    }
    play_among_friends(&mut clients, &mut rng(41)).await;
}

#[actix_rt::test]
async fn joins_racing_for_the_last_seat_give_it_to_one() {
    let server = TestServer::start(|_| {});
    let host = server.open("ganjifa", "friends", Some(json!(3))).await;
    let (status, _) = server.join(&host.table).await;
    assert_eq!(status, 201);
    let racers = (0..40).map(|_| server.join(&host.table));
    let answers = join_all(racers).await;
    let won: Vec<&Value> = answers
        .iter()
        .filter(|(s, _)| *s == 201)
        .map(|(_, a)| a)
        .collect();
    assert_eq!(won.len(), 1, "exactly one racer takes the last seat");
    assert_eq!(won[0]["seat"], 2);
    for (status, answer) in answers.iter().filter(|(s, _)| *s != 201) {
        assert_eq!(*status, 409);
        assert_eq!(answer["code"], "table-full");
    }
}
