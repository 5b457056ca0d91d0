//! Shared randomness for each deal's shuffle: the table commits to a secret of its own before anyone
//! adds to it, every person at the table adds a random number from their browser, and the deal's seed
//! is worked out from all of them. Nobody alone chooses the seed: not the server, which committed to
//! its secret before it saw any number, and not a player, who never sees the secret before the deal.
//!
//! - The table's secret is 32 random bytes from the operating system, as 64 lowercase hex digits.
//!   Its commitment is the lowercase hex SHA-256 of those 64 characters.
//! - A contribution is 32 lowercase hex digits (16 bytes from the browser's WebCrypto), sent with the
//!   commitment it answers, at most one per seat and deal.
//! - The seed is the first 8 bytes, read big-endian, of the SHA-256 of
//!   `chaikhana-shuffle|{secret}|{c0},{c1},...` where `ci` is seat i's contribution, or empty for a
//!   seat that gave none (a computer, a page that did not answer in time).
//!
//! ```
//! use chaikhana::table::seed_from;
//! let secret = "00".repeat(32);
//! let seed = seed_from(&secret, &[Some("11".repeat(16)), None]);
//! // The same as: printf 'chaikhana-shuffle|%s|%s,' $secret $c0 | sha256sum | cut -c1-16
//! assert_eq!(format!("{seed:016x}"), "f8caff4df8df3b73");
//! ```

use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::cards::Seat;

/// Hex digits of a contribution.
pub const CONTRIBUTION_DIGITS: usize = 32;

/// The lowercase hex SHA-256 of `text`.
pub(super) fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The seed the table's `secret` and the seats' contributions give (see the module's documentation).
pub fn seed_from(secret: &str, contributions: &[Option<String>]) -> u64 {
    let joined: Vec<&str> = contributions
        .iter()
        .map(|c| c.as_deref().unwrap_or(""))
        .collect();
    let digest =
        Sha256::digest(format!("chaikhana-shuffle|{secret}|{}", joined.join(",")).as_bytes());
    u64::from_be_bytes(digest[..8].try_into().expect("a SHA-256 has 32 bytes"))
}

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

/// The coming deal's shuffle: the table's secret and what each seat has added so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shuffle {
    secret: String,
    commitment: String,
    contributions: Vec<Option<String>>,
}

impl Shuffle {
    /// A fresh secret for a table of `seats`, with nothing added yet.
    pub fn new(seats: usize) -> Shuffle {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        let secret = hex::encode(bytes);
        Shuffle {
            commitment: sha256_hex(&secret),
            secret,
            contributions: vec![None; seats],
        }
    }

    /// What every seat is shown before the deal: the SHA-256 of the secret.
    pub fn commitment(&self) -> &str {
        &self.commitment
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

    /// The seed of the deal, and what the table keeps of its shuffle to show once the deal has ended.
    pub fn seal(self) -> (u64, ShuffleRecord) {
        let seed = seed_from(&self.secret, &self.contributions);
        let record = ShuffleRecord {
            commitment: self.commitment,
            secret: self.secret,
            contributions: self.contributions,
        };
        (seed, record)
    }
}

/// A dealt deal's shuffle: shown to every seat once the deal has ended, so that each page can check
/// that the seed came from the secret committed to before and from its own number.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShuffleRecord {
    pub commitment: String,
    pub secret: String,
    pub contributions: Vec<Option<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_changes_when_any_one_number_changes() {
        let secret = "ab".repeat(32);
        let numbers = vec![Some("01".repeat(16)), Some("02".repeat(16)), None];
        let seed = seed_from(&secret, &numbers);
        for seat in 0..numbers.len() {
            let mut changed = numbers.clone();
            changed[seat] = Some("03".repeat(16));
            assert_ne!(seed_from(&secret, &changed), seed, "seat {seat}");
        }
        let mut dropped = numbers.clone();
        dropped[0] = None;
        assert_ne!(seed_from(&secret, &dropped), seed);
        assert_ne!(seed_from(&"ac".repeat(32), &numbers), seed);
        assert_eq!(seed_from(&secret, &numbers), seed);
    }

    #[test]
    fn a_seat_adds_one_well_formed_number_to_the_coming_deal() {
        let mut shuffle = Shuffle::new(2);
        assert_eq!(shuffle.commitment(), sha256_hex(&shuffle.secret));
        let commitment = shuffle.commitment().to_string();
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
        let (seed, record) = shuffle.seal();
        assert_eq!(seed, seed_from(&secret, &[Some(number), None]));
        assert_eq!(record.commitment, commitment);
        assert_eq!(record.secret, secret);
    }

    #[test]
    fn every_table_secret_is_fresh() {
        assert_ne!(Shuffle::new(2).commitment, Shuffle::new(2).commitment);
    }
}
