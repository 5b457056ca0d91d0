//! The places cards lie in a deal of Pishe Pasha: a seat's face-down stock and face-up discard pile
//! (both a [`Stack`]) and the four shared suit piles ([`SuitPiles`]).
//!
//! Everything here is fixed-size and `Copy`: a deal never touches the heap while it is played, which
//! keeps self-play fast.

use std::fmt;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::cards::{Card, Rank, Suit};

/// How many cards the deck has, and so the most any one stack can hold.
pub const DECK_SIZE: usize = 52;

/// A filler for the unused slots of the fixed arrays; never read.
pub(super) const FILLER: Card = Card::new(Rank::Two, Suit::Clubs);

/// A stack of cards, bottom first and the top last: a stock (face down) or a discard pile (face up).
#[derive(Clone, Copy)]
pub struct Stack {
    cards: [Card; DECK_SIZE],
    len: u8,
}

impl Stack {
    pub const EMPTY: Stack = Stack {
        cards: [FILLER; DECK_SIZE],
        len: 0,
    };

    /// The stack holding `cards`, the first at the bottom; `None` if there are more than 52.
    pub fn from_bottom(cards: &[Card]) -> Option<Stack> {
        if cards.len() > DECK_SIZE {
            return None;
        }
        let mut stack = Stack::EMPTY;
        stack.cards[..cards.len()].copy_from_slice(cards);
        stack.len = cards.len() as u8;
        Some(stack)
    }

    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The card on top, if any.
    pub fn top(&self) -> Option<Card> {
        self.as_slice().last().copied()
    }

    /// The cards, bottom first.
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len()]
    }

    /// Puts a card on top. Every card of a deal is in one place only and a deal has 52, so a stack
    /// never holds more than 52; the check only keeps an impossible overflow from stopping the table.
    pub(super) fn push(&mut self, card: Card) {
        let len = self.len();
        if let Some(slot) = self.cards.get_mut(len) {
            *slot = card;
            self.len += 1;
        }
    }

    /// Takes the top card off.
    pub(super) fn pop(&mut self) -> Option<Card> {
        let card = self.top()?;
        self.len -= 1;
        Some(card)
    }

    /// The stack turned over as a block: the bottom card becomes the top, nothing is shuffled.
    pub(super) fn turned_over(&self) -> Stack {
        let mut turned = *self;
        turned.cards[..self.len()].reverse();
        turned
    }
}

impl PartialEq for Stack {
    fn eq(&self, other: &Stack) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Stack {}

impl fmt::Debug for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Serialized as the list of card codes, bottom first.
impl Serialize for Stack {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

/// The four shared suit piles, each built from the ace up to the king. Held as each pile's height: 0
/// for a pile nobody has started, 13 for a finished one.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct SuitPiles([u8; 4]);

impl SuitPiles {
    /// Piles standing at the given heights, in suit order (clubs, diamonds, hearts, spades); `None` if
    /// a height is over 13.
    pub fn at(heights: [u8; 4]) -> Option<SuitPiles> {
        heights
            .iter()
            .all(|&h| h <= 13)
            .then_some(SuitPiles(heights))
    }

    /// How many cards the suit's pile holds: the rank of its top card, ace counting 1.
    pub fn height(&self, suit: Suit) -> u8 {
        self.0[suit as usize]
    }

    /// The top card of the suit's pile, if it has been started.
    pub fn top(&self, suit: Suit) -> Option<Card> {
        match self.height(suit) {
            0 => None,
            h => Some(Card::new(rank_of(h), suit)),
        }
    }

    /// Whether the card goes on its suit's pile now: an ace on an empty pile, or one rank above the top.
    pub fn fits(&self, card: Card) -> bool {
        card.rank().value_ace_low() == self.height(card.suit()) + 1
    }

    /// Puts a fitting card on its pile.
    pub(super) fn place(&mut self, card: Card) {
        self.0[card.suit() as usize] += 1;
    }

    /// How many cards all four piles hold together.
    pub fn total(&self) -> usize {
        self.0.iter().map(|&h| usize::from(h)).sum()
    }

    /// Every card lying on the suit piles.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        Suit::ALL
            .into_iter()
            .flat_map(move |suit| (1..=self.height(suit)).map(move |h| Card::new(rank_of(h), suit)))
    }
}

/// Serialized as a map from suit name to the pile's top card (`null` while unstarted).
impl Serialize for SuitPiles {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(4))?;
        for suit in Suit::ALL {
            map.serialize_entry(suit.name(), &self.top(suit))?;
        }
        map.end()
    }
}

/// The rank counted `value` with the ace as 1 (1 to 13).
pub fn rank_of(value: u8) -> Rank {
    match value {
        1 => Rank::Ace,
        v => Rank::ALL[usize::from(v.clamp(2, 13)) - 2],
    }
}

/// Whether two cards are exactly one rank apart, suits aside. Ranks do not wrap: king and ace are
/// thirteen apart (RULINGS Pishe Pasha 1).
pub fn one_apart(a: Card, b: Card) -> bool {
    a.rank().value_ace_low().abs_diff(b.rank().value_ace_low()) == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card;

    #[test]
    fn ranks_do_not_wrap_from_king_to_ace() {
        assert!(!one_apart(card("KS"), card("AH")));
        assert!(!one_apart(card("AD"), card("KD")));
        assert!(one_apart(card("AS"), card("2H")));
        assert!(one_apart(card("QC"), card("KD")));
        assert!(!one_apart(card("7C"), card("7D")));
        assert!(!one_apart(card("6C"), card("8D")));
    }

    #[test]
    fn a_suit_pile_takes_its_ace_first_then_one_rank_at_a_time() {
        let mut piles = SuitPiles::default();
        assert!(piles.fits(card("AH")));
        assert!(!piles.fits(card("2H")));
        assert!(!piles.fits(card("KH")));
        piles.place(card("AH"));
        assert!(piles.fits(card("2H")) && !piles.fits(card("2S")));
        assert_eq!(piles.top(Suit::Hearts), Some(card("AH")));
        assert_eq!(piles.top(Suit::Clubs), None);
        let full = SuitPiles::at([13, 0, 3, 0]).unwrap();
        assert!(!full.fits(card("AC")) && full.fits(card("4H")));
        assert_eq!(full.cards().count(), 16);
        assert_eq!(
            serde_json::to_string(&full).unwrap(),
            r#"{"clubs":"KC","diamonds":null,"hearts":"3H","spades":null}"#
        );
        assert_eq!(SuitPiles::at([14, 0, 0, 0]), None);
    }

    #[test]
    fn a_stack_turned_over_puts_its_oldest_card_on_top() {
        let pile = Stack::from_bottom(&[card("3C"), card("9D"), card("KS")]).unwrap();
        assert_eq!(pile.top(), Some(card("KS")));
        let mut stock = pile.turned_over();
        assert_eq!(stock.pop(), Some(card("3C")));
        assert_eq!(stock.pop(), Some(card("9D")));
        assert_eq!(stock.pop(), Some(card("KS")));
        assert_eq!(stock.pop(), None);
        assert!(stock.is_empty());
    }
}
