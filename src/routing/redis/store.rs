//! A table's snapshot in Redis, written by its owner alone. Every write goes through the `STORE`
//! script with the owner's token and is refused inside Redis unless the lease still holds that token:
//! an owner that has lost its table (paused, cut off from Redis, outlived by its lease) can never
//! overwrite what the next owner stores. The table acknowledges a change only once this write has
//! answered, so whatever a seat has been shown is in the snapshot any later owner rebuilds from.
//!
//! With `redis_min_replicas` set, each write is followed on the same connection by `WAIT n timeout`:
//! the change counts as stored only once that many replicas have it, so a failover to one of them
//! loses nothing acknowledged. A `WAIT` that times out counts as a store out of reach: the table
//! pauses and stores itself whole again until the replicas answer.

use std::time::Duration;

use futures_util::future::{ready, BoxFuture, FutureExt};

use super::bus::ThreadPipes;
use super::keys;
use crate::metrics::metrics;
use crate::table::{Change, StoreAnswer, TableId, TableStore};

/// How long a snapshot outlives its table's expiry, so that the table itself says it has expired.
pub const MARGIN: Duration = Duration::from_secs(600);

/// Stores one table's snapshots through its thread's pipe, under its owner's token.
pub struct Store {
    pub pipes: ThreadPipes,
    /// The lease's time to live, in ms (a lease that ran out is taken again by a write).
    pub lease_ms: u64,
    pub token: String,
    pub layout: keys::Layout,
    /// Replicas that must have each write (0: no `WAIT`), and how long to wait for them, in ms.
    pub replicas: u32,
    pub replica_wait_ms: u64,
}

impl Store {
    /// The fenced write of a change: a whole snapshot replaces the key (the game's name, a newline,
    /// the JSON), and the actions accepted since are appended to it, so that one read gets both.
    /// The snapshot lives `keep_for` (and ten minutes more) after each write.
    pub fn write(&self, id: &TableId, change: Change, keep_for: Duration) -> redis::Cmd {
        let (mode, text) = match change {
            Change::Whole { game, json } => ("whole", format!("{game}\n{json}")),
            Change::Played { lines, .. } => ("played", lines),
        };
        let ttl = (keep_for + MARGIN).as_millis() as u64;
        keys::STORE.call(
            &[
                self.layout.snapshot(id),
                self.layout.lease(id),
                self.layout.holder(id),
            ],
            &[
                &self.token,
                mode,
                &text,
                &ttl.to_string(),
                &self.lease_ms.to_string(),
            ],
        )
    }
}

impl Store {
    /// `WAIT` for the replicas, when any are asked for.
    fn wait(&self) -> Option<redis::Cmd> {
        (self.replicas > 0).then(|| {
            let mut wait = redis::cmd("WAIT");
            wait.arg(self.replicas).arg(self.replica_wait_ms);
            wait
        })
    }

    /// The fenced write of a change, then its `WAIT`: what became of the change. On one Redis the
    /// `WAIT` is queued right behind the write on the same pipe, so it waits for this write. On a
    /// Cluster the commands of a round trip go out side by side, so the `WAIT` is sent, to the node
    /// holding the table's slot, only once the write has answered.
    fn write_and_wait(
        &self,
        pipe: &super::bus::Pipe,
        id: &TableId,
        change: Change,
        keep_for: Duration,
    ) -> impl std::future::Future<Output = StoreAnswer> {
        let stored = pipe.run(self.write(id, change, keep_for));
        let wait = self.wait();
        let queued = match (&wait, self.layout.cluster) {
            (Some(wait), false) => Some(pipe.run(wait.clone())),
            _ => None,
        };
        let (pipe, at, replicas) = (pipe.clone(), self.layout.snapshot(id), self.replicas);
        async move {
            let kept = kept(stored.await);
            let heard = match (queued, wait) {
                (Some(queued), _) => queued.await,
                (None, Some(wait)) if kept == StoreAnswer::Stored => pipe.run_at(wait, at).await,
                (None, _) => return kept,
            };
            if kept != StoreAnswer::Stored {
                return kept;
            }
            match heard {
                Some(redis::Value::Int(n)) if n >= i64::from(replicas) => StoreAnswer::Stored,
                heard => {
                    metrics().redis_errors.inc();
                    tracing::warn!(
                        ?heard,
                        replicas,
                        "a change did not reach enough replicas in time"
                    );
                    StoreAnswer::Failed
                }
            }
        }
    }
}

/// What the `STORE` script's answer means for the table.
fn kept(answer: Option<redis::Value>) -> StoreAnswer {
    match answer {
        Some(redis::Value::Int(1)) => {
            metrics().snapshots_written.inc();
            StoreAnswer::Stored
        }
        Some(redis::Value::Int(0)) => StoreAnswer::Missing,
        Some(redis::Value::Int(-1)) => StoreAnswer::Fenced,
        _ => StoreAnswer::Failed,
    }
}

impl TableStore for Store {
    fn keep(
        &self,
        id: &TableId,
        change: Change,
        keep_for: Duration,
    ) -> BoxFuture<'static, StoreAnswer> {
        let pipe = self.pipes.this_thread();
        if !pipe.is_up() {
            return ready(StoreAnswer::Failed).boxed();
        }
        self.write_and_wait(&pipe, id, change, keep_for).boxed()
    }

    fn hand_over(
        &self,
        id: &TableId,
        whole: Change,
        keep_for: Duration,
    ) -> BoxFuture<'static, StoreAnswer> {
        let pipe = self.pipes.this_thread();
        let stored = self.write_and_wait(&pipe, id, whole, keep_for);
        let release = keys::RELEASE.call(&[self.layout.lease(id)], &[&self.token]);
        // The lease goes only once the final snapshot is stored (and on the replicas asked for).
        async move {
            let stored = stored.await;
            pipe.run(release).await;
            stored
        }
        .boxed()
    }
}
