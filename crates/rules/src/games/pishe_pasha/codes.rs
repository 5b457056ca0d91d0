//! Pishe Pasha's own refusals: giving a card to a neighbour's pile, keeping and turning. The codes every game shares are
//! [`RuleCode`](crate::game::RuleCode)'s own.

use strum::{EnumIter, IntoStaticStr};

use crate::game::GameCode;

/// A refusal of this game's rules, written in kebab-case on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, IntoStaticStr, EnumIter)]
#[strum(serialize_all = "kebab-case")]
pub enum Code {
    /// No card can be given now.
    CannotGive,
    /// The giver's own pile is empty.
    YourPileEmpty,
    /// The neighbour's pile is empty.
    TheirPileEmpty,
    /// The two cards are not one rank apart in the suit.
    NotOneApart,
    /// No turned card to keep.
    NothingToKeep,
    /// The turned card waits to be played or kept first.
    TurnedCardWaiting,
}

impl GameCode for Code {}
