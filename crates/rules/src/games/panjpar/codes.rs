//! Panjpar's own refusals: an attack and its defence. The codes every game shares are
//! [`RuleCode`](crate::game::RuleCode)'s own.

use strum::{EnumIter, IntoStaticStr};

use crate::game::GameCode;

/// A refusal of this game's rules, written in kebab-case on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, IntoStaticStr, EnumIter)]
#[strum(serialize_all = "kebab-case")]
pub enum Code {
    /// An attack of a size other than one, three or five cards.
    AttackSize,
    /// Three cards that hold no pair.
    AttackNeedsPair,
    /// Five cards that hold fewer than two pairs.
    AttackNeedsTwoPairs,
    /// More cards than the defender can answer.
    AttackOverCap,
    /// A card to beat that is not in the attack.
    NotAnAttackCard,
    /// An attack card beaten already.
    AlreadyBeaten,
    /// A card of the suit, but not higher.
    NotHigher,
    /// A trump beaten by a lower trump.
    TrumpNeedsHigherTrump,
    /// Neither the suit nor a trump.
    WrongSuit,
}

impl GameCode for Code {}
