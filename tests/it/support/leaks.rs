//! What each game's frame may not show a seat: the checks `assert_frames_hide_the_truth` runs on
//! every view frame, given the deal's states up to that frame.

use serde_json::Value;

use chaikhana_rules::card_codes::codes_in;
use chaikhana_rules::cards::{CardSet, Seat};
use chaikhana_rules::games::ganjifa::{
    pack::GCard, pack::GSet, view::visible_to as ganjifa_visible_to,
};
use chaikhana_rules::games::panjpar::{view::visible_to, State};
use chaikhana_rules::games::pishe_pasha;

/// The cards a Panjpar frame shows that its seat could not know.
pub fn panjpar_leaks(history: &[State], seat: Seat, frame: &Value) -> Option<String> {
    let state = history.last()?;
    let leaked = cards_in_json(frame).minus(visible_to(state, Some(seat)));
    (!leaked.is_empty()).then(|| format!("shown {leaked:?}"))
}

/// A Pishe Pasha frame may show only cards that have left a stock at some point of the deal so far:
/// a card never turned up from a stock is seen by nobody.
pub fn pishe_pasha_leaks(
    history: &[pishe_pasha::State],
    _seat: Seat,
    frame: &Value,
) -> Option<String> {
    let mut seen = CardSet::EMPTY;
    for state in history {
        let in_stocks: CardSet = Seat::all(2)
            .flat_map(|s| state.stock(s).as_slice().iter().copied())
            .collect();
        seen = seen.union(CardSet::DECK.minus(in_stocks));
    }
    let leaked = cards_in_json(frame).minus(seen);
    (!leaked.is_empty()).then(|| format!("shown stock cards {leaked:?}"))
}

/// Every French card code anywhere in a frame.
pub fn cards_in_json(frame: &Value) -> CardSet {
    let mut found = CardSet::EMPTY;
    codes_in(frame, &mut |card| found.insert(card));
    found
}

/// Every Ganjifa card code anywhere in a frame.
pub fn ganjifa_cards(frame: &Value) -> GSet {
    let mut found = GSet::EMPTY;
    codes_in(frame, &mut |card: GCard| found.insert(card));
    found
}

/// The Ganjifa cards a frame shows that its seat could not know.
pub fn ganjifa_leaks(
    history: &[chaikhana_rules::games::ganjifa::State],
    seat: Seat,
    frame: &Value,
) -> Option<String> {
    let leaked = ganjifa_cards(frame).minus(ganjifa_visible_to(history.last()?, Some(seat)));
    (!leaked.is_empty()).then(|| format!("shown {leaked:?}"))
}

/// What the per-game suites (`tests/it/each_game/`) need of a game beside its rules core: the
/// matches to play and what a seat's frame may not show. Each game the catalog lists has its
/// implementation here, or the suites the catalog generates for it do not compile.
pub trait Tested: chaikhana_rules::game::Game {
    /// A short match, as a table request's `length`.
    fn short() -> Value;

    /// A match of one or more deals (its `length`) and how many of its deals to play through.
    fn several() -> (Value, usize);

    /// What `frame` shows `seat` that it could not know, given the deal's states so far.
    fn leaks(history: &[Self::State], seat: Seat, frame: &Value) -> Option<String>;
}

impl Tested for chaikhana_rules::games::panjpar::Panjpar {
    fn short() -> Value {
        Value::from(1)
    }

    fn several() -> (Value, usize) {
        (Value::from(3), 2)
    }

    fn leaks(history: &[State], seat: Seat, frame: &Value) -> Option<String> {
        panjpar_leaks(history, seat, frame)
    }
}

impl Tested for chaikhana_rules::games::pishe_pasha::PishePasha {
    fn short() -> Value {
        Value::from("one-deal")
    }

    fn several() -> (Value, usize) {
        (Value::from("one-deal"), 1)
    }

    fn leaks(history: &[pishe_pasha::State], seat: Seat, frame: &Value) -> Option<String> {
        pishe_pasha_leaks(history, seat, frame)
    }
}

impl Tested for chaikhana_rules::games::ganjifa::Ganjifa {
    fn short() -> Value {
        Value::from(3)
    }

    fn several() -> (Value, usize) {
        (Value::from(3), 3)
    }

    fn leaks(
        history: &[chaikhana_rules::games::ganjifa::State],
        seat: Seat,
        frame: &Value,
    ) -> Option<String> {
        ganjifa_leaks(history, seat, frame)
    }
}
