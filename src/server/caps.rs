//! How many of one kind of connection this process holds, in all and from each client address: one
//! set of caps for WebSockets, another for plain HTTP connections. A socket is admitted under both of
//! its caps before its upgrade is answered, and gives its place back when its session ends; an HTTP
//! connection is admitted as `server::door` says, and gives its place back when it closes or upgrades.
//! (The cap per seat is the table's: it counts its seats' sockets wherever they are served.)

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Why a connection was not admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// The process holds as many as it may.
    Node,
    /// This client address holds as many as it may.
    Address,
}

pub struct Caps {
    per_node: usize,
    per_address: usize,
    open: AtomicUsize,
    by_address: Mutex<HashMap<IpAddr, usize>>,
}

impl Caps {
    /// At most `per_node` connections, and `per_address` from one client address (0: no limit).
    pub fn new(per_node: usize, per_address: usize) -> Arc<Caps> {
        Arc::new(Caps {
            per_node: per_node.max(1),
            per_address: if per_address == 0 {
                usize::MAX
            } else {
                per_address
            },
            open: AtomicUsize::new(0),
            by_address: Mutex::new(HashMap::new()),
        })
    }

    /// A place for one more connection from `address`, if both caps allow it.
    pub fn admit(self: &Arc<Self>, address: IpAddr) -> Result<Admitted, Full> {
        let address = address.to_canonical();
        let mut by_address = self.lock();
        if self.open.load(Ordering::Relaxed) >= self.per_node {
            return Err(Full::Node);
        }
        let held = by_address.entry(address).or_insert(0);
        if *held >= self.per_address {
            return Err(Full::Address);
        }
        *held += 1;
        self.open.fetch_add(1, Ordering::Relaxed);
        Ok(Admitted {
            caps: self.clone(),
            address,
        })
    }

    /// Connections admitted and not yet ended.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.by_address.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// One connection's place, given back when dropped.
pub struct Admitted {
    caps: Arc<Caps>,
    address: IpAddr,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut by_address = self.caps.lock();
        if let Some(held) = by_address.get_mut(&self.address) {
            *held -= 1;
            if *held == 0 {
                by_address.remove(&self.address);
            }
        }
        self.caps.open.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cap_refuses_the_next_socket_until_one_ends() {
        let caps = Caps::new(3, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "::ffff:10.0.0.2".parse().unwrap();
        let first = caps.admit(a).unwrap();
        let _second = caps.admit(a).unwrap();
        assert_eq!(caps.admit(a).err(), Some(Full::Address));
        let _third = caps.admit(b).unwrap();
        assert_eq!(
            caps.admit("10.0.0.2".parse().unwrap()).err(),
            Some(Full::Node)
        );
        drop(first);
        assert_eq!(caps.open(), 2);
        assert!(caps.admit(a).is_ok());
    }
}
