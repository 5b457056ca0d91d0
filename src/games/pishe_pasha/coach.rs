//! The Pishe Pasha coach: the strong computer's weighing of a choice (turn, give or keep), read
//! against the choice made. The strong computer's playouts score a won deal 1 and a lost one 0, so
//! the unit is the chance of winning the deal.

use crate::cards::Seat;
use crate::game::{BotRng, Budget, Coach, Judgement};
use crate::games::coaching::{judge_actions, Measure, Speaks};
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

/// The choices in words, from the view they were made from.
struct Words<'a>(Option<&'a View>);

impl Words<'_> {
    /// The card a give would give: the one just turned, or the top of the seat's discard pile.
    fn given(&self) -> Option<String> {
        let view = self.0?;
        let me = view.seat.unwrap_or(Seat::new(0));
        match view.turned {
            Some(card) => Some(format!("{}, just turned,", card.describe())),
            None => view.piles[me]
                .top
                .map(|card| format!("{} from the top of your discard pile", card.describe())),
        }
    }
}

impl Speaks<Action> for Words<'_> {
    fn describe(&self, action: &Action) -> String {
        match action {
            Action::Turn => "turning the top card of your stock".to_string(),
            Action::Give => match self.given() {
                Some(card) => format!("giving {card} to the other seat"),
                None => "giving the card to the other seat".to_string(),
            },
            Action::Keep => match self.0.and_then(|v| v.turned) {
                Some(card) => format!("keeping {} on your discard pile", card.describe()),
                None => "keeping the card on your discard pile".to_string(),
            },
        }
    }

    fn reason(&self, best: &Action, made: &Action) -> Option<String> {
        let view = self.0?;
        let other = view.seat.unwrap_or(Seat::new(0)).next(SEATS);
        match (best, made) {
            (Action::Give, _) => Some(format!(
                "A card given is one card fewer for you to play off and one more on their pile, \
                 which then holds {} cards.",
                view.piles[other].count + 1
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
#[path = "coach_tests.rs"]
mod tests;
