//! The lease scripts against a real `redis-server`: an owner's token is all that lets it write, an
//! epoch passes on at each adoption, and an owner outlived by its lease takes it back only if nobody
//! else was given the table meanwhile.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::keys;
use crate::table::TableId;

/// A redis-server of the test's own, keeping nothing.
struct Redis {
    child: Child,
    conn: redis::Connection,
}

impl Redis {
    /// `None` (saying why) when the machine has no redis-server, unless every suite is required.
    fn start() -> Option<Redis> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .stdout(Stdio::null())
            .spawn();
        let child = match child {
            Ok(child) => child,
            Err(e) if std::env::var("CHAIKHANA_TEST_REQUIRE_ALL").as_deref() == Ok("1") => {
                panic!("redis-server is required: {e}")
            }
            Err(e) => {
                eprintln!("skipped: no redis-server ({e})");
                return None;
            }
        };
        let client = redis::Client::open(format!("redis://127.0.0.1:{port}")).unwrap();
        let started = Instant::now();
        loop {
            if let Ok(conn) = client.get_connection() {
                return Some(Redis { child, conn });
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "redis-server never listened"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Runs `script` by its hash, as a node does, loading it first as a node's link does.
    fn eval<T: redis::FromRedisValue>(
        &mut self,
        script: &keys::Script,
        keys: &[String],
        args: &[&str],
    ) -> T {
        script.script().load(&mut self.conn).unwrap();
        script.call(keys, args).query(&mut self.conn).unwrap()
    }

    fn del(&mut self, key: &str) {
        redis::cmd("DEL")
            .arg(key)
            .query::<()>(&mut self.conn)
            .unwrap();
    }

    fn get(&mut self, key: &str) -> Option<String> {
        redis::cmd("GET").arg(key).query(&mut self.conn).unwrap()
    }

    /// A Redis with one table in it, opened by node `a` (its first token, which it answers).
    fn with_a_table() -> Option<(Redis, TableId, String)> {
        let mut redis = Redis::start()?;
        let id = TableId::random();
        let a = keys::token("a", 1);
        redis.open(&id, &a);
        Some((redis, id, a))
    }

    /// Opens the table as a node does: its holder, its lease, its snapshot.
    fn open(&mut self, id: &TableId, token: &str) {
        for (key, value) in [
            (keys::holder(id), token),
            (keys::lease(id), token),
            (keys::snapshot(id), "panjpar\n{}"),
        ] {
            redis::cmd("SET")
                .arg(key)
                .arg(value)
                .query::<()>(&mut self.conn)
                .unwrap();
        }
    }

    fn store(&mut self, id: &TableId, token: &str, mode: &str, text: &str) -> i64 {
        let keys = [keys::snapshot(id), keys::lease(id), keys::holder(id)];
        self.eval(&keys::STORE, &keys, &[token, mode, text, "60000", "3000"])
    }

    fn refresh(&mut self, id: &TableId, token: &str) -> i64 {
        let keys = [keys::lease(id), keys::snapshot(id), keys::holder(id)];
        let answers: Vec<i64> = self.eval(&keys::REFRESH, &keys, &["3000", "60000", token]);
        answers[0]
    }

    fn adopt(&mut self, id: &TableId, node: &str) -> String {
        let keys = [keys::lease(id), keys::holder(id), keys::snapshot(id)];
        self.eval(&keys::ADOPT, &keys, &[node, "3000", "60000"])
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn only_the_lease_holders_token_writes_and_an_adoption_moves_the_epoch_on() {
    let Some((mut redis, id, a)) = Redis::with_a_table() else {
        return;
    };
    assert_eq!(redis.store(&id, &a, "played", "\n[0,1,2]"), 1);
    assert_eq!(redis.adopt(&id, "b"), "", "a held lease is not adopted");

    // An owner outlived by its lease, with nobody given the table meanwhile, writes and has it again.
    redis.del(&keys::lease(&id));
    assert_eq!(redis.store(&id, &a, "played", "\n[1,1,3]"), 1);
    assert_eq!(redis.get(&keys::lease(&id)).as_deref(), Some(a.as_str()));

    // The lease runs out (its owner paused or cut off) and another node adopts the table.
    redis.del(&keys::lease(&id));
    let b = redis.adopt(&id, "b");
    assert_eq!(b, keys::token("b", 2));
    assert_eq!(keys::node_of(&b), "b");
    let stored = redis.get(&keys::snapshot(&id));

    // The old owner wakes: every write of its is refused, and its lease round says it has lost it.
    assert_eq!(redis.store(&id, &a, "played", "\n[1,1,3]"), -1);
    assert_eq!(redis.store(&id, &a, "whole", "panjpar\n{}"), -1);
    assert_eq!(
        redis.get(&keys::snapshot(&id)),
        stored,
        "a fenced write changed nothing"
    );
    assert_eq!(redis.refresh(&id, &a), 0);

    // Even once the new owner's lease runs out too, the old one may not take it back.
    redis.del(&keys::lease(&id));
    assert_eq!(redis.refresh(&id, &a), 0);
    assert_eq!(
        redis.refresh(&id, &b),
        2,
        "the last holder takes its lease back"
    );
    assert_eq!(redis.refresh(&id, &b), 1);
    assert_eq!(redis.store(&id, &b, "played", "\n[0,1,4]"), 1);

    // A table closed by the old owner is not forgotten: the new owner has it.
    let forget = [keys::lease(&id), keys::snapshot(&id), keys::holder(&id)];
    assert_eq!(redis.eval::<i64>(&keys::FORGET, &forget, &[&a]), 0);
    assert!(redis.get(&keys::snapshot(&id)).is_some());
    assert_eq!(
        redis.eval::<i64>(&keys::RELEASE, &[keys::lease(&id)], &[&a]),
        0
    );
    assert_eq!(redis.eval::<i64>(&keys::FORGET, &forget, &[&b]), 1);
    assert_eq!(redis.get(&keys::snapshot(&id)), None);
}

#[test]
fn an_owner_takes_back_what_redis_lost_and_stores_it_whole() {
    let Some((mut redis, id, a)) = Redis::with_a_table() else {
        return;
    };
    redis::cmd("FLUSHALL").query::<()>(&mut redis.conn).unwrap();

    // Nothing to adopt: only the owner, which still has the table, can store it again, whether its
    // next write or its lease round comes first.
    assert_eq!(redis.adopt(&id, "b"), "-");
    let lost = redis.store(&id, &a, "played", "\n[0,1,2]");
    assert_eq!(lost, 0, "lines for a lost snapshot");
    assert_eq!(redis.store(&id, &a, "whole", "panjpar\n{}"), 1);
    assert_eq!(redis.get(&keys::holder(&id)).as_deref(), Some(a.as_str()));
    assert_eq!(redis.refresh(&id, &a), 1);
    redis::cmd("FLUSHALL").query::<()>(&mut redis.conn).unwrap();
    assert_eq!(redis.refresh(&id, &a), 2);
    assert_eq!(redis.store(&id, &a, "whole", "panjpar\n{}"), 1);
}

#[test]
fn one_round_refreshes_many_leases_each_answered_on_its_own() {
    let Some(mut redis) = Redis::start() else {
        return;
    };
    let ids: Vec<TableId> = (0..5).map(|_| TableId::random()).collect();
    let a = keys::token("a", 1);
    for id in &ids {
        redis.open(id, &a);
    }
    redis.del(&keys::lease(&ids[1]));
    redis.del(&keys::lease(&ids[3]));
    assert_eq!(redis.adopt(&ids[3], "b"), keys::token("b", 2));
    let keys: Vec<String> = ids
        .iter()
        .flat_map(|id| [keys::lease(id), keys::snapshot(id), keys::holder(id)])
        .collect();
    let mut args = vec!["3000", "60000"];
    args.extend(std::iter::repeat_n(a.as_str(), ids.len()));
    let answers: Vec<i64> = redis.eval(&keys::REFRESH, &keys, &args);
    assert_eq!(answers, [1, 2, 1, 0, 1]);
}

/// The open list is read a bounded part at a time: 300 tables whose listings have gone (expired)
/// ahead of 10 live ones cost one read 200 of them, taken out of the list as they are met; the next
/// read reaches the live ones. A flood of listings never makes one read go through them all.
#[test]
fn the_open_list_is_read_a_bounded_part_at_a_time() {
    let Some(mut redis) = Redis::start() else {
        return;
    };
    let open = "chaikhana:{lobby}:open:ganjifa".to_string();
    let zadd = |redis: &mut Redis, score: u32, table: &str| {
        redis::cmd("ZADD")
            .arg(&open)
            .arg(score)
            .arg(table)
            .query::<()>(&mut redis.conn)
            .unwrap();
    };
    for i in 0..300 {
        zadd(&mut redis, i, &format!("gone{i}"));
    }
    for i in 0..10 {
        redis::cmd("HSET")
            .arg(format!("chaikhana:{{lobby}}:l:live{i}"))
            .arg("listing")
            .arg(format!("{{\"table\":\"live{i}\"}}"))
            .arg("taken")
            .arg(1)
            .query::<()>(&mut redis.conn)
            .unwrap();
        zadd(&mut redis, 1000 + i, &format!("live{i}"));
    }
    let read = |redis: &mut Redis| -> Vec<String> {
        redis.eval(
            &super::lobby::LISTING,
            std::slice::from_ref(&open),
            &["listed", "50", "200"],
        )
    };
    let card = |redis: &mut Redis| -> u64 {
        redis::cmd("ZCARD")
            .arg(&open)
            .query(&mut redis.conn)
            .unwrap()
    };
    assert!(read(&mut redis).is_empty());
    assert_eq!(card(&mut redis), 110, "the 200 met were taken out");
    let listed = read(&mut redis);
    assert_eq!(
        listed.len(),
        20,
        "each live listing and its seats taken: {listed:?}"
    );
    assert_eq!(card(&mut redis), 10);
}
