//! The strong computer for Panjpar. It decides from its own views and what it remembers of them:
//!
//! - the cards gone aside (every finished battle is shown to both seats before the next attack);
//! - the cards the other seat picked up and still holds.
//!
//! Every other card it has not seen is either in the other hand or in the pile, so it draws deals that
//! agree with all of this (the other hand made up with unseen cards, the rest shuffled into the pile
//! over the trump card), plays each candidate in them, and lets the standard computer finish for both
//! seats; whenever a playout reaches a small endgame it is solved exactly instead. Once nothing is left
//! to draw, every unseen card is in the other hand: the strong computer solves the rest of the deal
//! exactly and plays a winning move when there is one.
//!
//! Defending, it weighs whole plans (which attack cards to beat, with what, and what to pick up),
//! then plays the plan's first beat, or picks up.

use rand::seq::SliceRandom;
use rand::Rng;

use crate::cards::{BySeat, Card, CardSet, Colour, Seat};
use crate::game::BotRng;
use crate::game::Budget;
use crate::games::strong::{playouts, Playouts, Remembers, Thinking};

use super::bot::{choose_attack, choose_defence};
use super::endgame::{defences, Defence, Endgame};
use super::rules::{self, Action, Phase, State, SEATS};
use super::view::{view, View};
use super::Panjpar;

/// Endgames with at most this many cards in the two hands are solved inside playouts.
const SOLVE_IN_PLAYOUTS: usize = 12;
/// Positions the solver may search for one playout's endgame.
const PLAYOUT_NODES: u64 = 2_000;

/// Positions the solver may search for the whole rest of the deal at the root: it grows with the
/// budget (500 per millisecond, or 20,000 per sampled deal).
fn root_nodes(budget: Budget) -> u64 {
    match budget {
        Budget::Time(limit) => 500 * limit.as_millis() as u64,
        Budget::Samples(n) => 20_000 * u64::from(n),
    }
}
/// The most defence plans weighed at once; those beating more come first.
pub(super) const MOST_PLANS: usize = 40;

/// What the strong computer remembers of the deal so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Cards the other seat picked up and has not played since.
    pub known: CardSet,
    /// Cards gone aside in finished battles.
    pub set_aside: CardSet,
    /// The trump card, remembered once it has been drawn.
    pub trump_card: Option<Card>,
}

impl Remembers<View> for Memory {
    fn remember(&mut self, view: &View) {
        let Some(me) = view.seat else {
            return;
        };
        if view.phase == Phase::Guess {
            *self = Memory::default();
            return;
        }
        if view.trump_card.is_some() {
            self.trump_card = view.trump_card;
        }
        let other = me.next(SEATS);
        for battle in [view.last_battle, view.battle].into_iter().flatten() {
            let played = if battle.attacker == other {
                battle.attack
            } else {
                battle.beating_cards()
            };
            self.known = self.known.minus(played);
            if battle.attacker == me {
                self.known = self.known.union(battle.picked_up);
            }
            if battle.finished {
                self.set_aside = self
                    .set_aside
                    .union(battle.beaten())
                    .union(battle.beating_cards());
            }
        }
    }
}

impl Memory {
    /// The cards this seat has not seen and cannot place: each is in the other hand or the pile.
    pub fn unseen(&self, view: &View) -> CardSet {
        let table = view.battle.map_or(CardSet::EMPTY, |b| b.cards_on_table());
        let mut seen = view
            .hand
            .union(self.set_aside)
            .union(table)
            .union(self.known);
        if let Some(card) = view.trump_card {
            seen.insert(card);
        }
        CardSet::DECK.minus(seen)
    }

    /// A deal that agrees with everything seen: the other hand is the known cards and unseen ones to
    /// make up its count, the pile the rest of the unseen cards, shuffled. `None` when the view and
    /// the memory disagree (a deal joined halfway).
    pub fn sample(&self, view: &View, rng: &mut impl Rng) -> Option<State> {
        let me = view.seat?;
        let other = me.next(SEATS);
        let trump = view.trump?;
        let mut unseen: Vec<Card> = self.unseen(view).iter().collect();
        let hidden = view.counts[other].checked_sub(self.known.len())?;
        if hidden > unseen.len() || (!view.stock_left && hidden != unseen.len()) {
            return None;
        }
        unseen.shuffle(rng);
        let mut hands = BySeat::<CardSet, SEATS>::default();
        hands[me] = view.hand;
        hands[other] = self.known.union(unseen.drain(..hidden).collect());
        let trump_card = view
            .trump_card
            .or(self.trump_card)
            .unwrap_or(Card::new(crate::cards::Rank::Two, trump));
        Some(State {
            phase: view.phase,
            guesser: view.guesser,
            guess: view.guess,
            hands,
            pile: unseen,
            trump_card,
            trump_drawn_by: view.trump_drawn_by,
            attacker: view.attacker?,
            battle: view.battle,
            last_battle: view.last_battle,
            set_aside: self.set_aside,
        })
    }
}

/// The strong computer for Panjpar.
pub type Strong = crate::games::strong::Strong<Panjpar>;

impl Thinking for Panjpar {
    type Memory = Memory;

    fn decide(
        memory: &Memory,
        view: &View,
        legal: &[Action],
        budget: Budget,
        rng: &mut BotRng,
    ) -> Action {
        let (Some(me), Some(trump)) = (view.seat, view.trump) else {
            return Action::Guess {
                colour: if rng.gen_bool(0.5) {
                    Colour::Red
                } else {
                    Colour::Black
                },
            };
        };
        let candidates = candidates(view, legal, trump);
        if candidates.len() <= 1 {
            return candidates.first().map_or(legal[0], Candidate::first_action);
        }
        let weighing = weigh(memory, view, me, trump, &candidates, budget, rng);
        candidates[weighing.best()].first_action()
    }
}

/// The candidates' values: exact, once nothing is left to draw and the endgame is small enough, else
/// from playouts over sampled deals.
pub(super) enum Weighing {
    /// Per candidate, its exact value for this seat (+1 a win, 0 a drawn deal, -1 a loss with best
    /// play on both sides) and the standard computer's playout from it, which breaks ties.
    Exact(Vec<(i8, f64)>),
    Sampled(Playouts),
}

impl Weighing {
    /// The candidate the strong computer plays.
    pub(super) fn best(&self) -> usize {
        match self {
            Weighing::Exact(values) => {
                let mut best = 0;
                for (i, value) in values.iter().enumerate() {
                    if *value > values[best] {
                        best = i;
                    }
                }
                best
            }
            Weighing::Sampled(playouts) => playouts.best(),
        }
    }

    /// Each candidate's chance of winning the deal (a drawn deal counting a half).
    pub(super) fn values(&self) -> Vec<f64> {
        match self {
            Weighing::Exact(values) => values
                .iter()
                .map(|&(value, _)| f64::from(value + 1) / 2.0)
                .collect(),
            Weighing::Sampled(playouts) => playouts.means(),
        }
    }

    /// The standard error of the difference between two candidates' values (none when exact).
    pub(super) fn noise(&self, a: usize, b: usize) -> f64 {
        match self {
            Weighing::Exact(_) => 0.0,
            Weighing::Sampled(playouts) => playouts.difference_error(a, b),
        }
    }
}

/// Weighs `candidates` (two or more) for `me` within `budget`: with nothing left to draw, solves the
/// endgame exactly if it can, else plays every candidate in sampled deals.
pub(super) fn weigh(
    memory: &Memory,
    view: &View,
    me: Seat,
    trump: crate::cards::Suit,
    candidates: &[Candidate],
    budget: Budget,
    rng: &mut BotRng,
) -> Weighing {
    let started = crate::game::CpuTime::now();
    let mut solver = Endgame::new(trump, root_nodes(budget));
    if !view.stock_left {
        if let Some(state) = memory.sample(view, rng) {
            if let Some(values) = solve_exactly(&state, me, candidates, &mut solver) {
                return Weighing::Exact(values);
            }
        }
    }
    // Time spent on the exact solve comes out of the playouts' share.
    let budget = match budget {
        Budget::Time(limit) => Budget::Time(limit.saturating_sub(started.elapsed())),
        samples => samples,
    };
    Weighing::Sampled(playouts(
        candidates,
        budget,
        rng,
        |rng| memory.sample(view, rng),
        |mut state, candidate, _| {
            candidate.play(&mut state, me);
            playout(state, me, Some(&mut solver))
        },
    ))
}

/// A move weighed as a whole: an attack, or a defence plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Candidate {
    Attack(CardSet),
    Defend(Defence),
}

impl Candidate {
    /// The action that starts it.
    pub(super) fn first_action(&self) -> Action {
        match self {
            Candidate::Attack(cards) => Action::Attack { cards: *cards },
            Candidate::Defend(defence) => match defence.pairs().first() {
                Some(&(attack, with)) => Action::Beat { attack, with },
                None => Action::PickUp,
            },
        }
    }

    /// Plays the whole of it.
    pub(super) fn play(&self, state: &mut State, seat: Seat) {
        match self {
            Candidate::Attack(cards) => {
                let _ = rules::apply(state, seat, &Action::Attack { cards: *cards });
            }
            Candidate::Defend(defence) => {
                for &(attack, with) in defence.pairs() {
                    let _ = rules::apply(state, seat, &Action::Beat { attack, with });
                }
                if state.phase == Phase::Defend {
                    let _ = rules::apply(state, seat, &Action::PickUp);
                }
            }
        }
    }
}

/// The candidates: every legal attack, or the defence plans (at most [`MOST_PLANS`]).
pub(super) fn candidates(
    view: &View,
    legal: &[Action],
    trump: crate::cards::Suit,
) -> Vec<Candidate> {
    match (view.phase, view.battle) {
        (Phase::Defend, Some(battle)) => {
            let mut plans = defences(battle.uncovered(), view.hand, trump);
            plans.truncate(MOST_PLANS);
            plans.into_iter().map(Candidate::Defend).collect()
        }
        _ => legal
            .iter()
            .filter_map(|a| match a {
                Action::Attack { cards } => Some(Candidate::Attack(*cards)),
                _ => None,
            })
            .collect(),
    }
}

/// With nothing left to draw: every candidate's exact value with the standard computer's playout
/// from it (which breaks ties between equal values); `None` when the endgame is too large to solve.
fn solve_exactly(
    state: &State,
    me: Seat,
    candidates: &[Candidate],
    solver: &mut Endgame,
) -> Option<Vec<(i8, f64)>> {
    let other = me.next(SEATS);
    let mut values = Vec::with_capacity(candidates.len());
    for candidate in candidates {
        let value = match candidate {
            Candidate::Attack(cards) => {
                solver.defended_value(state.hands[me].minus(*cards), state.hands[other], *cards)?
            }
            Candidate::Defend(defence) => {
                let uncovered = state.battle?.uncovered();
                -solver.after_defence(state.hands[other], state.hands[me], uncovered, defence)?
            }
        };
        let mut line = state.clone();
        candidate.play(&mut line, me);
        values.push((value, playout(line, me, None)));
    }
    Some(values)
}

/// Finishes a deal with the standard computer's play for both seats, solving the endgame exactly
/// once it is small when given a solver: 1 for a win of `me`, a half for a drawn deal, 0 for a loss.
pub(super) fn playout(mut state: State, me: Seat, mut solver: Option<&mut Endgame>) -> f64 {
    while let Some(seat) = rules::to_act(&state) {
        if let Some(solver) = solver.as_deref_mut().filter(|_| {
            state.phase == Phase::Attack
                && !state.stock_left()
                && state.hands[seat].len() + state.hands[seat.next(SEATS)].len()
                    <= SOLVE_IN_PLAYOUTS
        }) {
            solver.allow(PLAYOUT_NODES);
            if let Some(value) =
                solver.attack_value(state.hands[seat], state.hands[seat.next(SEATS)])
            {
                let mine = if seat == me { value } else { -value };
                return f64::from(mine + 1) / 2.0;
            }
        }
        let seen = view(&state, Some(seat));
        let action = match state.phase {
            Phase::Attack => Action::Attack {
                cards: choose_attack(&seen, CardSet::EMPTY),
            },
            _ => choose_defence(&seen),
        };
        if rules::apply(&mut state, seat, &action).is_err() {
            break;
        }
    }
    match state.phase {
        Phase::Over { winner: Some(w) } if w == me => 1.0,
        Phase::Over { winner: None } => 0.5,
        _ => 0.0,
    }
}

/// A deal as dealt, and the same deal after seat 0's guess twice, the second unlike the first in the
/// cards seat 0 cannot see (the other hand and the pile, shuffled with `seed`): for tests that what a
/// seat cannot see changes nothing it decides.
#[cfg(test)]
pub(super) fn hidden_twins(seed: u64) -> (State, State, State) {
    use crate::game::{DealSetup, Game};
    use rand::SeedableRng;
    let setup = DealSetup {
        index: 0,
        first: Seat::new(0),
    };
    let dealt = Panjpar::deal(&setup, &mut crate::cards::deal_rng(seed));
    let mut one = dealt.clone();
    let colour = one.trump().colour();
    Panjpar::apply(&mut one, Seat::new(0), &Action::Guess { colour }).unwrap();
    let mut two = one.clone();
    let mut hidden: Vec<Card> = two.hands[Seat::new(1)]
        .iter()
        .chain(two.pile.clone())
        .collect();
    hidden.shuffle(&mut BotRng::seed_from_u64(seed));
    two.hands[Seat::new(1)] = hidden.drain(..5).collect();
    two.pile = hidden;
    assert_ne!(one, two);
    (dealt, one, two)
}

#[cfg(test)]
mod tests {
    use super::super::endgame::endgame_state;
    use super::*;
    use crate::game::Bot;
    use crate::game::Game;
    use crate::games::strong::self_play;
    use rand::SeedableRng;

    fn strong_against_computer(seat: Seat) -> Box<dyn Bot<Panjpar>> {
        if seat == Seat::new(0) {
            Box::new(Strong::new(Budget::Samples(4)))
        } else {
            Box::new(super::super::bot::Computer::new())
        }
    }

    #[test]
    fn the_strong_computer_plays_legal_moves_and_its_deals_agree_with_its_views() {
        let mut memory = Memory::default();
        let mut rng = BotRng::seed_from_u64(5);
        let mut sampled = 0;
        let outcomes = self_play::<Panjpar>(24, 21, strong_against_computer, |_, seen| {
            memory.remember(seen);
            if matches!(seen.phase, Phase::Guess | Phase::Over { .. }) {
                return;
            }
            let deal = memory
                .sample(seen, &mut rng)
                .expect("a deal agrees with the views");
            assert_eq!(view(&deal, seen.seat), *seen);
            sampled += 1;
        });
        assert!(sampled > 300, "{sampled}");
        let won = |seat: usize| {
            outcomes
                .iter()
                .filter(|o| o.winners == vec![Seat::new(seat)])
                .count()
        };
        assert!(won(0) > won(1), "strong {} computer {}", won(0), won(1));
    }

    /// Two deals that differ only in cards seat 0 cannot see: the other hand and the pile.
    #[test]
    fn what_it_cannot_see_does_not_change_its_choice() {
        for seed in 0..20 {
            let (_, one, two) = hidden_twins(seed);
            let choose = |state: &State| {
                let seen = view(state, Some(Seat::new(0)));
                let legal = Panjpar::legal_actions(state, Seat::new(0));
                let mut strong = Strong::new(Budget::Samples(8));
                strong.observe(&seen);
                strong.choose(&seen, &legal, &mut BotRng::seed_from_u64(seed))
            };
            assert_eq!(choose(&one), choose(&two), "seed {seed}");
        }
    }

    #[test]
    fn with_nothing_left_to_draw_it_takes_a_winning_line() {
        // A holds 7S and 7H, B holds 9S, clubs are trumps, nothing is left to draw. Leading 7S loses:
        // B beats it and its hand is empty. Leading 7H wins: B must pick it up, then beats 7S with
        // 9S and is left holding 7H while A's hand is empty.
        let hands = [
            ["7S", "7H"]
                .map(|c| c.parse::<Card>().unwrap())
                .into_iter()
                .collect::<CardSet>(),
            CardSet::one("9S".parse().unwrap()),
        ];
        let trump_card: Card = "2C".parse().unwrap();
        let state = endgame_state(hands, trump_card, Seat::new(1), Seat::new(0));
        let seen = view(&state, Some(Seat::new(0)));
        let legal = Panjpar::legal_actions(&state, Seat::new(0));
        let memory = Memory {
            known: CardSet::EMPTY,
            set_aside: state.set_aside,
            trump_card: Some(trump_card),
        };
        let chosen = Panjpar::decide(
            &memory,
            &seen,
            &legal,
            Budget::Samples(1),
            &mut BotRng::seed_from_u64(1),
        );
        assert_eq!(
            chosen,
            Action::Attack {
                cards: CardSet::one("7H".parse().unwrap())
            }
        );
    }
}
