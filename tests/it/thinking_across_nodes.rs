//! Strong computer tables placed across two nodes by their thinking pools (issue 42): two
//! `chaikhana serve` processes sharing a real `redis-server`, node A with one thinking thread that
//! its strong computers soon saturate, node B with one that never says so. Once A says it is
//! saturated, a strong computer table asked of either node opens on B, even where B already holds
//! more tables, while a friends table still goes to the node with fewer. Without redis-server this
//! test says why and passes, unless CHAIKHANA_TEST_REQUIRE_ALL=1.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::cluster::{Node, Redis};
use crate::support::{play_against_computer, post, rng, Seated};

/// How long a node may take to say its pool is saturated, and Redis to hear it.
const PATIENCE: Duration = Duration::from_secs(60);

/// Opens a table through `via`: the node that took it, 0 for `nodes[0]`, 1 for `nodes[1]`, and the
/// answer.
async fn open_through(nodes: [&Node; 2], via: usize, order: &serde_json::Value) -> usize {
    let before = [nodes[0].tables().await, nodes[1].tables().await];
    let (status, answer) = post(&nodes[via].base, "/api/tables", &order.to_string()).await;
    assert_eq!(status, 201, "{order}: {answer}");
    let after = [nodes[0].tables().await, nodes[1].tables().await];
    let grown: Vec<usize> = (0..2).filter(|i| after[*i] > before[*i]).collect();
    assert_eq!(grown.len(), 1, "one node took it: {before:?} -> {after:?}");
    grown[0]
}

#[actix_rt::test]
async fn a_strong_computer_table_opens_only_where_the_computers_have_time_to_think() {
    let Some(redis) = Redis::if_installed().await else {
        return;
    };
    let shared = [
        ("CHAIKHANA_THINKING_THREADS", "1"),
        ("CHAIKHANA_THINKING_FLOOR_MS", "20"),
        ("CHAIKHANA_STRONG_BUDGET_MS", "200"),
        ("CHAIKHANA_TABLES_PER_MINUTE", "0"),
    ];
    let busy = [
        shared.as_slice(),
        &[("CHAIKHANA_THINKING_SATURATED_MS", "100")],
    ]
    .concat();
    let patient = [
        shared.as_slice(),
        &[("CHAIKHANA_THINKING_SATURATED_MS", "600000")],
    ]
    .concat();
    let a = Node::start_with(&redis.url(), "all", &busy).await;
    let b = Node::start_with(&redis.url(), "all", &patient).await;
    let nodes = [&a, &b];
    let strong =
        json!({"game": "ganjifa", "opponents": "computer", "length": 3, "level": "strong"});
    // Strong tables on A, each with a player who answers at once, until its one thread cannot keep up.
    let mut players = Vec::new();
    let since = Instant::now();
    while a.readyz().await["computer_tables"] != false {
        assert!(since.elapsed() < PATIENCE, "A never saturated");
        if players.len() < 8 {
            let (status, answer) = post(&a.base, "/api/tables", &strong.to_string()).await;
            assert_eq!(status, 201, "{answer}");
            let me = Seated::from_answer(answer["table"].as_str().unwrap(), &answer);
            let seed = players.len() as u64;
            let mut client = a.connect(&me).await;
            players.push(actix_rt::spawn(async move {
                play_against_computer(&mut client, &mut rng(seed)).await;
            }));
        }
        actix_rt::time::sleep(Duration::from_millis(100)).await;
    }
    // Two lease refreshes (2 s leases, one every 667 ms): Redis has heard that A is saturated.
    actix_rt::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(b.readyz().await["computer_tables"], true);
    for via in [1, 0, 1, 0, 1] {
        assert_eq!(
            open_through(nodes, via, &strong).await,
            1,
            "a strong table asked of node {via} opens on B"
        );
    }
    // B now holds more tables than A: a friends table, which thinks nothing, goes to A.
    let held = [a.tables().await, b.tables().await];
    assert!(held[1] > held[0], "{held:?}");
    let friends = json!({"game": "ganjifa", "opponents": "friends"});
    assert_eq!(open_through(nodes, 1, &friends).await, 0);
    for player in players {
        player.abort();
    }
}
