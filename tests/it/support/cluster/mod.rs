//! Several `chaikhana serve` processes around a real `redis-server`, on loopback: the processes, a
//! friends table with its seats on different nodes, and a TCP proxy that can cut a node off from
//! Redis.

#![allow(dead_code)]

mod across;
mod node;
mod proxy;
mod redis_server;

use std::net::TcpListener;
use std::time::{Duration, Instant};

pub use across::*;
pub use node::*;
pub use proxy::*;
pub use redis_server::*;

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A free port below the range the system hands out to outgoing connections, so that while a restarted
/// redis-server is down no other process's connection can take its port (seen on a busy machine).
pub fn steady_port() -> u16 {
    // Tests run side by side: each call starts its search somewhere else. A Cluster node also binds
    // its port + 10000 (the cluster bus), so both must be free, and both stay below 32768, where
    // Linux starts choosing the local ports of outgoing connections, which could take the bus's.
    static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let start = std::process::id().wrapping_mul(31).wrapping_add(call * 101);
    let free = |port: u16| TcpListener::bind(("127.0.0.1", port)).is_ok();
    (0..2_700)
        .map(|i| 20_000 + (start.wrapping_add(i) % 2_700) as u16)
        .find(|port| free(*port) && free(port + 10_000))
        .expect("a free port from 20000 to 22699 with its cluster bus port free")
}

pub fn have_redis() -> bool {
    crate::support::have_program("redis-server", "apt-get install redis-server")
}

pub async fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < Duration::from_secs(10), "{what}");
        actix_rt::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether `done` comes true within `patience` (asked every 10 ms).
pub async fn wait_for(patience: Duration, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while !done() {
        if started.elapsed() > patience {
            return false;
        }
        actix_rt::time::sleep(Duration::from_millis(10)).await;
    }
    true
}
