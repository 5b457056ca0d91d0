//! Ganjifa's own refusals: tricks, leads, calls and the blind pick. The codes every game shares are
//! [`RuleCode`](crate::game::RuleCode)'s own.

use strum::{EnumIter, IntoStaticStr};

use crate::game::GameCode;

/// A refusal of this game's rules, written in kebab-case on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, IntoStaticStr, EnumIter)]
#[strum(serialize_all = "kebab-case")]
pub enum Code {
    /// The seat is to put a card down.
    PutDownExpected,
    /// The seat is to pick a card face down.
    PickExpected,
    /// The seat is to lead.
    LeadExpected,
    /// No face-down card at that place.
    NoSuchBack,
    /// A run must be led first.
    RunFirst,
    /// A deni must be led first.
    DeniFirst,
    /// The cards are not a run the seat may lead.
    NoRun,
    /// No deni the seat may lead.
    NoDeni,
    /// A deni is led from its lowest card.
    DeniLowCard,
    /// Nothing to burn.
    NoBurn,
    /// No talafa may be played.
    NoTalafa,
    /// A card that cannot be the talafa.
    TalafaCard,
    /// An utari must take the hukms first.
    UtariHukms,
    /// An utari must lead every card.
    UtariAll,
    /// A hukm held back while it must be led.
    HoldHukm,
    /// No hukm is out to call for.
    NoHukmOut,
}

impl GameCode for Code {}
