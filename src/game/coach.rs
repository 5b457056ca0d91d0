//! The coach's side of the contract: a game's strong computer judging one seat's decision.

use serde::{Deserialize, Serialize};

use super::{BotRng, Budget, Game};

/// How costly a decision was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Grade {
    Fine,
    Inaccuracy,
    Mistake,
    Blunder,
}

/// The strong computer's judgement of one decision of one seat.
#[derive(Clone, Debug, Serialize)]
pub struct Judgement<A> {
    pub best: A,
    pub best_value: f64,
    pub made_value: Option<f64>,
    pub unit: &'static str,
    pub grade: Grade,
    pub why: String,
}

/// A game's coach.
pub trait Coach<G: Game>: Send + Sync {
    fn judge(
        &self,
        views: &[G::View],
        legal: &[G::Action],
        made: Option<&G::Action>,
        budget: Budget,
        rng: &mut BotRng,
    ) -> Judgement<G::Action>;
    fn thresholds(&self) -> [f64; 3];
}
