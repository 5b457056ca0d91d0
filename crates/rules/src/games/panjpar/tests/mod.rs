//! Panjpar's worked examples, its rulings, its computer player and random playouts.

use rand::{Rng, SeedableRng};

use super::bot::{defence_plan, Computer};
use super::rules::*;
use super::view::view;
use super::Panjpar;
use crate::cards::{card, deal_rng, BySeat, Card, CardSet, Colour, Seat, Suit};
use crate::game::{Bot, BotRng, DealSetup, Game};

mod playouts;
mod rulings;
mod scenarios;
mod seen;

const A: Seat = Seat::new(0);
const B: Seat = Seat::new(1);

fn cards(codes: &str) -> CardSet {
    let set: CardSet = codes.split_whitespace().map(card).collect();
    assert_eq!(set.len(), codes.split_whitespace().count(), "{codes}");
    set
}

/// A deal in progress with A to attack: the given hands, the given trump card under the pile, the
/// cards to be drawn next in the order given, and `more_in_pile` further cards under them; every other
/// card is set aside, so the 52 are all somewhere.
fn table(a: &str, b: &str, trump: &str, next_draws: &str, more_in_pile: usize) -> State {
    let hands = BySeat([cards(a), cards(b)]);
    let trump_card = card(trump);
    let draws: Vec<Card> = next_draws.split_whitespace().map(card).collect();
    let used = hands[A]
        .union(hands[B])
        .union(CardSet::one(trump_card))
        .union(draws.iter().copied().collect());
    assert_eq!(
        used.len(),
        hands[A].len() + hands[B].len() + 1 + draws.len(),
        "a card twice"
    );
    let rest: Vec<Card> = CardSet::DECK.minus(used).iter().collect();
    let (under, aside) = rest.split_at(more_in_pile);
    let mut pile: Vec<Card> = under.to_vec();
    pile.extend(draws.iter().rev());
    let state = State {
        phase: Phase::Attack,
        guesser: A,
        guess: Some(GuessMade {
            colour: trump_card.suit().colour(),
            right: true,
        }),
        hands,
        pile,
        trump_card,
        trump_drawn_by: None,
        attacker: A,
        battle: None,
        last_battle: None,
        set_aside: aside.iter().copied().collect(),
    };
    assert_eq!(state.all_cards(), CardSet::DECK);
    state
}

/// Plays an action that must be accepted.
fn play(state: &mut State, seat: Seat, action: Action) {
    if let Err(e) = apply(state, seat, &action) {
        panic!("{action:?} by {seat} refused: {e}");
    }
    assert_eq!(state.all_cards(), CardSet::DECK);
}

/// Plays an action that must be refused, checking the state is untouched; returns the error code.
fn refused(state: &mut State, seat: Seat, action: Action) -> &'static str {
    let before = state.clone();
    let error = apply(state, seat, &action).expect_err("the action should be refused");
    assert_eq!(*state, before, "a refused action changed the state");
    error.code.as_str()
}

fn attack(codes: &str) -> Action {
    Action::Attack {
        cards: cards(codes),
    }
}

fn beat(attack: &str, with: &str) -> Action {
    Action::Beat {
        attack: card(attack),
        with: card(with),
    }
}

/// Checks that no serialized view holds a card its seat may not see.
fn assert_views_hide_what_they_must(state: &State) {
    for seat in [Some(A), Some(B), None] {
        let json = serde_json::to_value(view(state, seat)).expect("a view serializes");
        let mut shown = crate::cards::CardSet::EMPTY;
        crate::card_codes::codes_in(&json, &mut |card| shown.insert(card));
        let leaked = shown.minus(super::view::visible_to(state, seat));
        assert!(leaked.is_empty(), "{seat:?} sees {leaked:?} in {json}");
    }
}
