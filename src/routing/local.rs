//! The embedded default: every table lives in this process.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

use futures_util::future::{ready, BoxFuture, FutureExt};
use tokio::sync::oneshot;

use super::{configured_watch_key, table_config, OpenTable, Router};
use crate::catalog;
use crate::settings::Settings;
use crate::table::{TableConfig, TableHandle, TableId, TableRefusal, WatchKey};

/// An in-process address book of the tables living here.
#[derive(Clone, Default)]
pub struct LocalTables {
    tables: Arc<RwLock<HashMap<TableId, TableHandle>>>,
}

impl LocalTables {
    pub fn insert(&self, handle: TableHandle) {
        self.write().insert(handle.id.clone(), handle);
    }

    pub fn get(&self, id: &TableId) -> Option<TableHandle> {
        self.read().get(id).cloned()
    }

    /// What `f` makes of the table's handle, without a clone of it (cloning one allocates for each of
    /// its recipients): for the work done once per frame.
    pub fn with<R>(&self, id: &TableId, f: impl FnOnce(&TableHandle) -> R) -> Option<R> {
        self.read().get(id).map(f)
    }

    pub fn remove(&self, id: &TableId) -> Option<TableHandle> {
        self.write().remove(id)
    }

    pub fn len(&self) -> usize {
        self.read().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn all(&self) -> Vec<TableHandle> {
        self.read().values().cloned().collect()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<TableId, TableHandle>> {
        self.tables.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<TableId, TableHandle>> {
        self.tables.write().unwrap_or_else(|p| p.into_inner())
    }
}

/// Every table in this process.
pub struct LocalRouter {
    settings: Arc<Settings>,
    /// The web server's workers, where tables are opened in turn: a table's sockets are served on its
    /// thread (see `server::socket`), so tables spread over the cores whichever connection asked for
    /// them (a proxy may send every request down one).
    workers: RwLock<Vec<actix::ArbiterHandle>>,
    next_worker: AtomicUsize,
    tables: LocalTables,
    /// The settings' watch key, or one made for this process (its tables live no longer than it).
    watch_key: WatchKey,
}

impl LocalRouter {
    pub fn new(settings: Arc<Settings>) -> LocalRouter {
        LocalRouter {
            watch_key: configured_watch_key(&settings).unwrap_or_else(WatchKey::random),
            settings,
            workers: RwLock::default(),
            next_worker: AtomicUsize::new(0),
            tables: LocalTables::default(),
        }
    }

    /// The worker whose turn it is to hold a table, if any has started.
    fn next_worker(&self) -> Option<actix::ArbiterHandle> {
        let workers = self.workers.read().unwrap_or_else(|p| p.into_inner());
        let turn = self.next_worker.fetch_add(1, Ordering::Relaxed);
        workers.get(turn % workers.len().max(1)).cloned()
    }
}

/// Opens a table on the thread this runs on.
fn open_here(request: &OpenTable, config: TableConfig) -> Result<TableHandle, String> {
    catalog::find(&request.game)
        .and_then(|game| game.open(request, config))
        .map(|(handle, _)| handle)
}

impl Router for LocalRouter {
    fn open(&self, request: OpenTable) -> BoxFuture<'_, Result<TableId, TableRefusal>> {
        let tables = self.tables.clone();
        let on_closed = Arc::new(move |id: &TableId, _| {
            tables.remove(id);
        });
        let config = table_config(&self.settings, on_closed, None);
        let tables = self.tables.clone();
        let (tell, told) = oneshot::channel();
        let opening = {
            let (request, config) = (request.clone(), config.clone());
            async move {
                let _ = tell.send(open_here(&request, config));
            }
        };
        if let Some(worker) = self.next_worker() {
            worker.spawn(opening);
        }
        async move {
            // No worker yet, or one that has stopped (restarted after a panic) and dropped the job:
            // the table opens here.
            let opened = match told.await {
                Ok(opened) => opened,
                Err(_) => open_here(&request, config),
            };
            let handle = opened.map_err(TableRefusal::bad_request)?;
            let id = handle.id.clone();
            tables.insert(handle);
            Ok(id)
        }
        .boxed()
    }

    fn find<'a>(&'a self, id: &'a TableId) -> BoxFuture<'a, Result<TableHandle, TableRefusal>> {
        ready(self.tables.get(id).ok_or_else(TableRefusal::not_found)).boxed()
    }

    fn open_tables(&self) -> usize {
        self.tables.len()
    }

    fn worker_started(&self) {
        if let Some(worker) = actix::Arbiter::try_current() {
            let mut workers = self.workers.write().unwrap_or_else(|p| p.into_inner());
            workers.push(worker);
        }
    }

    fn hand_over(&self) -> BoxFuture<'_, ()> {
        ready(()).boxed()
    }

    fn watch_key(&self) -> BoxFuture<'_, Result<WatchKey, TableRefusal>> {
        ready(Ok(self.watch_key.clone())).boxed()
    }
}
