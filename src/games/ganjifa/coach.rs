//! The Ganjifa coach: the strong computer's weighing of a lead or a card put down, read against the
//! move made. The strong computer's playouts count the cards this seat's tricks take in the deal, so
//! that is the unit (a deal score is that less 32). A move it would not have weighed (a card that is
//! not among the weakest two of its suit, an utari of some of the hukms) is weighed beside its own.

use crate::game::{Bot, BotRng, Budget, Coach, Judgement};
use crate::games::coaching::{judge_actions, listed, Measure, Speaks};
use crate::games::strong::memory_of;

use super::bot::Computer;
use super::ladder::hukm;
use super::pack::{GCard, GSet};
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

/// The moves in words, from the view they were made from.
struct Words<'a>(Option<&'a View>);

impl Words<'_> {
    /// Whether `card` is its suit's hukm as far as the seat knows: its strongest card not seen played.
    fn is_hukm(&self, card: GCard) -> bool {
        self.0.is_some_and(|view| {
            hukm(GSet::PACK.minus(view.played), view.burnt, card.suit()) == Some(card)
        })
    }
}

fn cards_in_words(cards: GSet) -> String {
    let words: Vec<String> = cards.iter().map(GCard::describe).collect();
    listed(&words)
}

impl Speaks<Action> for Words<'_> {
    fn describe(&self, action: &Action) -> String {
        match *action {
            Action::PutDown { card } => format!("putting down {}", card.describe()),
            Action::Run { suit } => format!("leading your run of {}", suit.name()),
            Action::Deni { card } => format!("calling with {} (a deni)", card.describe()),
            Action::Burn { suit } => {
                format!("keeping your lone Wazir of {} to burn it", suit.name())
            }
            Action::Talafa { suit, card } if card.suit() == suit => {
                format!("a talafa in {} with {}", suit.name(), card.describe())
            }
            Action::Talafa { suit, card } => format!(
                "a talafa in {} with {} face down",
                suit.name(),
                card.describe()
            ),
            Action::Utari { cards } => {
                format!("leading {} at once (an utari)", cards_in_words(cards))
            }
            Action::GiveUpLead => "giving up the lead for a blind pick".to_string(),
            Action::Pick { back } => format!("picking card {} of the face-down hand", back + 1),
        }
    }

    fn reason(&self, best: &Action, made: &Action) -> Option<String> {
        match (*best, *made) {
            (Action::PutDown { card: kept }, Action::PutDown { card }) if self.is_hukm(card) => {
                Some(format!(
                    "{} was the hukm of {}, worth keeping to win a trick of your own; {} was not.",
                    crate::games::coaching::capitalised(&card.describe()),
                    card.suit().name(),
                    kept.describe()
                ))
            }
            (_, Action::GiveUpLead) => Some(
                "Giving up the lead lets the next seat pick your card blind, and the hukm's holder \
                 takes the trick."
                    .to_string(),
            ),
            _ => None,
        }
    }
}

#[cfg(test)]
#[path = "coach_tests.rs"]
mod tests;
