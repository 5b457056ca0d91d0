//! Every open socket of this process, so that shutting down can close them all with 1001.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use actix::Recipient;

use crate::table::{ConnId, Outbound};

#[derive(Default)]
pub struct SessionRegistry {
    sessions: Mutex<HashMap<ConnId, Recipient<Outbound>>>,
    next_conn: AtomicU64,
    draining: AtomicBool,
}

impl SessionRegistry {
    pub fn new_conn_id(&self) -> ConnId {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    pub fn add(&self, conn: ConnId, out: Recipient<Outbound>) {
        self.lock().insert(conn, out);
    }

    pub fn remove(&self, conn: ConnId) {
        self.lock().remove(&conn);
    }

    pub fn open(&self) -> usize {
        self.lock().len()
    }

    /// Whether the process has stopped taking new tables and sockets.
    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// Stops taking new tables and sockets.
    pub fn refuse_new(&self) {
        self.draining.store(true, Ordering::SeqCst);
    }

    /// Stops taking new tables and sockets, and closes every open socket with 1001 (going away).
    pub fn drain(&self) {
        self.refuse_new();
        for out in self.lock().values() {
            out.do_send(Outbound::Close(1001, "the server is shutting down".into()));
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ConnId, Recipient<Outbound>>> {
        self.sessions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
