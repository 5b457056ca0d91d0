//! The Panjpar coach: the strong computer's weighing of a decision, read against the move made. Its
//! unit is the chance of winning the deal (a drawn deal counting a half). An attack is its own
//! candidate; a beat belongs to every defence plan that holds it (the order of beats changes nothing),
//! a pick-up to the plan that beats nothing more, and the made move counts as the best of its plans.

use rand::seq::SliceRandom;

use crate::cards::{Card, CardSet, Colour, Seat, Suit};
use crate::game::{BotRng, Budget, Coach, DealSetup, Grade, Judgement};
use crate::games::coaching::{capitalised, listed, sampled_why, verdict, Measure, Verdict};
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
            return only_move(
                first,
                0.5,
                "The coach saw nothing of this deal from your seat.",
            );
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
            return only_move(
                best.unwrap_or(first),
                value,
                "It was the only real choice: every other legal move comes to the same.",
            );
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
        let made_phrase = made.map(|m| describe_action(view, m));
        let best_phrase = describe(view, &best_candidate);
        let why = match weighing {
            Weighing::Exact(_) => exact_why(&verdict, &best_phrase, made_phrase.as_deref()),
            Weighing::Sampled(_) => {
                let reason = verdict
                    .made
                    .filter(|_| verdict.grade != Grade::Fine)
                    .and_then(|(i, _)| reason(view, trump, &best_candidate, &candidates[i]));
                sampled_why(
                    MEASURE,
                    &verdict,
                    &best_phrase,
                    made_phrase.as_deref(),
                    reason.as_deref(),
                )
            }
        };
        Judgement {
            best: best_action,
            best_value: verdict.best_value,
            made_value: verdict.made.map(|(_, v)| v),
            unit: MEASURE.unit(),
            grade: verdict.grade,
            why,
        }
    }

    fn thresholds(&self) -> [f64; 3] {
        THRESHOLDS
    }
}

/// A Fine judgement of a decision with nothing to choose between.
fn only_move(action: Action, value: f64, why: &str) -> Judgement<Action> {
    Judgement {
        best: action,
        best_value: value,
        made_value: Some(value),
        unit: MEASURE.unit(),
        grade: Grade::Fine,
        why: why.to_string(),
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
    let colour = match action {
        Action::Guess {
            colour: Colour::Red,
        } => "red",
        _ => "black",
    };
    only_move(
        action,
        value,
        &format!(
            "Guessing {colour} is as good as the other colour: nothing is seen before the guess and \
             half the pack is red; you won the deal in {} of the deals drawn after it.",
            MEASURE.amount(value)
        ),
    )
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

/// A card list in words: "the 7 of hearts and the 9 of spades".
fn cards_in_words(cards: CardSet) -> String {
    let words: Vec<String> = cards.iter().map(Card::describe).collect();
    listed(&words)
}

/// A whole candidate as a phrase: "attacking with the 7 of hearts", "beating the 7 of hearts with the
/// 9 of hearts and picking up the 3 of clubs".
fn describe(view: &View, candidate: &Candidate) -> String {
    match candidate {
        Candidate::Attack(cards) => format!("attacking with {}", cards_in_words(*cards)),
        Candidate::Defend(plan) => {
            let uncovered = view.battle.map_or(CardSet::EMPTY, |b| b.uncovered());
            let beats: Vec<String> = plan
                .pairs()
                .iter()
                .map(|(attack, with)| format!("{} with {}", attack.describe(), with.describe()))
                .collect();
            let picked = uncovered.minus(plan.beaten());
            match (beats.is_empty(), picked.is_empty()) {
                (true, _) => format!("picking up {}", cards_in_words(picked)),
                (false, true) => format!("beating {}", listed(&beats)),
                (false, false) => format!(
                    "beating {} and picking up {}",
                    listed(&beats),
                    cards_in_words(picked)
                ),
            }
        }
    }
}

/// The made action as a phrase.
fn describe_action(view: &View, action: &Action) -> String {
    match action {
        Action::Attack { cards } => format!("attacking with {}", cards_in_words(*cards)),
        Action::Beat { attack, with } => {
            format!("beating {} with {}", attack.describe(), with.describe())
        }
        Action::PickUp => {
            let uncovered = view.battle.map_or(CardSet::EMPTY, |b| b.uncovered());
            format!("picking up {}", cards_in_words(uncovered))
        }
        Action::Guess { .. } => "the guess".to_string(),
    }
}

/// What the rules can say for the better move: the trumps it keeps, the cards it takes in, the cards
/// it sheds.
fn reason(view: &View, trump: Suit, best: &Candidate, made: &Candidate) -> Option<String> {
    let spent = |c: &Candidate| match c {
        Candidate::Attack(cards) => cards.of_suit(trump),
        Candidate::Defend(plan) => plan.beating().of_suit(trump),
    };
    let kept = spent(made).minus(spent(best));
    if !kept.is_empty() {
        let noun = if kept.len() == 1 { "trump" } else { "trumps" };
        return Some(format!("It keeps your {noun}, {}.", cards_in_words(kept)));
    }
    match (best, made) {
        (Candidate::Defend(best), Candidate::Defend(made)) => {
            let uncovered = view.battle.map_or(0, |b| b.uncovered().len());
            let taken = |n: usize| uncovered.saturating_sub(n);
            let (b, m) = (taken(best.len), taken(made.len));
            (b < m).then(|| {
                let n = m - b;
                format!(
                    "It takes {n} card{} fewer into your hand.",
                    if n == 1 { "" } else { "s" }
                )
            })
        }
        (Candidate::Attack(best), Candidate::Attack(made)) if best.len() > made.len() => Some(
            format!("It sheds {} cards at once, not {}.", best.len(), made.len()),
        ),
        _ => None,
    }
}

/// The sentence for an endgame solved exactly.
fn exact_why(verdict: &Verdict, best: &str, made: Option<&str>) -> String {
    let result = |value: f64| {
        if value > 0.75 {
            "wins the deal"
        } else if value > 0.25 {
            "draws the deal"
        } else {
            "loses the deal"
        }
    };
    const KNOWN: &str =
        "with nothing left to draw, every card you had not seen was in the other hand";
    match (verdict.made, made) {
        (Some((i, value)), Some(made)) if i != verdict.best => format!(
            "{} {} with best play on both sides, while {made} {}: {KNOWN}.",
            capitalised(best),
            result(verdict.best_value),
            result(value)
        ),
        (Some(_), Some(made)) => format!(
            "{} was as good as any move: it {} with best play on both sides ({KNOWN}).",
            capitalised(made),
            result(verdict.best_value)
        ),
        _ => format!(
            "{} {} with best play on both sides: {KNOWN}.",
            capitalised(best),
            result(verdict.best_value)
        ),
    }
}

#[cfg(test)]
#[path = "coach_tests.rs"]
mod tests;
