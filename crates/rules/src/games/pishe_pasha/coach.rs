//! The Pishe Pasha coach: the strong computer's weighing of a choice (turn, give or keep), read
//! against the choice made. The strong computer's playouts score a won deal 1 and a lost one 0, so
//! the unit is the chance of winning the deal.

use serde::Serialize;

use crate::cards::{Card, Seat};
use crate::game::{said, BotRng, Budget, Coach, Judgement, Measure, Play, Rule};
use crate::games::coaching::{judge_actions, Speaks};
use crate::games::strong::memory_of;

use super::rules::{Action, SEATS};
use super::strong::weigh;
use super::view::View;
use super::PishePasha;

/// Pishe Pasha's coach.
pub struct PishePashaCoach;

/// The coach [`crate::game::Game::coach`] gives.
pub static COACH: PishePashaCoach = PishePashaCoach;

/// Losses of the chance of winning the deal at which a choice is an inaccuracy, a mistake, a blunder.
pub const THRESHOLDS: [f64; 3] = [0.05, 0.15, 0.30];

impl Coach<PishePasha> for PishePashaCoach {
    fn judge(
        &self,
        views: &[View],
        legal: &[Action],
        made: Option<&Action>,
        budget: Budget,
        rng: &mut BotRng,
    ) -> Judgement<Action> {
        let memory = memory_of::<PishePasha>(views);
        let Some(view) = views.last() else {
            let only = made.copied().unwrap_or(legal[0]);
            return judge_actions(
                vec![only],
                made,
                Measure::Chance,
                THRESHOLDS,
                |_| Default::default(),
                &Words(None),
            );
        };
        judge_actions(
            legal.to_vec(),
            made,
            Measure::Chance,
            THRESHOLDS,
            |candidates| weigh(&memory, view, candidates, budget, rng),
            &Words(Some(view)),
        )
    }

    fn thresholds(&self) -> [f64; 3] {
        THRESHOLDS
    }
}

/// A choice as the coach's reasons name it, with the card it moves when the seat could see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Choice {
    /// Turning the top card of the stock.
    Turn,
    /// Giving `card` to the other seat's pile, `from` the card just turned or the seat's own pile.
    Give { card: Option<Card>, from: Whence },
    /// Keeping `card`, just turned, on the seat's own pile.
    Keep { card: Option<Card> },
}

/// Where a given card comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Whence {
    /// The card just turned from the stock.
    Turned,
    /// The top of the seat's own discard pile.
    Pile,
}

/// What the rules say for the better choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "rule", rename_all = "kebab-case")]
pub enum Because {
    /// A card given is one fewer to play off, and the other seat's pile then holds `count` cards.
    GivingFeedsTheirPile { count: usize },
}

/// The choices as the coach names them, from the view they were made from.
struct Words<'a>(Option<&'a View>);

impl Words<'_> {
    fn choice(&self, action: &Action) -> Choice {
        let turned = self.0.and_then(|v| v.turned);
        match action {
            Action::Turn => Choice::Turn,
            Action::Give => match (turned, self.0) {
                (Some(card), _) => Choice::Give {
                    card: Some(card),
                    from: Whence::Turned,
                },
                (None, view) => Choice::Give {
                    card: view.and_then(|v| v.piles[v.seat.unwrap_or(Seat::new(0))].top),
                    from: Whence::Pile,
                },
            },
            Action::Keep => Choice::Keep { card: turned },
        }
    }
}

impl Speaks<Action> for Words<'_> {
    fn play(&self, action: &Action) -> Play {
        said(&self.choice(action))
    }

    fn rule(&self, best: &Action, _made: &Action) -> Option<Rule> {
        let view = self.0?;
        let other = view.seat.unwrap_or(Seat::new(0)).next(SEATS);
        match best {
            Action::Give => Some(said(&Because::GivingFeedsTheirPile {
                count: usize::from(view.piles[other].count) + 1,
            })),
            _ => None,
        }
    }
}

#[cfg(test)]
#[path = "coach_tests.rs"]
mod tests;
