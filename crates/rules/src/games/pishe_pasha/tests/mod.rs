//! Scripted scenarios: the worked turn of seed 002 and every Pishe Pasha ruling of RULINGS.md. The
//! rules of a turn are in `turns`, the match, the views and the computer players in `players`, and
//! seeded playouts checking every rule at every step in `playouts`.

use rand::SeedableRng;

use super::*;
use crate::cards::{card, deal_rng, BySeat, Card, CardSet, Seat, Suit};
use crate::game::{BotRng, DealSetup, Game};
use crate::matches::Match;

const YOU: Seat = Seat::new(0);
const THEM: Seat = Seat::new(1);

fn cards(codes: &str) -> Vec<Card> {
    codes.split_whitespace().map(card).collect()
}

/// A deal in progress with seat 0 ("you") to act and seat 1 the dealer: the suit piles at `heights`
/// (clubs, diamonds, hearts, spades), stocks listed top first, piles bottom first. Every card not
/// placed goes under their stock, so that the deal holds all 52.
fn laid_out(heights: [u8; 4], stocks: [&str; 2], piles: [&str; 2]) -> State {
    let mut layout = Layout {
        dealer: 1,
        to_act: 0,
        suit_piles: heights,
        stocks: stocks.map(cards),
        piles: piles.map(cards),
    };
    let mut placed: CardSet = SuitPiles::at(heights).unwrap().cards().collect();
    for list in layout.stocks.iter().chain(&layout.piles) {
        placed = placed.union(list.iter().copied().collect());
    }
    layout.stocks[1].extend(CardSet::DECK.minus(placed));
    State::laid_out(&layout).unwrap()
}

fn act(state: &mut State, seat: Seat, action: Action) {
    if let Err(e) = state.apply(seat, action) {
        panic!("{seat} could not {action:?}: {e}");
    }
}

fn refused(state: &mut State, seat: Seat, action: Action) -> String {
    let before = *state;
    let error = state
        .apply(seat, action)
        .expect_err("the action should be refused");
    assert_eq!(*state, before, "a refused action changed the state");
    error.code.as_str().to_string()
}

fn height(state: &State, suit: Suit) -> u8 {
    state.suit_piles().height(suit)
}

fn held(state: &State, seat: Seat) -> usize {
    state.stock(seat).len() + state.pile(seat).len()
}

mod players;
mod playouts;
mod turns;
