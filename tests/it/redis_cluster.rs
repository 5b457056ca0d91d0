//! A Redis Cluster (issue 24): three primaries with a replica each (`redis-server --cluster-enabled
//! yes` ×6 and `redis-cli --cluster create`), and two `chaikhana serve` nodes given
//! `redis+cluster://` and `redis_min_replicas = 1`. A friends Panjpar match plays with its seats on
//! the two nodes; the primary holding the table's slot is SIGKILLed mid-deal, its replica is promoted,
//! and the killed one is started again once it has (as its pod would be), rejoining as the new
//! primary's replica so that `WAIT 1` is answered again. Every action the players saw acknowledged
//! must be in the snapshot the Cluster holds afterwards, and play must move on.
//! Without redis-server or redis-cli the test says why and passes, unless
//! CHAIKHANA_TEST_REQUIRE_ALL=1.

use std::time::Duration;

use crate::support::cluster::*;
use crate::support::redis_procs::{ClusterSet, Failover};

#[actix_rt::test]
async fn the_primary_of_a_tables_slot_killed_mid_deal_fails_over_and_loses_nothing_acknowledged() {
    let Some(_heavy) = Failover::turn(
        "redis-cli",
        "it makes the test's Cluster: apt-get install redis-tools",
    )
    .await
    else {
        return;
    };
    let mut set = ClusterSet::start().await;
    let mut play = Failover::start(&set.url()).await;

    let key = format!("chaikhana:{{{}}}:snapshot", play.table);
    let old = set
        .primary_of(&key)
        .expect("a primary serves the table's slot");
    let killed = play.strike("the table's primary is killed");
    set.node(old).kill();
    let promoted = wait_for(Duration::from_secs(20), || {
        set.primary_of(&key).is_some_and(|port| port != old)
    })
    .await;
    assert!(promoted, "no replica was promoted");
    let failover = killed.elapsed();
    set.node(old).back().await;
    let from = play.play_on().await;

    let record = set
        .record(&play.table)
        .expect("the Cluster holds the table");
    play.check("cluster", &record, failover, from).await;
}
