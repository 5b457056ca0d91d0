//! A table is a place that waits. A seat belongs to its token for the table's whole life: a person
//! who goes away is shown as away, for how long, and the table waits for them. What the table's clock
//! does instead of giving seats up:
//!
//! - a seat away for `offer_after` becomes *offerable*: the others at a friends table may offer it to
//!   whoever opens the link next (its old token then stops working, and says why), or at two seats
//!   end the match;
//! - a table nobody has been connected to for `sleep_after` stores itself whole and stops: it
//!   *sleeps*, its record in the store, until the next seat or watcher wakes it;
//! - a table with no activity for its expiry (by kind, or a finished match's) closes for good.

use std::time::{Duration, Instant};

use super::super::seats::{Occupant, TableKind};
use super::super::{RefusalCode, TableRefusal};
use super::{Closing, Effect, Gone, Hangup, Status, TableCore, Then};
use crate::table::ConnId;
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;

impl<G: Game> TableCore<G> {
    /// How long the table lives after its last activity, as it stands: a finished match a day (by
    /// default), otherwise by kind.
    pub fn keep_for(&self) -> Duration {
        let expiry = &self.policy.expiry;
        match (self.status(), self.kind) {
            (Status::MatchOver, _) => expiry.finished,
            (_, TableKind::Friends) => expiry.friends,
            (_, TableKind::Computer) => expiry.computer,
        }
    }

    /// The table's clock, called every [`TableCore::tick_every`].
    pub fn tick(&mut self, now: Instant) {
        if self.paused() || self.sleeping || self.keeper.is_storing() {
            return;
        }
        if now.saturating_duration_since(self.last_activity) >= self.keep_for() {
            tracing::info!(table = %self.id, "the table expires");
            return self.close_for_good(Gone::Expired);
        }
        self.mark_offerable(now);
        let quiet = self
            .sockets
            .quiet_since()
            .is_some_and(|since| now.saturating_duration_since(since) >= self.policy.sleep_after);
        if quiet && self.keeper.keeps() {
            // The whole table goes to the store; the store's answer stops it (see `slept`).
            self.sleeping = true;
            self.effects.push(Effect::HandOver(self.whole()));
        }
    }

    /// Tells everyone when a seat has been away long enough to be offered.
    fn mark_offerable(&mut self, now: Instant) {
        let mut changed = false;
        for seat in Seat::all(G::SEATS) {
            let i = seat.index();
            let offerable = self.kind == TableKind::Friends
                && self.seats[i].away_since().is_some_and(|since| {
                    now.saturating_duration_since(since) >= self.policy.offer_after
                });
            changed |= self.notes.set_offerable(seat, offerable);
        }
        if changed {
            self.broadcast_seats();
        }
    }

    /// The store's answer to the table storing itself to sleep: stored, it stops; otherwise it stays
    /// awake and tries again at a later tick.
    pub(super) fn slept(&mut self, stored: bool) {
        self.sleeping = false;
        if stored {
            tracing::debug!(table = %self.id, "the table sleeps");
            self.stop(Closing::Asleep);
        }
    }

    /// Closes the table for good: every socket hears why, and the table stops.
    fn close_for_good(&mut self, gone: Gone) {
        self.count(super::Count::Closed(gone));
        let everyone: Vec<ConnId> = self.sockets.everyone().collect();
        for conn in everyone {
            self.effects.push(Effect::Close(conn, Hangup::Gone(gone)));
        }
        self.stop(Closing::Closed(gone));
    }

    /// Why `seat` may not be offered or the match ended on its account now, if it may not.
    fn not_offerable(&self, asking: Seat, seat: Seat) -> Option<&'static str> {
        if self.kind != TableKind::Friends {
            return Some("Only a seat at a friends table can be offered to someone else.");
        }
        if seat == asking {
            return Some("That is your own seat.");
        }
        match self.seats.get(seat.index()) {
            Some(Occupant::Person { .. }) if self.notes.is_offerable(seat) => None,
            Some(Occupant::Person { gone_since: None, .. }) => {
                Some("That player is at the table.")
            }
            Some(Occupant::Person { .. }) => Some(
                "That player has not been away long enough yet; the seat can be offered after a while.",
            ),
            _ => Some("Nobody holds that seat."),
        }
    }

    /// `asking` offers the away seat `seat` to whoever opens the link next: the seat is free again
    /// (its match score stays with it), and its old token is refused from now on with a sentence
    /// saying why.
    pub(super) fn offer_seat(&mut self, conn: ConnId, asking: Seat, seat: Seat) {
        if let Some(why) = self.not_offerable(asking, seat) {
            let refusal = TableRefusal::new(RefusalCode::WrongMoment, why);
            return self.refuse(conn, asking, refusal, None);
        }
        let key = match &self.seats[seat.index()] {
            Occupant::Person { key, .. } => Some(key.clone()),
            _ => None,
        };
        tracing::info!(table = %self.id, seat = seat.index(), "an away seat is offered to someone else");
        self.seats[seat.index()] = Occupant::Free;
        self.notes.give_away(seat, key);
        self.commit(Then::Broadcast);
    }

    /// `asking` ends the match, the other seat of a two-seat friends table being away long enough.
    pub(super) fn end_match(&mut self, conn: ConnId, asking: Seat, version: u64) {
        if version != self.version {
            let refusal = TableRefusal::new(
                RefusalCode::StaleVersion,
                "The table has changed since; look again before ending the match.",
            );
            return self.refuse(conn, asking, refusal, None);
        }
        let other = Seat::all(G::SEATS).find(|s| *s != asking);
        let why = match other {
            _ if G::SEATS != 2 => Some("Only a two-player match can be ended this way."),
            Some(other) => self.not_offerable(asking, other),
            None => Some("Nobody else is at this table."),
        };
        if let Some(why) = why {
            let refusal = TableRefusal::new(RefusalCode::WrongMoment, why);
            return self.refuse(conn, asking, refusal, None);
        }
        tracing::info!(table = %self.id, "a player ends the match while the other is away");
        self.close_for_good(Gone::Ended);
    }
}
