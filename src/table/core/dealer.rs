//! The table's dealer: the sealed order of the deal in play, the coming deal's shuffle (committed to
//! before any number is asked for, then added to by each seat's page) and the wait for those numbers.
//! `flow` decides when to deal and what to tell whom; this part keeps the state those decisions read,
//! and deals.

use std::sync::Arc;

use rand::RngCore;

use crate::cards::Seat;
use crate::game::{DealSetup, Game};
use crate::table::{deal_fair, DealSeal, FairRecord, Shuffle, ShuffleRefused};

pub(super) struct Dealer {
    /// The sealed order of the deal in play (shared with the views that show it).
    seal: Option<Arc<DealSeal>>,
    /// The coming deal's shuffle.
    coming: Shuffle,
    /// While the coming deal waits for the seats' numbers: the version it began waiting at, which its
    /// timer names.
    wait: Option<u64>,
}

impl Dealer {
    /// A dealer with no deal in play, committed to `coming`.
    pub(super) fn new(coming: Shuffle) -> Dealer {
        Dealer {
            seal: None,
            coming,
            wait: None,
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

    /// Commits afresh to the deal `setup`, forgetting the numbers given for the one before.
    pub(super) fn commit_to<G: Game>(&mut self, setup: DealSetup, rng: &mut impl RngCore) {
        self.coming = Shuffle::new::<G>(setup, rng);
    }

    /// Commits afresh where the coming shuffle is for another deal than `setup` (a rematch changes who
    /// deals first); says whether it did.
    pub(super) fn commit_if_other<G: Game>(
        &mut self,
        setup: DealSetup,
        rng: &mut impl RngCore,
    ) -> bool {
        let other = self.coming.setup() != setup;
        if other {
            self.commit_to::<G>(setup, rng);
        }
        other
    }

    /// Keeps the coming deal committed to as `coming` (a table rebuilt from its snapshot).
    pub(super) fn restore_coming(&mut self, coming: Shuffle) {
        self.coming = coming;
    }

    /// Takes a seat's number for the coming deal.
    pub(super) fn contribute(
        &mut self,
        seat: Seat,
        commitment: &str,
        value: &str,
    ) -> Result<(), ShuffleRefused> {
        self.coming.contribute(seat, commitment, value)
    }

    /// Begins waiting for the seats' numbers, at `version`.
    pub(super) fn wait_from(&mut self, version: u64) {
        self.wait = Some(version);
    }

    /// Whether the coming deal is waiting for the seats' numbers.
    pub(super) fn waiting(&self) -> bool {
        self.wait.is_some()
    }

    /// Whether the wait begun at `version` is still the one going on.
    pub(super) fn waits_from(&self, version: u64) -> bool {
        self.wait == Some(version)
    }

    /// Deals `setup` from the coming shuffle and commits to the deal after it, `next`; the wait ends.
    /// A coming shuffle committed to another deal (only at a table that deals without waiting for
    /// numbers, after a rematch) gives way to a fresh one for `setup`.
    pub(super) fn deal<G: Game>(
        &mut self,
        setup: DealSetup,
        next: DealSetup,
        rng: &mut impl RngCore,
    ) -> (G::State, FairRecord) {
        self.wait = None;
        let coming = Shuffle::new::<G>(next, rng);
        let shuffle = std::mem::replace(&mut self.coming, coming);
        let fair = if shuffle.setup() == setup {
            shuffle.into_record()
        } else {
            Shuffle::new::<G>(setup, rng).into_record()
        };
        let (state, _, seal) = deal_fair::<G>(&setup, &fair);
        self.seal = Some(Arc::new(seal));
        (state, fair)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::panjpar::Panjpar;
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
        let mut dealer = Dealer::new(Shuffle::new::<Panjpar>(setup(0), &mut rng));
        let committed = dealer.coming().commitment().to_string();
        dealer.wait_from(3);
        assert!(dealer.waiting() && dealer.waits_from(3) && !dealer.waits_from(2));
        let (_, fair) = dealer.deal::<Panjpar>(setup(0), setup(1), &mut rng);
        assert_eq!(dealer.seal().unwrap().commitment(), committed);
        assert_eq!(fair.numbers, vec![None, None]);
        assert!(!dealer.waiting());
        assert_eq!(dealer.coming().setup(), setup(1));
        assert_ne!(dealer.coming().commitment(), committed);
    }

    #[test]
    fn a_shuffle_for_another_deal_is_committed_to_afresh_and_not_dealt() {
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let mut dealer = Dealer::new(Shuffle::new::<Panjpar>(setup(4), &mut rng));
        let old = dealer.coming().commitment().to_string();
        assert!(!dealer.commit_if_other::<Panjpar>(setup(4), &mut rng));
        assert_eq!(dealer.coming().commitment(), old);
        dealer.deal::<Panjpar>(setup(0), setup(1), &mut rng);
        let dealt = dealer.seal().unwrap().commitment();
        assert_ne!(dealt, old, "a shuffle for deal 4 never deals deal 0");
        assert!(dealer.commit_if_other::<Panjpar>(setup(0), &mut rng));
        assert_eq!(dealer.coming().setup(), setup(0));
    }

    #[test]
    fn a_number_for_the_coming_deal_is_taken_once_per_seat() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let mut dealer = Dealer::new(Shuffle::new::<Panjpar>(setup(0), &mut rng));
        let commitment = dealer.coming().commitment().to_string();
        let value = "0123456789abcdef0123456789abcdef";
        assert!(dealer.contribute(Seat::new(1), &commitment, value).is_ok());
        assert_eq!(
            dealer.contribute(Seat::new(1), &commitment, value),
            Err(ShuffleRefused::AlreadyIn)
        );
        assert_eq!(dealer.coming().contributed(), vec![false, true]);
    }
}
