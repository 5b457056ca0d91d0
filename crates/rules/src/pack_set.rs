//! A set of cards of one pack as a bit mask, each card owning one bit: cheap to copy, test and
//! combine. The 52-card deck's [`CardSet`](crate::cards::CardSet) (a `u64`) and Ganjifa's 96-card
//! [`GSet`](crate::games::ganjifa::pack::GSet) (a `u128`) are this one type; what depends on a pack's
//! layout (its suits, its ranks) is in that pack's own `impl`.
//!
//! A set iterates in bit order and is serialized as the list of its cards' codes; reading one back
//! refuses a card listed twice.

use std::fmt;
use std::hash::Hash;

use num_traits::{One, PrimInt, Zero};
use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

/// A card a [`PackSet`] can hold: its pack has at most as many cards as `Bits` has bits.
pub trait InPack: Copy {
    /// The mask wide enough for the whole pack.
    type Bits: PrimInt + Hash + fmt::Debug;
    /// No card.
    const NONE: Self::Bits;
    /// Every card of the pack.
    const PACK: Self::Bits;
    /// The card's bit: its number in the pack.
    fn bit(self) -> u32;
    /// The card whose bit is `bit` (a bit of `PACK`).
    fn at_bit(bit: u32) -> Self;
}

/// A set of cards of the pack of `C`.
pub struct PackSet<C: InPack>(C::Bits);

impl<C: InPack> PackSet<C> {
    pub const EMPTY: PackSet<C> = PackSet(C::NONE);
    /// Every card of the pack.
    pub const ALL: PackSet<C> = PackSet(C::PACK);

    /// The set of the bits `bits`, all within the pack: for a pack's own constants.
    pub(crate) const fn of_pack_bits(bits: C::Bits) -> PackSet<C> {
        PackSet(bits)
    }

    /// The set of the bits `bits`, those outside the pack dropped.
    pub fn from_bits(bits: C::Bits) -> PackSet<C> {
        PackSet(bits & C::PACK)
    }

    pub fn bits(self) -> C::Bits {
        self.0
    }

    pub fn one(card: C) -> PackSet<C> {
        PackSet(mask(card))
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == C::NONE
    }

    pub fn contains(self, card: C) -> bool {
        self.0 & mask(card) != C::NONE
    }

    /// Whether every card of `other` is in this set.
    pub fn includes(self, other: PackSet<C>) -> bool {
        other.0 & !self.0 == C::NONE
    }

    pub fn insert(&mut self, card: C) {
        self.0 = self.0 | mask(card);
    }

    pub fn remove(&mut self, card: C) {
        self.0 = self.0 & !mask(card);
    }

    pub fn union(self, other: PackSet<C>) -> PackSet<C> {
        PackSet(self.0 | other.0)
    }

    pub fn intersection(self, other: PackSet<C>) -> PackSet<C> {
        PackSet(self.0 & other.0)
    }

    pub fn minus(self, other: PackSet<C>) -> PackSet<C> {
        PackSet(self.0 & !other.0)
    }

    /// The card with the lowest bit.
    pub fn first(self) -> Option<C> {
        (!self.is_empty()).then(|| C::at_bit(self.0.trailing_zeros()))
    }

    /// The card with the highest bit.
    pub fn last(self) -> Option<C> {
        let top = C::Bits::zero().count_zeros() - 1;
        (!self.is_empty()).then(|| C::at_bit(top - self.0.leading_zeros()))
    }

    /// The card at `position` in iteration order.
    pub fn nth(self, position: usize) -> Option<C> {
        self.iter().nth(position)
    }

    pub fn iter(self) -> PackSetIter<C> {
        PackSetIter(self.0)
    }
}

fn mask<C: InPack>(card: C) -> C::Bits {
    C::Bits::one() << card.bit() as usize
}

// Written out rather than derived: a derive would ask the card type, not its bits, for each trait.
impl<C: InPack> Clone for PackSet<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: InPack> Copy for PackSet<C> {}

impl<C: InPack> Default for PackSet<C> {
    fn default() -> Self {
        PackSet::EMPTY
    }
}

impl<C: InPack> PartialEq for PackSet<C> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<C: InPack> Eq for PackSet<C> {}

impl<C: InPack> Hash for PackSet<C> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<C: InPack + fmt::Debug> fmt::Debug for PackSet<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The cards of a [`PackSet`], in bit order.
pub struct PackSetIter<C: InPack>(C::Bits);

impl<C: InPack> Iterator for PackSetIter<C> {
    type Item = C;
    fn next(&mut self) -> Option<C> {
        if self.0 == C::NONE {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 = self.0 & (self.0 - C::Bits::one());
        Some(C::at_bit(bit))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl<C: InPack> ExactSizeIterator for PackSetIter<C> {}

impl<C: InPack> IntoIterator for PackSet<C> {
    type Item = C;
    type IntoIter = PackSetIter<C>;
    fn into_iter(self) -> PackSetIter<C> {
        self.iter()
    }
}

impl<C: InPack> FromIterator<C> for PackSet<C> {
    fn from_iter<I: IntoIterator<Item = C>>(cards: I) -> PackSet<C> {
        let mut set = PackSet::EMPTY;
        for card in cards {
            set.insert(card);
        }
        set
    }
}

impl<C: InPack + Serialize> Serialize for PackSet<C> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de, C: InPack + Deserialize<'de>> Deserialize<'de> for PackSet<C> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let cards = Vec::<C>::deserialize(deserializer)?;
        let set: PackSet<C> = cards.iter().copied().collect();
        if set.len() != cards.len() {
            return Err(de::Error::custom("the same card is listed twice"));
        }
        Ok(set)
    }
}

/// What makes a card type `$card` (a number in its pack, `struct $card(u8)`, with a `code()` and a
/// `FromStr` that reads the code back) a card of a [`PackSet`] of `$cards` cards in `$bits`: its
/// number both ways, its `InPack` bits, and its code as its `Display`, its `Debug` and its serde form.
/// The 52-card deck and the Ganjifa pack say it once each, so their cards print and travel the same
/// way.
macro_rules! pack_card {
    ($card:ident, $bits:ty, $cards:literal) => {
        impl $card {
            /// Its number in the pack, from 0.
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The card numbered `index`, if there is one.
            pub const fn from_index(index: usize) -> Option<$card> {
                if index < $cards {
                    Some($card(index as u8))
                } else {
                    None
                }
            }
        }

        impl ::std::fmt::Display for $card {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.code())
            }
        }

        impl ::std::fmt::Debug for $card {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(self, f)
            }
        }

        impl ::serde::Serialize for $card {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.code())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $card {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Self, D::Error> {
                let code = <::std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                code.parse().map_err(::serde::de::Error::custom)
            }
        }

        impl $crate::pack_set::InPack for $card {
            type Bits = $bits;
            const NONE: $bits = 0;
            const PACK: $bits = (1 << $cards) - 1;

            fn bit(self) -> u32 {
                u32::from(self.0)
            }

            fn at_bit(bit: u32) -> $card {
                $card(bit as u8)
            }
        }
    };
}
pub(crate) use pack_card;
