//! The coming deal: the table has chosen its secret order of the pack and committed to it (see
//! `table::seal`), naming the deal it is for (the table's count of deals dealt, from 0). Each
//! person's page then takes part in two steps, so that no input to the deal can be chosen after
//! another was seen:
//!
//! 1. **Pledge.** The page draws a number (32 lowercase hex digits, 16 bytes from the browser's
//!    WebCrypto) and sends only its hash, `SHA-256("chaikhana-pledge|" + number)` in hex, with the
//!    commitment it answers. Once every person's pledge is in (or the wait is over) the list is
//!    closed: from then on it is fixed, and every seat is shown it, a seat with no pledge (a
//!    computer, a page that did not answer) as none.
//! 2. **Number.** Only once a page has seen the closed list holding its pledge does it send its
//!    number, which must hash to its pledge.
//!
//! The deal is dealt from the players' shuffle of the committed order under every number given.
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use rand::RngCore;

use super::seal::{sha256_hex, Committed, FairRecord};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::{DealSetup, Game};

/// Hex digits of a contribution.
pub const CONTRIBUTION_DIGITS: usize = 32;

/// Hex digits of a pledge (a SHA-256).
pub const PLEDGE_DIGITS: usize = 64;

/// The pledge a number gives: the hex SHA-256 of `chaikhana-pledge|{number}`.
pub fn pledge_of(number: &str) -> String {
    sha256_hex(&format!("chaikhana-pledge|{number}"))
}

/// Why a pledge or a number was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// It answers another commitment than the one of the coming deal (a deal already dealt).
    OtherDeal,
    /// This seat's pledge or number for the coming deal is already in.
    AlreadyIn,
    /// It is not lowercase hex digits of the right length.
    Malformed,
    /// A pledge after the list was closed.
    Closed,
    /// A number before the list of pledges was closed.
    NotYet,
    /// A number from a seat that pledged none, or one that does not hash to its pledge.
    NotPledged,
}

/// Whether `text` is `digits` lowercase hex digits.
fn lowercase_hex(text: &str, digits: usize) -> bool {
    text.len() == digits && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The coming deal's shuffle: the table's secret, its commitment, and what each seat has added so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shuffle {
    secret: String,
    setup: DealSetup,
    /// Which of the table's deals it is for (none for a shuffle committed to before deals were named).
    deal: Option<u64>,
    commitment: String,
    pledges: Vec<Option<String>>,
    /// Whether the list of pledges is final.
    closed: bool,
    numbers: Vec<Option<String>>,
}

impl Shuffle {
    /// A fresh secret for the table's deal number `deal`, of `setup`, drawn from `rng` (the table's,
    /// seeded from the operating system), with nothing added yet.
    pub fn new<G: Game>(setup: DealSetup, deal: u64, rng: &mut impl RngCore) -> Shuffle {
        let mut bytes = [0u8; 32];
        rng.fill_bytes(&mut bytes);
        Shuffle::with_secret::<G>(hex::encode(bytes), setup, Some(deal))
    }

    /// The shuffle of a kept `secret` (a rebuilt table commits to what it committed to before).
    pub fn with_secret<G: Game>(secret: String, setup: DealSetup, deal: Option<u64>) -> Shuffle {
        Shuffle {
            commitment: Committed::new::<G>(&secret, &setup, deal)
                .commitment()
                .to_string(),
            secret,
            setup,
            deal,
            pledges: vec![None; G::SEATS],
            closed: false,
            numbers: vec![None; G::SEATS],
        }
    }

    /// What every seat is shown before the deal.
    pub fn commitment(&self) -> &str {
        &self.commitment
    }

    /// The deal it was committed for.
    pub fn setup(&self) -> DealSetup {
        self.setup
    }

    /// Which of the table's deals it is for.
    pub fn deal(&self) -> Option<u64> {
        self.deal
    }

    /// The secret, for the table's snapshot only.
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// Each seat's pledge so far.
    pub fn pledges(&self) -> &[Option<String>] {
        &self.pledges
    }

    /// Whether the list of pledges is final.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// Which seats have added their number.
    pub fn contributed(&self) -> Vec<bool> {
        self.numbers.iter().map(Option::is_some).collect()
    }

    /// Takes `seat`'s pledge `hash`, sent in answer to `commitment`; the same pledge again is taken
    /// as already in (a page that reconnected).
    pub fn pledge(&mut self, seat: Seat, commitment: &str, hash: &str) -> Result<(), Refused> {
        if commitment != self.commitment {
            return Err(Refused::OtherDeal);
        }
        if !lowercase_hex(hash, PLEDGE_DIGITS) {
            return Err(Refused::Malformed);
        }
        let slot = self
            .pledges
            .get_mut(seat.index())
            .ok_or(Refused::OtherDeal)?;
        match slot {
            Some(kept) if kept == hash => Ok(()),
            Some(_) => Err(Refused::AlreadyIn),
            None if self.closed => Err(Refused::Closed),
            None => {
                *slot = Some(hash.to_string());
                Ok(())
            }
        }
    }

    /// Fixes the list of pledges: a seat without one gives no number to this deal.
    pub fn close(&mut self) {
        self.closed = true;
    }

    /// Puts back the closed list of a rebuilt table (its numbers are sent again by the pages).
    pub fn restore_closed(&mut self, pledges: Vec<Option<String>>) {
        if pledges.len() == self.pledges.len() {
            self.pledges = pledges;
            self.closed = true;
        }
    }

    /// Takes `seat`'s number `value`, sent in answer to `commitment` once the pledges were closed.
    pub fn contribute(&mut self, seat: Seat, commitment: &str, value: &str) -> Result<(), Refused> {
        if commitment != self.commitment {
            return Err(Refused::OtherDeal);
        }
        if !lowercase_hex(value, CONTRIBUTION_DIGITS) {
            return Err(Refused::Malformed);
        }
        if !self.closed {
            return Err(Refused::NotYet);
        }
        let pledged = self.pledges.get(seat.index()).cloned().flatten();
        if pledged.is_none_or(|hash| hash != pledge_of(value)) {
            return Err(Refused::NotPledged);
        }
        let slot = &mut self.numbers[seat.index()];
        if slot.is_some() {
            return Err(Refused::AlreadyIn);
        }
        *slot = Some(value.to_string());
        Ok(())
    }

    /// Whether every pledged number is in.
    pub fn complete(&self) -> bool {
        self.closed
            && self
                .pledges
                .iter()
                .zip(&self.numbers)
                .all(|(pledge, number)| pledge.is_none() || number.is_some())
    }

    /// What the deal is dealt from, and kept.
    pub fn into_record(self) -> FairRecord {
        FairRecord {
            secret: self.secret,
            numbers: self.numbers,
            deal: self.deal,
            pledges: if self.closed {
                Some(self.pledges)
            } else {
                None
            },
            open_draws: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaikhana_rules::games::panjpar::Panjpar;

    fn setup() -> DealSetup {
        DealSetup {
            index: 0,
            first: Seat::new(0),
        }
    }

    #[test]
    fn a_seat_pledges_then_gives_the_number_it_pledged_once_the_list_is_closed() {
        let mut shuffle =
            Shuffle::new::<Panjpar>(setup(), 0, &mut chaikhana_rules::cards::deal_rng(1));
        let commitment = shuffle.commitment().to_string();
        assert_eq!(commitment.len(), 64);
        assert!(!commitment.contains(&shuffle.secret));
        let number = "0f".repeat(16);
        let pledge = pledge_of(&number);
        assert_eq!(
            shuffle.pledge(Seat::new(0), "beef", &pledge),
            Err(Refused::OtherDeal)
        );
        for bad in [pledge.to_uppercase(), "0f".repeat(31), number.clone()] {
            assert_eq!(
                shuffle.pledge(Seat::new(0), &commitment, &bad),
                Err(Refused::Malformed)
            );
        }
        // A number before the list is closed is refused, pledged or not.
        assert_eq!(
            shuffle.contribute(Seat::new(0), &commitment, &number),
            Err(Refused::NotYet)
        );
        assert_eq!(shuffle.pledge(Seat::new(0), &commitment, &pledge), Ok(()));
        assert_eq!(shuffle.pledge(Seat::new(0), &commitment, &pledge), Ok(()));
        assert_eq!(
            shuffle.pledge(Seat::new(0), &commitment, &pledge_of(&"1f".repeat(16))),
            Err(Refused::AlreadyIn),
            "a pledge once in is never replaced"
        );
        assert!(!shuffle.complete());
        shuffle.close();
        assert_eq!(
            shuffle.pledge(Seat::new(1), &commitment, &pledge_of(&"2f".repeat(16))),
            Err(Refused::Closed),
            "nothing is pledged once the list is shown"
        );
        for bad in ["0F".repeat(16), "0f".repeat(15), "zz".repeat(16)] {
            assert_eq!(
                shuffle.contribute(Seat::new(0), &commitment, &bad),
                Err(Refused::Malformed)
            );
        }
        assert_eq!(
            shuffle.contribute(Seat::new(0), &commitment, &"1f".repeat(16)),
            Err(Refused::NotPledged),
            "a number that is not the one pledged"
        );
        assert_eq!(
            shuffle.contribute(Seat::new(1), &commitment, &"1f".repeat(16)),
            Err(Refused::NotPledged),
            "a seat that pledged none gives none"
        );
        assert_eq!(shuffle.contributed(), vec![false, false]);
        assert_eq!(
            shuffle.contribute(Seat::new(0), &commitment, &number),
            Ok(())
        );
        assert_eq!(
            shuffle.contribute(Seat::new(0), &commitment, &number),
            Err(Refused::AlreadyIn)
        );
        assert!(shuffle.complete());
        assert_eq!(shuffle.contributed(), vec![true, false]);
        let secret = shuffle.secret.clone();
        let record = shuffle.into_record();
        assert_eq!(record.secret, secret);
        assert_eq!(record.numbers, vec![Some(number), None]);
        assert_eq!(record.pledges, Some(vec![Some(pledge), None]));
        assert_eq!(record.deal, Some(0));
    }

    #[test]
    fn every_table_secret_is_fresh_and_a_kept_one_commits_the_same() {
        let mut rng = chaikhana_rules::cards::deal_rng(2);
        let a = Shuffle::new::<Panjpar>(setup(), 3, &mut rng);
        assert_ne!(
            a.commitment,
            Shuffle::new::<Panjpar>(setup(), 3, &mut rng).commitment
        );
        let again = Shuffle::with_secret::<Panjpar>(a.secret.clone(), setup(), Some(3));
        assert_eq!(again.commitment, a.commitment);
        let other_deal = DealSetup {
            index: 1,
            ..setup()
        };
        assert_ne!(
            Shuffle::with_secret::<Panjpar>(a.secret.clone(), other_deal, Some(3)).commitment,
            a.commitment,
            "where the places go is committed to"
        );
        assert_ne!(
            Shuffle::with_secret::<Panjpar>(a.secret.clone(), setup(), Some(4)).commitment,
            a.commitment,
            "the deal it is for is committed to"
        );
    }
}
