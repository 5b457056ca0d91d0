//! The strong computer for Pishe Pasha. It decides from its own views and what it remembers of them.
//!
//! Every card that lands on a discard pile is shown face up, and every turn's steps are in the views,
//! so by reading each step once the strong computer knows both discard piles card by card. A pile
//! turned over becomes its seat's stock unshuffled, so after a seat's first turn-over its whole stock
//! is known too. What it cannot know is the order of the dealt stocks still unturned: it draws them
//! from the cards it has not seen, plays each choice (give, turn or keep) in every drawn deal, lets
//! both seats finish as the standard computer plays, and keeps the choice that won most often.

use rand::seq::SliceRandom;

use super::piles::SuitPiles;
use super::rules::{Action, Layout, Phase, State, SEATS};
use super::view::View;
use super::{PishePasha, Source, Step, TurnLog};
use crate::cards::{Card, CardSet, Seat, Suit};
use crate::game::BotRng;
use crate::game::Budget;
use crate::games::strong::{playouts, Playouts, Remembers, Thinking};

/// What the strong computer remembers of the deal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Each seat's discard pile, bottom first.
    piles: [Vec<Card>; SEATS],
    /// Each seat's stock, bottom first, once it is known: after the seat's first turn-over.
    stocks: [Option<Vec<Card>>; SEATS],
    /// The turn being read (its seat) and how many of its steps have been read; `None` until the
    /// start of a deal has been seen, or once the memory lost track.
    reading: Option<(Seat, usize)>,
}

impl Remembers<View> for Memory {
    fn remember(&mut self, view: &View) {
        let fresh = view.this_turn.is_empty()
            && view.last_turn.is_empty()
            && view.stocks.0 == [26, 26]
            && view.suit_piles.total() == 0;
        if fresh {
            *self = Memory {
                reading: Some((view.this_turn.seat(), 0)),
                ..Memory::default()
            };
            return;
        }
        let Some((seat, read)) = self.reading else {
            return;
        };
        if view.this_turn.seat() == seat && view.this_turn.len() >= read {
            self.read(&view.this_turn, read);
        } else if view.last_turn.seat() == seat && view.last_turn.len() >= read {
            self.read(&view.last_turn, read);
            if self.reading.is_some() {
                self.read(&view.this_turn, 0);
            }
        } else {
            self.reading = None;
        }
    }
}

impl Memory {
    /// Reads the steps of `log` from `from` on.
    fn read(&mut self, log: &TurnLog, from: usize) {
        let seat = log.seat();
        for step in log.steps().skip(from) {
            if !self.step(seat, step) {
                self.reading = None;
                return;
            }
        }
        self.reading = Some((seat, log.len()));
    }

    /// Plays one step of `seat`'s turn on the remembered piles; false when it does not fit them.
    fn step(&mut self, seat: Seat, step: Step) -> bool {
        let (me, other) = (seat.index(), seat.next(SEATS).index());
        let from_stock = |memory: &mut Memory| {
            if let Some(stock) = memory.stocks[me].as_mut() {
                stock.pop();
            }
        };
        match step {
            Step::Home { card, from } | Step::Give { card, from } => {
                match from {
                    Source::Pile => {
                        if self.piles[me].pop() != Some(card) {
                            return false;
                        }
                    }
                    Source::Stock => from_stock(self),
                }
                if let Step::Give { .. } = step {
                    self.piles[other].push(card);
                }
            }
            Step::Keep { card } | Step::Discard { card } => {
                from_stock(self);
                self.piles[me].push(card);
            }
            Step::TurnOver { .. } => {
                let mut stock = std::mem::take(&mut self.piles[me]);
                stock.reverse();
                self.stocks[me] = Some(stock);
            }
        }
        true
    }

    /// A deal that agrees with everything seen, with `view`'s seat to act: the known piles and stocks
    /// as they are, the dealt stocks still unturned made up from the unseen cards in a random order.
    /// `None` when the memory has lost track or disagrees with the view.
    pub fn sample(&self, view: &View, rng: &mut BotRng) -> Option<State> {
        self.reading?;
        let to_act = view.to_act?;
        let mut placed: CardSet = view.suit_piles.cards().collect();
        let mut stocks: [Vec<Card>; SEATS] = Default::default();
        for seat in Seat::all(SEATS) {
            let i = seat.index();
            if self.piles[i].len() != usize::from(view.piles[seat].count)
                || self.piles[i].last().copied() != view.piles[seat].top
            {
                return None;
            }
            placed = placed.union(self.piles[i].iter().copied().collect());
            if let Some(stock) = &self.stocks[i] {
                // Cards leave a stock from the top; a card just turned has left it already.
                let count = usize::from(view.stocks[seat]);
                let left = stock.get(..count)?;
                stocks[i] = left.iter().rev().copied().collect();
                placed = placed.union(stock.iter().copied().collect());
            }
        }
        if let Some(card) = view.turned {
            placed.insert(card);
        }
        let mut unseen: Vec<Card> = CardSet::DECK.minus(placed).iter().collect();
        unseen.shuffle(rng);
        for seat in Seat::all(SEATS) {
            if self.stocks[seat.index()].is_none() {
                let count = usize::from(view.stocks[seat]);
                if count > unseen.len() {
                    return None;
                }
                stocks[seat.index()] = unseen.drain(..count).collect();
            }
        }
        if !unseen.is_empty() {
            return None;
        }
        if let Some(card) = view.turned {
            stocks[to_act.index()].insert(0, card);
        }
        let layout = Layout {
            dealer: view.dealer.index(),
            to_act: to_act.index(),
            suit_piles: heights(&view.suit_piles),
            stocks,
            piles: self.piles.clone(),
        };
        let mut state = State::laid_out(&layout).ok()?;
        if view.turned.is_some() {
            // The card on top of the stock is turned again, and waits to be given or kept.
            state.apply(to_act, Action::Turn).ok()?;
            if state.turned() != view.turned {
                return None;
            }
        }
        Some(state)
    }
}

fn heights(piles: &SuitPiles) -> [u8; 4] {
    Suit::ALL.map(|suit| piles.height(suit))
}

/// A playout longer than this is cut short and counted as lost; no deal seen in self-play comes near.
const MOST_PLAYOUT_STEPS: usize = 100_000;

/// The strong computer for Pishe Pasha.
pub type Strong = crate::games::strong::Strong<PishePasha>;

impl Thinking for PishePasha {
    type Memory = Memory;

    fn decide(
        memory: &Memory,
        view: &View,
        legal: &[Action],
        budget: Budget,
        rng: &mut BotRng,
    ) -> Action {
        if legal.len() <= 1 {
            return legal.first().copied().unwrap_or(Action::Turn);
        }
        let best = weigh(memory, view, legal, budget, rng).best();
        legal.get(best).copied().unwrap_or(Action::Turn)
    }
}

/// Plays every one of `legal` in deals drawn to agree with `view` and `memory`, within `budget`: each
/// scores 1 where this seat then wins the deal, 0 where it loses.
pub(super) fn weigh(
    memory: &Memory,
    view: &View,
    legal: &[Action],
    budget: Budget,
    rng: &mut BotRng,
) -> Playouts {
    let me = view.seat.unwrap_or(Seat::new(0));
    playouts(
        legal,
        budget,
        rng,
        |rng| memory.sample(view, rng),
        |mut state, action, _| {
            if state.apply(me, *action).is_err() {
                return 0.0;
            }
            playout(state, me)
        },
    )
}

/// Finishes the deal with both seats playing as the standard computer does (give whenever allowed):
/// 1 when `me` wins, else 0.
fn playout(mut state: State, me: Seat) -> f64 {
    for _ in 0..MOST_PLAYOUT_STEPS {
        let Some(seat) = state.to_act() else {
            break;
        };
        let action = match state.phase() {
            Phase::Turned { .. } => Action::Give,
            _ if state.giveable().is_ok() => Action::Give,
            _ => Action::Turn,
        };
        if state.apply(seat, action).is_err() {
            return 0.0;
        }
    }
    match state.phase() {
        Phase::Won { winner, .. } if winner == me => 1.0,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Bot;
    use crate::games::strong::self_play;
    use rand::SeedableRng;

    fn strong_against_computer(seat: Seat) -> Box<dyn Bot<PishePasha>> {
        if seat == Seat::new(0) {
            Box::new(Strong::new(Budget::Samples(4)))
        } else {
            Box::new(super::super::Player(super::super::Strategy::Computer))
        }
    }

    /// At every view of seat 0 the remembered piles and stocks make deals whose view, turn logs
    /// aside, is the very view the seat was shown.
    #[test]
    fn the_strong_computer_plays_legal_moves_and_its_deals_agree_with_its_views() {
        let mut memory = Memory::default();
        let mut rng = BotRng::seed_from_u64(5);
        let mut sampled = 0;
        let outcomes = self_play::<PishePasha>(24, 3, strong_against_computer, |_, seen| {
            memory.remember(seen);
            if seen.result.is_some() || seen.to_act != seen.seat {
                return;
            }
            let deal = memory
                .sample(seen, &mut rng)
                .expect("a deal agrees with the views");
            let shown = View::of(&deal, seen.seat);
            assert_eq!(
                (
                    shown.stocks,
                    shown.piles,
                    shown.suit_piles,
                    shown.turned,
                    shown.choices
                ),
                (
                    seen.stocks,
                    seen.piles,
                    seen.suit_piles,
                    seen.turned,
                    seen.choices
                )
            );
            sampled += 1;
        });
        assert!(sampled > 300, "{sampled}");
        let won = outcomes
            .iter()
            .filter(|o| o.winners == vec![Seat::new(0)])
            .count();
        assert!(
            won > outcomes.len() / 2,
            "strong won {won} of {}",
            outcomes.len()
        );
    }

    /// Once both piles have been turned over, every card's place is known: each sample is the same.
    #[test]
    fn after_both_turn_overs_every_sample_is_the_truth() {
        let mut memory = Memory::default();
        let mut rng = BotRng::seed_from_u64(9);
        let mut checked = 0;
        self_play::<PishePasha>(12, 8, strong_against_computer, |state, seen| {
            memory.remember(seen);
            if memory.stocks.iter().all(Option::is_some)
                && seen.result.is_none()
                && seen.to_act == seen.seat
            {
                let deal = memory
                    .sample(seen, &mut rng)
                    .expect("a deal agrees with the views");
                for seat in Seat::all(SEATS) {
                    assert_eq!(deal.stock(seat), state.stock(seat));
                    assert_eq!(deal.pile(seat), state.pile(seat));
                }
                checked += 1;
            }
        });
        assert!(checked > 0);
    }
}
