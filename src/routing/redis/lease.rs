//! A node's leases: taking a table (opened here, or adopted from its snapshot when its owner has
//! gone), keeping every lease fresh in one round trip, noticing those lost, and finding where a table
//! lives now. A lease's value is its owner's token (node and epoch, see `keys::token`); each table's
//! writes are fenced by it (see `super::store`), so two nodes never play one table.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::between_nodes::{Answer, ToTables};
use super::keys;
use super::link::{Unanswered, PATIENCE};
use super::node::{Node, Route};

/// Tables refreshed by one call of the refresh script: a call keeps Redis busy for well under a
/// millisecond, and the round still fits a few round trips at ten thousand tables.
const LEASES_PER_SCRIPT: usize = 256;
use crate::catalog;
use crate::metrics::metrics;
use crate::table::{Change, OwnerOrder, Snapshot, TableHandle, TableId, TableRefusal};

impl Node {
    /// Hosts a table opened here under the first epoch's `token`: its first snapshot (which takes the
    /// lease and makes the token its holder) is queued on the table's thread's pipe before anything the
    /// table itself stores or says. Answers once it is stored.
    pub(super) fn host(
        &self,
        handle: TableHandle,
        snapshot: &Snapshot,
        token: String,
    ) -> impl std::future::Future<Output = Option<redis::Value>> {
        let id = handle.id.clone();
        let whole = Change::Whole {
            game: handle.game,
            json: snapshot.to_json(),
        };
        // A new table has no holder yet: its first write takes the lease and becomes the holder.
        let stored = self.pipes.this_thread().run(self.store(&token).write(
            &id,
            whole,
            crate::routing::expiry(&self.settings).friends,
        ));
        self.leases.hold(id, token);
        self.tables.insert(handle);
        stored
    }

    /// Where the table lives now. A lease held by a node that no longer listens is waited out; a table
    /// with a snapshot and no lease is rebuilt here (or, on a node hosting no tables, by the quietest
    /// node that does).
    pub async fn route(self: &Arc<Self>, id: &TableId) -> Result<Route, TableRefusal> {
        let deadline = Instant::now() + self.leases.lasts() + PATIENCE;
        while Instant::now() < deadline {
            if let Some(handle) = self.tables.get(id) {
                return Ok(Route::Here(handle));
            }
            let mut get = redis::cmd("GET");
            get.arg(self.layout.lease(id));
            let owner: Option<String> = self.query(get).await?;
            match owner.as_deref().map(keys::node_of) {
                Some(owner) if owner != self.id => {
                    let channel = keys::tables_channel(owner);
                    let mut listeners = redis::cmd("PUBSUB");
                    listeners.arg(self.layout.numsub()).arg(&channel);
                    // On a Cluster, a sharded channel's subscribers are counted where its slot is.
                    let answer: redis::Value = self.query_at(listeners, &channel).await?;
                    let count = subscribers(&answer, &channel);
                    if count > 0 {
                        tracing::debug!(table = %id, %owner, "the table lives on another node");
                        return Ok(Route::There(owner.to_string()));
                    }
                    tracing::debug!(table = %id, %owner, "waiting out the lease of a node gone");
                }
                Some(_) => {}
                None => {
                    if let Some(route) = self.adopt(id).await? {
                        return Ok(route);
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err(TableRefusal::unavailable())
    }

    /// Takes over a table without an owner: `None` when another node was quicker (look again).
    pub(super) async fn adopt(
        self: &Arc<Self>,
        id: &TableId,
    ) -> Result<Option<Route>, TableRefusal> {
        let mut exists = redis::cmd("EXISTS");
        exists.arg(self.layout.snapshot(id));
        if !self.query::<bool>(exists).await? {
            return Err(self.missing(id).await);
        }
        if !self.role.hosts_tables() || self.draining() {
            let (Some(host), _) = self.quietest_host(false).await? else {
                return Err(TableRefusal::unavailable());
            };
            let table = id.clone();
            return match self
                .ask(&host, |ask| ToTables::Adopt { ask, table })
                .await?
            {
                Answer::Adopted => Ok(None),
                Answer::Refused { refusal } => Err(refusal),
                _ => Err(TableRefusal::unavailable()),
            };
        }
        // A Redis just back may have let every lease run out while it was away: each owner is given a
        // whole lease time to take its tables again before anyone else may.
        if self.redis_uptime().await? < self.leases.lasts() {
            return Ok(None);
        }
        // A table that fell asleep left word of it (see `Node::table_stopped`): it is woken, and the
        // word taken back; any other is recovered (its owner died) or handed over.
        let began = Instant::now();
        let mut asleep = redis::cmd("EXISTS");
        asleep.arg(self.layout.gone(id));
        let woken: bool = self.query(asleep).await?;
        let take = keys::ADOPT.call(
            &[
                self.layout.lease(id),
                self.layout.holder(id),
                self.layout.snapshot(id),
            ],
            &[
                &self.id,
                &self.leases.lasts_ms(),
                &self.snapshot_ttl().to_string(),
            ],
        );
        let token: String = self.query(take).await?;
        match token.as_str() {
            "" => {
                tracing::debug!(table = %id, "another node took the table first");
                return Ok(None);
            }
            "-" => return Err(self.missing(id).await),
            _ => {}
        }
        let Some(snapshot) = self.snapshot(id).await? else {
            return Err(self.missing(id).await);
        };
        let version = snapshot.version;
        let handle = catalog::find(&snapshot.game)
            .and_then(|game| game.rebuild(id.clone(), snapshot, self.table_config(&token)))
            .map_err(|e| {
                tracing::error!(table = %id, "cannot rebuild the table: {e}");
                TableRefusal::unavailable()
            })?;
        self.leases.hold(id.clone(), token);
        self.tables.insert(handle.clone());
        if woken {
            let mut awake = redis::cmd("DEL");
            awake.arg(self.layout.gone(id));
            self.pipes.this_thread().send(awake);
            metrics().tables_woken.inc();
            metrics()
                .wake_seconds
                .observe(began.elapsed().as_secs_f64());
            tracing::debug!(table = %id, version, "woke a table from its snapshot");
        } else {
            metrics().tables_recovered.inc();
            tracing::info!(table = %id, version, "rebuilt a table from its snapshot");
        }
        Ok(Some(Route::Here(handle)))
    }

    /// The table's snapshot and about when it last changed (from the time its snapshot has left to
    /// live, which each write sets to the table's expiry), without waking it.
    pub async fn stored(&self, id: &TableId) -> Result<(Snapshot, u64), TableRefusal> {
        let Some(snapshot) = self.snapshot(id).await? else {
            return Err(self.missing(id).await);
        };
        let mut pttl = redis::cmd("PTTL");
        pttl.arg(self.layout.snapshot(id));
        let left: i64 = self.query(pttl).await?;
        let expiry = crate::routing::expiry(&self.settings);
        let keep_for = match snapshot.kind {
            crate::table::TableKind::Friends => expiry.friends,
            crate::table::TableKind::Computer => expiry.computer,
        } + super::store::MARGIN;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let since = (keep_for.as_millis() as u64).saturating_sub(left.max(0) as u64);
        Ok((snapshot, now.saturating_sub(since)))
    }

    /// Why a table has neither lease nor snapshot: it has closed, unless Redis has just restarted
    /// empty and its owner has not yet stored it again (then it is only out of reach for a moment).
    pub(super) async fn missing(&self, id: &TableId) -> TableRefusal {
        let mut gone = redis::cmd("GET");
        gone.arg(self.layout.gone(id));
        match self.query::<Option<String>>(gone).await {
            Ok(Some(reason)) if reason == "ended" => return TableRefusal::match_ended(),
            Ok(Some(_)) => return TableRefusal::table_expired(),
            Ok(None) => {}
            Err(refusal) => return refusal,
        }
        match self.redis_uptime().await {
            // Neither a record nor a word of its closing: Redis lost it (or the link was never
            // a table's, which nobody meets but by typing one).
            Ok(uptime) if uptime >= self.leases.lasts() * 3 + Duration::from_secs(5) => {
                TableRefusal::record_lost()
            }
            _ => TableRefusal::unavailable(),
        }
    }

    /// How long Redis has been up.
    pub(super) async fn redis_uptime(&self) -> Result<Duration, TableRefusal> {
        let mut info = redis::cmd("INFO");
        info.arg("server");
        let answer: redis::Value = self.query(info).await?;
        let seconds = shortest_uptime(&answer).unwrap_or(u64::MAX);
        Ok(Duration::from_secs(seconds))
    }

    /// Keeps this node's leases, liveness and load fresh; notices leases lost and nodes gone.
    pub(super) async fn keep_leases(self: Arc<Self>) {
        let every = self.leases.lasts() / 3;
        let mut was_up = true;
        loop {
            // A round trip through every pipe too, so that each notices Redis is back.
            let refreshed = {
                let _round = self.leases.round().await;
                self.refresh().await.is_ok()
            };
            let up = refreshed && self.pipes.flush().await;
            if up && !was_up {
                tracing::info!("Redis is back: storing every table again");
                for handle in self.tables.all() {
                    if let Some(keep) = &handle.keep {
                        keep.do_send(OwnerOrder::Save);
                    }
                }
            }
            was_up = up;
            tokio::time::sleep(every).await;
        }
    }

    pub(super) async fn refresh(&self) -> Result<(), TableRefusal> {
        let mut alive = redis::cmd("SET");
        alive
            .arg(keys::alive(&self.id))
            .arg(self.role.as_str())
            .arg("PX")
            .arg(self.leases.lasts_ms());
        self.query::<()>(alive).await?;
        if self.role.hosts_tables() && !self.draining() {
            let mut load = redis::cmd("ZADD");
            load.arg(keys::LOAD).arg(self.tables.len()).arg(&self.id);
            self.query::<()>(load).await?;
            let said = if crate::thinking::pool().saturated() {
                "SADD"
            } else {
                "SREM"
            };
            let mut thinking = redis::cmd(said);
            thinking.arg(keys::SATURATED).arg(&self.id);
            self.query::<()>(thinking).await?;
        }
        if self.draining() {
            // The hand-over lets the leases go.
            return Ok(());
        }
        let held = self.leases.held();
        let started = Instant::now();
        let answers = self.refresh_leases(&held).await;
        metrics()
            .lease_refresh_seconds
            .observe(started.elapsed().as_secs_f64());
        for ((id, _), kept) in held.iter().zip(answers) {
            let Some(keep) = self.tables.get(id).and_then(|handle| handle.keep) else {
                continue;
            };
            match kept {
                Ok(2) => keep.do_send(OwnerOrder::Save),
                Ok(0) => {
                    self.tables.remove(id);
                    keep.do_send(OwnerOrder::Lost);
                }
                Ok(_) => {}
                // One lease that failed leaves the others refreshed; the next round tries it again.
                Err(e) => {
                    metrics().redis_errors.inc();
                    tracing::debug!(table = %id, "a lease was not refreshed: {e}");
                }
            }
        }
        for node in self.stand_ins.guest_nodes() {
            if !self.alive(&node).await? {
                self.drop_guests_of(&node);
            }
        }
        // An owner that stopped keeping itself alive (dead, frozen, cut off) may still seem to
        // listen: the stand-ins of its tables look for them again, and once its leases have run out
        // a node here or elsewhere takes them over.
        for owner in self.stand_ins.owners() {
            if owner != self.id && !self.alive(&owner).await? {
                self.stand_ins.relocate_all_on(&owner);
            }
        }
        Ok(())
    }

    /// Whether `node` keeps itself alive in Redis.
    pub(super) async fn alive(&self, node: &str) -> Result<bool, TableRefusal> {
        let mut exists = redis::cmd("EXISTS");
        exists.arg(keys::alive(node));
        self.query(exists).await
    }

    /// Refreshes the leases `held` (each table's token): the refresh script over up to
    /// `LEASES_PER_SCRIPT` tables at a time, every call queued at once, so that the pipe carries the
    /// whole round in one round trip (or a few, for many thousand tables). On a Redis Cluster one call
    /// takes only tables of one hash slot (a script may not cross slots), so mostly one table a call.
    /// Each table's answer on its own, in the order of `held`: 1 kept, 2 taken again, 0 another
    /// owner's, or the error of its call.
    pub(super) async fn refresh_leases(
        &self,
        held: &[(TableId, String)],
    ) -> Vec<Result<i64, Unanswered>> {
        let (lease_ms, snapshot_ttl) = (self.leases.lasts_ms(), self.snapshot_ttl().to_string());
        let pipe = self.pipes.this_thread();
        let calls: Vec<_> = self
            .script_calls(held)
            .into_iter()
            .map(|places| {
                let chunk: Vec<&(TableId, String)> = places.iter().map(|i| &held[*i]).collect();
                let keys: Vec<String> = chunk
                    .iter()
                    .flat_map(|(id, _)| {
                        [
                            self.layout.lease(id),
                            self.layout.snapshot(id),
                            self.layout.holder(id),
                        ]
                    })
                    .collect();
                let mut args = vec![lease_ms.as_str(), snapshot_ttl.as_str()];
                args.extend(chunk.iter().map(|(_, token)| token.as_str()));
                let answered = pipe.run(keys::REFRESH.call(&keys, &args));
                let tables = chunk.len();
                async move {
                    let answers = match answered.await {
                        Some(value) => redis::from_redis_value::<Vec<i64>>(value)
                            .map_err(|e| Unanswered::Refused(e.to_string())),
                        None => Err(Unanswered::OutOfReach),
                    };
                    let answers = match answers {
                        Ok(answers) if answers.len() == tables => {
                            answers.into_iter().map(Ok).collect::<Vec<_>>()
                        }
                        Ok(_) => {
                            vec![Err(Unanswered::ShortAnswer); tables]
                        }
                        Err(e) => vec![Err(e); tables],
                    };
                    places.into_iter().zip(answers).collect::<Vec<_>>()
                }
            })
            .collect();
        let mut answers = vec![Err(Unanswered::NotAsked); held.len()];
        for (place, answer) in futures_util::future::join_all(calls)
            .await
            .into_iter()
            .flatten()
        {
            answers[place] = answer;
        }
        answers
    }

    /// The places in `held` each call of the refresh script takes: up to `LEASES_PER_SCRIPT` tables,
    /// all of one hash slot on a Redis Cluster.
    fn script_calls(&self, held: &[(TableId, String)]) -> Vec<Vec<usize>> {
        if !self.layout.cluster {
            let places: Vec<usize> = (0..held.len()).collect();
            return places
                .chunks(LEASES_PER_SCRIPT)
                .map(<[usize]>::to_vec)
                .collect();
        }
        let mut by_slot: std::collections::HashMap<_, Vec<usize>> = Default::default();
        for (place, (id, _)) in held.iter().enumerate() {
            let slot = redis::cluster_routing::Slot::for_key(self.layout.lease(id));
            by_slot.entry(slot).or_default().push(place);
        }
        by_slot
            .into_values()
            .flat_map(|places| {
                places
                    .chunks(LEASES_PER_SCRIPT)
                    .map(<[usize]>::to_vec)
                    .collect::<Vec<_>>()
            })
            .collect()
    }
}

/// How many subscribers a `PUBSUB NUMSUB` (or `SHARDNUMSUB`) answer gives `channel`: one Redis
/// answers a flat list of channel and count, a Redis Cluster the map its client merged from every node.
fn subscribers(answer: &redis::Value, channel: &str) -> u64 {
    let counts: std::collections::HashMap<String, u64> =
        redis::from_redis_value_ref(answer).unwrap_or_default();
    counts.get(channel).copied().unwrap_or(0)
}

/// The shortest `uptime_in_seconds` an `INFO server` answer holds: one Redis answers its text, a
/// Redis Cluster a map of every primary's.
fn shortest_uptime(answer: &redis::Value) -> Option<u64> {
    match answer {
        redis::Value::BulkString(bytes) => std::str::from_utf8(bytes).ok().and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("uptime_in_seconds:"))
                .and_then(|v| v.trim().parse::<u64>().ok())
        }),
        redis::Value::VerbatimString { text, .. } => {
            shortest_uptime(&redis::Value::BulkString(text.clone().into_bytes()))
        }
        redis::Value::Map(pairs) => pairs.iter().filter_map(|(_, v)| shortest_uptime(v)).min(),
        redis::Value::Array(items) => items.iter().filter_map(shortest_uptime).min(),
        _ => None,
    }
}
