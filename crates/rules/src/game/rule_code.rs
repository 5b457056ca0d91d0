//! Why a rules core refused an action, as a code written in kebab-case on the wire ("not-your-turn",
//! "trump-needs-higher-trump"). Browsers, metrics and tests read them; the sentence beside a code is
//! for the player.
//!
//! A few codes mean the same in every game and are here ([`RuleCode::NOT_YOUR_TURN`] and the
//! others). Each game lists its own in its folder (`games/{game}/codes.rs`), as an enum that turns
//! into a [`RuleCode`], so the shared code knows no game's codes.

use serde::Serialize;

/// A refused action's code, as written on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct RuleCode(&'static str);

impl RuleCode {
    /// The deal is over: no action is taken.
    pub const DEAL_OVER: RuleCode = RuleCode("deal-over");
    /// Another seat is to act.
    pub const NOT_YOUR_TURN: RuleCode = RuleCode("not-your-turn");
    /// The action does not belong to this moment of the deal.
    pub const WRONG_PHASE: RuleCode = RuleCode("wrong-phase");
    /// A card the seat does not hold.
    pub const NOT_IN_HAND: RuleCode = RuleCode("not-in-hand");

    /// The codes every game shares.
    pub const SHARED: [RuleCode; 4] = [
        RuleCode::DEAL_OVER,
        RuleCode::NOT_YOUR_TURN,
        RuleCode::WRONG_PHASE,
        RuleCode::NOT_IN_HAND,
    ];

    /// The code as it is written on the wire.
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// A game's own codes: an enum written in kebab-case (strum's `IntoStaticStr` with
/// `serialize_all = "kebab-case"`), each of its names a code.
pub trait GameCode: Copy + Into<&'static str> {}

impl<C: GameCode> From<C> for RuleCode {
    fn from(code: C) -> RuleCode {
        RuleCode(code.into())
    }
}

impl<C: GameCode> PartialEq<C> for RuleCode {
    fn eq(&self, code: &C) -> bool {
        *self == RuleCode::from(*code)
    }
}

/// Checks a game's codes: each written once, none the same as a shared code, and each the way serde
/// writes it. For each game's tests.
#[cfg(test)]
pub(crate) fn assert_written_once<C: GameCode + strum::IntoEnumIterator>() {
    let mut seen: std::collections::BTreeSet<&str> =
        RuleCode::SHARED.iter().map(|code| code.as_str()).collect();
    assert_eq!(seen.len(), RuleCode::SHARED.len());
    for code in C::iter() {
        let code = RuleCode::from(code);
        let written = serde_json::to_value(code).unwrap();
        assert_eq!(written.as_str(), Some(code.as_str()));
        assert!(seen.insert(code.as_str()), "{code:?} twice");
        assert!(
            code.as_str()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-'),
            "{code:?}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_codes_are_written_in_kebab_case() {
        assert_eq!(RuleCode::NOT_YOUR_TURN.as_str(), "not-your-turn");
        assert_eq!(
            serde_json::to_value(RuleCode::DEAL_OVER).unwrap(),
            serde_json::json!("deal-over")
        );
    }
}
