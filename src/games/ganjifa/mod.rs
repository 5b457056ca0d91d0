//! Ganjifa: the three-seat trick game on the 96-card Mughal pack, as seed 004 and RULINGS.md describe it.
//!
//! - [`pack`]: the suits, the cards and card sets.
//! - [`ladder`]: the hukm of each suit and the lead ladder (run, deni, talafa or utari, blind lead).
//! - [`rules`]: the deal, the opening, tricks, marks, the second phase and the score.
//! - [`lead`]: the leads a seat may make, and playing them.
//! - [`view`]: what each seat may see, with the board's hints.
//! - [`bot`]: the computer player.

pub mod bot;
pub mod ladder;
pub mod lead;
pub mod pack;
pub mod rules;
pub mod view;

#[cfg(test)]
mod playouts;
#[cfg(test)]
mod scenarios;

use crate::cards::{DealRng, Seat};
use crate::game::{Bot, DealOutcome, DealSetup, Game, RandomBot, RuleError};

pub use rules::{Action, State};
pub use view::View;

/// The game of Ganjifa.
pub struct Ganjifa;

impl Game for Ganjifa {
    const NAME: &'static str = "ganjifa";
    const SEATS: usize = rules::SEATS;
    const BOTS: &'static [&'static str] = &["computer", "random"];

    type State = State;
    type Action = Action;
    type View = View;

    fn deal(setup: &DealSetup, rng: &mut DealRng) -> State {
        rules::deal(setup, rng)
    }

    fn to_act(state: &State) -> Option<Seat> {
        state.to_act()
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        state.legal_actions(seat)
    }

    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
        state.apply(seat, action)
    }

    fn view(state: &State, seat: Option<Seat>) -> View {
        view::view(state, seat)
    }

    fn outcome(state: &State) -> Option<DealOutcome> {
        (state.phase == rules::Phase::Over).then(|| DealOutcome::top_scorers(state.scores()))
    }

    fn bot(name: &str, _seat: Seat) -> Option<Box<dyn Bot<Self>>> {
        match name {
            "computer" => Some(Box::new(bot::Computer)),
            "random" => Some(Box::new(RandomBot)),
            _ => None,
        }
    }
}
