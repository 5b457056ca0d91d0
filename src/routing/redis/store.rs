//! A table's snapshot in Redis, written by its owner alone. Every write goes through the `STORE`
//! script with the owner's token and is refused inside Redis unless the lease still holds that token:
//! an owner that has lost its table (paused, cut off from Redis, outlived by its lease) can never
//! overwrite what the next owner stores. The table acknowledges a change only once this write has
//! answered, so whatever a seat has been shown is in the snapshot any later owner rebuilds from.

use futures_util::future::{ready, BoxFuture, FutureExt};

use super::bus::Pipes;
use super::keys;
use crate::metrics::metrics;
use crate::table::{Change, Kept, TableId, TableKeeper};

/// Stores one table's snapshots through its thread's pipe, under its owner's token.
pub struct Store {
    pub pipes: Pipes,
    /// The snapshot's time to live, in ms.
    pub ttl: u64,
    /// The lease's time to live, in ms (a lease that ran out is taken again by a write).
    pub lease_ms: u64,
    pub token: String,
}

impl Store {
    /// The fenced write of a change: a whole snapshot replaces the key (the game's name, a newline,
    /// the JSON), and the actions accepted since are appended to it, so that one read gets both.
    pub fn write(&self, id: &TableId, change: Change) -> redis::Cmd {
        let (mode, text) = match change {
            Change::Whole { game, json } => ("whole", format!("{game}\n{json}")),
            Change::Played(lines) => ("played", lines),
        };
        keys::eval(
            keys::STORE,
            &[keys::snapshot(id), keys::lease(id), keys::holder(id)],
            &[
                &self.token,
                mode,
                &text,
                &self.ttl.to_string(),
                &self.lease_ms.to_string(),
            ],
        )
    }
}

/// What the `STORE` script's answer means for the table.
fn kept(answer: Option<redis::Value>) -> Kept {
    match answer {
        Some(redis::Value::Int(1)) => {
            metrics().snapshots_written.inc();
            Kept::Stored
        }
        Some(redis::Value::Int(0)) => Kept::Missing,
        Some(redis::Value::Int(-1)) => Kept::Fenced,
        _ => Kept::Failed,
    }
}

impl TableKeeper for Store {
    fn keep(&self, id: &TableId, change: Change) -> BoxFuture<'static, Kept> {
        let pipe = self.pipes.here();
        if !pipe.is_up() {
            return ready(Kept::Failed).boxed();
        }
        pipe.run(self.write(id, change)).map(kept).boxed()
    }

    fn hand_over(&self, id: &TableId, whole: Change) -> BoxFuture<'static, Kept> {
        let pipe = self.pipes.here();
        // One pipe: the release reaches Redis after the snapshot.
        let stored = pipe.run(self.write(id, whole));
        let released = pipe.run(keys::eval(
            keys::RELEASE,
            &[keys::lease(id)],
            &[&self.token],
        ));
        async move {
            let stored = kept(stored.await);
            released.await;
            stored
        }
        .boxed()
    }
}
