//! Panjpar, the Afghan beating game for two: guess the trump colour, attack with 1, 3 or 5 cards, beat
//! or pick up, and be the first with an empty hand once nothing is left to draw.

pub mod battle;
pub mod bot;
pub mod coach;
pub mod codes;
pub mod endgame;
mod pages;
pub mod rules;
pub mod strong;
pub mod view;

#[cfg(test)]
mod tests;

use crate::cards::{DealRng, Seat};
use crate::game::Budget;
use crate::game::{
    Bot, BotKind, DealOrder, DealOutcome, DealSetup, DealtTo, Game, Levels, RandomBot, RuleError,
};
use crate::matches::MatchLength;

pub use pages::PAGES;
pub use rules::{Action, Phase, State};
pub use view::View;

/// The Panjpar rules core.
pub struct Panjpar;

impl Game for Panjpar {
    const NAME: &'static str = "panjpar";
    const SEATS: usize = rules::SEATS;
    const BOTS: &'static [BotKind] = &[BotKind::Computer, BotKind::Random, BotKind::Strong];
    /// Panjpar's levels are apart as they were first made (docs/games.md, "Computer levels and
    /// their ratings").
    const LEVELS: Levels = Levels::DEFAULT;
    type State = State;
    type Action = Action;
    type View = View;
    type Length = DealsToWin;
    const LENGTHS: &'static str = "A Panjpar match length is a number of deals won: 1, 3 or 5.";

    fn shortest_length() -> serde_json::Value {
        serde_json::Value::from(1)
    }

    fn deal(setup: &DealSetup, rng: &mut DealRng) -> State {
        rules::deal(setup, rng)
    }

    fn deal_in_order(setup: &DealSetup, rng: &mut DealRng) -> (State, DealOrder) {
        let cards = crate::cards::shuffled_deck(rng);
        let guesser = setup.rotating_seat(rules::SEATS);
        let order = DealOrder::new(&cards, |i| rules::dealt_to(guesser, i));
        (rules::deal_from(setup, &cards), order)
    }

    fn pack() -> Vec<String> {
        crate::cards::deck_codes()
    }

    fn dealt_to(setup: &DealSetup, place: usize) -> DealtTo {
        rules::dealt_to(setup.rotating_seat(rules::SEATS), place)
    }

    fn deal_ordered(setup: &DealSetup, order: &[usize], _secret: u64) -> Option<State> {
        let deck = crate::cards::deck();
        let cards: Vec<_> = order.iter().map(|&i| deck[i]).collect();
        Some(rules::deal_from(setup, &cards))
    }

    fn to_act(state: &State) -> Option<Seat> {
        rules::to_act(state)
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        rules::legal_actions(state, seat)
    }

    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
        rules::apply(state, seat, action)
    }

    fn view(state: &State, seat: Option<Seat>) -> View {
        view::view(state, seat)
    }

    fn outcome(state: &State) -> Option<DealOutcome> {
        rules::outcome(state)
    }

    /// A battle has just ended: the next attack is not laid yet.
    fn round_closed(state: &State) -> bool {
        state.battle.is_none() && state.last_battle.is_some()
    }

    fn bot(kind: BotKind, _seat: Seat, budget: Budget) -> Option<Box<dyn Bot<Self>>> {
        match kind {
            BotKind::Computer => Some(Box::new(bot::Computer::new())),
            BotKind::Random => Some(Box::new(RandomBot)),
            BotKind::Strong => Some(Box::new(strong::Strong::new(budget))),
            _ => None,
        }
    }

    fn coach() -> Option<&'static dyn crate::game::Coach<Self>> {
        Some(&coach::COACH)
    }
}

/// A Panjpar match: first to 1, 3 or 5 deals won (RULINGS.md, Panjpar 9), 3 unless the host says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(try_from = "u32")]
pub struct DealsToWin(u32);

impl Default for DealsToWin {
    fn default() -> DealsToWin {
        DealsToWin(3)
    }
}

impl TryFrom<u32> for DealsToWin {
    type Error = String;

    fn try_from(deals_won: u32) -> Result<DealsToWin, String> {
        match deals_won {
            1 | 3 | 5 => Ok(DealsToWin(deals_won)),
            other => Err(format!(
                "A Panjpar match is first to 1, 3 or 5 deals won, not {other}."
            )),
        }
    }
}

impl From<DealsToWin> for MatchLength {
    fn from(length: DealsToWin) -> MatchLength {
        MatchLength::DealsWon(length.0)
    }
}
