//! The Panjpar coach: the strong computer's weighing of a decision, read against the move made. Its
//! unit is the chance of winning the deal (a drawn deal counting a half). An attack is its own
//! candidate; a beat belongs to every defence plan that holds it (the order of beats changes nothing),
//! a pick-up to the plan that beats nothing more, and the made move counts as the best of its plans.

use rand::seq::SliceRandom;
use serde::Serialize;

use crate::cards::{Card, CardSet, Colour, Seat, Suit};
use crate::game::{
    said, BotRng, Budget, Coach, DealSetup, End, Grade, Judgement, Measure, Reason, Rule,
};
use crate::games::coaching::{sampled_reason, verdict, Verdict};
use crate::games::strong::{memory_of, playouts};

use super::endgame::{defences, Endgame};
use super::rules::{self, Action};
use super::strong::{candidates, playout, weigh, Candidate, Weighing, MOST_PLANS};
use super::view::View;
use super::Panjpar;

/// Panjpar's coach.
pub struct PanjparCoach;

/// The coach [`crate::game::Game::coach`] gives.
pub static COACH: PanjparCoach = PanjparCoach;

/// Losses of the chance of winning the deal at which a move is an inaccuracy, a mistake, a blunder.
pub const THRESHOLDS: [f64; 3] = [0.05, 0.15, 0.30];

const MEASURE: Measure = Measure::Chance;

impl Coach<Panjpar> for PanjparCoach {
    fn judge(
        &self,
        views: &[View],
        legal: &[Action],
        made: Option<&Action>,
        budget: Budget,
        rng: &mut BotRng,
    ) -> Judgement<Action> {
        let first = made.copied().unwrap_or(legal[0]);
        let (Some(view), Some(me)) = (views.last(), views.last().and_then(|v| v.seat)) else {
            return only_move(first, 0.5, Reason::Unseen);
        };
        let Some(trump) = view.trump else {
            return guess(view, me, first, budget, rng);
        };
        let memory = memory_of::<Panjpar>(views);
        let mut candidates = candidates(view, legal, trump);
        let mut group = Vec::new();
        if let Some(made) = made {
            group = belonging(&candidates, made);
            if group.is_empty() {
                candidates.extend(missing(view, made, trump));
                group = belonging(&candidates, made);
            }
        }
        if candidates.len() <= 1 || (made.is_some() && group.len() == candidates.len()) {
            let mut line = memory.sample(view, rng);
            let value = match (&mut line, candidates.first()) {
                (Some(state), Some(candidate)) => {
                    candidate.play(state, me);
                    let mut solver = Endgame::new(trump, 20_000);
                    playout(state.clone(), me, Some(&mut solver))
                }
                _ => 0.5,
            };
            let best = made
                .copied()
                .or(candidates.first().map(Candidate::first_action));
            let best = best.unwrap_or(first);
            let play = said(&Move::of_action(view, &best));
            let why = Reason::Only {
                measure: MEASURE,
                play,
                value,
            };
            return only_move(best, value, why);
        }
        let weighing = weigh(&memory, view, me, trump, &candidates, budget, rng);
        let values = weighing.values();
        let choice = weighing.best();
        let verdict = verdict(
            &values,
            choice,
            made.map(|_| group.as_slice()),
            |a, b| weighing.noise(a, b),
            THRESHOLDS,
        );
        let best_candidate = candidates[verdict.best];
        let best_action = match made {
            Some(made) if group.contains(&verdict.best) => *made,
            _ => best_candidate.first_action(),
        };
        let made_move = made.map(|m| said(&Move::of_action(view, m)));
        let best_move = said(&Move::of_candidate(view, &best_candidate));
        let why = match weighing {
            Weighing::Exact(_) => solved(&verdict, best_move, made_move),
            Weighing::Sampled(_) => {
                let rule = verdict
                    .made
                    .filter(|_| verdict.grade != Grade::Fine)
                    .and_then(|(i, _)| rule(view, trump, &best_candidate, &candidates[i]));
                sampled_reason(MEASURE, &verdict, best_move, made_move, rule)
            }
        };
        Judgement {
            best: best_action,
            best_value: verdict.best_value,
            made_value: verdict.made.map(|(_, v)| v),
            unit: MEASURE.unit(),
            grade: verdict.grade,
            why: why.into(),
        }
    }

    fn thresholds(&self) -> [f64; 3] {
        THRESHOLDS
    }
}

/// A Fine judgement of a decision with nothing to choose between.
fn only_move(action: Action, value: f64, why: Reason) -> Judgement<Action> {
    Judgement {
        best: action,
        best_value: value,
        made_value: Some(value),
        unit: MEASURE.unit(),
        grade: Grade::Fine,
        why: why.into(),
    }
}

/// The guess: nothing is seen before it and half the pack is red, so both colours are alike; its
/// value is the chance of winning after it, over deals drawn from the whole pack.
fn guess(
    view: &View,
    me: Seat,
    action: Action,
    budget: Budget,
    rng: &mut BotRng,
) -> Judgement<Action> {
    let setup = DealSetup {
        index: 0,
        first: view.guesser,
    };
    let weighed = playouts(
        &[action],
        budget,
        rng,
        |rng| {
            let mut cards = crate::cards::deck();
            cards.shuffle(rng);
            Some(rules::deal_from(&setup, &cards))
        },
        |mut state, guess, _| {
            if rules::apply(&mut state, me, guess).is_err() {
                return 0.5;
            }
            playout(state, me, None)
        },
    );
    let value = weighed.means()[0];
    let why = Reason::Guess {
        measure: MEASURE,
        play: said(&Move::of_action(view, &action)),
        value,
    };
    only_move(action, value, why)
}

/// The candidates the made move belongs to.
fn belonging(candidates: &[Candidate], made: &Action) -> Vec<usize> {
    let holds = |candidate: &Candidate| match (candidate, made) {
        (Candidate::Attack(cards), Action::Attack { cards: made }) => cards == made,
        (Candidate::Defend(plan), Action::Beat { attack, with }) => {
            plan.pairs().contains(&(*attack, *with))
        }
        (Candidate::Defend(plan), Action::PickUp) => plan.len == 0,
        _ => false,
    };
    (0..candidates.len())
        .filter(|&i| holds(&candidates[i]))
        .collect()
}

/// The plans holding the made move when the strong computer's list (cut at [`MOST_PLANS`]) has none.
fn missing(view: &View, made: &Action, trump: Suit) -> Vec<Candidate> {
    let all = match (made, view.battle) {
        (Action::Attack { cards }, _) => return vec![Candidate::Attack(*cards)],
        (Action::Beat { .. } | Action::PickUp, Some(battle)) => {
            defences(battle.uncovered(), view.hand, trump)
        }
        _ => return Vec::new(),
    };
    let plans: Vec<Candidate> = all.into_iter().map(Candidate::Defend).collect();
    let mut held: Vec<Candidate> = belonging(&plans, made)
        .into_iter()
        .map(|i| plans[i])
        .collect();
    held.truncate(MOST_PLANS);
    held
}

/// A move as the coach's reasons name it: an attack, a whole defence (the attack cards it beats, each
/// with the card beating it, and those it picks up), or a guess.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Move {
    Attack {
        cards: CardSet,
    },
    Defend {
        /// Each attack card beaten, with the card that beats it.
        beats: Vec<(Card, Card)>,
        /// The attack cards left uncovered, picked up.
        pick_up: CardSet,
    },
    Guess {
        colour: Colour,
    },
}

impl Move {
    /// A whole candidate of the strong computer.
    fn of_candidate(view: &View, candidate: &Candidate) -> Move {
        match candidate {
            Candidate::Attack(cards) => Move::Attack { cards: *cards },
            Candidate::Defend(plan) => {
                let uncovered = view.battle.map_or(CardSet::EMPTY, |b| b.uncovered());
                Move::Defend {
                    beats: plan.pairs().to_vec(),
                    pick_up: uncovered.minus(plan.beaten()),
                }
            }
        }
    }

    /// One action, as it was made (a pick-up names the cards it takes).
    fn of_action(view: &View, action: &Action) -> Move {
        match *action {
            Action::Attack { cards } => Move::Attack { cards },
            Action::Beat { attack, with } => Move::Defend {
                beats: vec![(attack, with)],
                pick_up: CardSet::EMPTY,
            },
            Action::PickUp => Move::Defend {
                beats: Vec::new(),
                pick_up: view.battle.map_or(CardSet::EMPTY, |b| b.uncovered()),
            },
            Action::Guess { colour } => Move::Guess { colour },
        }
    }
}

/// What the rules say for the better move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "rule", rename_all = "kebab-case")]
pub enum Because {
    /// It keeps these trumps in the seat's hand.
    KeepsTrumps { cards: CardSet },
    /// It takes this many cards fewer into the seat's hand.
    TakesFewer { cards: usize },
    /// It sheds `best` cards at once, not `made`.
    ShedsMore { best: usize, made: usize },
}

/// What the rules can say for the better move: the trumps it keeps, the cards it takes in, the cards
/// it sheds.
fn rule(view: &View, trump: Suit, best: &Candidate, made: &Candidate) -> Option<Rule> {
    let spent = |c: &Candidate| match c {
        Candidate::Attack(cards) => cards.of_suit(trump),
        Candidate::Defend(plan) => plan.beating().of_suit(trump),
    };
    let kept = spent(made).minus(spent(best));
    let because = if !kept.is_empty() {
        Because::KeepsTrumps { cards: kept }
    } else {
        match (best, made) {
            (Candidate::Defend(best), Candidate::Defend(made)) => {
                let uncovered = view.battle.map_or(0, |b| b.uncovered().len());
                let taken = |n: usize| uncovered.saturating_sub(n);
                let (b, m) = (taken(best.len), taken(made.len));
                if b >= m {
                    return None;
                }
                Because::TakesFewer { cards: m - b }
            }
            (Candidate::Attack(best), Candidate::Attack(made)) if best.len() > made.len() => {
                Because::ShedsMore {
                    best: best.len(),
                    made: made.len(),
                }
            }
            _ => return None,
        }
    };
    Some(said(&because))
}

/// The reason for an endgame solved exactly: how each move ends with best play on both sides, with
/// nothing left to draw and every card the seat had not seen in the other hand.
fn solved(verdict: &Verdict, best: serde_json::Value, made: Option<serde_json::Value>) -> Reason {
    match (verdict.made, made) {
        (Some((i, value)), Some(made)) if i != verdict.best => Reason::SolvedBetter {
            best,
            best_end: End::of_value(verdict.best_value),
            made,
            made_end: End::of_value(value),
        },
        (Some(_), Some(made)) => Reason::SolvedAgreed {
            made,
            end: End::of_value(verdict.best_value),
        },
        _ => Reason::SolvedHint {
            best,
            end: End::of_value(verdict.best_value),
        },
    }
}

#[cfg(test)]
#[path = "coach_tests.rs"]
mod tests;
