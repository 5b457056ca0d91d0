//! Several nodes sharing one Redis. A table lives on one node, which holds its lease (a time to live it
//! refreshes, whose value is the owner's token: node and epoch) and stores its snapshot after every
//! change through a script that refuses the write unless the lease still holds that token. A change
//! is shown and acknowledged only once stored; a table whose store is out of reach pauses, and one
//! whose write is refused steps down. A socket on another node reaches the table through a
//! [`remote::RemoteTable`] that carries the socket's frames over the owner's tables channel and gets
//! the seat's frames back on its own sockets channel. New tables go to the table-hosting node with
//! the fewest, staying here when that is even. When an owner dies its leases lapse and the next
//! request for one of its tables makes another node rebuild it from the snapshot under the next
//! epoch; when an owner drains it stores each table, lets its lease go and tells the nodes with
//! sockets there.

mod between_nodes;
mod bus;
mod client;
mod guests;
mod held;
mod homes;
mod keys;
mod lease;
mod link;
mod lobby;
mod node;
mod pending;
mod remote;
mod requests;
#[cfg(test)]
mod scripts_tests;
mod sharded;
mod stand_ins;
mod store;

pub use client::client;
pub use link::check_url;

use std::sync::Arc;

use futures_util::future::{BoxFuture, FutureExt};

use super::{configured_watch_key, OpenTable, Router};
use crate::settings::Settings;
use crate::table::{TableHandle, TableId, TableRefusal, WatchKey};
use node::Node;

/// The Redis router of this node.
pub struct RedisRouter {
    node: Arc<Node>,
    lobby: Arc<lobby::RedisLobby>,
    /// The site's watch key: the settings', or the one kept in Redis for every node, once read.
    watch_key: tokio::sync::OnceCell<WatchKey>,
}

impl RedisRouter {
    /// Connects lazily (a Redis out of reach is retried, not fatal) and starts the node's tasks on the
    /// current actix runtime.
    pub fn start(settings: Arc<Settings>) -> Result<Arc<RedisRouter>, String> {
        let watch_key = tokio::sync::OnceCell::new_with(configured_watch_key(&settings));
        let node = Node::start(settings)?;
        let lobby = Arc::new(lobby::RedisLobby::new(node.clone()));
        Ok(Arc::new(RedisRouter {
            node,
            lobby,
            watch_key,
        }))
    }
}

impl Router for RedisRouter {
    fn open(&self, request: OpenTable) -> BoxFuture<'_, Result<TableId, TableRefusal>> {
        self.node.clone().open(request).boxed()
    }

    fn find<'a>(&'a self, id: &'a TableId) -> BoxFuture<'a, Result<TableHandle, TableRefusal>> {
        self.node.clone().find(id.clone()).boxed()
    }

    fn stored<'a>(
        &'a self,
        id: &'a TableId,
    ) -> BoxFuture<'a, Result<(crate::table::Snapshot, u64), TableRefusal>> {
        self.node.stored(id).boxed()
    }

    fn open_tables(&self) -> usize {
        self.node.open_tables()
    }

    fn hand_over(&self) -> BoxFuture<'_, ()> {
        self.node.clone().hand_over().boxed()
    }

    fn lobby(&self) -> Arc<dyn crate::lobby::Lobby> {
        self.lobby.clone()
    }

    fn watch_key(&self) -> BoxFuture<'_, Result<WatchKey, TableRefusal>> {
        async move {
            self.watch_key
                .get_or_try_init(|| self.node.shared_watch_key())
                .await
                .cloned()
        }
        .boxed()
    }
}
