//! The router: the one part that knows where a table lives. Sessions and HTTP handlers open and find
//! tables only through it. The local router keeps an in-process address book; the Redis router spreads
//! tables over several nodes and moves them when a node dies or drains.

mod local;
pub mod redis;

pub use local::{Disk, Found, LocalRouter, LocalTables, Stored, FILE_NAME, STORE_FORMAT};

use std::sync::Arc;

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

use crate::matches::MatchLength;
use crate::settings::{Role, Settings};
use crate::table::{
    Level, OnClosed, Snapshot, TableConfig, TableHandle, TableId, TableKind, TablePolicy,
    TableRefusal, TableStore, TokenHash, WatchKey,
};

/// A table to open: its game, kind and match length, and the hash of its creator's token.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OpenTable {
    pub game: String,
    pub kind: TableKind,
    /// How well the computers play, at a computer table.
    #[serde(default)]
    pub level: Level,
    pub length: MatchLength,
    pub creator: TokenHash,
}

impl OpenTable {
    /// Whether the table's computers think on the thinking pool (only the strong ones do), so that
    /// it is placed only on a node whose pool is not saturated.
    pub fn thinks(&self) -> bool {
        self.kind == TableKind::Computer && self.level == Level::Strong
    }

    /// Refused when the table would think on this node's pool and the pool is saturated.
    pub fn fits_here(&self) -> Result<(), TableRefusal> {
        if self.thinks() && crate::thinking::pool().saturated() {
            return Err(TableRefusal::computers_busy());
        }
        Ok(())
    }
}

/// Where tables are opened and found.
pub trait Router: Send + Sync + 'static {
    /// Opens a table (on this node or another) with its creator in seat 1; answers its id.
    fn open(&self, request: OpenTable) -> BoxFuture<'_, Result<TableId, TableRefusal>>;
    /// The table with this id, wherever it lives: refused as `NoSuchTable` when there is none,
    /// `Unavailable` when it cannot be reached for now.
    fn find<'a>(&'a self, id: &'a TableId) -> BoxFuture<'a, Result<TableHandle, TableRefusal>>;
    /// The table's stored record and when it last changed (Unix ms), read without waking it: for
    /// "Your games". Refused as the table would be (closed for good, no such table, out of reach).
    fn stored<'a>(
        &'a self,
        id: &'a TableId,
    ) -> BoxFuture<'a, Result<(Snapshot, u64), TableRefusal>>;
    /// How many tables live on this node.
    fn open_tables(&self) -> usize;
    /// Stops taking tables and hands this node's tables to the others (draining).
    fn hand_over(&self) -> BoxFuture<'_, ()>;
    /// Closes what this node keeps its tables in, once every table has stopped (the process's way
    /// out): the embedded store closes cleanly, so the next start need not recover it.
    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(futures_util::future::ready(()))
    }
    /// The key of watch links (see `table::WatchKey`): the same on every node of the site.
    fn watch_key(&self) -> BoxFuture<'_, Result<WatchKey, TableRefusal>>;
    /// A web server's worker has started on this thread (an actix arbiter), where tables may live.
    fn worker_started(&self) {}
}

/// The watch key the settings give, if they give one (checked when the settings are read).
fn configured_watch_key(settings: &Settings) -> Option<WatchKey> {
    let secret = settings.watch_secret.trim();
    (!secret.is_empty())
        .then(|| WatchKey::from_hex(secret).ok())
        .flatten()
}

/// The router the settings ask for: Redis when `redis_url` is set, otherwise the embedded one.
pub fn from_settings(settings: &Arc<Settings>) -> Result<Arc<dyn Router>, String> {
    if !settings.watch_secret.trim().is_empty() {
        WatchKey::from_hex(&settings.watch_secret)?;
    }
    if settings.redis_url.is_empty() {
        if settings.role != Role::All {
            return Err(format!(
                "role \"{}\" needs redis_url: alone, a process does everything",
                settings.role.as_str()
            ));
        }
        return Ok(Arc::new(LocalRouter::new(settings.clone())?));
    }
    let router: Arc<dyn Router> = redis::RedisRouter::start(settings.clone())?;
    Ok(router)
}

/// A table's behaviour from the settings, with the router's hooks.
pub fn table_config(
    settings: &Settings,
    on_closed: OnClosed,
    store: Option<Arc<dyn TableStore>>,
) -> TableConfig {
    TableConfig {
        policy: TablePolicy {
            bot_delay: settings.bot_delay(),
            strong_budget: settings.strong_budget(),
            sleep_after: settings.sleep_after(),
            expiry: settings.expiry(),
            offer_after: settings.offer_seat_after(),
            sockets_per_seat: settings.sockets_per_seat,
            watchers_per_table: settings.watchers_per_table,
            shuffle_wait: std::time::Duration::from_millis(settings.shuffle_wait_ms),
        },
        on_closed,
        store,
    }
}
