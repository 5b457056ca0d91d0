//! The threads a node keeps for the tables it opens or rebuilds at another node's request (those
//! opened through its own HTTP routes live on the web server's workers), and which of them each such
//! table lives on: requests about a table are answered on its own thread, and the stand-ins for its
//! guests' sockets start there, so that the table hands them frames without waking another thread.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use actix_rt::ArbiterHandle;

use super::stand_ins::lock;
use crate::table::TableId;

pub struct Homes {
    arbiters: Vec<actix::Arbiter>,
    next: AtomicUsize,
    tables: Mutex<HashMap<TableId, usize>>,
}

impl Homes {
    /// `threads` threads (at least one), each an actix arbiter.
    pub fn new(threads: usize) -> Homes {
        Homes {
            arbiters: (0..threads.max(1)).map(|_| actix::Arbiter::new()).collect(),
            next: AtomicUsize::new(0),
            tables: Mutex::default(),
        }
    }

    /// The thread to answer on: the table's own if it lives on one of them, else the next in turn.
    pub fn turn_for(&self, table: Option<&TableId>) -> usize {
        let home = table.and_then(|table| lock(&self.tables).get(table).copied());
        home.unwrap_or_else(|| self.next.fetch_add(1, Ordering::Relaxed) % self.arbiters.len())
    }

    /// The thread `turn`.
    pub fn arbiter(&self, turn: usize) -> ArbiterHandle {
        self.arbiters[turn % self.arbiters.len()].handle()
    }

    /// The table now lives on the thread `turn`.
    pub fn settle(&self, table: TableId, turn: usize) {
        lock(&self.tables).insert(table, turn);
    }

    /// The table lives on the thread `turn`, unless it already has one.
    pub fn settle_if_new(&self, table: TableId, turn: usize) {
        lock(&self.tables).entry(table).or_insert(turn);
    }

    /// The table no longer lives here.
    pub fn forget(&self, table: &TableId) {
        lock(&self.tables).remove(table);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_answered_on_its_own_thread_and_others_take_turns() {
        actix_rt::System::new().block_on(async {
            let homes = Homes::new(3);
            let turns: Vec<usize> = (0..4).map(|_| homes.turn_for(None)).collect();
            assert_eq!(turns, [0, 1, 2, 0]);
            let table = TableId::random();
            assert_eq!(
                homes.turn_for(Some(&table)),
                1,
                "no home yet: the next turn"
            );
            homes.settle(table.clone(), 2);
            homes.settle_if_new(table.clone(), 0);
            assert_eq!(homes.turn_for(Some(&table)), 2);
            assert_eq!(homes.turn_for(Some(&table)), 2, "its home, not a turn");
            homes.forget(&table);
            assert_eq!(homes.turn_for(Some(&table)), 2, "the turn after 1");
            assert!(homes.arbiter(5).spawn(async {}));
            for arbiter in &homes.arbiters {
                arbiter.stop();
            }
        });
    }
}
