//! Verifiable deals: a table commits to each deal's shuffled order before anything is played, and shows
//! the order once the deal has ended, so that every seat can check the deal was not changed on the way.
//!
//! Each place of the order is committed to on its own, so that the end can show every card but those
//! that must stay secret (a Ganjifa talafa played face down, which no other seat may ever learn; a
//! card still face down in a stock):
//!
//! - place `i`'s salt is the first 32 hex digits of the SHA-256 of `{deal salt}|{i}` (the deal's salt
//!   is 32 random hex digits and is never shown, so a hidden place's salt cannot be worked out);
//! - place `i`'s leaf is the hex SHA-256 of `{i}|{card}|{to}|{place salt}`, `to` being the seat's
//!   number from 0, `trump` or `pile`;
//! - the commitment is the hex SHA-256 of every leaf, in order, joined by commas.
//!
//! Once the deal has ended, a seat is sent, for each place, the card, where it went and its salt, or for
//! a place it may not learn only its leaf. A seat learns its own cards' places, hidden or not.
//!
//! ```
//! use chaikhana::game::{DealOrder, DealtTo};
//! use chaikhana::cards::Seat;
//! use chaikhana::table::commitment;
//! let order = DealOrder::new(&["QS", "2H"], |i| DealtTo::Seat(Seat::new(i)));
//! // With the salt "00": salts s0, s1 from `printf '00|0' | sha256sum`, `printf '00|1' | sha256sum`
//! // (32 digits each), leaves from `printf '0|QS|0|%s' $s0 | sha256sum` and `printf '1|2H|1|%s' $s1`,
//! // the commitment from `printf '%s,%s' $leaf0 $leaf1 | sha256sum`.
//! assert_eq!(
//!     commitment(&order, "00"),
//!     "559bac1461dc1601fbac038f611482d88ca6a1ca06c367ee692f8bf31469e828"
//! );
//! ```

use rand::RngCore;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::shuffle::{seed_from, sha256_hex, ShuffleRecord};
use crate::cards::Seat;
use crate::game::{DealOrder, DealtTo};

/// A place's salt: the first 16 bytes of a SHA-256, written as 32 hex digits.
type PlaceSalt = [u8; 16];

/// Every place's salt, from the deal's, in order.
fn place_salts(order: &DealOrder, salt: &str) -> Vec<PlaceSalt> {
    (0..order.to.len())
        .map(|i| {
            let digest = Sha256::digest(format!("{salt}|{i}").as_bytes());
            digest[..16].try_into().expect("a SHA-256 has 32 bytes")
        })
        .collect()
}

/// How a place's destination is written in its leaf.
fn destination(to: &DealtTo) -> String {
    match to {
        DealtTo::Seat(seat) => seat.index().to_string(),
        DealtTo::Trump => "trump".into(),
        DealtTo::Pile => "pile".into(),
    }
}

fn leaf(i: usize, card: &str, to: &DealtTo, place_salt: &PlaceSalt) -> String {
    let salt = hex::encode(place_salt);
    sha256_hex(&format!("{i}|{card}|{}|{salt}", destination(to)))
}

/// The commitment to `order` with its places' salts, in lowercase hex.
fn commitment_of(order: &DealOrder, salts: &[PlaceSalt]) -> String {
    let leaves: Vec<String> = order
        .cards()
        .zip(&order.to)
        .zip(salts)
        .enumerate()
        .map(|(i, ((card, to), salt))| leaf(i, card, to, salt))
        .collect();
    sha256_hex(&leaves.join(","))
}

/// The commitment to `order` with `salt`, in lowercase hex.
pub fn commitment(order: &DealOrder, salt: &str) -> String {
    commitment_of(order, &place_salts(order, salt))
}

/// One deal's order, its places' salts and shuffle, and the commitment sent to every seat. The places'
/// salts are worked out once, for the commitment, and kept for the deal's end, when each viewer's
/// reveal shows them (the deal's own salt is never needed again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealSeal {
    commitment: String,
    order: DealOrder,
    salts: Vec<PlaceSalt>,
    shuffle: ShuffleRecord,
}

/// A salt for one deal: 128 bits from the operating system, in hex.
pub fn fresh_salt() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// Who a reveal is for, and the cards of the deal that stay secret from everyone else.
pub struct RevealTo<'a> {
    /// The seat, or none for a watcher.
    pub viewer: Option<Seat>,
    /// The card codes nobody but their holder ever saw.
    pub concealed: &'a [String],
}

impl DealSeal {
    /// Seals a deal's order under its salt (from [`fresh_salt`], or a snapshot's record of it), with
    /// the shuffle its seed came from.
    pub fn new(order: DealOrder, salt: &str, shuffle: ShuffleRecord) -> DealSeal {
        let salts = place_salts(&order, salt);
        DealSeal {
            commitment: commitment_of(&order, &salts),
            order,
            salts,
            shuffle,
        }
    }

    /// The deal's commitment, sent before its first card.
    pub fn commitment(&self) -> &str {
        &self.commitment
    }

    /// What a frame carries: the commitment always, and once the deal has ended what `reveal` may see.
    pub fn shown(&self, reveal: Option<RevealTo<'_>>) -> SealShown<'_> {
        SealShown {
            commitment: &self.commitment,
            reveal: reveal.map(|to| self.reveal(&to)),
        }
    }

    fn reveal(&self, to: &RevealTo<'_>) -> Reveal<'_> {
        let places = self.order.cards().zip(&self.order.to).zip(&self.salts);
        let mut reveal = Reveal {
            order: Vec::with_capacity(self.order.to.len()),
            to: Vec::with_capacity(self.order.to.len()),
            salts: Vec::with_capacity(self.order.to.len()),
            hidden: Vec::with_capacity(self.order.to.len()),
            seed: format!(
                "{:016x}",
                seed_from(&self.shuffle.secret, &self.shuffle.contributions)
            ),
            shuffle: &self.shuffle,
        };
        for (i, ((card, dest), salt)) in places.enumerate() {
            let own = matches!((dest, to.viewer), (DealtTo::Seat(s), Some(v)) if *s == v);
            if own || !to.concealed.iter().any(|c| c == card) {
                reveal.order.push(Some(card));
                reveal.to.push(Some(dest));
                reveal.salts.push(Some(hex::encode(salt)));
                reveal.hidden.push(None);
            } else {
                reveal.order.push(None);
                reveal.to.push(None);
                reveal.salts.push(None);
                reveal.hidden.push(Some(leaf(i, card, dest, salt)));
            }
        }
        reveal
    }
}

/// The `deal` field of a view frame.
#[derive(Serialize)]
pub struct SealShown<'a> {
    pub commitment: &'a str,
    /// Once the deal has ended: every place this seat may learn, and the shuffle.
    pub reveal: Option<Reveal<'a>>,
}

/// A deal's places, one entry each in every list: the card, where it went and the place's salt, or
/// (null in those) the place's leaf in `hidden`.
#[derive(Serialize)]
pub struct Reveal<'a> {
    pub order: Vec<Option<&'a str>>,
    pub to: Vec<Option<&'a DealtTo>>,
    pub salts: Vec<Option<String>>,
    pub hidden: Vec<Option<String>>,
    /// The deal's seed, 16 hex digits, as the shuffle's secret and numbers give it.
    pub seed: String,
    /// The table's secret, its commitment and every seat's number: what the seed came from.
    pub shuffle: &'a ShuffleRecord,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> ShuffleRecord {
        ShuffleRecord {
            commitment: "c".into(),
            secret: "s".into(),
            contributions: vec![None, None],
        }
    }

    /// The commitment worked out from a reveal's places, as a page does.
    fn from_reveal(reveal: &serde_json::Value) -> String {
        let leaves: Vec<String> = (0..reveal["order"].as_array().unwrap().len())
            .map(|i| match reveal["order"][i].as_str() {
                Some(card) => {
                    let to = match &reveal["to"][i] {
                        serde_json::Value::Number(n) => n.to_string(),
                        other => other.as_str().unwrap().to_string(),
                    };
                    let salt = reveal["salts"][i].as_str().unwrap();
                    sha256_hex(&format!("{i}|{card}|{to}|{salt}"))
                }
                None => reveal["hidden"][i].as_str().unwrap().to_string(),
            })
            .collect();
        sha256_hex(&leaves.join(","))
    }

    #[test]
    fn the_order_is_shown_only_once_the_deal_has_ended_and_matches_the_commitment() {
        let order = DealOrder::new(&["QS", "2H", "7C"], |i| DealtTo::Seat(Seat::new(i % 2)));
        let salt = fresh_salt();
        let seal = DealSeal::new(order.clone(), &salt, record());
        let playing = serde_json::to_value(seal.shown(None)).unwrap();
        assert_eq!(playing["reveal"], serde_json::Value::Null);
        assert!(!playing.to_string().contains(&salt));
        assert!(!playing.to_string().contains("QS"));
        let everyone = RevealTo {
            viewer: Some(Seat::new(0)),
            concealed: &[],
        };
        let ended = serde_json::to_value(seal.shown(Some(everyone))).unwrap();
        assert_eq!(
            ended["reveal"]["order"],
            serde_json::json!(["QS", "2H", "7C"])
        );
        assert_eq!(ended["reveal"]["to"], serde_json::json!([0, 1, 0]));
        assert_eq!(from_reveal(&ended["reveal"]), seal.commitment);
        assert_eq!(ended["commitment"], seal.commitment.as_str());
        // The deal's own salt is never shown, only each place's.
        assert!(!ended.to_string().contains(&salt));
        // A fresh salt per deal: the same order never gives the same commitment twice.
        assert_ne!(
            DealSeal::new(order.clone(), &fresh_salt(), record()).commitment,
            seal.commitment
        );
        // Any change to the order changes the commitment.
        let swapped = DealOrder::new(&["2H", "QS", "7C"], |i| DealtTo::Seat(Seat::new(i % 2)));
        assert_ne!(commitment(&swapped, &salt), seal.commitment);
    }

    #[test]
    fn a_concealed_card_is_shown_to_its_holder_alone_and_still_checks() {
        let order = DealOrder::new(&["QS", "2H", "7C", "9D"], |i| {
            DealtTo::Seat(Seat::new(i % 2))
        });
        let seal = DealSeal::new(order, &fresh_salt(), record());
        let concealed = ["2H".to_string()];
        let to = |viewer| RevealTo {
            viewer,
            concealed: &concealed,
        };
        let other = serde_json::to_value(seal.shown(Some(to(Some(Seat::new(0)))))).unwrap();
        let holder = serde_json::to_value(seal.shown(Some(to(Some(Seat::new(1)))))).unwrap();
        let watcher = serde_json::to_value(seal.shown(Some(to(None)))).unwrap();
        for (reveal, hides) in [(&other, true), (&holder, false), (&watcher, true)] {
            assert_eq!(from_reveal(&reveal["reveal"]), seal.commitment);
            assert_eq!(!reveal.to_string().contains("2H"), hides, "{reveal}");
        }
        assert_eq!(other["reveal"]["order"][1], serde_json::Value::Null);
        assert_eq!(other["reveal"]["to"][1], serde_json::Value::Null);
        assert!(other["reveal"]["hidden"][1].is_string());
        assert_eq!(other["reveal"]["order"][3], "9D");
    }
}
