//! Tables sleep and wake across two nodes with Redis (issue 41, "How it is shown"): two
//! `chaikhana serve` processes sharing a real `redis-server`, each told to put a table to sleep after
//! a second with nobody connected. A table opened on node A sleeps there (its actor gone: A's metrics
//! count it slept, A's `/readyz` holds no table), and a seat opening it through node B wakes it on B
//! at the version it had, with play going on; and what a table's link answers once its record is gone
//! from Redis. Without redis-server these tests say why and pass, unless CHAIKHANA_TEST_REQUIRE_ALL=1.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::cluster::{Node, Redis};
use crate::support::restarts::{check_acks, Player, Table};
use crate::support::{heavy, post, rng, Client, Seated};

/// How long a node may take to notice a table nobody is at, store it and let it go.
const PATIENCE: Duration = Duration::from_secs(20);

/// The settings of both nodes: a table sleeps a second after its last socket has gone.
const SLEEPY: [(&str, &str); 1] = [("CHAIKHANA_SLEEP_AFTER_SECS", "1")];

async fn slept_on(node: &Node) -> f64 {
    Node::metric(&node.metrics().await, "chaikhana_tables_slept_total")
}

/// How many tables each node holds, and how many it has put to sleep.
async fn census(nodes: [&Node; 2]) -> ([u64; 2], [f64; 2]) {
    (
        [nodes[0].tables().await, nodes[1].tables().await],
        [slept_on(nodes[0]).await, slept_on(nodes[1]).await],
    )
}

/// Which node took the table just opened: the one holding one more table than `before`.
async fn owner(nodes: [&Node; 2], before: [u64; 2]) -> usize {
    let (now, _) = census(nodes).await;
    let grown: Vec<usize> = (0..2).filter(|i| now[*i] == before[*i] + 1).collect();
    assert_eq!(
        grown.len(),
        1,
        "one node took the table: {before:?} -> {now:?}"
    );
    grown[0]
}

/// Waits until each node has put to sleep at least `slept` tables in all and holds none.
async fn until_asleep(nodes: [&Node; 2], slept: [f64; 2], what: &str) {
    let started = Instant::now();
    loop {
        let (tables, count) = census(nodes).await;
        if tables == [0, 0] && (0..2).all(|i| count[i] >= slept[i]) {
            return;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "{what}: after {PATIENCE:?} the nodes count {count:?} tables slept (waited for \
             {slept:?}) and hold {tables:?}"
        );
        actix_rt::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A friends Panjpar table opened through `host`, its guest joined through `guest`, each seat
/// connected through the node it came by.
async fn friends_across(host: &Node, guest: &Node) -> Table {
    let body = json!({ "game": "panjpar", "opponents": "friends", "length": 5 }).to_string();
    let (status, answer) = post(&host.base, "/api/tables", &body).await;
    assert_eq!(status, 201, "{answer}");
    let table = answer["table"].as_str().unwrap().to_string();
    let first = Seated::from_answer(&table, &answer);
    let second = guest.join(&table).await;
    let players = vec![
        Player::connect(&host.base, first).await,
        Player::connect(&guest.base, second).await,
    ];
    Table::of("panjpar", "friends", players)
}

/// A friends table (its seats connected through A and B) and a table against the computer, each
/// on whichever node took it, played mid-deal, sleep once every socket has gone: their owners count
/// them slept and hold no table. A seat of each then opens it through the other node: it wakes there
/// at the version it had (its owner of before holding none), and play goes on, every acknowledged
/// action in the record; the friends table's other seat comes back through the node it slept on.
#[actix_rt::test]
async fn a_table_asleep_on_one_node_wakes_through_the_other_with_its_version() {
    let Some(redis) = Redis::if_installed().await else {
        return;
    };
    let _heavy = heavy().await;
    let a = Node::start_with(&redis.url(), "all", &SLEEPY).await;
    let b = Node::start_with(&redis.url(), "all", &SLEEPY).await;
    let nodes = [&a, &b];
    let mut rng = rng(41);
    let mut friends = friends_across(&a, &b).await;
    let owners = [owner(nodes, [0, 0]).await, 0];
    friends.play(7, &mut rng).await;
    let (before, _) = census(nodes).await;
    let alone = a.open("ganjifa", "computer", json!(3)).await;
    let owners = [owners[0], owner(nodes, before).await];
    let mut computer = Table::of(
        "ganjifa",
        "computer",
        vec![Player::connect(&a.base, alone).await],
    );
    computer.play(5, &mut rng).await;
    let versions = [friends.highest(), computer.highest()];
    let (_, mut slept) = census(nodes).await;
    for owner in owners {
        slept[owner] += 1.0;
    }

    // Every socket goes: both tables sleep where they were.
    friends.close().await;
    computer.close().await;
    until_asleep(nodes, slept, "both tables sleep").await;
    let stored = snapshot_of(&redis, friends.id());
    assert_eq!(
        stored.version, versions[0],
        "it slept at the version it had"
    );

    // A seat of each wakes it through the other node.
    let back = friends.players[0]
        .reconnect(&nodes[1 - owners[0]].base)
        .await;
    assert_eq!(back, versions[0], "the friends table woke at its version");
    let back = computer.players[0]
        .reconnect(&nodes[1 - owners[1]].base)
        .await;
    assert!(
        back >= versions[1],
        "the computer table woke at v{back}, below its v{}",
        versions[1]
    );
    let (tables, _) = census(nodes).await;
    let mut expected = [0, 0];
    for owner in owners {
        expected[1 - owner] += 1;
    }
    assert_eq!(
        tables, expected,
        "each table woke on the other node, owners {owners:?}"
    );
    // The friends table's other seat comes back through the node it slept on; play goes on.
    let back = friends.players[1].reconnect(&nodes[owners[0]].base).await;
    assert_eq!(back, versions[0]);
    friends.play(7, &mut rng).await;
    computer.play(5, &mut rng).await;
    let snapshot = snapshot_of(&redis, friends.id());
    let checked = check_acks(&friends.acked(), &snapshot);
    assert!(checked.missing.is_empty(), "{:?}", checked.missing);
    assert_eq!(checked.found, 14);
    eprintln!(
        "sleep across nodes: the friends table slept on node {} at v{}, the computer table on node \
         {} at v{}; each woke on the other node and played on (to v{} and v{}); slept counts {:?}",
        owners[0],
        versions[0],
        owners[1],
        versions[1],
        snapshot.version,
        computer.highest(),
        census(nodes).await.1
    );
}

/// The table's snapshot as Redis holds it.
fn snapshot_of(redis: &Redis, table: &str) -> chaikhana::table::Snapshot {
    let client = redis::Client::open(redis.url()).unwrap();
    let mut connection = client.get_connection().unwrap();
    let stored: Vec<u8> = redis::cmd("GET")
        .arg(format!("chaikhana:snapshot:{table}"))
        .query(&mut connection)
        .expect("Redis holds the table's snapshot");
    let newline = stored.iter().position(|b| *b == b'\n').unwrap_or(0);
    chaikhana::table::Snapshot::from_stored(&stored[newline + 1..]).expect("a snapshot")
}

/// GETs `path` from `node`: the status and the body.
async fn fetch(node: &Node, path: &str) -> (u16, String) {
    let mut response = awc::Client::new()
        .get(format!("{}{path}", node.base))
        .send()
        .await
        .expect("the node answers");
    let status = response.status().as_u16();
    let body = response.body().limit(1 << 20).await.unwrap_or_default();
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// A table asleep whose keys Redis no longer holds (deleted under the nodes: its record truly gone,
/// no word of its closing): its link answers 503, the table page that waits, while Redis may still
/// be recovering (up for less than three leases and five seconds: an owner may yet store it again),
/// and from then on 410, "This table's record was lost"; never 404. A seat's token is then refused
/// with the same 410.
#[actix_rt::test]
async fn a_table_whose_record_is_gone_from_redis_is_told_as_lost() {
    let Some(redis) = Redis::if_installed().await else {
        return;
    };
    let _heavy = heavy().await;
    let a = Node::start_with(&redis.url(), "all", &SLEEPY).await;
    let b = Node::start_with(&redis.url(), "all", &SLEEPY).await;
    let nodes = [&a, &b];
    let mut rng = rng(42);
    let mut friends = friends_across(&a, &b).await;
    let owner = owner(nodes, [0, 0]).await;
    friends.play(5, &mut rng).await;
    let id = friends.id().to_string();
    let (_, mut slept) = census(nodes).await;
    slept[owner] += 1.0;
    friends.close().await;
    until_asleep(nodes, slept, "the table sleeps").await;
    let mut connection = redis::Client::open(redis.url())
        .and_then(|client| client.get_connection())
        .expect("a connection to Redis");
    let deleted: u64 = redis::cmd("DEL")
        .arg(format!("chaikhana:snapshot:{id}"))
        .arg(format!("chaikhana:lease:{id}"))
        .arg(format!("chaikhana:holder:{id}"))
        // The word a table leaves when it falls asleep (its link would say it expired).
        .arg(format!("chaikhana:gone:{id}"))
        .query(&mut connection)
        .expect("DEL");
    assert!(deleted >= 1, "the snapshot was there to delete");

    // Asked through either node in turn until the answer settles.
    let started = Instant::now();
    let mut seen: Vec<(u16, String)> = Vec::new();
    let last = loop {
        let node = nodes[seen.len() % 2];
        let (status, body) = fetch(node, &format!("/t/{id}")).await;
        assert!(
            status == 503 || status == 410,
            "the link of a table whose record is gone answered {status}: {body}"
        );
        if status == 503 {
            assert!(
                seen.iter().all(|(s, _)| *s == 503),
                "a 503 after a 410: {seen:?}"
            );
        }
        seen.push((status, body));
        if status == 410 {
            break seen.last().unwrap().1.clone();
        }
        assert!(
            started.elapsed() < Duration::from_secs(40),
            "the link still answers 503 after {:?}",
            started.elapsed()
        );
        actix_rt::time::sleep(Duration::from_millis(500)).await;
    };
    assert!(last.contains("record was lost"), "{last}");
    for node in nodes {
        let (status, body) = fetch(node, &format!("/t/{id}")).await;
        assert_eq!(status, 410, "{body}");
        let refused = Client::connect(&node.base, &id, &friends.players[0].seated.token)
            .await
            .err()
            .expect("a seat's token opens no table whose record is gone");
        assert!(refused.contains("410"), "{refused}");
    }
    let waited = seen.iter().filter(|(s, _)| *s == 503).count();
    eprintln!(
        "a record gone from Redis: {waited} answers of 503 (the page that waits), then 410 \
         \"record was lost\" after {:?}",
        started.elapsed()
    );
}
