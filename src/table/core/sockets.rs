//! Who is connected to a table: each seat's sockets with their seat, the watchers' sockets, and since
//! when nobody has been (a table nobody is connected to sleeps after a while, see `away`).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use super::ConnId;
use chaikhana_rules::cards::Seat;

/// The sockets of a table's seats and watchers.
#[derive(Debug)]
pub(super) struct Sockets {
    /// Each seat's sockets, with the seat.
    seated: BTreeMap<ConnId, Seat>,
    /// The sockets of people watching through the watch link.
    watchers: BTreeSet<ConnId>,
    /// Since when nobody has been connected, while nobody is.
    quiet_since: Option<Instant>,
}

/// Whose socket went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Went {
    Seat(Seat),
    Watcher,
    /// A socket the table did not know.
    Unknown,
}

impl Sockets {
    /// No socket yet, quiet since `now`.
    pub(super) fn new(now: Instant) -> Sockets {
        Sockets {
            seated: BTreeMap::new(),
            watchers: BTreeSet::new(),
            quiet_since: Some(now),
        }
    }

    /// The seat of a seat's socket.
    pub(super) fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        self.seated.get(&conn).copied()
    }

    /// How many sockets `seat` has open.
    pub(super) fn of_seat(&self, seat: Seat) -> usize {
        self.seated.values().filter(|s| **s == seat).count()
    }

    pub(super) fn is_watcher(&self, conn: ConnId) -> bool {
        self.watchers.contains(&conn)
    }

    /// How many watch.
    pub(super) fn watching(&self) -> usize {
        self.watchers.len()
    }

    /// Every socket, the seats' and then the watchers', each with its seat (none for a watcher).
    pub(super) fn viewers(&self) -> impl Iterator<Item = (ConnId, Option<Seat>)> + '_ {
        let seated = self.seated.iter().map(|(conn, seat)| (*conn, Some(*seat)));
        seated.chain(self.watchers.iter().map(|conn| (*conn, None)))
    }

    /// Every socket, the seats' and then the watchers'.
    pub(super) fn everyone(&self) -> impl Iterator<Item = ConnId> + '_ {
        self.viewers().map(|(conn, _)| conn)
    }

    /// Since when nobody has been connected, while nobody is.
    pub(super) fn quiet_since(&self) -> Option<Instant> {
        self.quiet_since
    }

    pub(super) fn add_seat(&mut self, conn: ConnId, seat: Seat) {
        self.seated.insert(conn, seat);
        self.quiet_since = None;
    }

    pub(super) fn add_watcher(&mut self, conn: ConnId) {
        self.watchers.insert(conn);
        self.quiet_since = None;
    }

    /// Forgets a socket that went at `now`; the table is quiet from then if it was the last.
    pub(super) fn remove(&mut self, conn: ConnId, now: Instant) -> Went {
        let went = if self.watchers.remove(&conn) {
            Went::Watcher
        } else if let Some(seat) = self.seated.remove(&conn) {
            Went::Seat(seat)
        } else {
            return Went::Unknown;
        };
        if self.seated.is_empty() && self.watchers.is_empty() {
            self.quiet_since = Some(now);
        }
        went
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_table_is_quiet_from_when_its_last_socket_went_and_not_before() {
        let start = crate::table::test_moment();
        let later = start + Duration::from_secs(5);
        let mut sockets = Sockets::new(start);
        assert_eq!(sockets.quiet_since(), Some(start));
        sockets.add_seat(1, Seat::new(0));
        sockets.add_watcher(7);
        assert_eq!(sockets.quiet_since(), None);
        assert_eq!(sockets.remove(1, later), Went::Seat(Seat::new(0)));
        assert_eq!(sockets.quiet_since(), None, "a watcher is still there");
        assert_eq!(sockets.remove(3, later), Went::Unknown);
        assert_eq!(sockets.remove(7, later), Went::Watcher);
        assert_eq!(sockets.quiet_since(), Some(later));
        assert_eq!(
            sockets.remove(7, later + later.duration_since(start)),
            Went::Unknown
        );
        assert_eq!(
            sockets.quiet_since(),
            Some(later),
            "an unknown socket changes nothing"
        );
    }

    #[test]
    fn the_seats_sockets_come_before_the_watchers_each_with_its_seat() {
        let mut sockets = Sockets::new(crate::table::test_moment());
        sockets.add_watcher(2);
        sockets.add_seat(9, Seat::new(1));
        sockets.add_seat(4, Seat::new(0));
        let viewers: Vec<_> = sockets.viewers().collect();
        assert_eq!(
            viewers,
            vec![(4, Some(Seat::new(0))), (9, Some(Seat::new(1))), (2, None)]
        );
        assert_eq!(sockets.everyone().collect::<Vec<_>>(), vec![4, 9, 2]);
        assert_eq!(sockets.seat_of(9), Some(Seat::new(1)));
        assert!(sockets.is_watcher(2) && !sockets.is_watcher(9));
        assert_eq!(sockets.watching(), 1);
        assert_eq!(sockets.of_seat(Seat::new(1)), 1);
        sockets.add_seat(5, Seat::new(1));
        assert_eq!(sockets.of_seat(Seat::new(1)), 2);
        assert_eq!(sockets.of_seat(Seat::new(2)), 0);
    }
}
