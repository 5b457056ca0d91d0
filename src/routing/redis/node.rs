//! One node of several: what it holds (its tables, their lease tokens, its stand-ins), its links to
//! Redis, where new tables go, and its drain. Its leases are in `lease`, its requests to other nodes
//! and their answers in `requests`, the stand-ins across nodes in `remote` and `stand_ins`, and each
//! table's fenced store in `store`.
//!
//! Every command reaches Redis through the pipe of the thread that sends it (see `bus`), and the
//! node hears other nodes through its one subscription.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use super::between_nodes::{Answer, Note, ToSockets, ToTables};
use super::bus::{self, ThreadPipes};
use super::client;
use super::held::Leases;
use super::homes::Homes;
use super::keys;
use super::link::PATIENCE;
use super::link::{Redis, Unanswered};
use super::pending::Pending;
use super::stand_ins::StandIns;
use super::store::Store;
use crate::catalog;
use crate::metrics::metrics;
use crate::routing::{table_config, LocalTables};
use crate::settings::{Role, Settings};
use crate::table::OpenTable;
use crate::table::{
    Closing, Gone, OwnerOrder, Snapshot, TableConfig, TableHandle, TableId, TableRefusal,
    TableStore, WatchKey,
};

/// Where a table is, seen from this node.
#[derive(Clone)]
pub enum Route {
    Here(TableHandle),
    There(String),
}

/// One node: its identity and settings, its pipes to Redis, and the parts that each own their state.
pub struct Node {
    pub id: String,
    pub(super) role: Role,
    pub(super) settings: Arc<Settings>,
    pub(super) pipes: ThreadPipes,
    pub(super) layout: keys::Layout,
    /// The tables living here.
    pub(super) tables: LocalTables,
    /// The leases of the tables here, and their refreshing.
    pub(super) leases: Leases,
    /// The threads for tables opened or rebuilt at another node's request, and which table is where.
    pub(super) homes: Homes,
    /// The stand-ins across nodes.
    pub(super) stand_ins: StandIns,
    /// Requests to other nodes waiting for their answers.
    pub(super) pending: Pending,
    draining: AtomicBool,
    pub(super) me: Weak<Node>,
}

impl Node {
    pub fn start(settings: Arc<Settings>) -> Result<Arc<Node>, String> {
        let role = settings.role;
        let redis = Redis::from_settings(&settings)?;
        let id = format!("{:016x}", rand::random::<u64>());
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let node = Arc::new_cyclic(|me| Node {
            id: id.clone(),
            role,
            leases: Leases::new(settings.redis_lease()),
            homes: Homes::new(threads),
            settings,
            pipes: ThreadPipes::new(redis.clone()),
            layout: redis.layout(),
            tables: LocalTables::default(),
            stand_ins: StandIns::default(),
            pending: Pending::default(),
            draining: AtomicBool::new(false),
            me: me.clone(),
        });
        let channels = vec![keys::tables_channel(&id), keys::sockets_channel(&id)];
        let ca_file = node.settings.redis_ca_file.trim().to_string();
        if let Redis::Single(client) = &redis {
            actix_rt::spawn(client::check_tls(client.as_ref().clone(), ca_file));
        }
        actix_rt::spawn(bus::listen(redis, channels, node.clone()));
        actix_rt::spawn(node.clone().keep_leases());
        tracing::info!(node = %id, role = role.as_str(), "routing through Redis");
        Ok(node)
    }

    pub fn open_tables(&self) -> usize {
        self.tables.len()
    }

    pub(super) fn draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// One Redis command through this thread's pipe, its answer read as `T`; out of reach, refused or
    /// not answered in time, it is counted and refused as unavailable.
    pub(super) async fn query<T: redis::FromRedisValue>(
        &self,
        cmd: redis::Cmd,
    ) -> Result<T, TableRefusal> {
        self.read_reply(self.pipes.this_thread().run(cmd)).await
    }

    /// The same, for a command sent where `key` is held on a Redis Cluster.
    pub(super) async fn query_at<T: redis::FromRedisValue>(
        &self,
        cmd: redis::Cmd,
        key: &str,
    ) -> Result<T, TableRefusal> {
        self.read_reply(self.pipes.this_thread().run_at(cmd, key.to_string()))
            .await
    }

    async fn read_reply<T: redis::FromRedisValue>(
        &self,
        sent: impl std::future::Future<Output = Option<redis::Value>>,
    ) -> Result<T, TableRefusal> {
        let answer = tokio::time::timeout(PATIENCE * 2, sent).await;
        let read = match answer {
            Ok(Some(value)) => {
                redis::from_redis_value::<T>(value).map_err(|e| Unanswered::Refused(e.to_string()))
            }
            Ok(None) => Err(Unanswered::OutOfReach),
            Err(_) => Err(Unanswered::TooLate),
        };
        read.map_err(|e| {
            metrics().redis_errors.inc();
            tracing::debug!("a Redis command failed: {e}");
            TableRefusal::unavailable()
        })
    }

    /// How a table hosted here under the lease `token` behaves, storing its snapshots through this
    /// node with that token.
    pub(super) fn table_config(&self, token: &str) -> TableConfig {
        let me = self.me.clone();
        let on_closed = Arc::new(move |id: &TableId, closing: Closing| {
            if let Some(node) = me.upgrade() {
                node.table_stopped(id, closing);
            }
        });
        let store: Arc<dyn TableStore> = Arc::new(self.store(token));
        table_config(&self.settings, on_closed, Some(store))
    }

    pub(super) fn store(&self, token: &str) -> Store {
        Store {
            pipes: self.pipes.clone(),
            lease_ms: self.leases.lasts().as_millis() as u64,
            token: token.to_string(),
            layout: self.layout,
            replicas: self.settings.redis_min_replicas,
            replica_wait_ms: self.settings.redis_replica_wait().as_millis() as u64,
        }
    }

    /// How long a snapshot adopted by this node lives before its first write here: as long as the
    /// longest-lived table's.
    pub(super) fn snapshot_ttl(&self) -> u64 {
        let expiry = crate::routing::expiry(&self.settings);
        let longest = expiry.friends.max(expiry.computer).max(expiry.finished);
        (longest + super::store::MARGIN).as_millis() as u64
    }

    pub(super) fn table_stopped(&self, id: &TableId, closing: Closing) {
        self.tables.remove(id);
        self.homes.forget(id);
        let token = self.leases.release(id);
        let guest_nodes = self.stand_ins.forget_guests_at(id);
        match closing {
            Closing::Closed(gone) => {
                let Some(token) = token else { return };
                self.pipes
                    .this_thread()
                    .send(keys::gone(&self.layout, id, gone));
                let keys = [
                    self.layout.lease(id),
                    self.layout.snapshot(id),
                    self.layout.holder(id),
                ];
                self.pipes
                    .this_thread()
                    .send(keys::FORGET.call(&keys, &[token.as_str()]));
            }
            // Its final snapshot is stored and its lease released, through this same pipe (or another
            // owner has it): the nodes with sockets at it hear only then that it has moved.
            Closing::Asleep => {
                // Word that it sleeps: the node that wakes it counts a wake (and takes the word
                // back), and should its snapshot run out meanwhile, its link says it expired.
                let outlives = self.snapshot_ttl() + keys::GONE_KEPT.as_millis() as u64;
                let mut gone = keys::gone(&self.layout, id, Gone::Expired);
                gone.arg("PX").arg(outlives);
                self.pipes.this_thread().send(gone);
                metrics().tables_slept.inc();
            }
            Closing::HandedOver | Closing::Lost => {
                for node in guest_nodes {
                    self.tell_moved(&node, id);
                }
                if closing == Closing::Lost {
                    metrics().tables_lost.inc();
                } else {
                    metrics().tables_handed_over.inc();
                }
            }
        }
    }

    pub(super) fn tell_moved(&self, node: &str, table: &TableId) {
        self.tell_sockets(
            node,
            &ToSockets::Note(Note::Moved {
                table: table.clone(),
            }),
        );
    }

    /// Opens a table on this node; answers its id once its lease and snapshot are stored, so that
    /// any node finds it as soon as the id is out (a Redis out of reach does not stop it opening).
    pub(super) async fn open_here(&self, order: OpenTable) -> Result<TableId, TableRefusal> {
        if self.draining() || !self.role.hosts_tables() {
            return Err(TableRefusal::unavailable());
        }
        order.fits_here()?;
        let token = keys::token(&self.id, 1);
        let (handle, snapshot) = catalog::find(&order.game)
            .and_then(|game| {
                let config = self.table_config(&token);
                game.open(&order, config)
            })
            .map_err(TableRefusal::bad_request)?;
        let id = handle.id.clone();
        self.host(handle, &snapshot, token).await;
        Ok(id)
    }

    /// Opens a table here or on the table-hosting node with the fewest tables; a strong computer
    /// table only where the thinking pool is not saturated.
    pub async fn open(self: Arc<Self>, order: OpenTable) -> Result<TableId, TableRefusal> {
        catalog::find(&order.game).map_err(TableRefusal::bad_request)?;
        let (host, fewest) = self.quietest_host(order.thinks()).await?;
        let here = self.role.hosts_tables() && !self.draining();
        let fits = order.fits_here();
        let stay = here && fits.is_ok() && (host.is_none() || self.tables.len() as u64 <= fewest);
        if stay {
            return self.open_here(order).await;
        }
        let Some(host) = host else {
            return Err(match fits {
                Err(busy) if here => busy,
                _ if order.thinks() && self.any_host_saturated().await? => {
                    TableRefusal::computers_busy()
                }
                _ => TableRefusal::unavailable(),
            });
        };
        match self.ask(&host, |ask| ToTables::Open { ask, order }).await? {
            Answer::Opened { table } => Ok(table),
            Answer::Refused { refusal } => Err(refusal),
            _ => Err(TableRefusal::unavailable()),
        }
    }

    /// The living table-hosting node (other than this one) with the fewest tables, and how many;
    /// for a table that `thinks`, only among the nodes whose thinking pool is not saturated.
    pub(super) async fn quietest_host(
        &self,
        thinks: bool,
    ) -> Result<(Option<String>, u64), TableRefusal> {
        let mut cmd = redis::cmd("ZRANGE");
        cmd.arg(keys::LOAD).arg(0).arg(-1).arg("WITHSCORES");
        let loads: Vec<(String, u64)> = self.query(cmd).await?;
        let saturated: Vec<String> = if thinks {
            self.query(redis::Cmd::smembers(keys::SATURATED)).await?
        } else {
            Vec::new()
        };
        for (node, load) in loads {
            if node == self.id || saturated.contains(&node) {
                continue;
            }
            if self.alive(&node).await? {
                return Ok((Some(node), load));
            }
            self.forget_host(&node);
        }
        Ok((None, 0))
    }

    /// Takes `node` out of the hosts a table may be placed on.
    fn forget_host(&self, node: &str) {
        let mut load = redis::cmd("ZREM");
        load.arg(keys::LOAD).arg(node);
        self.pipes.this_thread().send(load);
        let mut thinking = redis::cmd("SREM");
        thinking.arg(keys::SATURATED).arg(node);
        self.pipes.this_thread().send(thinking);
    }

    /// Whether some table-hosting node has said its thinking pool is saturated.
    async fn any_host_saturated(&self) -> Result<bool, TableRefusal> {
        let mut cmd = redis::cmd("SCARD");
        cmd.arg(keys::SATURATED);
        Ok(self.query::<u64>(cmd).await? > 0)
    }

    /// The site's watch key kept in Redis: the first node to ask makes it, every other reads it.
    pub(super) async fn shared_watch_key(&self) -> Result<WatchKey, TableRefusal> {
        let mut cmd = redis::cmd("SET");
        let made = WatchKey::random_hex();
        cmd.arg(keys::WATCH_KEY).arg(&made).arg("NX").arg("GET");
        let kept: Option<String> = self.query(cmd).await?;
        WatchKey::from_hex(kept.as_deref().unwrap_or(&made)).map_err(|e| {
            tracing::error!("the watch key kept in Redis is not one: {e}");
            TableRefusal::unavailable()
        })
    }

    /// The game a table plays, from the head of its snapshot. The table has an owner, so a snapshot
    /// not there (yet) is one being recovered: asked again shortly, never answered as closed.
    pub(super) async fn game_of(&self, id: &TableId) -> Result<&'static str, TableRefusal> {
        let mut cmd = redis::cmd("GETRANGE");
        cmd.arg(self.layout.snapshot(id)).arg(0).arg(31);
        let head: Vec<u8> = self.query(cmd).await?;
        let name = head.split(|b| *b == b'\n').next().unwrap_or_default();
        catalog::names()
            .find(|n| n.as_bytes() == name)
            .ok_or_else(TableRefusal::unavailable)
    }

    /// The table's snapshot, if it has one.
    pub async fn snapshot(&self, id: &TableId) -> Result<Option<Snapshot>, TableRefusal> {
        let mut cmd = redis::cmd("GET");
        cmd.arg(self.layout.snapshot(id));
        let stored: Option<Vec<u8>> = self.query(cmd).await?;
        let Some(stored) = stored else {
            return Ok(None);
        };
        let json = match stored.iter().position(|b| *b == b'\n') {
            Some(newline) => &stored[newline + 1..],
            None => return Ok(None),
        };
        Snapshot::from_stored(json).map(Some).map_err(|e| {
            tracing::error!(table = %id, "{e}");
            TableRefusal::unavailable()
        })
    }

    /// Drains: takes no more tables, and has each table store itself a last time, let its lease go,
    /// tell the nodes with sockets at it to find it again, and stop.
    pub async fn hand_over(self: Arc<Self>) {
        self.draining.store(true, Ordering::SeqCst);
        // A refresh under way finishes first (it could take a released lease again); none starts
        // after, as they see the drain.
        let _round = self.leases.round().await;
        self.forget_host(&self.id);
        for handle in self.tables.all() {
            if let Some(keep) = &handle.keep {
                keep.do_send(OwnerOrder::HandOver);
            }
        }
        while !self.tables.is_empty() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // Everything queued reaches Redis before the sockets close (unless Redis does not answer).
        let flushed = tokio::time::timeout(Duration::from_secs(3), self.pipes.flush()).await;
        if !matches!(flushed, Ok(true)) {
            tracing::warn!("not every command of the hand-over was confirmed by Redis");
        }
    }
}
