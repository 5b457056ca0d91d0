//! One `chaikhana serve` alone (no Redis), over a data folder the test keeps across the process's
//! lives: stopped with SIGTERM or SIGKILL and started again on the same port and folder, as an
//! operator's restart or a crash would; the store each life leaves behind, read from a copy once the
//! process is dead (so that the next life still finds the file exactly as the last one left it, and
//! recovers it by itself); and seats that play, remembering every action acknowledged to them and
//! the highest version they were shown.

#![allow(dead_code)]

mod alone;
mod player;
mod table;

use std::time::Duration;

pub use alone::*;
pub use player::*;
pub use table::*;

/// How long a process may take to listen, to stop, or a seat to reconnect.
const PATIENCE: Duration = Duration::from_secs(20);

/// How a life ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// SIGTERM: the process stops cleanly.
    Term,
    /// SIGKILL: the process dies where it stands, mid-commit perhaps.
    Kill,
}

impl Stop {
    fn signal(self) -> &'static str {
        match self {
            Stop::Term => "-TERM",
            Stop::Kill => "-KILL",
        }
    }
}
