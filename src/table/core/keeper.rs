//! The table's side of its store: whether its changes go to one, what the store holds of it, the change
//! on its way there, and the pause while the store is out of reach. `storing` decides when to store
//! and what to do once stored; this part keeps the state those decisions read, and nothing else.

use std::time::Instant;

use super::keeping::LastStored;
use super::Then;

#[derive(Debug)]
pub(super) struct Keeper {
    /// Whether changes go to a store before anyone hears of them (several nodes).
    keeps: bool,
    /// What the store holds of the table, when known to be the table as it was then.
    held: Option<LastStored>,
    /// The change being stored: what to do once it is in, what the store will then hold, and whether
    /// it is the whole snapshot.
    on_its_way: Option<(Then, LastStored, bool)>,
    /// A change the store has not taken: what to do once it does.
    unstored: Option<Then>,
    /// Since when the table has been waiting for its store: it is paused while this is set.
    paused_since: Option<Instant>,
}

impl Keeper {
    /// A table that stores its changes (`keeps`), or one that does not; the store holds nothing of it
    /// yet as far as it knows.
    pub(super) fn new(keeps: bool) -> Keeper {
        Keeper {
            keeps,
            held: None,
            on_its_way: None,
            unstored: None,
            paused_since: None,
        }
    }

    pub(super) fn keeps(&self) -> bool {
        self.keeps
    }

    /// What the store holds of the table, when known.
    pub(super) fn held(&self) -> Option<&LastStored> {
        self.held.as_ref()
    }

    /// The store now holds `mark` (the tests stand in for the store this way).
    #[cfg(test)]
    pub(super) fn holds(&mut self, mark: LastStored) {
        self.held = Some(mark);
    }

    /// What the store holds is unknown (it may have lost it): the next change goes whole.
    pub(super) fn forget_held(&mut self) {
        self.held = None;
    }

    /// A change leaves for the store, which will then hold `mark`; `then` runs once it is in.
    pub(super) fn send(&mut self, then: Then, mark: LastStored, whole: bool) {
        self.on_its_way = Some((then, mark, whole));
    }

    /// Whether a change is on its way to the store.
    pub(super) fn is_storing(&self) -> bool {
        self.on_its_way.is_some()
    }

    /// What is to run once the store has the change on its way, or the one it could not take.
    pub(super) fn waiting(&self) -> impl Iterator<Item = &Then> {
        let on_its_way = self.on_its_way.as_ref().map(|(then, _, _)| then);
        on_its_way.into_iter().chain(self.unstored.as_ref())
    }

    /// The store answered the change on its way, `stored` or not: what was to run once it was in, and
    /// whether it was whole. What the store holds is known only if it stored it.
    pub(super) fn answered(&mut self, stored: bool) -> Option<(Then, bool)> {
        let (then, mark, whole) = self.on_its_way.take()?;
        self.held = stored.then_some(mark);
        Some((then, whole))
    }

    /// The store could not take a change: `then` waits for the retry. True when this begins the
    /// pause (at `now`), false while it goes on.
    pub(super) fn pause(&mut self, then: Then, now: Instant) -> bool {
        self.unstored = Some(then);
        let begins = self.paused_since.is_none();
        if begins {
            self.paused_since = Some(now);
        }
        begins
    }

    /// The change that waited for the store, to try again whole.
    pub(super) fn retry(&mut self) -> Option<Then> {
        let then = self.unstored.take()?;
        self.held = None;
        Some(then)
    }

    /// Play resumes: since when it had paused, if it had.
    pub(super) fn resume(&mut self) -> Option<Instant> {
        self.paused_since.take()
    }

    /// Whether the table waits for its store.
    pub(super) fn paused(&self) -> bool {
        self.paused_since.is_some()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::tests::open;
    use super::*;
    use crate::table::{Level, TableKind, Token};
    use chaikhana_rules::games::panjpar::Panjpar;
    use chaikhana_rules::matches::MatchLength;

    /// What the store would hold of a new table.
    fn mark() -> LastStored {
        let length = MatchLength::DealsWon(1);
        let creator = Token::random().hash();
        let table = open::<Panjpar>(TableKind::Friends, length, Level::Standard, creator);
        table.change_to_store().unwrap().1
    }

    #[test]
    fn a_change_is_held_once_stored_and_unknown_once_refused() {
        let mut keeper = Keeper::new(true);
        assert!(keeper.keeps() && keeper.held().is_none() && !keeper.is_storing());
        let sent = mark();
        keeper.send(Then::Show, sent.clone(), true);
        assert!(keeper.is_storing());
        assert!(matches!(keeper.answered(true), Some((Then::Show, true))));
        assert_eq!(keeper.held(), Some(&sent));
        assert!(keeper.answered(true).is_none(), "one answer per change");
        keeper.send(Then::Broadcast, mark(), false);
        assert!(matches!(
            keeper.answered(false),
            Some((Then::Broadcast, false))
        ));
        assert!(keeper.held().is_none());
        keeper.holds(mark());
        keeper.forget_held();
        assert!(keeper.held().is_none());
    }

    #[test]
    fn a_pause_begins_once_and_its_change_waits_for_the_retry() {
        let start = crate::table::test_moment();
        let mut keeper = Keeper::new(true);
        keeper.holds(mark());
        assert!(keeper.pause(Then::Show, start));
        assert!(!keeper.pause(Then::Show, start + Duration::from_secs(1)));
        assert!(keeper.paused());
        assert!(matches!(keeper.retry(), Some(Then::Show)));
        assert!(keeper.held().is_none(), "the retry sends the whole table");
        assert!(keeper.retry().is_none());
        assert_eq!(keeper.resume(), Some(start));
        assert!(!keeper.paused() && keeper.resume().is_none());
    }
}
