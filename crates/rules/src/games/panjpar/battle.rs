//! One battle: the attack laid, what beat what, what was picked up; and the two rules a battle checks,
//! what makes a set of cards an attack and what beats an attack card, each with its reason when not.

use std::fmt;

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use super::codes::Code;
use crate::cards::{Card, CardSet, Rank, Seat, Suit};
use crate::game::RuleCode;

/// The most cards one attack may hold.
pub const MAX_ATTACK: usize = 5;

/// A battle, in progress or finished. Small and `Copy`: views carry it by value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Battle {
    pub attacker: Seat,
    /// The cards laid.
    pub attack: CardSet,
    /// (attack card, the card that beat it), in the order they were laid.
    covers: [(Card, Card); MAX_ATTACK],
    covered: u8,
    beaten: CardSet,
    beating: CardSet,
    /// The attack cards the defender took into hand; set when the battle ends that way.
    pub picked_up: CardSet,
    /// Whether the battle has ended.
    pub finished: bool,
}

impl Battle {
    pub fn new(attacker: Seat, attack: CardSet) -> Battle {
        let blank = attack.first().unwrap_or(Card::new(Rank::Two, Suit::Clubs));
        Battle {
            attacker,
            attack,
            covers: [(blank, blank); MAX_ATTACK],
            covered: 0,
            beaten: CardSet::EMPTY,
            beating: CardSet::EMPTY,
            picked_up: CardSet::EMPTY,
            finished: false,
        }
    }

    /// The pairs of (attack card, beating card) so far.
    pub fn covers(&self) -> &[(Card, Card)] {
        &self.covers[..usize::from(self.covered)]
    }

    /// The attack cards that have been beaten.
    pub fn beaten(&self) -> CardSet {
        self.beaten
    }

    /// The defender's cards that beat attack cards.
    pub fn beating_cards(&self) -> CardSet {
        self.beating
    }

    /// The attack cards not yet beaten.
    pub fn uncovered(&self) -> CardSet {
        self.attack.minus(self.beaten())
    }

    /// Every card lying on the table in this battle.
    pub fn cards_on_table(&self) -> CardSet {
        self.attack
            .union(self.beating_cards())
            .minus(self.picked_up)
    }

    pub(super) fn cover(&mut self, attack: Card, with: Card) {
        self.covers[usize::from(self.covered)] = (attack, with);
        self.covered += 1;
        self.beaten.insert(attack);
        self.beating.insert(with);
    }
}

impl Serialize for Battle {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Battle", 5)?;
        s.serialize_field("attacker", &self.attacker)?;
        s.serialize_field("attack", &self.attack)?;
        s.serialize_field("covers", self.covers())?;
        s.serialize_field("picked_up", &self.picked_up)?;
        s.serialize_field("finished", &self.finished)?;
        s.end()
    }
}

/// Why a set of cards is not an attack now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttackProblem {
    /// Nothing was chosen.
    Empty,
    /// A card the attacker does not hold.
    NotHeld(Card),
    /// Two, four, six or more cards.
    BadSize(usize),
    /// Three cards without a pair among them.
    ThreeNeedAPair,
    /// Five cards without two separate pairs.
    FiveNeedTwoPairs,
    /// More cards than the defender holds allows (the defender's count, the most allowed).
    OverCap { defender_holds: usize, most: usize },
}

impl AttackProblem {
    /// A stable code for the protocol and metrics.
    pub fn code(self) -> RuleCode {
        match self {
            AttackProblem::NotHeld(_) => return RuleCode::NOT_IN_HAND,
            AttackProblem::Empty | AttackProblem::BadSize(_) => Code::AttackSize,
            AttackProblem::ThreeNeedAPair => Code::AttackNeedsPair,
            AttackProblem::FiveNeedTwoPairs => Code::AttackNeedsTwoPairs,
            AttackProblem::OverCap { .. } => Code::AttackOverCap,
        }
        .into()
    }
}

impl fmt::Display for AttackProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AttackProblem::Empty => write!(f, "Choose 1, 3 or 5 cards to attack with."),
            AttackProblem::NotHeld(card) => write!(f, "You do not hold {}.", card.describe()),
            AttackProblem::BadSize(n) => {
                write!(f, "{n} cards are not an attack: lay 1, 3 or 5.")
            }
            AttackProblem::ThreeNeedAPair => write!(f, "Three cards need a pair."),
            AttackProblem::FiveNeedTwoPairs => {
                write!(f, "Five cards need two pairs that share no card.")
            }
            AttackProblem::OverCap {
                defender_holds,
                most,
            } => {
                let held = if defender_holds == 1 {
                    "1 card".to_string()
                } else {
                    format!("{defender_holds} cards")
                };
                let allowed = if most == 1 {
                    "only one card may be laid".to_string()
                } else {
                    format!("at most {most} cards may be laid")
                };
                write!(f, "The other seat holds {held}, so {allowed}.")
            }
        }
    }
}

/// The largest attack allowed against a defender holding `defender_holds` cards by an attacker holding
/// `attacker_holds`: 1, 3 or 5.
pub fn largest_attack(defender_holds: usize, attacker_holds: usize) -> usize {
    match defender_holds.min(attacker_holds) {
        0..=2 => 1,
        3..=4 => 3,
        _ => 5,
    }
}

/// How many pairs sharing no card the ranks of `cards` make (a four of a kind makes two).
pub fn separate_pairs(cards: CardSet) -> usize {
    let [c, d, h, s] = cards.suit_masks();
    let in_two_or_more = (c & d) | (c & h) | (c & s) | (d & h) | (d & s) | (h & s);
    let in_all_four = c & d & h & s;
    (in_two_or_more.count_ones() + in_all_four.count_ones()) as usize
}

/// Checks `cards` as an attack from `hand` against a defender holding `defender_holds` cards.
pub fn attack_problem(
    cards: CardSet,
    hand: CardSet,
    defender_holds: usize,
) -> Option<AttackProblem> {
    if cards.is_empty() {
        return Some(AttackProblem::Empty);
    }
    if let Some(card) = cards.minus(hand).first() {
        return Some(AttackProblem::NotHeld(card));
    }
    let n = cards.len();
    let shape = match n {
        1 => None,
        3 if separate_pairs(cards) < 1 => Some(AttackProblem::ThreeNeedAPair),
        3 => None,
        5 if separate_pairs(cards) < 2 => Some(AttackProblem::FiveNeedTwoPairs),
        5 => None,
        _ => Some(AttackProblem::BadSize(n)),
    };
    if shape.is_some() {
        return shape;
    }
    let most = largest_attack(defender_holds, hand.len());
    (n > most).then_some(AttackProblem::OverCap {
        defender_holds,
        most,
    })
}

/// Why a card cannot beat an attack card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BeatProblem {
    /// Same suit but not higher: "lower than the 9 of spades".
    NotHigher(Card),
    /// A plain card on a trump.
    TrumpNeedsHigherTrump,
    /// Another plain suit.
    WrongSuit,
}

impl BeatProblem {
    pub fn code(self) -> RuleCode {
        match self {
            BeatProblem::NotHigher(_) => Code::NotHigher,
            BeatProblem::TrumpNeedsHigherTrump => Code::TrumpNeedsHigherTrump,
            BeatProblem::WrongSuit => Code::WrongSuit,
        }
        .into()
    }
}

impl fmt::Display for BeatProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BeatProblem::NotHigher(card) => write!(f, "Lower than {}.", card.describe()),
            BeatProblem::TrumpNeedsHigherTrump => {
                write!(f, "A trump is beaten only by a higher trump.")
            }
            BeatProblem::WrongSuit => write!(f, "Not the same suit and not a trump."),
        }
    }
}

/// Whether `with` beats `attack` when `trump` is trump, and why not.
pub fn beat_problem(attack: Card, with: Card, trump: Suit) -> Option<BeatProblem> {
    if with.suit() == attack.suit() {
        return (with.rank() <= attack.rank()).then_some(if attack.suit() == trump {
            BeatProblem::TrumpNeedsHigherTrump
        } else {
            BeatProblem::NotHigher(attack)
        });
    }
    if attack.suit() == trump {
        return Some(BeatProblem::TrumpNeedsHigherTrump);
    }
    (with.suit() != trump).then_some(BeatProblem::WrongSuit)
}

/// The cards of `hand` that beat `attack`.
pub fn beaters(attack: Card, hand: CardSet, trump: Suit) -> CardSet {
    let same_suit_higher =
        CardSet::from_bits(CardSet::suit(attack.suit()).bits() & !((2u64 << attack.index()) - 1));
    let mut beat = hand.intersection(same_suit_higher);
    if attack.suit() != trump {
        beat = beat.union(hand.of_suit(trump));
    }
    beat
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card;

    fn set(codes: &str) -> CardSet {
        codes
            .split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    #[test]
    fn attack_shapes_follow_ruling_two() {
        let hand = set("8S 8H 8D 2C 3C KS KH 4S 4H 7C 6S 6H 6D 6C JS 10S 10H 3S 3H 3D");
        for ok in [
            "8S",
            "8S 8H 2C",
            "8S 8H 8D",
            "KS KH 4S 4H 7C",
            "10S 10H 3S 3H 3D",
            "6S 6H 6D 6C JS",
            "8S 8H 8D KS KH",
        ] {
            assert_eq!(attack_problem(set(ok), hand, 10), None, "{ok}");
        }
        assert_eq!(
            attack_problem(set("8S 2C 3C"), hand, 10),
            Some(AttackProblem::ThreeNeedAPair)
        );
        assert_eq!(
            attack_problem(set("8S 8H 8D 2C 7C"), hand, 10),
            Some(AttackProblem::FiveNeedTwoPairs)
        );
        assert_eq!(
            attack_problem(set("8S 8H"), hand, 10),
            Some(AttackProblem::BadSize(2))
        );
        assert_eq!(
            attack_problem(set("8S 8H 8D 2C 3C KS"), hand, 10),
            Some(AttackProblem::BadSize(6))
        );
        assert_eq!(
            attack_problem(set("AS"), hand, 10),
            Some(AttackProblem::NotHeld(card("AS")))
        );
        assert_eq!(
            attack_problem(CardSet::EMPTY, hand, 10),
            Some(AttackProblem::Empty)
        );
    }

    #[test]
    fn the_cap_follows_the_defenders_hand_and_the_attackers() {
        let hand = set("KS KH 4S 4H 7C");
        for (defender, most) in [(1, 1), (2, 1), (3, 3), (4, 3), (5, 5), (9, 5)] {
            assert_eq!(largest_attack(defender, 5), most);
        }
        assert_eq!(largest_attack(9, 4), 3);
        assert_eq!(
            attack_problem(set("KS KH 7C"), hand, 2),
            Some(AttackProblem::OverCap {
                defender_holds: 2,
                most: 1
            })
        );
        assert_eq!(
            attack_problem(set("KS KH 7C"), hand, 2)
                .unwrap()
                .to_string(),
            "The other seat holds 2 cards, so only one card may be laid."
        );
        assert_eq!(
            attack_problem(set("KS KH 4S 4H 7C"), hand, 4)
                .unwrap()
                .code(),
            Code::AttackOverCap
        );
    }

    #[test]
    fn beating_follows_ruling_four() {
        let trump = Suit::Diamonds;
        assert_eq!(beat_problem(card("6S"), card("9S"), trump), None);
        assert_eq!(beat_problem(card("6H"), card("3D"), trump), None);
        assert_eq!(beat_problem(card("QD"), card("KD"), trump), None);
        assert_eq!(
            beat_problem(card("9S"), card("6S"), trump),
            Some(BeatProblem::NotHigher(card("9S")))
        );
        assert_eq!(
            beat_problem(card("9S"), card("6S"), trump)
                .unwrap()
                .to_string(),
            "Lower than the 9 of spades."
        );
        assert_eq!(
            beat_problem(card("QD"), card("AS"), trump),
            Some(BeatProblem::TrumpNeedsHigherTrump)
        );
        assert_eq!(
            beat_problem(card("QD"), card("3D"), trump),
            Some(BeatProblem::TrumpNeedsHigherTrump)
        );
        assert_eq!(
            beat_problem(card("QC"), card("AH"), trump),
            Some(BeatProblem::WrongSuit)
        );
        let hand = set("9S 3D KD 4C 10H 2S");
        assert_eq!(beaters(card("6S"), hand, trump), set("9S 3D KD"));
        assert_eq!(beaters(card("QD"), hand, trump), set("KD"));
        assert_eq!(beaters(card("AS"), hand, trump), set("3D KD"));
    }

    #[test]
    fn beaters_agree_with_beat_problem_everywhere() {
        for trump in Suit::ALL {
            for attack in CardSet::DECK {
                let found = beaters(attack, CardSet::DECK, trump);
                for with in CardSet::DECK {
                    assert_eq!(
                        found.contains(with),
                        beat_problem(attack, with, trump).is_none(),
                        "{attack} {with} {trump:?}"
                    );
                }
            }
        }
    }
}
