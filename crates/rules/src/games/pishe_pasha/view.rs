//! What one seat sees of a deal of Pishe Pasha (RULINGS Pishe Pasha 7): both discard piles' top card
//! and count, both stocks' counts, the four suit piles, the turn in progress and the last turn before
//! it (forced steps included), whose turn it is, and what this seat may do now, with the reason when a
//! give is not possible. No stock card is ever in a view, the seat's own included, nor any card under a
//! pile's top.
//!
//! A view is built at every decision of self-play, so it holds only `Copy` data; the hint sentences are
//! written only when the view is serialized.

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use super::log::TurnLog;
use super::piles::SuitPiles;
use super::rules::{Action, CannotGive, Phase, State, SEATS};
use crate::cards::{BySeat, Card, Seat};

/// A discard pile as everyone sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PileView {
    pub top: Option<Card>,
    pub count: u8,
}

/// What the viewing seat may do now. All false when it is not its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Choices {
    /// It may turn a card.
    pub turn: bool,
    /// The card it may give (its pile's top or the card just turned), if it may give.
    pub give: Option<Card>,
    /// It may keep the card just turned.
    pub keep: bool,
    /// Why the top of its pile cannot be given, when it could give or turn and giving is not possible.
    pub cannot_give: Option<CannotGive>,
}

impl Choices {
    /// Whether the action is among the choices.
    pub fn allows(&self, action: Action) -> bool {
        match action {
            Action::Turn => self.turn,
            Action::Give => self.give.is_some(),
            Action::Keep => self.keep,
        }
    }
}

impl Serialize for Choices {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Choices", 5)?;
        out.serialize_field("turn", &self.turn)?;
        out.serialize_field("give", &self.give)?;
        out.serialize_field("keep", &self.keep)?;
        out.serialize_field(
            "cannot_give",
            &self.cannot_give.map(|why| why.code().as_str()),
        )?;
        out.serialize_field("hint", &self.cannot_give.map(|why| why.to_string()))?;
        out.end()
    }
}

/// How the deal ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DealResult {
    pub winner: Seat,
    pub points: u8,
}

/// One seat's view of the deal (or a spectator's, with no seat and no choices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// The seat this view is for; `None` for a spectator.
    pub seat: Option<Seat>,
    pub dealer: Seat,
    /// The seat whose turn it is; `None` once the deal is over.
    pub to_act: Option<Seat>,
    /// How many cards each stock holds; never which.
    pub stocks: BySeat<u8, SEATS>,
    /// Each discard pile's top card and count.
    pub piles: BySeat<PileView, SEATS>,
    pub suit_piles: SuitPiles,
    /// The card just turned that fits only the other seat's pile, waiting to be given or kept.
    pub turned: Option<Card>,
    /// The steps of the turn in progress (or of the turn that won the deal).
    pub this_turn: TurnLog,
    /// The turn before it, taken by the other seat.
    pub last_turn: TurnLog,
    pub choices: Choices,
    pub result: Option<DealResult>,
}

impl View {
    /// The view of `seat` (`None`: a spectator).
    pub fn of(state: &State, seat: Option<Seat>) -> View {
        let pile = |s: Seat| PileView {
            top: state.pile(s).top(),
            count: state.pile(s).len() as u8,
        };
        let (turned, result) = match state.phase() {
            Phase::Play => (None, None),
            Phase::Turned { card } => (Some(card), None),
            Phase::Won { winner, points } => (None, Some(DealResult { winner, points })),
        };
        let choices = match seat {
            Some(seat) if state.to_act() == Some(seat) => choices(state),
            _ => Choices::default(),
        };
        View {
            seat,
            dealer: state.dealer(),
            to_act: state.to_act(),
            stocks: BySeat::from_fn(|s| state.stock(s).len() as u8),
            piles: BySeat::from_fn(pile),
            suit_piles: *state.suit_piles(),
            turned,
            this_turn: *state.this_turn(),
            last_turn: *state.last_turn(),
            choices,
            result,
        }
    }
}

/// The choices of the seat to act.
fn choices(state: &State) -> Choices {
    match state.phase() {
        Phase::Play => {
            let (give, cannot_give) = match state.giveable() {
                Ok(card) => (Some(card), None),
                Err(why) => (None, Some(why)),
            };
            Choices {
                turn: true,
                give,
                keep: false,
                cannot_give,
            }
        }
        Phase::Turned { card } => Choices {
            turn: false,
            give: Some(card),
            keep: true,
            cannot_give: None,
        },
        Phase::Won { .. } => Choices::default(),
    }
}
