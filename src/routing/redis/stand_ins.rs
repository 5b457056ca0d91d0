//! What a node knows of the stand-ins across nodes: for each table living elsewhere that this node's
//! sockets play at, its stand-in ([`super::remote::RemoteTable`]); this node's sockets at such tables;
//! and the other nodes' sockets at tables here (each a [`super::remote::RemoteSocket`]).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use actix::{Message, Recipient};

use crate::table::{ConnId, Outbound, SocketOut, TableHandle, TableId};

/// The owner has gone or handed the table over: its stand-in finds it again and attaches this node's
/// sockets there.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Relocate;

/// A socket of another node at a table here.
pub struct Guest {
    pub table: TableId,
    /// Its id at the table (see `GUEST_IDS`).
    pub conn: ConnId,
    pub relay: Recipient<Outbound>,
}

/// Connection ids given to other nodes' sockets here, apart from this node's own.
pub const GUEST_IDS: ConnId = 1 << 62;

/// The stand-in for a table on another node.
pub struct Proxy {
    pub handle: TableHandle,
    pub relocate: Recipient<Relocate>,
    /// The node the table was last found on.
    pub owner: String,
}

#[derive(Default)]
pub struct StandIns {
    /// Stand-ins for tables on other nodes, for this node's sockets.
    proxies: Mutex<HashMap<TableId, Proxy>>,
    /// This node's sockets at tables on other nodes.
    sockets: Mutex<HashMap<ConnId, SocketOut>>,
    /// Other nodes' sockets at tables here, by their node and their id there.
    guests: Mutex<HashMap<(String, ConnId), Guest>>,
    /// The last id given to a guest here (see `GUEST_IDS`).
    last_guest: AtomicU64,
}

pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl StandIns {
    /// A new id for another node's socket at a table here, apart from this node's own sockets'.
    pub fn guest_id(&self) -> ConnId {
        GUEST_IDS | (self.last_guest.fetch_add(1, Ordering::Relaxed) + 1)
    }

    pub fn proxy(&self, id: &TableId) -> Option<TableHandle> {
        lock(&self.proxies)
            .get(id)
            .map(|proxy| proxy.handle.clone())
    }

    /// The stand-in for the table, made by `make` if there is none yet.
    pub fn proxy_or_make(&self, id: &TableId, make: impl FnOnce() -> Proxy) -> TableHandle {
        let mut proxies = lock(&self.proxies);
        proxies
            .entry(id.clone())
            .or_insert_with(make)
            .handle
            .clone()
    }

    /// The table has been found on `owner`.
    pub fn found_on(&self, id: &TableId, owner: &str) {
        if let Some(proxy) = lock(&self.proxies).get_mut(id) {
            proxy.owner = owner.to_string();
        }
    }

    /// The nodes the stand-ins' tables live on.
    pub fn owners(&self) -> HashSet<String> {
        lock(&self.proxies)
            .values()
            .map(|proxy| proxy.owner.clone())
            .collect()
    }

    /// Tells the stand-in of every table on `owner` that the table has moved.
    pub fn relocate_all_on(&self, owner: &str) {
        for proxy in lock(&self.proxies).values() {
            if proxy.owner == owner {
                proxy.relocate.do_send(Relocate);
            }
        }
    }

    pub fn forget_proxy(&self, id: &TableId) {
        lock(&self.proxies).remove(id);
    }

    /// Tells the table's stand-in that the table has moved.
    pub fn relocate(&self, id: &TableId) {
        if let Some(proxy) = lock(&self.proxies).get(id) {
            proxy.relocate.do_send(Relocate);
        }
    }

    pub fn add_socket(&self, conn: ConnId, out: SocketOut) {
        lock(&self.sockets).insert(conn, out);
    }

    pub fn socket(&self, conn: ConnId) -> Option<SocketOut> {
        lock(&self.sockets).get(&conn).cloned()
    }

    pub fn remove_socket(&self, conn: ConnId) -> Option<SocketOut> {
        lock(&self.sockets).remove(&conn)
    }

    /// The link to Redis is lost: every stand-in for a table is forgotten, and this node's sockets
    /// at tables elsewhere are answered, to be closed.
    pub fn cut_off(&self) -> Vec<SocketOut> {
        lock(&self.proxies).clear();
        lock(&self.sockets).drain().map(|(_, out)| out).collect()
    }

    pub fn add_guest(&self, node: &str, conn: ConnId, guest: Guest) {
        lock(&self.guests).insert((node.to_string(), conn), guest);
    }

    /// The id at its table of the socket `conn` of `node`.
    pub fn guest_conn(&self, node: &str, conn: ConnId) -> Option<ConnId> {
        lock(&self.guests)
            .get(&(node.to_string(), conn))
            .map(|guest| guest.conn)
    }

    pub fn remove_guest(&self, node: &str, conn: ConnId) -> Option<Guest> {
        lock(&self.guests).remove(&(node.to_string(), conn))
    }

    /// Forgets the guests at a table that has stopped here, answering the nodes they came from.
    pub fn forget_guests_at(&self, id: &TableId) -> HashSet<String> {
        let mut nodes = HashSet::new();
        lock(&self.guests).retain(|(node, _), guest| {
            if &guest.table == id {
                nodes.insert(node.clone());
                false
            } else {
                true
            }
        });
        nodes
    }

    /// The nodes with sockets here.
    pub fn guest_nodes(&self) -> HashSet<String> {
        lock(&self.guests)
            .keys()
            .map(|(node, _)| node.clone())
            .collect()
    }

    /// Takes out every guest of `node`.
    pub fn take_guests_of(&self, node: &str) -> Vec<Guest> {
        let mut guests = lock(&self.guests);
        let keys: Vec<(String, ConnId)> =
            guests.keys().filter(|(n, _)| n == node).cloned().collect();
        keys.into_iter().filter_map(|k| guests.remove(&k)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guests_get_ids_of_their_own_apart_from_this_nodes_sockets() {
        let stand_ins = StandIns::default();
        let ids: Vec<ConnId> = (0..3).map(|_| stand_ins.guest_id()).collect();
        assert!(ids.iter().all(|id| id & GUEST_IDS != 0), "{ids:?}");
        assert_eq!(ids, [GUEST_IDS | 1, GUEST_IDS | 2, GUEST_IDS | 3]);
        assert!(stand_ins.guest_nodes().is_empty());
        assert!(stand_ins.remove_guest("elsewhere", ids[0]).is_none());
    }
}
