//! Panjpar's endgame, solved exactly. Once nothing is left to draw, every card the strong computer has
//! not seen is in the other hand, so the deal is a game of perfect information, and small enough to
//! search to the end: the attacker lays each attack the rules allow, the defender answers with every
//! way of beating some of its cards (each with a card of its own) and picking up the rest.
//!
//! A position is the two hands with the attacker to lay; its value is +1 when the attacker wins with
//! best play on both sides, 0 for a drawn deal, -1 when it loses. Values are remembered by position.

use std::collections::HashMap;

use crate::cards::{Card, CardSet, Suit};

use super::battle::beaters;
use super::rules::attacks_from;

/// A defence: the attack cards beaten and the cards that beat them (every other attack card is picked
/// up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defence {
    pub beats: [(Card, Card); 5],
    pub len: usize,
}

impl Defence {
    const NONE: Defence = Defence {
        beats: [(
            Card::new(crate::cards::Rank::Two, Suit::Clubs),
            Card::new(crate::cards::Rank::Two, Suit::Clubs),
        ); 5],
        len: 0,
    };

    pub fn pairs(&self) -> &[(Card, Card)] {
        &self.beats[..self.len]
    }

    /// The defender's cards that beat.
    pub fn beating(&self) -> CardSet {
        self.pairs().iter().map(|&(_, with)| with).collect()
    }

    /// The attack cards beaten.
    pub fn beaten(&self) -> CardSet {
        self.pairs().iter().map(|&(attack, _)| attack).collect()
    }
}

/// Every defence against `uncovered` from `hand`: each attack card beaten by one of the cards that can
/// (each card used once) or left to be picked up. Defences that beat more come first.
pub fn defences(uncovered: CardSet, hand: CardSet, trump: Suit) -> Vec<Defence> {
    let cards: Vec<Card> = uncovered.iter().collect();
    let mut all = Vec::new();
    extend(&cards, hand, trump, Defence::NONE, &mut all);
    all
}

fn extend(rest: &[Card], hand: CardSet, trump: Suit, so_far: Defence, all: &mut Vec<Defence>) {
    let Some((&attack, rest)) = rest.split_first() else {
        all.push(so_far);
        return;
    };
    for with in beaters(attack, hand, trump) {
        let mut next = so_far;
        next.beats[next.len] = (attack, with);
        next.len += 1;
        let mut left = hand;
        left.remove(with);
        extend(rest, left, trump, next, all);
    }
    extend(rest, hand, trump, so_far, all);
}

/// The exact solver, with its memory of solved positions.
pub struct Endgame {
    trump: Suit,
    memo: HashMap<(CardSet, CardSet), i8>,
    nodes: u64,
    limit: u64,
}

impl Endgame {
    /// A solver for deals with `trump` as trumps, giving up (answering `None`) after `limit` positions
    /// searched in all.
    pub fn new(trump: Suit, limit: u64) -> Endgame {
        Endgame {
            trump,
            memo: HashMap::new(),
            nodes: 0,
            limit,
        }
    }

    /// Gives the solver `more` positions to search.
    pub fn allow(&mut self, more: u64) {
        self.limit = self.nodes.saturating_add(more);
    }

    /// The value for the attacker of laying an attack from `attacker` against `defender`.
    pub fn attack_value(&mut self, attacker: CardSet, defender: CardSet) -> Option<i8> {
        if let Some(&value) = self.memo.get(&(attacker, defender)) {
            return Some(value);
        }
        self.nodes += 1;
        if self.nodes > self.limit {
            return None;
        }
        let mut attacks = Vec::with_capacity(16);
        attacks_from(attacker, defender.len(), |cards| attacks.push(cards));
        let mut best = -1;
        for cards in attacks {
            let value = self.defended_value(attacker.minus(cards), defender, cards)?;
            if value > best {
                best = value;
                if best == 1 {
                    break;
                }
            }
        }
        self.memo.insert((attacker, defender), best);
        Some(best)
    }

    /// The value for the attacker of a battle where `uncovered` still lies unbeaten, the attacker
    /// holding `attacker` and the defender `defender`, with the defender to answer as well as it can.
    pub fn defended_value(
        &mut self,
        attacker: CardSet,
        defender: CardSet,
        uncovered: CardSet,
    ) -> Option<i8> {
        let mut worst = 1;
        for defence in defences(uncovered, defender, self.trump) {
            let value = self.after_defence(attacker, defender, uncovered, &defence)?;
            if value < worst {
                worst = value;
                if worst == -1 {
                    break;
                }
            }
        }
        Some(worst)
    }

    /// The value for the battle's attacker once `defence` has been played against `uncovered`.
    pub fn after_defence(
        &mut self,
        attacker: CardSet,
        defender: CardSet,
        uncovered: CardSet,
        defence: &Defence,
    ) -> Option<i8> {
        let picked = uncovered.minus(defence.beaten());
        let defender = defender.minus(defence.beating()).union(picked);
        match (attacker.is_empty(), defender.is_empty()) {
            (true, true) => Some(0),
            (true, false) => Some(1),
            (false, true) => Some(-1),
            // Every card beaten: the defender attacks next.
            _ if picked.is_empty() => self.attack_value(defender, attacker).map(|v| -v),
            _ => self.attack_value(attacker, defender),
        }
    }
}

/// An endgame for the tests: nothing left to draw, these hands, the trump card drawn by `drawn_by`,
/// `attacker` to attack, and every other card set aside.
#[cfg(test)]
pub(super) fn endgame_state(
    hands: [CardSet; 2],
    trump_card: Card,
    drawn_by: crate::cards::Seat,
    attacker: crate::cards::Seat,
) -> super::rules::State {
    let held = hands[0].union(hands[1]);
    super::rules::State {
        phase: super::rules::Phase::Attack,
        guesser: crate::cards::Seat::new(0),
        guess: None,
        hands: crate::cards::BySeat(hands),
        pile: Vec::new(),
        trump_card,
        trump_drawn_by: Some(drawn_by),
        attacker,
        battle: None,
        last_battle: None,
        set_aside: CardSet::DECK.minus(held),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Seat;
    use crate::games::panjpar::rules::{self, legal_actions, Phase, State};
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    /// Seat 0's value by trying every sequence of real actions through the rules core.
    fn brute_force(state: &State) -> i8 {
        if let Phase::Over { winner } = state.phase {
            return match winner {
                None => 0,
                Some(s) if s == Seat::new(0) => 1,
                Some(_) => -1,
            };
        }
        let seat = rules::to_act(state).unwrap();
        let values = legal_actions(state, seat).into_iter().map(|action| {
            let mut next = state.clone();
            rules::apply(&mut next, seat, &action).unwrap();
            brute_force(&next)
        });
        if seat == Seat::new(0) {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    }

    #[test]
    fn the_solver_agrees_with_brute_force_on_small_endgames() {
        let mut rng = crate::game::BotRng::seed_from_u64(12);
        let mut deck = crate::cards::deck();
        let mut decided = 0;
        for round in 0..160 {
            // Few ranks make pairs, and so three- and five-card attacks, common.
            let ranks = 3 + round % 4;
            let mut cards: Vec<Card> = deck
                .iter()
                .copied()
                .filter(|c| (c.rank() as usize) < 2 + ranks)
                .collect();
            cards.shuffle(&mut rng);
            let (a, b) = (1 + round % 4, 1 + (round / 4) % 4);
            let hands = [
                cards[..a].iter().copied().collect(),
                cards[a..a + b].iter().copied().collect(),
            ];
            deck.shuffle(&mut rng);
            let trump_card = deck[0];
            let attacker = Seat::new(round % 2);
            let state = endgame_state(hands, trump_card, Seat::new(0), attacker);
            let mut solver = Endgame::new(trump_card.suit(), u64::MAX);
            let value = solver
                .attack_value(hands[attacker.index()], hands[1 - attacker.index()])
                .unwrap();
            let for_seat_0 = if attacker == Seat::new(0) {
                value
            } else {
                -value
            };
            assert_eq!(
                for_seat_0,
                brute_force(&state),
                "{hands:?} trump {trump_card}"
            );
            decided += usize::from(value != 0);
        }
        assert!(decided > 50, "{decided}");
    }

    #[test]
    fn defences_cover_every_way_of_beating_some_cards() {
        let set = |codes: &str| -> CardSet {
            codes
                .split_whitespace()
                .map(|c| c.parse::<Card>().unwrap())
                .collect()
        };
        // 6S can be beaten by 9S or 3D; 6H only by 3D; each card once: {}, {6S:9S}, {6S:3D},
        // {6H:3D}, {6S:9S, 6H:3D}.
        let all = defences(set("6S 6H"), set("9S 3D 4C"), Suit::Diamonds);
        assert_eq!(all.len(), 5);
        assert_eq!(all[0].len, 2);
        assert_eq!(all.last().unwrap().len, 0);
    }

    #[test]
    fn the_solver_gives_up_past_its_allowance() {
        let trump = Suit::Hearts;
        let hands: Vec<Card> = crate::cards::deck().into_iter().take(20).collect();
        let mut solver = Endgame::new(trump, 3);
        let a: CardSet = hands[..10].iter().copied().collect();
        let b: CardSet = hands[10..].iter().copied().collect();
        assert_eq!(solver.attack_value(a, b), None);
    }
}
