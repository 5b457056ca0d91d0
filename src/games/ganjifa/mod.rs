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
//! use chaikhana::cards::{deal_rng, Seat};
//! use chaikhana::game::{DealSetup, Game};
//! use chaikhana::games::ganjifa::{rules::Time, Ganjifa};
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
pub mod ladder;
pub mod lead;
pub mod pack;
pub mod rules;
pub mod staged;
pub mod strong;
pub mod view;

#[cfg(test)]
mod deal_scenarios;
#[cfg(test)]
mod playouts;
#[cfg(test)]
mod scenarios;

use crate::cards::{DealRng, Seat};
use crate::game::{
    Bot, BotKind, DealOrder, DealOutcome, DealSetup, DealtTo, Game, RandomBot, RuleError,
};
use crate::games::strong::Budget;
use crate::matches::MatchLength;

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

    type State = State;
    type Action = Action;
    type View = View;
    type Length = Deals;
    const LENGTHS: &'static str = "A Ganjifa match is 3 or 6 deals.";

    fn deal(setup: &DealSetup, rng: &mut DealRng) -> State {
        rules::deal(setup, rng)
    }

    fn deal_in_order(setup: &DealSetup, rng: &mut DealRng) -> (State, DealOrder) {
        let (state, pack) = rules::deal_in_order(setup, rng);
        let order = DealOrder::new(&pack, |i| DealtTo::Seat(rules::dealt_to(state.dealer, i)));
        (state, order)
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

    /// The talafas played face down: no other seat ever learns them (RULINGS, Ganjifa 7).
    fn concealed_at_end(state: &State) -> Vec<String> {
        Seat::all(Self::SEATS)
            .flat_map(|s| state.face_down[s].iter())
            .map(|card| card.to_string())
            .collect()
    }

    fn bot(kind: BotKind, _seat: Seat, budget: Budget) -> Option<Box<dyn Bot<Self>>> {
        match kind {
            BotKind::Computer => Some(Box::new(bot::Computer)),
            BotKind::Random => Some(Box::new(RandomBot)),
            BotKind::Strong => Some(Box::new(strong::Strong::new(budget))),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::deal_rng;
    use crate::sim::{simulate, SimConfig};

    fn config(deals: u64, bots: &str, trace: Option<std::path::PathBuf>) -> SimConfig {
        SimConfig {
            deals,
            seed: 4,
            bots: bots.split(',').map(String::from).collect(),
            trace,
            budget: crate::games::strong::DEFAULT_BUDGET,
        }
    }

    #[test]
    fn self_play_scores_add_up_to_zero_and_the_computer_beats_random_players() {
        let report = simulate::<Ganjifa>(&config(400, "computer,random,random", None)).unwrap();
        assert_eq!(report.points.iter().sum::<i64>(), 0);
        assert!(report.points_per_deal[0].low > 2.0, "{}", report.to_text());
        assert!(simulate::<Ganjifa>(&config(1, "computer,random", None)).is_err());
        assert!(simulate::<Ganjifa>(&config(1, "computer,random,nobody", None)).is_err());
    }

    #[test]
    fn a_trace_replays_every_deal_exactly() {
        let path = std::env::temp_dir().join(format!("ganjifa-trace-{}.jsonl", std::process::id()));
        let report =
            simulate::<Ganjifa>(&config(20, "computer,random,computer", Some(path.clone())))
                .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let mut replays: Vec<(State, i64)> = Vec::new();
        for line in text.lines() {
            let line: serde_json::Value = serde_json::from_str(line).unwrap();
            let deal = line["deal"].as_i64().unwrap();
            if replays.last().is_none_or(|(_, d)| *d != deal) {
                let setup: DealSetup = serde_json::from_value(line["setup"].clone()).unwrap();
                let seed = line["deal_seed"].as_u64().unwrap();
                replays.push((Ganjifa::deal(&setup, &mut deal_rng(seed)), deal));
            }
            let (state, _) = replays.last_mut().unwrap();
            assert_eq!(serde_json::to_value(&*state).unwrap(), line["state"]);
            let seat: Seat = serde_json::from_value(line["seat"].clone()).unwrap();
            let action: Action = serde_json::from_value(line["action"].clone()).unwrap();
            Ganjifa::apply(state, seat, &action).unwrap();
        }
        assert_eq!(replays.len(), 20);
        let mut points = [0i64; 3];
        for (state, _) in &replays {
            let outcome = Ganjifa::outcome(state).expect("every replayed deal ends");
            for (total, p) in points.iter_mut().zip(outcome.points) {
                *total += i64::from(p);
            }
        }
        assert_eq!(points.to_vec(), report.points);
    }
}
