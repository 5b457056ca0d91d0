//! Who sits at the table and which sockets are theirs: a friend taking a free seat, a socket showing
//! its seat's token, a socket going. A seat is its token's for the table's whole life (see `away`).

use std::time::Instant;

use super::super::seats::{Occupant, TableKind};
use super::super::{TableRefusal, TokenHash};
use super::{TableCore, Then};
use crate::table::ConnId;
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;

impl<G: Game> TableCore<G> {
    /// A friend takes the first free seat with the token of hash `key`. The seat is theirs once it is
    /// stored (so that a new owner knows its token): the core then says [`super::Effect::Seated`].
    pub fn join(
        &mut self,
        key: TokenHash,
        agreed_hints: bool,
        now: Instant,
    ) -> Result<Seat, TableRefusal> {
        if self.kind == TableKind::Computer {
            return Err(self.full());
        }
        self.check_agreement(agreed_hints)?;
        if self.paused() || self.sleeping {
            return Err(TableRefusal::unavailable());
        }
        let Some(seat) =
            Seat::all(G::SEATS).find(|s| matches!(self.seats[s.index()], Occupant::Free))
        else {
            return Err(self.full());
        };
        self.seats[seat.index()] = Occupant::person(key, now);
        self.last_activity = now;
        self.commit(Then::Seated(seat));
        Ok(seat)
    }

    /// Why a person cannot join: every seat is taken, and perhaps the match is over too.
    fn full(&self) -> TableRefusal {
        if self.status() == super::Status::MatchOver {
            TableRefusal::match_over()
        } else {
            TableRefusal::full()
        }
    }

    /// Which seat the token of hash `key` holds, if it may open one more socket.
    pub fn check_token(&self, key: &TokenHash) -> Result<Seat, TableRefusal> {
        let seat = self.seat_of(key).ok_or_else(|| {
            if self.notes.was_given_away(key) {
                TableRefusal::seat_given_away()
            } else {
                TableRefusal::wrong_token()
            }
        })?;
        self.room_for_a_socket(seat)?;
        Ok(seat)
    }

    /// A socket for the seat the token of hash `key` holds: it is sent its view, and everyone hears
    /// who is connected.
    pub fn attach(
        &mut self,
        conn: ConnId,
        key: &TokenHash,
        now: Instant,
    ) -> Result<Seat, TableRefusal> {
        let seat = self.check_token(key)?;
        // Its first frame would show a change not yet stored; a table storing itself to sleep takes
        // no socket (the page tries again, and wakes it).
        if self.paused() || self.sleeping {
            return Err(TableRefusal::unavailable());
        }
        if let Occupant::Person {
            gone_since,
            attached_before,
            ..
        } = &mut self.seats[seat.index()]
        {
            if *attached_before {
                self.counts.push(super::Count::Reconnect);
            }
            *attached_before = true;
            *gone_since = None;
        }
        self.sockets.add_seat(conn, seat);
        self.last_activity = now;
        self.notes.set_offerable(seat, false);
        self.send_whole_view(conn, Some(seat));
        self.broadcast_seats();
        Ok(seat)
    }

    /// A socket has gone (a seat's or a watcher's).
    pub fn detach(&mut self, conn: ConnId, now: Instant) {
        let voice_went = self.voice_socket_gone(conn);
        let watcher_went = self.sockets.is_watcher(conn);
        if self.forget_socket(conn, now).is_some() || voice_went || watcher_went {
            self.broadcast_seats();
        }
    }

    /// Refuses one more socket for a seat that holds as many as it may.
    fn room_for_a_socket(&self, seat: Seat) -> Result<(), TableRefusal> {
        if self.sockets.of_seat(seat) >= self.policy.sockets_per_seat {
            return Err(TableRefusal::too_many_sockets());
        }
        Ok(())
    }
}
