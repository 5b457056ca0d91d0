//! The embedded default: every table lives in this process.

use std::collections::HashMap;
use std::sync::RwLock;

use super::Router;
use crate::table::{TableHandle, TableId};

/// An in-process address book of tables.
#[derive(Default)]
pub struct LocalRouter {
    tables: RwLock<HashMap<TableId, TableHandle>>,
}

impl LocalRouter {
    pub fn new() -> LocalRouter {
        LocalRouter::default()
    }
}

impl Router for LocalRouter {
    fn register(&self, handle: TableHandle) {
        self.tables
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(handle.id.clone(), handle);
    }

    fn find(&self, id: &TableId) -> Option<TableHandle> {
        self.tables
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(id)
            .cloned()
    }

    fn remove(&self, id: &TableId) {
        self.tables
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .remove(id);
    }

    fn open_tables(&self) -> usize {
        self.tables
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .len()
    }
}
