//! What a fair deal costs the table, measured by `chaikhana fair-cost`: committing to the coming deal's
//! order, dealing the players' shuffle of it, and writing each seat's reveal at the end.

use std::time::{Duration, Instant};

use super::seal::{deal_fair, RevealTo};
use super::shuffle::Shuffle;
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::{DealSetup, Game};

/// Mean times per deal of `G` over `deals` deals: commit, deal, and every seat's reveal together.
pub struct FairCost {
    pub game: &'static str,
    pub commit: Duration,
    pub deal: Duration,
    pub reveals: Duration,
}

/// Times `deals` fair deals of `G`, each with a fresh secret and a number from every seat.
pub fn fair_cost<G: Game>(deals: u32) -> FairCost {
    let (mut commit, mut deal, mut reveals) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for index in 0..deals {
        let setup = DealSetup {
            index,
            first: Seat::new(0),
        };
        let started = Instant::now();
        let mut shuffle = Shuffle::new::<G>(setup, u64::from(index), &mut rand::rngs::OsRng);
        commit += started.elapsed();
        let commitment = shuffle.commitment().to_string();
        let numbers: Vec<String> = Seat::all(G::SEATS)
            .map(|seat| format!("{:032x}", u128::from(index) * 7919 + seat.index() as u128))
            .collect();
        for (seat, number) in Seat::all(G::SEATS).zip(&numbers) {
            shuffle
                .pledge(seat, &commitment, &super::shuffle::pledge_of(number))
                .expect("a well-formed pledge");
        }
        shuffle.close();
        for (seat, number) in Seat::all(G::SEATS).zip(&numbers) {
            shuffle
                .contribute(seat, &commitment, number)
                .expect("the number pledged");
        }
        let started = Instant::now();
        let (state, _, seal) = deal_fair::<G>(&setup, &shuffle.into_record());
        deal += started.elapsed();
        let started = Instant::now();
        for viewer in Seat::all(G::SEATS) {
            let seen = G::seen_at_end(&state, Some(viewer));
            let shown = seal.shown(Some(RevealTo {
                viewer: Some(viewer),
                seen: Some(&seen),
            }));
            std::hint::black_box(serde_json::to_vec(&shown).expect("a reveal serializes"));
        }
        reveals += started.elapsed();
    }
    let n = deals.max(1);
    FairCost {
        game: G::NAME,
        commit: commit / n,
        deal: deal / n,
        reveals: reveals / n,
    }
}
