//! Redis with Sentinels (issue 24): a primary and two replicas, each with its append-only file, three
//! Sentinels watching them, and two `chaikhana serve` nodes given `redis+sentinel://` and
//! `redis_min_replicas = 1` (an action is acknowledged only once a replica has it). A friends
//! Panjpar match plays with its seats on the two nodes; the primary is SIGKILLed mid-deal, the
//! Sentinels promote a replica, and the killed one is started again once they have (as its pod
//! would be). Play must resume within 10 s of the kill, and every action the players saw acknowledged
//! must be in the snapshot on the new primary.
//!
//! Two replicas, not one: with `WAIT 1` and a single replica, the promoted one has no replica of its
//! own until the Sentinels notice the killed primary is back and make it one, which their 10 s round
//! of `INFO` to replicas can delay past the 10 s allowed (measured: play resumed 19.3 s after the
//! kill). The k8s manifests run two replicas for the same reason.
//! Without redis-server or redis-sentinel the test says why and passes, unless
//! CHAIKHANA_TEST_REQUIRE_ALL=1.

use std::time::Duration;

use crate::support::cluster::*;
use crate::support::redis_procs::{Failover, SentinelSet};

#[actix_rt::test]
async fn a_primary_killed_mid_deal_fails_over_and_loses_nothing_acknowledged() {
    let Some(_heavy) = Failover::turn(
        "redis-sentinel",
        "it runs the test's Sentinels: apt-get install redis-sentinel",
    )
    .await
    else {
        return;
    };
    let mut set = SentinelSet::start(2).await;
    let mut play = Failover::start(&set.url()).await;

    let old = set.primary_port().expect("the Sentinels name a primary");
    let killed = play.strike("the primary is killed");
    set.data_node(old).kill();
    let promoted = wait_for(Duration::from_secs(20), || {
        set.primary_port().is_some_and(|port| port != old)
    })
    .await;
    assert!(promoted, "the Sentinels never promoted the replica");
    let failover = killed.elapsed();
    // Back as its pod would be: the Sentinels make it the new primary's replica, and WAIT 1 is
    // answered again.
    set.data_node(old).back().await;
    let from = play.play_on().await;

    let primary = set.primary_port().expect("the Sentinels name a primary");
    let client = redis::Client::open(format!("redis://127.0.0.1:{primary}")).unwrap();
    let record = record_in(&client, &play.table).expect("the new primary holds the table");
    play.check("sentinel", &record, failover, from).await;
}
