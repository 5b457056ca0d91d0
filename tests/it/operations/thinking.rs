//! A node whose thinking pool is saturated by strong computers: it takes no new strong computer
//! table (`/readyz?for=computer` 503, `POST /api/tables` 503 with a Retry-After) while other tables
//! still open, shortens the decisions behind the long queue, and takes strong tables again once the
//! computers have stopped.

use serde_json::json;

use super::get;
use crate::support::cluster;
use crate::support::*;

/// A node whose one thinking thread has more strong computers than it can think for: `/readyz` says it
/// takes no new strong computer table (503 asked `?for=computer`) and `POST /api/tables` refuses one
/// with 503 and a Retry-After, while friends and standard computer tables still open; once the
/// computers have stopped, strong tables open again.
#[actix_rt::test]
async fn a_node_saturated_with_thinking_takes_no_new_strong_computer_table() {
    let node = cluster::Node::alone(&[
        ("CHAIKHANA_THINKING_THREADS", "1"),
        ("CHAIKHANA_THINKING_SATURATED_MS", "100"),
        ("CHAIKHANA_THINKING_FLOOR_MS", "20"),
        ("CHAIKHANA_STRONG_BUDGET_MS", "200"),
        ("CHAIKHANA_TABLES_PER_MINUTE", "0"),
        ("CHAIKHANA_DATA_DIR", ""),
    ])
    .await;
    let ready = || async {
        let (status, body) = get(&node.base, "/readyz").await;
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<serde_json::Value>(&body).unwrap()
    };
    assert_eq!(ready().await["computer_tables"], true);
    let strong =
        json!({"game": "ganjifa", "opponents": "computer", "length": 3, "level": "strong"});
    // Players who answer at once: their computers think all the time, up to 200 ms of CPU a decision.
    let mut players = Vec::new();
    for seed in 0..8 {
        let (me, _) = open_table(&node.base, &strong).await;
        let mut client = node.connect(&me).await;
        players.push(actix_rt::spawn(async move {
            play_against_computer(&mut client, &mut rng(seed)).await;
        }));
    }
    let since = std::time::Instant::now();
    let mut seen = ready().await;
    while seen["computer_tables"] != false {
        assert!(
            since.elapsed() < std::time::Duration::from_secs(60),
            "never saturated: {seen}"
        );
        actix_rt::time::sleep(std::time::Duration::from_millis(50)).await;
        seen = ready().await;
    }
    assert!(seen["thinking"]["waiting"].as_u64() >= Some(1), "{seen}");
    let (status, body) = get(&node.base, "/readyz?for=computer").await;
    assert_eq!(status, 503, "{body}");
    let refused = awc::Client::new()
        .post(format!("{}/api/tables", node.base))
        .insert_header(("content-type", "application/json"))
        .send_body(strong.to_string())
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 503);
    assert_eq!(
        refused.headers().get("retry-after").map(|v| v.as_bytes()),
        Some(&b"5"[..])
    );
    for other in [
        json!({"game": "ganjifa", "opponents": "friends"}),
        json!({"game": "ganjifa", "opponents": "computer"}),
    ] {
        let (status, answer) = post(&node.base, "/api/tables", &other.to_string()).await;
        assert_eq!(status, 201, "{other}: {answer}");
    }
    // The decisions asked behind the long queue are given less of their budget, and counted.
    let shortened = || async {
        let metrics = get(&node.base, "/metrics").await.1;
        cluster::Node::metric(
            &metrics,
            "chaikhana_thinking_shortened_total{game=\"ganjifa\",level=\"strong\"}",
        )
    };
    let since = std::time::Instant::now();
    while shortened().await == 0.0 {
        assert!(
            since.elapsed() < std::time::Duration::from_secs(30),
            "a long queue shortens decisions"
        );
        actix_rt::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // The players stop: the computers soon wait for them, and nothing is left to think.
    for player in players {
        player.abort();
    }
    let since = std::time::Instant::now();
    while ready().await["computer_tables"] != true {
        assert!(
            since.elapsed() < std::time::Duration::from_secs(60),
            "still saturated"
        );
        actix_rt::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (status, answer) = post(&node.base, "/api/tables", &strong.to_string()).await;
    assert_eq!(status, 201, "{answer}");
}
