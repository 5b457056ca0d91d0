//! Why a rules core refused an action: one closed set of codes for every game, written in kebab-case
//! on the wire ("not-your-turn", "trump-needs-higher-trump"). Browsers, metrics and tests read them;
//! the sentence beside a code is for the player.

use serde::Serialize;
use strum::{EnumIter, IntoStaticStr};

/// A refused action's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, IntoStaticStr, EnumIter)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum RuleCode {
    // Every game.
    DealOver,
    NotYourTurn,
    WrongPhase,
    NotInHand,

    // Panjpar: an attack and its defence.
    AttackSize,
    AttackNeedsPair,
    AttackNeedsTwoPairs,
    AttackOverCap,
    NotAnAttackCard,
    AlreadyBeaten,
    NotHigher,
    TrumpNeedsHigherTrump,
    WrongSuit,

    // Pishe Pasha: giving a card to a neighbour's pile, keeping and turning.
    CannotGive,
    YourPileEmpty,
    TheirPileEmpty,
    NotOneApart,
    NothingToKeep,
    TurnedCardWaiting,

    // Ganjifa: tricks, leads, calls and the blind pick.
    PutDownExpected,
    PickExpected,
    LeadExpected,
    NoSuchBack,
    RunFirst,
    DeniFirst,
    NoRun,
    NoDeni,
    DeniLowCard,
    NoBurn,
    NoTalafa,
    TalafaCard,
    UtariHukms,
    UtariAll,
    HoldHukm,
    NoHukmOut,
}

impl RuleCode {
    /// The code as it is written on the wire (the same words serde writes).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::IntoEnumIterator;

    #[test]
    fn each_code_is_written_once_the_same_way_by_serde_and_as_str() {
        let mut seen = std::collections::BTreeSet::new();
        for code in RuleCode::iter() {
            let written = serde_json::to_value(code).unwrap();
            assert_eq!(written.as_str(), Some(code.as_str()));
            assert!(seen.insert(code.as_str()), "{code:?} twice");
        }
        assert_eq!(
            RuleCode::TrumpNeedsHigherTrump.as_str(),
            "trump-needs-higher-trump"
        );
        assert_eq!(RuleCode::NotYourTurn.as_str(), "not-your-turn");
    }
}
