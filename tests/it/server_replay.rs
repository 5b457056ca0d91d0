//! Replays over the wire: once a deal has ended, each seat steps through it from the deal as dealt to
//! its last move, and every step shows it exactly the view it was sent at that moment of play (so
//! nothing it did not see then, a Ganjifa card put down face down included). A deal still in play, a
//! step past the end, a deal the match does not have and a malformed request are refused with a
//! sentence, and the table is where it was.

use std::collections::HashMap;

use serde_json::{json, Value};

use crate::support::*;

/// Plays a friends deal to its end with random offered actions, keeping every view each seat is
/// sent by version; returns the deal's first version and the views.
async fn play_a_deal(clients: &mut [Client], seed: u64) -> (u64, Vec<HashMap<u64, Value>>) {
    let mut rng = rng(seed);
    let mut seen: Vec<HashMap<u64, Value>> = vec![HashMap::new(); clients.len()];
    let mut target = 1;
    loop {
        let mut views = Vec::new();
        for (i, client) in clients.iter_mut().enumerate() {
            let view = loop {
                let view = client.next_of("view").await;
                seen[i].insert(view["version"].as_u64().unwrap(), view["view"].clone());
                if view["version"].as_u64().unwrap() >= target {
                    break view;
                }
            };
            views.push(view);
        }
        if views[0]["status"] != "playing" {
            return (1, seen);
        }
        if target == 2 {
            // Asked for while the deal is played: refused, nothing changes.
            clients[0].send(json!({"type": "replay", "step": 0})).await;
            assert_eq!(clients[0].next_of("error").await["code"], "deal-in-play");
        }
        let acting = (0..clients.len())
            .find(|i| !views[*i]["actions"].as_array().unwrap().is_empty())
            .expect("a seat to act");
        let chosen = choose(&views[acting], &mut rng);
        clients[acting].send(action(target, "x", &chosen)).await;
        target += 1;
    }
}

async fn replays_as_seen(game: &str, seats: usize, length: Value, seed: u64) {
    let server = TestServer::start(|s| s.bot_delay_ms = 1);
    let (table, mut clients) = seat_friends(&server, game, seats, length).await;
    let (dealt_at, seen) = play_a_deal(&mut clients, seed).await;
    let record = server.record(&table).await;
    let deal = &record.deals[0];
    assert_eq!(deal.dealt_at, dealt_at);
    let steps = deal.actions.len();
    // Each seat's last view, at the deal's end, carries the seal and its reveal.
    let reveal: Vec<Value> = clients
        .iter()
        .map(|c| {
            let last = c.last_view();
            assert!(last["deal"]["reveal"].is_object(), "{last}");
            last["deal"].clone()
        })
        .collect();
    for (seat, client) in clients.iter_mut().enumerate() {
        for step in 0..=steps {
            let ask = if step % 2 == 0 {
                json!({"type": "replay", "step": step})
            } else {
                json!({"type": "replay", "deal": 0, "step": step})
            };
            client.send(ask).await;
            let frame = client.next_of("replay").await;
            assert_eq!(frame["seat"], seat, "{frame}");
            assert_eq!(frame["replay"]["deal"], 0);
            assert_eq!(frame["replay"]["step"], step);
            assert_eq!(frame["replay"]["steps"], steps);
            assert_eq!(frame["actions"], json!([]));
            // The deal's seal with its reveal, as every seat was sent it at the deal's end.
            assert_eq!(frame["deal"], reveal[seat], "{frame}");
            let version = dealt_at + step as u64;
            assert_eq!(
                frame["view"], seen[seat][&version],
                "{game}: seat {seat} at step {step} is shown what it saw at version {version}"
            );
            if step > 0 {
                let (by, made, _) = &deal.actions[step - 1];
                assert_eq!(frame["replay"]["by"], by.index());
                assert_eq!(&frame["replay"]["action"], made);
            }
        }
    }
    // Refused, each with a sentence; the table stays where it was.
    let version = record.version;
    for (ask, code) in [
        (json!({"type": "replay", "step": steps + 1}), "no-such-step"),
        (
            json!({"type": "replay", "deal": 1, "step": 0}),
            "no-such-deal",
        ),
        (json!({"type": "replay", "step": -1}), "malformed"),
        (json!({"type": "replay", "step": 0, "seat": 1}), "malformed"),
    ] {
        clients[0].send(ask.clone()).await;
        let error = clients[0].next_of("error").await;
        assert_eq!(error["code"], code, "{ask}: {error}");
        assert!(error["message"].as_str().unwrap().len() > 10);
    }
    assert_eq!(server.record(&table).await.version, version);
}

#[actix_rt::test]
async fn a_panjpar_deal_replays_as_each_seat_saw_it() {
    replays_as_seen("panjpar", 2, json!(1), 7).await;
}

#[actix_rt::test]
async fn a_pishe_pasha_deal_replays_as_each_seat_saw_it() {
    replays_as_seen("pishe-pasha", 2, json!("one-deal"), 8).await;
}

#[actix_rt::test]
async fn a_ganjifa_deal_replays_as_each_seat_saw_it() {
    replays_as_seen("ganjifa", 3, json!(3), 9).await;
}
