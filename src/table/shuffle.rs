//! The coming deal: the table has chosen its secret order of the pack and committed to it (see
//! `table::seal`), and takes one random number from each person's page, sent with the commitment it
//! answers. A contribution is 32 lowercase hex digits (16 bytes from the browser's WebCrypto), at most
//! one per seat and deal. The deal is then dealt from the players' shuffle of the committed order.
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use rand::RngCore;

use super::seal::{Committed, FairRecord};
use crate::cards::Seat;
use crate::game::{DealSetup, Game};

/// Hex digits of a contribution.
pub const CONTRIBUTION_DIGITS: usize = 32;

/// Why a contribution was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// It answers another commitment than the one of the coming deal (a deal already dealt).
    OtherDeal,
    /// This seat's number for the coming deal is already in.
    AlreadyIn,
    /// It is not 32 lowercase hex digits.
    Malformed,
}

/// The coming deal's shuffle: the table's secret, its commitment, and what each seat has added so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shuffle {
    secret: String,
    setup: DealSetup,
    commitment: String,
    contributions: Vec<Option<String>>,
}

impl Shuffle {
    /// A fresh secret for a deal of `setup`, drawn from `rng` (the table's, seeded from the operating
    /// system), with nothing added yet.
    pub fn new<G: Game>(setup: DealSetup, rng: &mut impl RngCore) -> Shuffle {
        let mut bytes = [0u8; 32];
        rng.fill_bytes(&mut bytes);
        Shuffle::with_secret::<G>(hex::encode(bytes), setup)
    }

    /// The shuffle of a kept `secret` (a rebuilt table commits to what it committed to before).
    pub fn with_secret<G: Game>(secret: String, setup: DealSetup) -> Shuffle {
        Shuffle {
            commitment: Committed::new::<G>(&secret, &setup)
                .commitment()
                .to_string(),
            secret,
            setup,
            contributions: vec![None; G::SEATS],
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

    /// The secret, for the table's snapshot only.
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// Which seats have added their number.
    pub fn contributed(&self) -> Vec<bool> {
        self.contributions.iter().map(Option::is_some).collect()
    }

    /// Takes `seat`'s number `value`, sent in answer to `commitment`.
    pub fn contribute(&mut self, seat: Seat, commitment: &str, value: &str) -> Result<(), Refused> {
        if commitment != self.commitment {
            return Err(Refused::OtherDeal);
        }
        let well_formed = value.len() == CONTRIBUTION_DIGITS
            && value
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if !well_formed {
            return Err(Refused::Malformed);
        }
        let slot = self
            .contributions
            .get_mut(seat.index())
            .ok_or(Refused::OtherDeal)?;
        if slot.is_some() {
            return Err(Refused::AlreadyIn);
        }
        *slot = Some(value.to_string());
        Ok(())
    }

    /// What the deal is dealt from, and kept.
    pub fn into_record(self) -> FairRecord {
        FairRecord {
            secret: self.secret,
            numbers: self.contributions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::panjpar::Panjpar;

    fn setup() -> DealSetup {
        DealSetup {
            index: 0,
            first: Seat::new(0),
        }
    }

    #[test]
    fn a_seat_adds_one_well_formed_number_to_the_coming_deal() {
        let mut shuffle = Shuffle::new::<Panjpar>(setup(), &mut crate::cards::deal_rng(1));
        let commitment = shuffle.commitment().to_string();
        assert_eq!(commitment.len(), 64);
        assert!(!commitment.contains(&shuffle.secret));
        let number = "0f".repeat(16);
        assert_eq!(
            shuffle.contribute(Seat::new(0), "beef", &number),
            Err(Refused::OtherDeal)
        );
        for bad in ["0F".repeat(16), "0f".repeat(15), "zz".repeat(16)] {
            assert_eq!(
                shuffle.contribute(Seat::new(0), &commitment, &bad),
                Err(Refused::Malformed)
            );
        }
        assert_eq!(shuffle.contributed(), vec![false, false]);
        assert_eq!(
            shuffle.contribute(Seat::new(0), &commitment, &number),
            Ok(())
        );
        assert_eq!(
            shuffle.contribute(Seat::new(0), &commitment, &"1f".repeat(16)),
            Err(Refused::AlreadyIn)
        );
        assert_eq!(shuffle.contributed(), vec![true, false]);
        let secret = shuffle.secret.clone();
        let record = shuffle.into_record();
        assert_eq!(record.secret, secret);
        assert_eq!(record.numbers, vec![Some(number), None]);
    }

    #[test]
    fn every_table_secret_is_fresh_and_a_kept_one_commits_the_same() {
        let mut rng = crate::cards::deal_rng(2);
        let a = Shuffle::new::<Panjpar>(setup(), &mut rng);
        assert_ne!(
            a.commitment,
            Shuffle::new::<Panjpar>(setup(), &mut rng).commitment
        );
        let again = Shuffle::with_secret::<Panjpar>(a.secret.clone(), setup());
        assert_eq!(again.commitment, a.commitment);
        let other_deal = DealSetup {
            index: 1,
            ..setup()
        };
        assert_ne!(
            Shuffle::with_secret::<Panjpar>(a.secret.clone(), other_deal).commitment,
            a.commitment,
            "where the places go is committed to"
        );
    }
}
