//! What the table notes of each seat beside who sits in it: the name its person gave, whether they
//! asked for the next deal or the rematch, whether the seat has been away long enough to be offered to
//! someone else, and the tokens whose seats were given away (their holders are told so).

use crate::table::TokenHash;
use chaikhana_rules::cards::Seat;

#[derive(Debug)]
pub(super) struct SeatNotes {
    /// The names people gave their seats (kept in the snapshot).
    names: Vec<Option<String>>,
    /// The seats that asked for the next deal or the rematch, while the table waits for the rest.
    /// Not stored: after a move to another node, whoever had asked asks again.
    ready: Vec<bool>,
    /// The seats away long enough to be offered to someone else, as everyone was last told.
    offerable: Vec<bool>,
    /// The hashes of the tokens whose seats were offered to someone else (kept in the snapshot).
    given_away: Vec<TokenHash>,
}

impl SeatNotes {
    /// Nothing noted yet, for a table of `seats` seats.
    pub(super) fn new(seats: usize) -> SeatNotes {
        SeatNotes {
            names: vec![None; seats],
            ready: vec![false; seats],
            offerable: vec![false; seats],
            given_away: Vec::new(),
        }
    }

    /// What a snapshot kept: the names (as many as there are seats) and the seats given away.
    pub(super) fn restore(&mut self, names: Vec<Option<String>>, given_away: Vec<TokenHash>) {
        for (name, kept) in self.names.iter_mut().zip(names) {
            *name = kept;
        }
        self.given_away = given_away;
    }

    pub(super) fn names(&self) -> &[Option<String>] {
        &self.names
    }

    pub(super) fn name(&self, seat: Seat) -> Option<&String> {
        self.names[seat.index()].as_ref()
    }

    /// Gives `seat` the name `name`; true when it changed.
    pub(super) fn rename(&mut self, seat: Seat, name: Option<String>) -> bool {
        let slot = &mut self.names[seat.index()];
        let changed = *slot != name;
        *slot = name;
        changed
    }

    pub(super) fn is_ready(&self, seat: Seat) -> bool {
        self.ready[seat.index()]
    }

    /// `seat` asked for what comes next.
    pub(super) fn set_ready(&mut self, seat: Seat) {
        self.ready[seat.index()] = true;
    }

    /// What was asked for has started: nobody is waiting any more.
    pub(super) fn clear_ready(&mut self) {
        self.ready.fill(false);
    }

    pub(super) fn is_offerable(&self, seat: Seat) -> bool {
        self.offerable[seat.index()]
    }

    /// Notes whether `seat` may be offered; true when that changed.
    pub(super) fn set_offerable(&mut self, seat: Seat, offerable: bool) -> bool {
        let slot = &mut self.offerable[seat.index()];
        let changed = *slot != offerable;
        *slot = offerable;
        changed
    }

    /// `seat` was offered to someone else: `key` (its old holder's, if a person held it) is refused
    /// from now on, and what was noted of the seat goes.
    pub(super) fn give_away(&mut self, seat: Seat, key: Option<TokenHash>) {
        self.given_away.extend(key);
        let i = seat.index();
        self.ready[i] = false;
        self.names[i] = None;
        self.offerable[i] = false;
    }

    /// Whether the seat of the token `key` was given away.
    pub(super) fn was_given_away(&self, key: &TokenHash) -> bool {
        self.given_away.iter().any(|given| given.matches(key))
    }

    pub(super) fn given_away(&self) -> &[TokenHash] {
        &self.given_away
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Token;

    #[test]
    fn a_seat_given_away_loses_its_notes_and_its_old_token_is_known() {
        let (seat, other) = (Seat::new(1), Seat::new(0));
        let mut notes = SeatNotes::new(2);
        assert!(notes.rename(seat, Some("Leyla".into())));
        assert!(
            !notes.rename(seat, Some("Leyla".into())),
            "the same name again"
        );
        notes.set_ready(seat);
        notes.set_ready(other);
        assert!(notes.set_offerable(seat, true));
        assert!(!notes.set_offerable(seat, true));
        let old = Token::random().hash();
        notes.give_away(seat, Some(old.clone()));
        assert_eq!(notes.name(seat), None);
        assert!(!notes.is_ready(seat) && !notes.is_offerable(seat));
        assert!(notes.is_ready(other), "the other seat's notes stay");
        assert!(notes.was_given_away(&old));
        assert!(!notes.was_given_away(&Token::random().hash()));
        notes.clear_ready();
        assert!(!notes.is_ready(other));
    }

    #[test]
    fn a_snapshot_gives_back_the_names_and_the_seats_given_away() {
        let old = Token::random().hash();
        let mut notes = SeatNotes::new(2);
        notes.restore(
            vec![Some("Ali".into()), None, Some("extra".into())],
            vec![old.clone()],
        );
        assert_eq!(notes.names(), &[Some("Ali".to_string()), None]);
        assert_eq!(notes.given_away().len(), 1);
        assert!(notes.was_given_away(&old));
    }
}
