//! The strong computer for Ganjifa. It decides from its own views and what it remembers of them: each
//! view shows its hand, the face-up cards still in the other hands, the counts, every card played face
//! up and the trick; from memory it adds who holds each burnt Wazir (the seat that burnt it).
//!
//! It draws deals that agree with all of this: each other hand keeps its face-up cards and its burnt
//! Wazirs and is made up to its count with unseen cards, and what is left of the unseen cards are the
//! cards played face down that it never saw. In every drawn deal it plays each candidate move and lets
//! the standard computers finish, and keeps the move that won it most cards on average. The moves come
//! from the rules core's own legal actions, so the lead ladder is always obeyed; when putting cards
//! down it weighs the weakest two cards of each suit it holds, and the standard computer's choice.

use rand::seq::SliceRandom;
use rand::Rng;

use super::bot::Computer;
use super::pack::{GCard, GSet};
use super::rules::{Action, Backs, PerSeat, Phase, State, Trick, SEATS};
use super::view::{Stage, TrickView, View};
use super::Ganjifa;
use crate::cards::Seat;
use crate::game::Budget;
use crate::game::{Bot, BotRng};
use crate::games::strong::{playouts, Playouts, Remembers, Thinking};

/// What the strong computer remembers beyond its views.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// The burnt Wazirs by the seat that burnt them (and so holds them until played).
    burnt_by: PerSeat<GSet>,
    /// The burnt cards already placed.
    burnt_seen: GSet,
}

impl Remembers<View> for Memory {
    fn remember(&mut self, view: &View) {
        if view.stage == Stage::Opening && view.burnt.is_empty() {
            *self = Memory::default();
        }
        let fresh = view.burnt.minus(self.burnt_seen);
        if fresh.is_empty() {
            return;
        }
        // A burn leaves the same seat to lead: the seat to act is the one that burnt.
        if let (Stage::Lead, Some(leader)) = (view.stage, view.to_act) {
            self.burnt_by[leader] = self.burnt_by[leader].union(fresh);
        }
        self.burnt_seen = self.burnt_seen.union(fresh);
    }
}

impl Memory {
    /// A deal that agrees with everything `view` shows and this memory holds; `None` when they
    /// disagree.
    pub fn sample(&self, view: &View, rng: &mut BotRng) -> Option<State> {
        let me = view.seat?;
        let mut known = view.played.union(view.hand);
        let mut hands = PerSeat::<GSet>::default();
        hands[me] = view.hand;
        for seat in Seat::all(SEATS).filter(|&s| s != me) {
            let burnt = self.burnt_by[seat].minus(view.played).minus(view.hand);
            hands[seat] = view.face_up[seat].union(burnt);
            known = known.union(hands[seat]);
        }
        let mut unseen: Vec<GCard> = GSet::PACK.minus(known).iter().collect();
        unseen.shuffle(rng);
        for seat in Seat::all(SEATS).filter(|&s| s != me) {
            let missing = usize::from(view.counts[seat]).checked_sub(hands[seat].len())?;
            if missing > unseen.len() {
                return None;
            }
            hands[seat] = hands[seat].union(unseen.drain(..missing).collect());
        }
        if unseen.len() != usize::from(view.hidden_played) {
            return None;
        }
        let hidden: GSet = unseen.iter().copied().collect();
        let phase = match view.stage {
            Stage::Opening | Stage::Follow => Phase::Trick(trick(view.trick?, me, &unseen)?),
            Stage::Lead => Phase::Lead {
                leader: view.to_act?,
            },
            Stage::BlindPick => {
                let leader = view.to_act?.after(SEATS - 1, SEATS);
                let mut cards = [None; 32];
                let mut order: Vec<GCard> = hands[leader].iter().collect();
                order.shuffle(rng);
                for (slot, card) in cards.iter_mut().zip(&order) {
                    *slot = Some(*card);
                }
                Phase::BlindPick {
                    leader,
                    backs: Backs {
                        cards,
                        len: order.len().min(32) as u8,
                    },
                }
            }
            Stage::Over => return None,
        };
        let mut state = State {
            dealer: view.dealer,
            time: view.time,
            opener: view.dealer,
            hands,
            face_up: view
                .face_up
                .0
                .iter()
                .fold(GSet::EMPTY, |all, s| all.union(*s)),
            played: view.played.union(hidden),
            face_down: PerSeat::default(),
            burnt: view.burnt,
            won: view.won,
            marks: view.marks,
            second_phase: view.second_phase,
            phase,
            last_trick: None,
            blind_seed: rng.gen(),
            blind_leads: 0,
            memo: None,
        };
        state.remember_ladder();
        Some(state)
    }
}

/// The trick in progress as the truth holds it: a face-down card this seat could not see is one of
/// the unseen played cards.
fn trick(seen: TrickView, me: Seat, hidden: &[GCard]) -> Option<Trick> {
    let mut cards = seen.cards;
    let mut face_down = None;
    if let Some(by) = seen.face_down_by {
        if by != me {
            let card = *hidden.first()?;
            cards[by].insert(card);
            face_down = Some(card);
        } else {
            // Its own face-down card is in the view: the called suit differs from its suit.
            let called = seen.kind.called();
            face_down = cards[by].iter().find(|c| Some(c.suit()) != called);
        }
    }
    Some(Trick {
        leader: seen.leader,
        kind: seen.kind,
        winner: seen.winner,
        cards,
        face_down,
        need: seen.need,
    })
}

/// The strong computer for Ganjifa.
pub type Strong = crate::games::strong::Strong<Ganjifa>;

impl Thinking for Ganjifa {
    type Memory = Memory;

    fn decide(
        memory: &Memory,
        view: &View,
        legal: &[Action],
        budget: Budget,
        rng: &mut BotRng,
    ) -> Action {
        let fallback = Computer.choose(view, legal, rng);
        let candidates = candidates(view, legal, fallback);
        let Some(me) = view.seat else {
            return fallback;
        };
        if candidates.len() <= 1 {
            return candidates.first().copied().unwrap_or(fallback);
        }
        let best = weigh(memory, view, me, &candidates, budget, rng).best();
        candidates.get(best).copied().unwrap_or(fallback)
    }
}

/// Plays every one of `candidates` for `me` in deals drawn to agree with `view` and `memory`, within
/// `budget`: each scores the cards `me` wins in the deal.
pub(super) fn weigh(
    memory: &Memory,
    view: &View,
    me: Seat,
    candidates: &[Action],
    budget: Budget,
    rng: &mut BotRng,
) -> Playouts {
    playouts(
        candidates,
        budget,
        rng,
        |rng| memory.sample(view, rng),
        |mut state, action, rng| {
            if state.apply(me, action).is_err() {
                return 0.0;
            }
            playout(state, me, rng)
        },
    )
}

/// The moves worth weighing, the standard computer's first: every lead the ladder allows (of the
/// second phase's utaris, each hukm alone and all of them); when putting down, the weakest two cards
/// of each suit held. A blind pick is not weighed: the backs are
/// shuffled, so every pick is as good as another.
pub(super) fn candidates(view: &View, legal: &[Action], fallback: Action) -> Vec<Action> {
    let mut chosen = vec![fallback];
    match legal.first() {
        Some(Action::PutDown { .. }) => {
            for suit in super::pack::GSuit::ALL {
                let held: Vec<GCard> = view.hand.of_suit(suit).iter().collect();
                for card in held.iter().rev().take(2) {
                    chosen.push(Action::PutDown { card: *card });
                }
            }
        }
        Some(Action::Pick { .. }) => {}
        _ => {
            // In the second phase an utari may be any set of hukms: weigh each one alone and all.
            let most = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Utari { cards } => Some(cards.len()),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            chosen.extend(legal.iter().filter(|a| match a {
                Action::Utari { cards } => cards.len() == 1 || cards.len() == most,
                _ => true,
            }));
        }
    }
    let mut unique = Vec::with_capacity(chosen.len());
    for action in chosen {
        if legal.contains(&action) && !unique.contains(&action) {
            unique.push(action);
        }
    }
    unique
}

/// Finishes the deal with the standard computer in every seat: the cards `me` wins.
fn playout(mut state: State, me: Seat, rng: &mut BotRng) -> f64 {
    while let Some(seat) = state.to_act() {
        let legal = state.legal_actions(seat);
        let view = super::view::view(&state, Some(seat));
        let action = Computer.choose(&view, &legal, rng);
        if state.apply(seat, &action).is_err() {
            break;
        }
    }
    f64::from(state.won[me])
}

/// Two deals alike in everything seat 0 has seen when it first acts, unlike in the other hands'
/// hidden cards (shuffled between them with `seed`): for tests that what a seat cannot see changes
/// nothing it decides.
#[cfg(test)]
pub(super) fn hidden_twins(seed: u64) -> (State, State) {
    use crate::cards::{deal_rng, Seat};
    use crate::game::{DealSetup, Game};
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let setup = DealSetup {
        index: 1,
        first: Seat::new(0),
    };
    let mut one = Ganjifa::deal(&setup, &mut deal_rng(seed));
    // Play the opening until seat 0 is to act.
    while Ganjifa::to_act(&one) != Some(Seat::new(0)) {
        let seat = Ganjifa::to_act(&one).unwrap();
        let action = Ganjifa::legal_actions(&one, seat)[0];
        Ganjifa::apply(&mut one, seat, &action).unwrap();
    }
    let mut two = one.clone();
    let (b, c) = (Seat::new(1), Seat::new(2));
    let hidden_b = two.hands[b].minus(two.face_up);
    let hidden_c = two.hands[c].minus(two.face_up);
    let mut pool: Vec<GCard> = hidden_b.union(hidden_c).iter().collect();
    pool.shuffle(&mut BotRng::seed_from_u64(seed));
    let (new_b, new_c) = pool.split_at(hidden_b.len());
    two.hands[b] = two.hands[b]
        .minus(hidden_b)
        .union(new_b.iter().copied().collect());
    two.hands[c] = two.hands[c]
        .minus(hidden_c)
        .union(new_c.iter().copied().collect());
    two.remember_ladder();
    assert_ne!(one.hands, two.hands);
    (one, two)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::strong::self_play;
    use rand::SeedableRng;

    fn strong_against_computers(seat: Seat) -> Box<dyn Bot<Ganjifa>> {
        if seat == Seat::new(0) {
            Box::new(Strong::new(Budget::Samples(2)))
        } else {
            Box::new(Computer)
        }
    }

    /// At every view of seat 0 a drawn deal shows that seat the same hand, face-up cards, counts,
    /// trick, marks and ladder as the real one.
    #[test]
    fn the_strong_computer_plays_legal_moves_and_its_deals_agree_with_its_views() {
        let mut memory = Memory::default();
        let mut rng = BotRng::seed_from_u64(5);
        let mut sampled = 0;
        self_play::<Ganjifa>(3, 2, strong_against_computers, |_, seen| {
            memory.remember(seen);
            if seen.stage == Stage::Over {
                return;
            }
            let deal = memory
                .sample(seen, &mut rng)
                .expect("a deal agrees with the view");
            let shown = super::super::view::view(&deal, seen.seat);
            let facts = |v: &View| {
                (
                    v.hand,
                    v.face_up,
                    v.counts,
                    v.won,
                    v.marks,
                    v.stage,
                    v.to_act,
                    v.trick,
                    v.burnt,
                    v.lead_hints,
                    v.to_put_down,
                    v.backs,
                )
            };
            assert_eq!(facts(&shown), facts(seen));
            sampled += 1;
        });
        assert!(sampled > 100, "{sampled}");
    }

    /// Two deals alike in everything seat 0 sees, unlike in the other hands' hidden cards: the same
    /// choice.
    #[test]
    fn what_it_cannot_see_does_not_change_its_choice() {
        use crate::game::Game;
        for seed in 0..3 {
            let (one, two) = hidden_twins(seed);
            let choose = |state: &State| {
                let seen = super::super::view::view(state, Some(Seat::new(0)));
                let legal = Ganjifa::legal_actions(state, Seat::new(0));
                let mut strong = Strong::new(Budget::Samples(3));
                strong.choose(&seen, &legal, &mut BotRng::seed_from_u64(seed))
            };
            assert_eq!(choose(&one), choose(&two), "seed {seed}");
        }
    }
}
