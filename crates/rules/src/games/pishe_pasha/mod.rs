//! Pishe Pasha: competitive patience for two, as pagat.com describes it (seed 002, RULINGS Pishe
//! Pasha).
//!
//! Each seat has a face-down stock of 26 that nobody may look at and a face-up discard pile; four suit
//! piles in the middle are built from the ace up to the king by both seats. The first seat to hold no
//! stock and no discard pile wins the deal and scores one point per card the other still holds.
//!
//! ```
//! use chaikhana_rules::cards::{deal_rng, Seat};
//! use chaikhana_rules::game::{DealSetup, Game};
//! use chaikhana_rules::games::pishe_pasha::{Action, PishePasha};
//!
//! let setup = DealSetup { index: 0, first: Seat::new(0) };
//! let mut state = PishePasha::deal(&setup, &mut deal_rng(7));
//! // Seat 0 deals, so seat 1 plays first, and with no discard pile yet it can only turn a card.
//! assert_eq!(PishePasha::to_act(&state), Some(Seat::new(1)));
//! assert_eq!(PishePasha::legal_actions(&state, Seat::new(1)), vec![Action::Turn]);
//! assert!(PishePasha::apply(&mut state, Seat::new(0), &Action::Turn).is_err());
//! assert!(PishePasha::apply(&mut state, Seat::new(1), &Action::Turn).is_ok());
//! ```

mod bot;
pub mod coach;
pub mod codes;
mod log;
mod pages;
mod piles;
mod rules;
pub mod strong;
mod view;

#[cfg(test)]
mod tests;

pub use bot::{Player, Strategy};
pub use log::{Source, Step, TurnLog};
pub use pages::PAGES;
pub use piles::{one_apart, Stack, SuitPiles};
pub use rules::{Action, CannotGive, Layout, Phase, State};
pub use view::{Choices, DealResult, PileView, View};

use crate::cards::{DealRng, Seat};
use crate::game::Budget;
use crate::game::{
    Bot, BotKind, DealOrder, DealOutcome, DealSetup, DealtTo, Game, Levels, RandomBot, RuleError,
};
use crate::matches::MatchLength;

/// A Pishe Pasha match (RULINGS Pishe Pasha 6): one deal, or first to 50 or 100 points; first to 50
/// unless the host says. A request names it "one-deal", 50 or 100.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(try_from = "Asked")]
pub enum MatchChoice {
    OneDeal,
    #[default]
    FirstTo50,
    FirstTo100,
}

/// A length as a request writes it.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Asked {
    Named(String),
    Points(u64),
}

impl TryFrom<Asked> for MatchChoice {
    type Error = String;

    fn try_from(asked: Asked) -> Result<MatchChoice, String> {
        match asked {
            Asked::Named(name) if name == "one-deal" => Ok(MatchChoice::OneDeal),
            Asked::Points(50) => Ok(MatchChoice::FirstTo50),
            Asked::Points(100) => Ok(MatchChoice::FirstTo100),
            _ => Err(PishePasha::LENGTHS.to_string()),
        }
    }
}

impl From<MatchChoice> for MatchLength {
    fn from(choice: MatchChoice) -> MatchLength {
        match choice {
            MatchChoice::OneDeal => MatchLength::Deals(1),
            MatchChoice::FirstTo50 => MatchLength::Points(50),
            MatchChoice::FirstTo100 => MatchLength::Points(100),
        }
    }
}

/// The game, for the [`Game`] contract.
pub struct PishePasha;

impl Game for PishePasha {
    const NAME: &'static str = "pishe-pasha";
    const SEATS: usize = rules::SEATS;
    const BOTS: &'static [BotKind] = &[
        BotKind::Computer,
        BotKind::Random,
        Strategy::HoldKings.kind(),
        Strategy::TwoAbove.kind(),
        BotKind::Strong,
    ];
    /// Even one sampled deal a decision plays Pishe Pasha almost as well as the strong computer
    /// (its choices are few, and what it does not know is only the order of the unturned stocks),
    /// so the clever computer thinks on one and plays the standard computer's move four times in
    /// five: that puts it between the standard and strong computers, well apart from both
    /// (docs/games.md, "Computer levels and their ratings").
    const LEVELS: Levels = Levels {
        clever_samples: 1,
        clever_standard_share: 0.8,
        ..Levels::DEFAULT
    };

    type State = State;
    type Action = Action;
    type View = View;
    type Length = MatchChoice;
    const LENGTHS: &'static str =
        "A Pishe Pasha match is \"one-deal\", or first to 50 or 100 points.";

    fn shortest_length() -> serde_json::Value {
        serde_json::Value::from("one-deal")
    }

    fn deal(setup: &DealSetup, rng: &mut DealRng) -> State {
        State::deal(setup, rng)
    }

    fn deal_in_order(setup: &DealSetup, rng: &mut DealRng) -> (State, DealOrder) {
        let cards = crate::cards::shuffled_deck(rng);
        let order = DealOrder::new(&cards, |i| DealtTo::Seat(State::dealt_to(setup, i)));
        (State::deal_from(setup, &cards), order)
    }

    fn pack() -> Vec<String> {
        crate::cards::deck_codes()
    }

    fn dealt_to(setup: &DealSetup, place: usize) -> DealtTo {
        DealtTo::Seat(State::dealt_to(setup, place))
    }

    fn deal_ordered(setup: &DealSetup, order: &[usize], _secret: u64) -> Option<State> {
        let deck = crate::cards::deck();
        let cards: Vec<_> = order.iter().map(|&i| deck[i]).collect();
        Some(State::deal_from(setup, &cards))
    }

    fn to_act(state: &State) -> Option<Seat> {
        state.to_act()
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        state.legal_actions(seat)
    }

    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
        state.apply(seat, *action)
    }

    fn view(state: &State, seat: Option<Seat>) -> View {
        View::of(state, seat)
    }

    fn outcome(state: &State) -> Option<DealOutcome> {
        state.outcome()
    }

    /// The cards still face down in a stock that was never made again from its pile: nobody saw them.
    fn concealed_at_end(state: &State) -> Vec<String> {
        Seat::all(Self::SEATS)
            .filter(|s| !state.restocked(*s))
            .flat_map(|s| state.stock(s).as_slice().iter())
            .map(|card| card.to_string())
            .collect()
    }

    /// Every card turned face up in the deal: both seats saw each of them.
    fn seen_at_end(state: &State, _viewer: Option<Seat>) -> Vec<String> {
        let stocks: Vec<String> = Self::concealed_at_end(state);
        Self::pack()
            .into_iter()
            .filter(|card| !stocks.contains(card))
            .collect()
    }

    fn bot(kind: BotKind, _seat: Seat, budget: Budget) -> Option<Box<dyn Bot<Self>>> {
        match kind {
            BotKind::Random => Some(Box::new(RandomBot)),
            BotKind::Strong => Some(Box::new(strong::Strong::new(budget))),
            other => Strategy::of(other).map(|s| Box::new(Player(s)) as Box<dyn Bot<Self>>),
        }
    }

    fn coach() -> Option<&'static dyn crate::game::Coach<Self>> {
        Some(&coach::COACH)
    }
}
