//! The router: the one part that knows where a table lives. Sessions and HTTP handlers open and find
//! tables only through it. The local router keeps an in-process address book; the Redis router spreads
//! tables over several nodes and moves them when a node dies or drains.

mod local;
pub mod redis;

use crate::lobby::Lobby;
use crate::table::OpenTable;
pub use local::{Disk, Found, LocalRouter, LocalTables, Stored, FILE_NAME, STORE_FORMAT};

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;

use crate::settings::{Role, Settings};
use crate::table::{
    Expiry, OnClosed, Snapshot, TableConfig, TableHandle, TableId, TablePolicy, TableRefusal,
    TableStore, WatchKey,
};
use chaikhana_rules::game::Budget;

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
    /// Whether what this node keeps its tables in takes changes now (not while the embedded store
    /// is opened again after an I/O error): the node is not ready, and opens no table, meanwhile.
    fn store_open(&self) -> bool {
        true
    }
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
    /// Where strangers meet: the quick pairing's queues and the open tables' list, shared by every
    /// node that shares the tables.
    fn lobby(&self) -> Arc<dyn Lobby>;
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

/// What the settings' types alone do not say: a Redis URL must be one. The router's client is made
/// only once the server starts, and a typo should stop the process before then; the error never
/// repeats the URL, which may hold Redis's password.
pub fn check_settings(settings: &Settings) -> Result<(), String> {
    if !settings.redis_url.is_empty() {
        redis::check_url(&settings.redis_url)?;
    }
    Ok(())
}

/// How long the strong computer thinks per decision.
pub fn strong_budget(settings: &Settings) -> Budget {
    Budget::Time(Duration::from_millis(settings.strong_budget_ms))
}

/// How long tables live after their last move, by kind and for a finished match.
pub fn expiry(settings: &Settings) -> Expiry {
    Expiry {
        friends: Duration::from_secs(settings.friends_table_expiry_secs.max(1)),
        computer: Duration::from_secs(settings.computer_table_expiry_secs.max(1)),
        finished: Duration::from_secs(settings.finished_table_expiry_secs.max(1)),
    }
}

/// A table's behaviour from the settings, with the router's hooks.
pub fn table_config(
    settings: &Settings,
    on_closed: OnClosed,
    store: Option<Arc<dyn TableStore>>,
) -> TableConfig {
    TableConfig {
        policy: table_policy(settings),
        on_closed,
        store,
    }
}

/// How tables behave, as the settings say.
pub fn table_policy(settings: &Settings) -> TablePolicy {
    TablePolicy {
        bot_delay: settings.bot_delay(),
        strong_budget: strong_budget(settings),
        sleep_after: settings.sleep_after(),
        expiry: expiry(settings),
        offer_after: settings.offer_seat_after(),
        sockets_per_seat: settings.sockets_per_seat,
        watchers_per_table: settings.watchers_per_table,
        shuffle_wait: Duration::from_millis(settings.shuffle_wait_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_env(pairs: &[(&str, &str)]) -> Settings {
        let env = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        Settings::load_with_env(None, env.collect::<Vec<_>>().into_iter()).unwrap()
    }

    #[test]
    fn a_redis_url_is_checked_before_the_server_starts() {
        for url in [
            "redis://127.0.0.1:6379",
            "rediss://:secret@redis.example:6380/0",
        ] {
            assert_eq!(
                check_settings(&with_env(&[("CHAIKHANA_REDIS_URL", url)])),
                Ok(())
            );
        }
        let settings = with_env(&[("CHAIKHANA_REDIS_URL", "http://user:hunter2@redis.example")]);
        let refused = check_settings(&settings).unwrap_err();
        assert!(refused.contains("redis_url"), "{refused}");
        assert!(!refused.contains("hunter2"), "{refused}");
        assert_eq!(check_settings(&Settings::defaults()), Ok(()));
    }

    #[test]
    fn tables_live_as_long_as_the_settings_say() {
        let expiry = expiry(&Settings::defaults());
        assert_eq!(expiry.friends, Duration::from_secs(14 * 86400));
        assert_eq!(expiry.computer, Duration::from_secs(7 * 86400));
        assert_eq!(expiry.finished, Duration::from_secs(86400));
        let settings = with_env(&[("CHAIKHANA_STRONG_BUDGET_MS", "150")]);
        assert_eq!(
            strong_budget(&settings),
            Budget::Time(Duration::from_millis(150))
        );
    }
}
