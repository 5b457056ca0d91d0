//! Pairing across two nodes sharing a Redis: strangers on different nodes paired within a second and
//! playing (no ticket or seat token kept in clear), visitors of a node killed while they wait paired
//! through another, and open tables listed across nodes.

use std::time::{Duration, Instant};

use serde_json::json;

use super::open_tables::open_tables_listed_and_taken;
use super::{panjpar_pair, play_it, seat_of, Visitor};
use crate::support::cluster::{Node, Redis};

#[actix_rt::test]
async fn strangers_on_two_nodes_are_paired_within_a_second_and_play() {
    let Some(redis) = Redis::if_installed().await else {
        return;
    };
    let (a, b) = Node::pair(&redis, "all").await;
    let started = Instant::now();
    let (first, second) = panjpar_pair(&a.base, &b.base).await;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(1), "paired in {took:?}");
    // Redis holds no ticket and no seat token in clear: only their hashes.
    let lobby = lobby_in_redis(&redis);
    for secret in [&first.token, &second.token] {
        assert!(
            !lobby.contains(secret.as_str()),
            "a seat token in Redis: {lobby}"
        );
    }
    play_it([(&a.base, &first), (&b.base, &second)], 61).await;
    open_tables_listed_and_taken(&a.base, &b.base).await;
}

#[actix_rt::test]
async fn visitors_of_a_node_killed_while_they_wait_are_paired_through_another() {
    let Some(redis) = Redis::if_installed().await else {
        return;
    };
    let (a, b) = Node::pair(&redis, "all").await;
    let (first, _) = Visitor::enter(&a.base, "ganjifa", json!(3)).await;
    let (second, _) = Visitor::enter(&a.base, "ganjifa", json!(3)).await;
    a.signal("-KILL");
    // Their pages ask the site again and reach the other node: still waiting, their waits kept.
    for visitor in [&first, &second] {
        let (status, answer) = visitor.ask_at(&b.base).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["state"], "waiting", "{answer}");
        assert_eq!(answer["waiting"], 2);
    }
    let (_, paired) = Visitor::enter(&b.base, "ganjifa", json!(3)).await;
    let third = seat_of(&paired);
    for visitor in [&first, &second] {
        let (_, answer) = visitor.ask_at(&b.base).await;
        assert_eq!(seat_of(&answer).table, third.table);
    }
    // One who leaves through the surviving node is never paired.
    let (gone, _) = Visitor::enter(&b.base, "panjpar", json!(3)).await;
    gone.leave().await;
    let (_, alone) = Visitor::enter(&b.base, "panjpar", json!(3)).await;
    assert_eq!(alone["state"], "waiting", "{alone}");
}

/// Every key of the lobby in `redis`, with its fields and values, as one text.
fn lobby_in_redis(redis: &Redis) -> String {
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_connection().unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg("chaikhana:{lobby}:*")
        .query(&mut conn)
        .unwrap();
    let mut text = String::new();
    for key in keys {
        let kind: String = redis::cmd("TYPE").arg(&key).query(&mut conn).unwrap();
        let values: Vec<String> = match kind.as_str() {
            "hash" => redis::cmd("HGETALL").arg(&key).query(&mut conn).unwrap(),
            "zset" => redis::cmd("ZRANGE")
                .arg(&key)
                .arg(0)
                .arg(-1)
                .query(&mut conn)
                .unwrap(),
            _ => vec![redis::cmd("GET")
                .arg(&key)
                .query::<Option<String>>(&mut conn)
                .unwrap()
                .unwrap_or_default()],
        };
        text.push_str(&format!("{key} {values:?}\n"));
    }
    assert!(
        text.contains(":t:"),
        "the lobby keeps its tickets here: {text}"
    );
    text
}
