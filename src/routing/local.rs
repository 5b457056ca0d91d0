//! The embedded default: every table lives in this process.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use futures_util::future::{ready, BoxFuture, FutureExt};

use super::{configured_watch_key, table_config, OpenTable, Router};
use crate::catalog;
use crate::settings::Settings;
use crate::table::{TableHandle, TableId, TableRefusal, WatchKey};

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
    tables: LocalTables,
    /// The settings' watch key, or one made for this process (its tables live no longer than it).
    watch_key: WatchKey,
}

impl LocalRouter {
    pub fn new(settings: Arc<Settings>) -> LocalRouter {
        LocalRouter {
            watch_key: configured_watch_key(&settings).unwrap_or_else(WatchKey::random),
            settings,
            tables: LocalTables::default(),
        }
    }
}

impl Router for LocalRouter {
    fn open(&self, request: OpenTable) -> BoxFuture<'_, Result<TableId, TableRefusal>> {
        let tables = self.tables.clone();
        let on_closed = Arc::new(move |id: &TableId, _| {
            tables.remove(id);
        });
        let config = table_config(&self.settings, on_closed, None);
        let opened = catalog::find(&request.game)
            .and_then(|game| game.open(&request, config))
            .map(|(handle, _)| {
                let id = handle.id.clone();
                self.tables.insert(handle);
                id
            })
            .map_err(TableRefusal::bad_request);
        ready(opened).boxed()
    }

    fn find<'a>(&'a self, id: &'a TableId) -> BoxFuture<'a, Result<TableHandle, TableRefusal>> {
        ready(self.tables.get(id).ok_or_else(TableRefusal::not_found)).boxed()
    }

    fn open_tables(&self) -> usize {
        self.tables.len()
    }

    fn hand_over(&self) -> BoxFuture<'_, ()> {
        ready(()).boxed()
    }

    fn watch_key(&self) -> BoxFuture<'_, Result<WatchKey, TableRefusal>> {
        ready(Ok(self.watch_key.clone())).boxed()
    }
}
