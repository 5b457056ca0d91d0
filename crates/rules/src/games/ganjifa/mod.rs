//! Ganjifa: the three-seat trick game on the 96-card Mughal pack, as seed 004 and RULINGS.md describe it.
//!
//! - [`pack`]: the suits, the cards and card sets.
//! - [`ladder`]: the hukm of each suit and the lead ladder (run, deni, talafa or utari, blind lead).
//! - [`rules`]: the deal, the opening, tricks, marks, the second phase and the score.
//! - [`lead`]: the leads a seat may make, and playing them.
//! - [`view`]: what each seat may see, with the board's hints.
//! - [`bot`]: the computer player.
//! - [`staged`]: the staged deal the website plays back, step by step.
//!
//! ```
//! use chaikhana_rules::cards::{deal_rng, Seat};
//! use chaikhana_rules::game::{DealSetup, Game};
//! use chaikhana_rules::games::ganjifa::{rules::Time, Ganjifa};
//!
//! let setup = DealSetup { index: 0, first: Seat::new(0) };
//! let mut state = Ganjifa::deal(&setup, &mut deal_rng(7));
//! assert_eq!(state.time, Time::Day); // the first deal of a match is a day deal
//! // The table has put the Mir of Surkh down for its holder, who now adds one card.
//! let opener = Ganjifa::to_act(&state).unwrap();
//! let legal = Ganjifa::legal_actions(&state, opener);
//! Ganjifa::apply(&mut state, opener, &legal[0]).unwrap();
//! assert_eq!(Ganjifa::to_act(&state), Some(opener.next(3)));
//! // Another seat's action is refused and changes nothing.
//! let before = state.clone();
//! assert!(Ganjifa::apply(&mut state, opener, &legal[1]).is_err());
//! assert_eq!(state, before);
//! ```

pub mod bot;
pub mod coach;
pub mod codes;
pub mod ladder;
pub mod lead;
pub mod pack;
mod pages;
pub mod rules;
pub mod staged;
pub mod state;
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
use pack::{GCard, GSet};

pub use pages::PAGES;
pub use rules::{Action, State};
pub use view::View;

/// A Ganjifa match: 3 or 6 deals, the highest total winning; 3 unless the host says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(try_from = "u32")]
pub struct Deals(u32);

impl Default for Deals {
    fn default() -> Deals {
        Deals(3)
    }
}

impl TryFrom<u32> for Deals {
    type Error = String;

    fn try_from(deals: u32) -> Result<Deals, String> {
        match deals {
            3 | 6 => Ok(Deals(deals)),
            _ => Err(Ganjifa::LENGTHS.to_string()),
        }
    }
}

impl From<Deals> for MatchLength {
    fn from(deals: Deals) -> MatchLength {
        MatchLength::Deals(deals.0)
    }
}

/// The game of Ganjifa.
pub struct Ganjifa;

impl Game for Ganjifa {
    const NAME: &'static str = "ganjifa";
    const SEATS: usize = rules::SEATS;
    const BOTS: &'static [BotKind] = &[BotKind::Computer, BotKind::Random, BotKind::Strong];
    /// Ganjifa's strong computer stood only about 100 rating points above the standard one, and
    /// thinking longer barely raises it, so there was no room for a clever level between them: the
    /// levels below it are tuned down instead. The standard computer plays a random legal move half
    /// the time, the gentle one nine times in ten, and the clever one, 16 sampled deals a decision,
    /// sits more than 100 above the standard one; the strong one is still only about 60 above it
    /// (docs/games.md, "Computer levels and their ratings").
    const LEVELS: Levels = Levels {
        gentle_random_share: 0.9,
        standard_random_share: 0.5,
        clever_samples: 16,
        clever_standard_share: 0.0,
    };

    type State = State;
    type Action = Action;
    type View = View;
    type Length = Deals;
    const LENGTHS: &'static str = "A Ganjifa match is 3 or 6 deals.";

    fn shortest_length() -> serde_json::Value {
        serde_json::Value::from(3)
    }

    fn deal(setup: &DealSetup, rng: &mut DealRng) -> State {
        rules::deal(setup, rng)
    }

    fn deal_in_order(setup: &DealSetup, rng: &mut DealRng) -> (State, DealOrder) {
        let (state, pack) = rules::deal_in_order(setup, rng);
        let order = DealOrder::new(&pack, |i| DealtTo::Seat(rules::dealt_to(state.dealer, i)));
        (state, order)
    }

    fn pack() -> Vec<String> {
        GSet::PACK.iter().map(|card| card.to_string()).collect()
    }

    fn dealt_to(setup: &DealSetup, place: usize) -> DealtTo {
        DealtTo::Seat(rules::dealt_to(rules::roles(setup).0, place))
    }

    fn deal_ordered(setup: &DealSetup, order: &[usize], secret: u64) -> Option<State> {
        let pack: Vec<GCard> = GSet::PACK.iter().collect();
        let cards: Vec<GCard> = order.iter().map(|&i| pack[i]).collect();
        let (dealer, time) = rules::roles(setup);
        rules::deal_from(dealer, time, &cards, secret)
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

    /// A trick has just been taken: nobody has led the next one yet.
    fn round_closed(state: &State) -> bool {
        state.last_trick.is_some()
            && matches!(
                state.phase,
                rules::Phase::Lead { .. } | rules::Phase::BlindPick { .. }
            )
    }

    /// The talafas played face down: no other seat ever learns them (RULINGS, Ganjifa 7).
    fn concealed_at_end(state: &State) -> Vec<String> {
        Seat::all(Self::SEATS)
            .flat_map(|s| state.face_down[s].iter())
            .map(|card| card.to_string())
            .collect()
    }

    /// What the seat saw in play: every card played face up, its own cards, the burnt ones, and the
    /// cards dealt face up (everyone saw those, even one later played face down).
    fn seen_at_end(state: &State, viewer: Option<Seat>) -> Vec<String> {
        view::visible_to(state, viewer)
            .union(state.face_up)
            .iter()
            .map(|card| card.to_string())
            .collect()
    }

    /// A talafa laid face down is never named to another seat or a watcher, not even in a replay.
    fn action_told_to(action: &Action, by: Seat, viewer: Option<Seat>) -> Option<Action> {
        (!action.laid_face_down() || viewer == Some(by)).then_some(*action)
    }

    fn bot(kind: BotKind, _seat: Seat, budget: Budget) -> Option<Box<dyn Bot<Self>>> {
        match kind {
            BotKind::Computer => Some(Box::new(bot::Computer)),
            BotKind::Random => Some(Box::new(RandomBot)),
            BotKind::Strong => Some(Box::new(strong::Strong::new(budget))),
            _ => None,
        }
    }

    fn coach() -> Option<&'static dyn crate::game::Coach<Self>> {
        Some(&coach::COACH)
    }
}
