//! The round Mughal pack: eight suits of twelve cards, 96 in all, with its own types beside the French
//! cards. Every suit runs Mir, Wazir, then the numbers; in the ten-high suits (Taj, Safed, Shamsher,
//! Ghulam) the numbers fall from 10 to 1, in the one-high suits (Chang, Surkh, Barat, Qimash) they fall
//! from 1 to 10, so there the 1 is the third-best card.
//!
//! A card is numbered `suit * 12 + place`, where `place` 0 is the Mir, 1 the Wazir and 2 to 11 the
//! numbers from the strongest down. A lower number is therefore a stronger card of the same suit, and a
//! suit's best unplayed card is the lowest set bit of its mask.
//!
//! ```
//! use chaikhana_rules::games::ganjifa::pack::{GCard, GRank, GSuit};
//! let one = GCard::from_rank(GSuit::Chang, GRank::Number(1));
//! assert_eq!(one.place(), 2);
//! assert_eq!(one.to_string(), "1CH");
//! assert_eq!("1CH".parse::<GCard>().unwrap(), one);
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::pack_set::{pack_card, PackSet};

/// The eight suits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GSuit {
    Taj,
    Safed,
    Shamsher,
    Ghulam,
    Chang,
    Surkh,
    Barat,
    Qimash,
}

impl GSuit {
    pub const ALL: [GSuit; 8] = [
        GSuit::Taj,
        GSuit::Safed,
        GSuit::Shamsher,
        GSuit::Ghulam,
        GSuit::Chang,
        GSuit::Surkh,
        GSuit::Barat,
        GSuit::Qimash,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit numbered `index` (0 to 7).
    pub const fn from_index(index: usize) -> GSuit {
        GSuit::ALL[index % 8]
    }

    /// Whether its numbers run from 10 (strongest) down to 1; otherwise from 1 down to 10.
    pub const fn ten_high(self) -> bool {
        (self as usize) < 4
    }

    pub const fn name(self) -> &'static str {
        match self {
            GSuit::Taj => "Taj",
            GSuit::Safed => "Safed",
            GSuit::Shamsher => "Shamsher",
            GSuit::Ghulam => "Ghulam",
            GSuit::Chang => "Chang",
            GSuit::Surkh => "Surkh",
            GSuit::Barat => "Barat",
            GSuit::Qimash => "Qimash",
        }
    }

    /// The two-letter code used in card codes.
    pub const fn code(self) -> &'static str {
        match self {
            GSuit::Taj => "TA",
            GSuit::Safed => "SA",
            GSuit::Shamsher => "SH",
            GSuit::Ghulam => "GH",
            GSuit::Chang => "CH",
            GSuit::Surkh => "SU",
            GSuit::Barat => "BA",
            GSuit::Qimash => "QI",
        }
    }

    /// The bit of this suit in a one-byte set of suits.
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The suits of a one-byte set of suits.
    pub fn of_mask(mask: u8) -> impl Iterator<Item = GSuit> {
        GSuit::ALL.into_iter().filter(move |s| mask & s.bit() != 0)
    }
}

/// A card's rank: the Mir (king), the Wazir (minister) or a number from 1 to 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GRank {
    Mir,
    Wazir,
    Number(u8),
}

impl GRank {
    pub fn code(self) -> &'static str {
        const NUMBERS: [&str; 10] = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"];
        match self {
            GRank::Mir => "M",
            GRank::Wazir => "W",
            GRank::Number(n) => NUMBERS[usize::from(n).clamp(1, 10) - 1],
        }
    }
}

/// One of the 96 cards.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GCard(u8);

impl GCard {
    /// The card's code, as in "MTA" or "10SH": from a table written once, as views carry many cards.
    pub fn code(self) -> &'static str {
        static CODES: LazyLock<Vec<String>> = LazyLock::new(|| {
            (0..96)
                .map(|i| {
                    let card = GCard(i);
                    format!("{}{}", card.rank().code(), card.suit().code())
                })
                .collect()
        });
        &CODES[usize::from(self.0)]
    }

    /// The card of `suit` at `place` (0 the Mir, 1 the Wazir, 2 to 11 the numbers, strongest first).
    pub const fn new(suit: GSuit, place: u8) -> GCard {
        GCard(suit as u8 * 12 + place % 12)
    }

    /// The card of this suit and rank; a number outside 1 to 10 is read as the nearest one.
    pub const fn from_rank(suit: GSuit, rank: GRank) -> GCard {
        let place = match rank {
            GRank::Mir => 0,
            GRank::Wazir => 1,
            GRank::Number(n) => {
                let n = if n < 1 {
                    1
                } else if n > 10 {
                    10
                } else {
                    n
                };
                if suit.ten_high() {
                    12 - n
                } else {
                    n + 1
                }
            }
        };
        GCard::new(suit, place)
    }

    /// The Mir of a suit.
    pub const fn mir(suit: GSuit) -> GCard {
        GCard::new(suit, 0)
    }

    /// The Wazir of a suit.
    pub const fn wazir(suit: GSuit) -> GCard {
        GCard::new(suit, 1)
    }

    pub const fn suit(self) -> GSuit {
        GSuit::from_index(self.0 as usize / 12)
    }

    /// Its place in the suit's natural order: 0 for the Mir, 11 for the weakest number.
    pub const fn place(self) -> u8 {
        self.0 % 12
    }

    pub const fn rank(self) -> GRank {
        match self.place() {
            0 => GRank::Mir,
            1 => GRank::Wazir,
            p if self.suit().ten_high() => GRank::Number(12 - p),
            p => GRank::Number(p - 1),
        }
    }

    /// Words for a sentence: "the Mir of Taj", "the 5 of Chang".
    pub fn describe(self) -> String {
        match self.rank() {
            GRank::Mir => format!("the Mir of {}", self.suit().name()),
            GRank::Wazir => format!("the Wazir of {}", self.suit().name()),
            GRank::Number(n) => format!("the {n} of {}", self.suit().name()),
        }
    }
}

pack_card!(GCard, u128, 96);

/// A code that is not one of the 96 cards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadGCard(pub String);

impl fmt::Display for BadGCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"{}\" is not a Ganjifa card: write M, W or 1-10, then a suit code (TA, SA, SH, GH, CH, SU, BA, QI), as in MTA or 5CH",
            self.0
        )
    }
}

impl std::error::Error for BadGCard {}

impl FromStr for GCard {
    type Err = BadGCard;
    fn from_str(code: &str) -> Result<GCard, BadGCard> {
        let bad = || BadGCard(code.chars().take(8).collect());
        if !code.is_ascii() || code.len() < 3 || code.len() > 4 {
            return Err(bad());
        }
        let (rank, suit) = code.split_at(code.len() - 2);
        let suit = GSuit::ALL
            .into_iter()
            .find(|s| s.code() == suit)
            .ok_or_else(bad)?;
        let rank = match rank {
            "M" => GRank::Mir,
            "W" => GRank::Wazir,
            number => match number.parse::<u8>() {
                Ok(n) if (1..=10).contains(&n) && !number.starts_with('0') => GRank::Number(n),
                _ => return Err(bad()),
            },
        };
        Ok(GCard::from_rank(suit, rank))
    }
}

/// A set of Ganjifa cards ([`PackSet`]), iterating suit by suit, strongest place first.
pub type GSet = PackSet<GCard>;

impl PackSet<GCard> {
    /// The whole pack.
    pub const PACK: GSet = PackSet::ALL;
    /// The eight Mirs.
    pub const MIRS: GSet = PackSet::of_pack_bits(0x0010_0100_1001_0010_0100_1001);

    /// Every card of a suit.
    pub const fn suit(suit: GSuit) -> GSet {
        PackSet::of_pack_bits(0xfff << (suit as u8 * 12))
    }

    /// The cards of one suit in this set.
    pub fn of_suit(self, suit: GSuit) -> GSet {
        self.intersection(GSet::suit(suit))
    }

    /// The suits with at least one card in this set, as a one-byte set.
    pub fn suits(self) -> u8 {
        GSuit::ALL
            .into_iter()
            .filter(|&s| !self.of_suit(s).is_empty())
            .fold(0, |mask, s| mask | s.bit())
    }
}

/// Parses a space-separated list of card codes (for tests and tools).
pub fn parse_set(codes: &str) -> Result<GSet, BadGCard> {
    codes.split_whitespace().map(str::parse::<GCard>).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_has_its_own_code_and_parses_back() {
        let codes: std::collections::HashSet<String> =
            GSet::PACK.iter().map(|c| c.to_string()).collect();
        assert_eq!(codes.len(), 96);
        for card in GSet::PACK {
            assert_eq!(card.to_string().parse::<GCard>(), Ok(card));
            assert_eq!(GCard::from_rank(card.suit(), card.rank()), card);
        }
        for bad in [
            "", "MT", "0TA", "11CH", "MXX", "W", "10", "é", "MTAA", "01CH",
        ] {
            assert!(bad.parse::<GCard>().is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn the_two_orders_ten_high_and_one_high() {
        let in_order =
            |suit| -> Vec<String> { GSet::suit(suit).iter().map(|c| c.to_string()).collect() };
        // Taj: Mir, Wazir, 10, 9, ..., 1.
        assert_eq!(
            in_order(GSuit::Taj),
            ["MTA", "WTA", "10TA", "9TA", "8TA", "7TA", "6TA", "5TA", "4TA", "3TA", "2TA", "1TA"]
        );
        // Chang: Mir, Wazir, 1, 2, ..., 10: the 1 is the third-best card.
        assert_eq!(
            in_order(GSuit::Chang),
            ["MCH", "WCH", "1CH", "2CH", "3CH", "4CH", "5CH", "6CH", "7CH", "8CH", "9CH", "10CH"]
        );
        for suit in GSuit::ALL {
            assert_eq!(suit.ten_high(), suit.index() < 4);
            assert_eq!(GSet::suit(suit).len(), 12);
            assert_eq!(GSet::MIRS.of_suit(suit).first(), Some(GCard::mir(suit)));
        }
        assert_eq!(GSet::MIRS.len(), 8);
        assert_eq!(
            GCard::from_rank(GSuit::Chang, GRank::Number(5)).describe(),
            "the 5 of Chang"
        );
    }

    #[test]
    fn sets_serialize_as_codes_and_refuse_repeats() {
        let set = parse_set("5CH MTA").unwrap();
        let json = serde_json::to_string(&set).unwrap();
        assert_eq!(json, r#"["MTA","5CH"]"#);
        assert_eq!(serde_json::from_str::<GSet>(&json).unwrap(), set);
        assert!(serde_json::from_str::<GSet>(r#"["MTA","MTA"]"#).is_err());
        assert_eq!(set.first().map(|c| c.to_string()), Some("MTA".into()));
        assert_eq!(set.last().map(|c| c.to_string()), Some("5CH".into()));
        assert_eq!(set.suits(), GSuit::Taj.bit() | GSuit::Chang.bit());
    }
}
