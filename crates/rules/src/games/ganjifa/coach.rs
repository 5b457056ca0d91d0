//! The Ganjifa coach: the strong computer's weighing of a lead or a card put down, read against the
//! move made. The strong computer's playouts count the cards this seat's tricks take in the deal, so
//! that is the unit (a deal score is that less 32). A move it would not have weighed (a card that is
//! not among the weakest two of its suit, an utari of some of the hukms) is weighed beside its own.

use serde::Serialize;

use crate::game::{said, Bot, BotRng, Budget, Coach, Judgement, Measure, Play, Rule};
use crate::games::coaching::{judge_actions, Speaks};
use crate::games::strong::memory_of;

use super::bot::Computer;
use super::ladder::hukm;
use super::pack::{GCard, GSet, GSuit};
use super::rules::Action;
use super::strong::{candidates, weigh};
use super::view::View;
use super::Ganjifa;

/// Ganjifa's coach.
pub struct GanjifaCoach;

/// The coach [`crate::game::Game::coach`] gives.
pub static COACH: GanjifaCoach = GanjifaCoach;

/// Losses of cards won in the deal at which a move is an inaccuracy, a mistake, a blunder.
pub const THRESHOLDS: [f64; 3] = [2.0, 5.0, 10.0];

impl Coach<Ganjifa> for GanjifaCoach {
    fn judge(
        &self,
        views: &[View],
        legal: &[Action],
        made: Option<&Action>,
        budget: Budget,
        rng: &mut BotRng,
    ) -> Judgement<Action> {
        let memory = memory_of::<Ganjifa>(views);
        let (Some(view), Some(me)) = (views.last(), views.last().and_then(|v| v.seat)) else {
            let only = made.copied().unwrap_or(legal[0]);
            return judge_actions(
                vec![only],
                made,
                Measure::Cards,
                THRESHOLDS,
                |_| Default::default(),
                &Words(None),
            );
        };
        let fallback = Computer.choose(view, legal, rng);
        judge_actions(
            candidates(view, legal, fallback),
            made,
            Measure::Cards,
            THRESHOLDS,
            |candidates| weigh(&memory, view, me, candidates, budget, rng),
            &Words(Some(view)),
        )
    }

    fn thresholds(&self) -> [f64; 3] {
        THRESHOLDS
    }
}

/// What the rules say for the better move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "rule", rename_all = "kebab-case")]
pub enum Because {
    /// The card put down, `hukm`, was its suit's hukm (worth keeping to win a trick of the seat's
    /// own); `instead`, the card the coach would have put down, was not.
    HukmKept {
        hukm: GCard,
        suit: GSuit,
        instead: GCard,
    },
    /// Giving up the lead lets the next seat pick a card blind, and the hukm's holder takes the trick.
    LeadGivenUp,
}

/// The moves as the coach names them (the actions themselves), from the view they were made from.
struct Words<'a>(Option<&'a View>);

impl Words<'_> {
    /// Whether `card` is its suit's hukm as far as the seat knows: its strongest card not seen played.
    fn is_hukm(&self, card: GCard) -> bool {
        self.0.is_some_and(|view| {
            hukm(GSet::PACK.minus(view.played), view.burnt, card.suit()) == Some(card)
        })
    }
}

impl Speaks<Action> for Words<'_> {
    fn play(&self, action: &Action) -> Play {
        said(action)
    }

    fn rule(&self, best: &Action, made: &Action) -> Option<Rule> {
        let because = match (*best, *made) {
            (Action::PutDown { card: instead }, Action::PutDown { card }) if self.is_hukm(card) => {
                Because::HukmKept {
                    hukm: card,
                    suit: card.suit(),
                    instead,
                }
            }
            (_, Action::GiveUpLead) => Because::LeadGivenUp,
            _ => return None,
        };
        Some(said(&because))
    }
}

#[cfg(test)]
#[path = "coach_tests.rs"]
mod tests;
