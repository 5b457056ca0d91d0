//! The table's dealer: the sealed order of the deal in play, the coming deal's shuffle (committed to
//! before any number is asked for, named by the table's count of deals, then pledged to and added to
//! by each seat's page) and the wait for those pledges and numbers. `flow` decides when to deal and
//! what to tell whom; this part keeps the state those decisions read, and deals.
//!
//! A deal is committed to once: the shuffle committed to while a deal is played serves the next deal
//! whether the match goes on or a rematch follows (a rematch's first deal keeps the rotation, so its
//! places go where the committed ones do).

use std::sync::Arc;

use rand::RngCore;

use crate::table::{deal_fair, DealSeal, FairRecord, Shuffle};
use chaikhana_rules::game::{DealSetup, Game};

pub(super) struct Dealer {
    /// The sealed order of the deal in play (shared with the views that show it).
    seal: Option<Arc<DealSeal>>,
    /// The coming deal's shuffle.
    coming: Shuffle,
    /// While the coming deal waits for the seats' pledges or numbers: the wait's number, which its
    /// timer names.
    wait: Option<u64>,
    /// How many waits there have been.
    waits: u64,
}

/// Whether a shuffle committed for `committed` sends its places where a deal of `setup` sends them.
fn same_places<G: Game>(committed: DealSetup, setup: DealSetup) -> bool {
    committed.rotating_seat(G::SEATS) == setup.rotating_seat(G::SEATS)
}

impl Dealer {
    /// A dealer with no deal in play, committed to `coming`.
    pub(super) fn new(coming: Shuffle) -> Dealer {
        Dealer {
            seal: None,
            coming,
            wait: None,
            waits: 0,
        }
    }

    /// The sealed order of the deal in play.
    pub(super) fn seal(&self) -> Option<&Arc<DealSeal>> {
        self.seal.as_ref()
    }

    /// Puts back the seal of a deal rebuilt from its record.
    pub(super) fn restore_seal(&mut self, seal: Option<DealSeal>) {
        self.seal = seal.map(Arc::new);
    }

    /// The coming deal's shuffle.
    pub(super) fn coming(&self) -> &Shuffle {
        &self.coming
    }

    /// The table's number for the deal after the coming one.
    fn after_coming(&self) -> u64 {
        self.coming.deal().map_or(0, |deal| deal + 1)
    }

    /// Commits afresh to a deal of `setup`, under a new number: the pages that answered the shuffle
    /// before see that it was never dealt.
    pub(super) fn commit_to<G: Game>(&mut self, setup: DealSetup, rng: &mut impl RngCore) {
        self.coming = Shuffle::new::<G>(setup, self.after_coming(), rng);
    }

    /// Commits afresh where the coming shuffle sends its places elsewhere than a deal of `setup`
    /// (only a table kept from before rematches kept the rotation); says whether it did.
    pub(super) fn commit_if_other<G: Game>(
        &mut self,
        setup: DealSetup,
        rng: &mut impl RngCore,
    ) -> bool {
        let other = !same_places::<G>(self.coming.setup(), setup);
        if other {
            self.commit_to::<G>(setup, rng);
        }
        other
    }

    /// Keeps the coming deal committed to as `coming` (a table rebuilt from its snapshot).
    pub(super) fn restore_coming(&mut self, coming: Shuffle) {
        self.coming = coming;
    }

    /// The coming deal's shuffle, to take a seat's pledge or number and close the pledges (its own
    /// rules say what it takes).
    pub(super) fn coming_mut(&mut self) -> &mut Shuffle {
        &mut self.coming
    }

    /// Begins a wait for the seats' pledges or numbers; its timer names the number it returns.
    pub(super) fn begin_wait(&mut self) -> u64 {
        self.waits += 1;
        self.wait = Some(self.waits);
        self.waits
    }

    /// Whether the coming deal is waiting for the seats' pledges or numbers.
    pub(super) fn waiting(&self) -> bool {
        self.wait.is_some()
    }

    /// Whether the wait numbered `wait` is still the one going on.
    pub(super) fn waits_from(&self, wait: u64) -> bool {
        self.wait == Some(wait)
    }

    /// Deals `setup` from the coming shuffle and commits to the deal after it, `next`; the wait ends.
    /// A coming shuffle whose places go elsewhere (a table kept from before rematches kept the
    /// rotation) gives way to a fresh one for `setup`.
    pub(super) fn deal<G: Game>(
        &mut self,
        setup: DealSetup,
        next: DealSetup,
        rng: &mut impl RngCore,
    ) -> (G::State, FairRecord) {
        self.wait = None;
        let number = self.after_coming();
        let coming = Shuffle::new::<G>(next, number, rng);
        let shuffle = std::mem::replace(&mut self.coming, coming);
        let fair = if same_places::<G>(shuffle.setup(), setup) {
            shuffle.into_record()
        } else {
            let fresh = Shuffle::new::<G>(setup, number, rng).into_record();
            self.coming = Shuffle::new::<G>(next, number + 1, rng);
            fresh
        };
        let (state, _, seal) = deal_fair::<G>(&setup, &fair);
        self.seal = Some(Arc::new(seal));
        (state, fair)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{pledge_of, ShuffleRefused};
    use chaikhana_rules::cards::Seat;
    use chaikhana_rules::games::panjpar::Panjpar;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    fn setup(index: u32) -> DealSetup {
        DealSetup {
            index,
            first: Seat::new(0),
        }
    }

    #[test]
    fn a_deal_is_dealt_from_the_shuffle_committed_to_and_the_next_one_committed_after_it() {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let mut dealer = Dealer::new(Shuffle::new::<Panjpar>(setup(0), 0, &mut rng));
        let committed = dealer.coming().commitment().to_string();
        let wait = dealer.begin_wait();
        assert!(dealer.waiting() && dealer.waits_from(wait) && !dealer.waits_from(wait + 1));
        let (_, fair) = dealer.deal::<Panjpar>(setup(0), setup(1), &mut rng);
        assert_eq!(dealer.seal().unwrap().commitment(), committed);
        assert_eq!(fair.numbers, vec![None, None]);
        assert_eq!(fair.deal, Some(0));
        assert!(!dealer.waiting());
        assert_eq!(dealer.coming().setup(), setup(1));
        assert_eq!(dealer.coming().deal(), Some(1), "the next deal's number");
        assert_ne!(dealer.coming().commitment(), committed);
    }

    #[test]
    fn a_rematch_keeping_the_rotation_is_dealt_from_the_shuffle_already_committed_to() {
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        // Committed to deal 3 of a match begun by seat 0 (seat 1 holds the role), the match ends
        // and the rematch begins with seat 1: the same places, the same commitment.
        let mut dealer = Dealer::new(Shuffle::new::<Panjpar>(setup(3), 7, &mut rng));
        let committed = dealer.coming().commitment().to_string();
        let rematch = DealSetup {
            index: 0,
            first: Seat::new(1),
        };
        assert!(!dealer.commit_if_other::<Panjpar>(rematch, &mut rng));
        dealer.deal::<Panjpar>(rematch, setup(1), &mut rng);
        assert_eq!(dealer.seal().unwrap().commitment(), committed);
        // Places that would go elsewhere are committed to afresh, under the next number.
        assert!(dealer.commit_if_other::<Panjpar>(setup(0), &mut rng));
        assert_eq!(dealer.coming().setup(), setup(0));
        assert_eq!(dealer.coming().deal(), Some(9));
    }

    #[test]
    fn a_number_for_the_coming_deal_is_taken_once_per_seat_after_its_pledge() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let mut dealer = Dealer::new(Shuffle::new::<Panjpar>(setup(0), 0, &mut rng));
        let commitment = dealer.coming().commitment().to_string();
        let value = "0123456789abcdef0123456789abcdef";
        let coming = dealer.coming_mut();
        assert!(coming
            .pledge(Seat::new(1), &commitment, &pledge_of(value))
            .is_ok());
        coming.close();
        assert!(coming.contribute(Seat::new(1), &commitment, value).is_ok());
        assert_eq!(
            coming.contribute(Seat::new(1), &commitment, value),
            Err(ShuffleRefused::AlreadyIn)
        );
        assert_eq!(dealer.coming().contributed(), vec![false, true]);
    }
}
