//! The log of a turn of Pishe Pasha: each [`Step`], forced or chosen, in order. Views carry two of
//! them (the turn in progress and the one before), so a log is fixed-size, `Copy` and two bytes a step.

use std::fmt;

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use super::piles::FILLER;
use crate::cards::{Card, Seat};

/// Where a card came from: the top of the seat's discard pile, or turned from its stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    Pile,
    Stock,
}

/// One step of a turn, as the panel lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The card went onto its suit pile. Always forced: the table does it.
    Home { card: Card, from: Source },
    /// The seat gave the card to the other seat's discard pile.
    Give { card: Card, from: Source },
    /// A turned card that fitted only the other seat's pile was kept: it went onto the seat's own pile
    /// and the turn ended.
    Keep { card: Card },
    /// A turned card fitted nowhere: it went onto the seat's own pile and the turn ended (forced).
    Discard { card: Card },
    /// The stock was empty when a card had to be turned: the discard pile, `cards` strong, was turned
    /// over to become the stock (forced).
    TurnOver { cards: u8 },
}

impl Step {
    /// Whether the table did this step without asking.
    pub fn forced(&self) -> bool {
        matches!(
            self,
            Step::Home { .. } | Step::Discard { .. } | Step::TurnOver { .. }
        )
    }

    /// The card the step moved, if one face-up card moved.
    pub fn card(&self) -> Option<Card> {
        match *self {
            Step::Home { card, .. }
            | Step::Give { card, .. }
            | Step::Keep { card }
            | Step::Discard { card } => Some(card),
            Step::TurnOver { .. } => None,
        }
    }

    /// The step as a sentence, told about the seat that took it.
    pub fn sentence(&self) -> String {
        let whence = |from: Source| match from {
            Source::Pile => "from the top of the discard pile",
            Source::Stock => "turned from the stock",
        };
        match *self {
            Step::Home { card, from } => format!(
                "{} went home to the {} pile, {} (by rule).",
                capitalised(card),
                card.suit().name(),
                whence(from)
            ),
            Step::Give { card, from } => {
                format!("{}, {}, was given to the other seat.", capitalised(card), whence(from))
            }
            Step::Keep { card } => format!(
                "{}, turned from the stock, was kept on the discard pile; the turn ended.",
                capitalised(card)
            ),
            Step::Discard { card } => format!(
                "{}, turned from the stock, fitted nowhere and went onto the discard pile; the turn ended (by rule).",
                capitalised(card)
            ),
            Step::TurnOver { cards } => format!(
                "The stock was empty, so the discard pile ({cards} cards) was turned over to become the stock (by rule)."
            ),
        }
    }
}

fn capitalised(card: Card) -> String {
    let mut text = card.describe();
    text.replace_range(..1, "T");
    text
}

impl Serialize for Step {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Step", 6)?;
        let (kind, from) = match *self {
            Step::Home { from, .. } => ("home", Some(from)),
            Step::Give { from, .. } => ("give", Some(from)),
            Step::Keep { .. } => ("keep", Some(Source::Stock)),
            Step::Discard { .. } => ("discard", Some(Source::Stock)),
            Step::TurnOver { .. } => ("turn-over", None),
        };
        out.serialize_field("step", kind)?;
        out.serialize_field("card", &self.card())?;
        out.serialize_field("from", &from)?;
        out.serialize_field("forced", &self.forced())?;
        // A turn-over's card count, so that a board in another language words the step itself.
        let count = match *self {
            Step::TurnOver { cards } => Some(cards),
            _ => None,
        };
        out.serialize_field("count", &count)?;
        out.serialize_field("says", &self.sentence())?;
        out.end()
    }
}

/// The most steps one turn can take. In a turn a seat's cards only leave it, so it has at most 51 homes
/// and gives; a turn-over needs the stock emptied since the last one, which takes a home or a give (a
/// kept or discarded card ends the turn), so at most 52 turn-overs; and one step ends the turn: 104.
pub const MAX_TURN_STEPS: usize = 112;

/// A step in two bytes, so that a turn log is cheap to copy into every view: bits 0-5 hold the card's
/// number (or a turn-over's card count), bits 6-8 the kind of step, bit 9 the source.
#[derive(Clone, Copy, PartialEq, Eq)]
struct PackedStep(u16);

impl PackedStep {
    const HOME: u16 = 0;
    const GIVE: u16 = 1;
    const KEEP: u16 = 2;
    const DISCARD: u16 = 3;
    const TURN_OVER: u16 = 4;

    fn pack(step: Step) -> PackedStep {
        let source = |from: Source| match from {
            Source::Pile => 0,
            Source::Stock => 1 << 9,
        };
        let card = |card: Card| card.index() as u16;
        PackedStep(match step {
            Step::Home { card: c, from } => card(c) | Self::HOME << 6 | source(from),
            Step::Give { card: c, from } => card(c) | Self::GIVE << 6 | source(from),
            Step::Keep { card: c } => card(c) | Self::KEEP << 6,
            Step::Discard { card: c } => card(c) | Self::DISCARD << 6,
            Step::TurnOver { cards } => u16::from(cards.min(63)) | Self::TURN_OVER << 6,
        })
    }

    fn unpack(self) -> Step {
        let low = usize::from(self.0 & 63);
        let card = Card::from_index(low).unwrap_or(FILLER);
        let from = if self.0 & (1 << 9) == 0 {
            Source::Pile
        } else {
            Source::Stock
        };
        match (self.0 >> 6) & 7 {
            Self::HOME => Step::Home { card, from },
            Self::GIVE => Step::Give { card, from },
            Self::KEEP => Step::Keep { card },
            Self::DISCARD => Step::Discard { card },
            _ => Step::TurnOver { cards: low as u8 },
        }
    }
}

/// The steps of one seat's turn, in order.
#[derive(Clone, Copy)]
pub struct TurnLog {
    seat: Seat,
    len: u8,
    steps: [PackedStep; MAX_TURN_STEPS],
}

impl TurnLog {
    /// The log of a turn of `seat` that has not started yet.
    pub fn new(seat: Seat) -> TurnLog {
        TurnLog {
            seat,
            len: 0,
            steps: [PackedStep(0); MAX_TURN_STEPS],
        }
    }

    /// Whose turn it logs.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// How many steps so far.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The steps so far, in order.
    pub fn steps(&self) -> impl ExactSizeIterator<Item = Step> + '_ {
        self.packed().iter().map(|p| p.unpack())
    }

    fn packed(&self) -> &[PackedStep] {
        &self.steps[..self.len()]
    }

    /// Empties the log for a new turn of `seat`.
    pub(super) fn restart(&mut self, seat: Seat) {
        self.seat = seat;
        self.len = 0;
    }

    /// Adds a step. The bound above makes a full log impossible; were it full, the step would go
    /// unlogged rather than stop the table.
    pub(super) fn push(&mut self, step: Step) {
        let len = self.len();
        if let Some(slot) = self.steps.get_mut(len) {
            *slot = PackedStep::pack(step);
            self.len += 1;
        }
    }
}

impl PartialEq for TurnLog {
    fn eq(&self, other: &TurnLog) -> bool {
        self.seat == other.seat && self.packed() == other.packed()
    }
}

impl Eq for TurnLog {}

impl fmt::Debug for TurnLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TurnLog")
            .field("seat", &self.seat)
            .field("steps", &self.steps().collect::<Vec<_>>())
            .finish()
    }
}

impl Serialize for TurnLog {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Steps<'a>(&'a TurnLog);
        impl Serialize for Steps<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_seq(self.0.steps())
            }
        }
        let mut out = serializer.serialize_struct("TurnLog", 2)?;
        out.serialize_field("seat", &self.seat)?;
        out.serialize_field("steps", &Steps(self))?;
        out.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card;

    #[test]
    fn steps_read_as_sentences_and_serialize_with_their_card() {
        let step = Step::Home {
            card: card("7H"),
            from: Source::Pile,
        };
        assert!(step.forced());
        let json = serde_json::to_value(step).unwrap();
        assert_eq!(json["card"], "7H");
        assert_eq!(json["step"], "home");
        assert_eq!(
            json["says"],
            "The 7 of hearts went home to the hearts pile, from the top of the discard pile (by rule)."
        );
        let turn_over = serde_json::to_value(Step::TurnOver { cards: 9 }).unwrap();
        assert_eq!(turn_over["card"], serde_json::Value::Null);
        assert_eq!(turn_over["count"], 9);
        assert_eq!(json["count"], serde_json::Value::Null);
        // A forced step says so once, in its own sentence: the board adds nothing.
        let discard = Step::Discard { card: card("KS") };
        assert!(discard.forced());
        for step in [step, discard, Step::TurnOver { cards: 9 }] {
            assert_eq!(step.sentence().matches("(by rule)").count(), 1, "{step:?}");
        }
        let keep = Step::Keep { card: card("KS") };
        assert!(!keep.forced() && !keep.sentence().contains("(by rule)"));
    }

    #[test]
    fn every_step_packs_and_unpacks_unchanged() {
        let mut log = TurnLog::new(Seat::new(1));
        let mut expected = vec![];
        for card in crate::cards::deck() {
            for from in [Source::Pile, Source::Stock] {
                expected.extend([Step::Home { card, from }, Step::Give { card, from }]);
            }
            expected.extend([Step::Keep { card }, Step::Discard { card }]);
        }
        for cards in 0..=52 {
            expected.push(Step::TurnOver { cards });
        }
        for chunk in expected.chunks(MAX_TURN_STEPS) {
            log.restart(Seat::new(1));
            chunk.iter().for_each(|&step| log.push(step));
            assert_eq!(log.steps().collect::<Vec<_>>(), chunk);
        }
        log.restart(Seat::new(0));
        assert!(log.is_empty() && log.seat() == Seat::new(0));
    }
}
