//! The card vocabulary shared by the French-suited games (Panjpar and Pishe Pasha), and the seat types
//! every game uses. Ganjifa's round pack has its own types in `games::ganjifa::pack`.
//!
//! ```
//! use chaikhana_rules::cards::{Card, CardSet, Rank, Suit};
//! let queen = Card::new(Rank::Queen, Suit::Spades);
//! assert_eq!(queen.to_string(), "QS");
//! assert_eq!("QS".parse::<Card>().unwrap(), queen);
//! let hand: CardSet = [queen, Card::new(Rank::Two, Suit::Hearts)].into_iter().collect();
//! assert_eq!(hand.len(), 2);
//! ```

use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::pack_set::pack_card;
pub use crate::pack_set::{InPack, PackSet};

/// The random source of a deal. Every deal comes from a `u64` seed, so that (seed, actions) replays it.
pub type DealRng = rand_chacha::ChaCha8Rng;

/// The deal's random source for a seed.
pub fn deal_rng(seed: u64) -> DealRng {
    DealRng::seed_from_u64(seed)
}

/// A place at the table, numbered from 0. Two seats in Panjpar and Pishe Pasha, three in Ganjifa.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(u8);

impl Seat {
    /// The seat with this number.
    pub const fn new(index: usize) -> Seat {
        Seat(index as u8)
    }

    /// Its number, from 0.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat after this one at a table of `seats`.
    pub const fn next(self, seats: usize) -> Seat {
        self.after(1, seats)
    }

    /// The seat `steps` places after this one at a table of `seats`.
    pub const fn after(self, steps: usize, seats: usize) -> Seat {
        Seat::new((self.index() + steps) % seats)
    }

    /// Every seat of a table of `seats`, in order.
    pub fn all(seats: usize) -> impl Iterator<Item = Seat> {
        (0..seats).map(Seat::new)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0 + 1)
    }
}

/// One value per seat, indexed by [`Seat`]. Serialized as a JSON array in seat order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BySeat<T, const N: usize>(pub [T; N]);

impl<T, const N: usize> BySeat<T, N> {
    /// A value for every seat, built from the seat.
    pub fn from_fn(mut f: impl FnMut(Seat) -> T) -> Self {
        BySeat(std::array::from_fn(|i| f(Seat::new(i))))
    }

    /// The seats with their values.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Seat::new(i), v))
    }

    /// The same seats with every value mapped.
    pub fn map<U>(&self, mut f: impl FnMut(Seat, &T) -> U) -> BySeat<U, N> {
        BySeat::from_fn(|seat| f(seat, &self[seat]))
    }
}

impl<T: Default, const N: usize> Default for BySeat<T, N> {
    fn default() -> Self {
        BySeat::from_fn(|_| T::default())
    }
}

impl<T, const N: usize> Index<Seat> for BySeat<T, N> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T, const N: usize> IndexMut<Seat> for BySeat<T, N> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

impl<T: Serialize, const N: usize> Serialize for BySeat<T, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter())
    }
}

impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for BySeat<T, N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let values = Vec::<T>::deserialize(deserializer)?;
        let found = values.len();
        let array: [T; N] = values
            .try_into()
            .map_err(|_| de::Error::invalid_length(found, &"one value per seat"))?;
        Ok(BySeat(array))
    }
}

/// The four French suits; serialized by name ("spades").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

/// The colour a Panjpar guesser calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Red,
    Black,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// Hearts and diamonds are red, spades and clubs black.
    pub const fn colour(self) -> Colour {
        match self {
            Suit::Diamonds | Suit::Hearts => Colour::Red,
            Suit::Clubs | Suit::Spades => Colour::Black,
        }
    }

    /// The one-letter code used in card codes: C, D, H, S.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The plural English name, as in "the 9 of spades".
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
            Suit::Hearts => "hearts",
            Suit::Spades => "spades",
        }
    }

    fn from_letter(letter: char) -> Option<Suit> {
        Suit::ALL.into_iter().find(|s| s.letter() == letter)
    }
}

/// Ranks from the two up to the ace. Panjpar plays the ace high; Pishe Pasha counts it as 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    Two = 2,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// From the two up to the ace.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// 2 to 14, the ace high.
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// 1 to 13, the ace low (Pishe Pasha's count).
    pub const fn value_ace_low(self) -> u8 {
        match self {
            Rank::Ace => 1,
            other => other as u8,
        }
    }

    /// The code used in card codes: 2 to 10, J, Q, K, A.
    pub const fn code(self) -> &'static str {
        const CODES: [&str; 13] = [
            "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
        ];
        CODES[self as usize - 2]
    }

    /// The English name, as in "the queen of clubs" or "the 9 of spades".
    pub const fn name(self) -> &'static str {
        match self {
            Rank::Jack => "jack",
            Rank::Queen => "queen",
            Rank::King => "king",
            Rank::Ace => "ace",
            other => other.code(),
        }
    }

    fn from_code(code: &str) -> Option<Rank> {
        Rank::ALL.into_iter().find(|r| r.code() == code)
    }
}

/// One card of the 52-card deck: a number from 0 to 51, suit by suit.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 13 + (rank as u8 - 2))
    }

    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 % 13) as usize]
    }

    pub const fn suit(self) -> Suit {
        Suit::ALL[(self.0 / 13) as usize]
    }

    /// The card's code, as in "QS" or "10H" (a table, not formatting: views carry many cards).
    pub fn code(self) -> &'static str {
        const CODES: [[&str; 4]; 13] = [
            ["2C", "2D", "2H", "2S"],
            ["3C", "3D", "3H", "3S"],
            ["4C", "4D", "4H", "4S"],
            ["5C", "5D", "5H", "5S"],
            ["6C", "6D", "6H", "6S"],
            ["7C", "7D", "7H", "7S"],
            ["8C", "8D", "8H", "8S"],
            ["9C", "9D", "9H", "9S"],
            ["10C", "10D", "10H", "10S"],
            ["JC", "JD", "JH", "JS"],
            ["QC", "QD", "QH", "QS"],
            ["KC", "KD", "KH", "KS"],
            ["AC", "AD", "AH", "AS"],
        ];
        CODES[self.rank() as usize - 2][self.suit() as usize]
    }

    /// Words for a sentence: "the 9 of spades", "the queen of clubs".
    pub fn describe(self) -> String {
        format!("the {} of {}", self.rank().name(), self.suit().name())
    }
}

pack_card!(Card, u64, 52);

/// A card code that is not one of the 52.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadCard(pub String);

impl fmt::Display for BadCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\" is not a card: write a rank (2-10, J, Q, K, A) and a suit (C, D, H, S), as in QS or 10H", self.0)
    }
}

impl std::error::Error for BadCard {}

impl FromStr for Card {
    type Err = BadCard;
    fn from_str(code: &str) -> Result<Card, BadCard> {
        let bad = || BadCard(code.chars().take(8).collect());
        let suit = code
            .chars()
            .last()
            .and_then(Suit::from_letter)
            .ok_or_else(bad)?;
        let rank = Rank::from_code(&code[..code.len() - 1]).ok_or_else(bad)?;
        Ok(Card::new(rank, suit))
    }
}

/// A set of cards of the 52-card deck ([`PackSet`]), iterating suit by suit, low rank first.
pub type CardSet = PackSet<Card>;

impl PackSet<Card> {
    /// All 52 cards.
    pub const DECK: CardSet = PackSet::ALL;

    /// Every card of a suit.
    pub const fn suit(suit: Suit) -> CardSet {
        PackSet::of_pack_bits(0x1fff << (suit as u8 * 13))
    }

    /// The cards of one suit in this set.
    pub fn of_suit(self, suit: Suit) -> CardSet {
        self.intersection(CardSet::suit(suit))
    }

    /// The cards of one rank in this set.
    pub fn of_rank(self, rank: Rank) -> CardSet {
        PackSet::from_bits(self.bits() & (0x0080_0400_2001 << (rank as u8 - 2)))
    }

    /// The ranks present, as a 13-bit mask (bit 0 the two, bit 12 the ace).
    pub fn rank_mask(self) -> u16 {
        let [c, d, h, s] = self.suit_masks();
        c | d | h | s
    }

    /// Each suit's ranks as a 13-bit mask, in the order clubs, diamonds, hearts, spades.
    pub fn suit_masks(self) -> [u16; 4] {
        let bits = self.bits();
        [
            (bits & 0x1fff) as u16,
            ((bits >> 13) & 0x1fff) as u16,
            ((bits >> 26) & 0x1fff) as u16,
            ((bits >> 39) & 0x1fff) as u16,
        ]
    }
}

/// The 52 cards in index order.
pub fn deck() -> Vec<Card> {
    CardSet::DECK.iter().collect()
}

/// The 52 cards' codes in index order: the pack a fair deal commits to.
pub fn deck_codes() -> Vec<String> {
    deck().iter().map(ToString::to_string).collect()
}

/// The 52 cards in an order drawn from the deal's random source.
pub fn shuffled_deck(rng: &mut DealRng) -> Vec<Card> {
    let mut cards = deck();
    cards.shuffle(rng);
    cards
}

/// The card with this code, for the tests: "QS", "10H". A code that is no card fails the test.
#[cfg(test)]
pub(crate) fn card(code: &str) -> Card {
    code.parse().unwrap_or_else(|e| panic!("{e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_has_its_own_code_and_parses_back() {
        let cards = deck();
        assert_eq!(cards.len(), 52);
        let codes: std::collections::HashSet<String> =
            cards.iter().map(|c| c.to_string()).collect();
        assert_eq!(codes.len(), 52);
        for card in cards {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            assert_eq!(Card::new(card.rank(), card.suit()), card);
            let spelled = format!("{}{}", card.rank().code(), card.suit().letter());
            assert_eq!(card.code(), spelled);
            assert_eq!(
                serde_json::to_string(&card).unwrap(),
                format!("\"{spelled}\"")
            );
        }
        assert_eq!(Card::new(Rank::Ten, Suit::Hearts).to_string(), "10H");
        for bad in ["", "1S", "QX", "Q", "11H", "S", "10", "é", "QSS"] {
            assert!(bad.parse::<Card>().is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn the_same_seed_shuffles_the_same_way_and_seeds_differ() {
        let a = shuffled_deck(&mut deal_rng(7));
        assert_eq!(a, shuffled_deck(&mut deal_rng(7)));
        assert_ne!(a, shuffled_deck(&mut deal_rng(8)));
        let set: CardSet = a.iter().copied().collect();
        assert_eq!(set, CardSet::DECK);
    }

    #[test]
    fn card_sets_serialize_as_codes_and_refuse_repeats() {
        let set: CardSet = ["QS", "2H"].iter().map(|c| c.parse().unwrap()).collect();
        assert_eq!(set.first().map(|c| c.to_string()), Some("2H".into()));
        assert_eq!(set.last().map(|c| c.to_string()), Some("QS".into()));
        assert_eq!(CardSet::EMPTY.last(), None);
        let json = serde_json::to_string(&set).unwrap();
        assert_eq!(json, r#"["2H","QS"]"#);
        assert_eq!(serde_json::from_str::<CardSet>(&json).unwrap(), set);
        assert!(serde_json::from_str::<CardSet>(r#"["QS","QS"]"#).is_err());
    }

    #[test]
    fn seats_go_round_and_by_seat_serializes_in_order() {
        assert_eq!(Seat::new(2).next(3), Seat::new(0));
        assert_eq!(Seat::new(0).after(2, 3), Seat::new(2));
        let per_seat: BySeat<u32, 3> = BySeat::from_fn(|s| s.index() as u32 * 10);
        assert_eq!(serde_json::to_string(&per_seat).unwrap(), "[0,10,20]");
        assert!(serde_json::from_str::<BySeat<u32, 3>>("[1,2]").is_err());
        assert_eq!(per_seat[Seat::new(1)], 10);
    }

    #[test]
    fn suit_colours_and_rank_values() {
        assert_eq!(Suit::Hearts.colour(), Colour::Red);
        assert_eq!(Suit::Clubs.colour(), Colour::Black);
        assert_eq!(Rank::Ace.value(), 14);
        assert_eq!(Rank::Ace.value_ace_low(), 1);
        assert_eq!(Rank::King.value_ace_low(), 13);
        assert_eq!(CardSet::suit(Suit::Spades).len(), 13);
        for rank in Rank::ALL {
            let fours = CardSet::DECK.of_rank(rank);
            assert_eq!(fours.len(), 4);
            assert!(fours.iter().all(|c| c.rank() == rank));
            assert_eq!(fours.rank_mask(), 1 << (rank.value() - 2));
        }
        assert_eq!(
            Card::new(Rank::Nine, Suit::Spades).describe(),
            "the 9 of spades"
        );
    }
}
