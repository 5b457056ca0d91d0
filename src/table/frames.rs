//! The `view` frame: what the table sends one seat after every change.
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use serde::Serialize;
use serde_json::value::RawValue;

#[cfg(doc)]
use super::seal::SealShown;
use super::seats::{Level, TableKind};
use crate::cards::Seat;
use crate::game::{DealOutcome, Game};
use crate::matches::Match;
#[cfg(doc)]
use crate::protocol::SeatInfo;

/// Where the table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Waiting for every seat to be taken.
    Waiting,
    /// A deal is being played.
    Playing,
    /// A deal has ended; any person may deal the next one.
    DealOver,
    /// The match has ended; any person may start a rematch.
    MatchOver,
}

/// One socket's view frame. Its [`Head`] and the slow parts (`table`, `seats`, `match`, `deal`,
/// `shuffle`) are written beforehand, and left out when the socket was last sent them as they are (see
/// `core::views`).
///
/// Its `view`, the seat's view of the deal in play (or the one just ended; null before the first), is
/// written apart and added to the frame's JSON (see `table::core::view_fields`).
#[derive(Serialize)]
pub struct ViewFrame<'a, G: Game> {
    #[serde(rename = "type")]
    pub frame: &'static str,
    pub version: u64,
    /// The table's id, its seat link's: for a seat only (a watcher must not find the seat link).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<&'a RawValue>,
    #[serde(flatten)]
    pub head: Option<&'a Head>,
    /// Every seat's [`SeatInfo`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<&'a RawValue>,
    /// The [`MatchInfo`].
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub matchup: Option<&'a RawValue>,
    /// Every action this seat may take now (empty when it is not its turn).
    pub actions: Vec<G::Action>,
    /// The deal's [`SealShown`]: its commitment, and once it has ended its order and salt (see
    /// `table::seal`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deal: Option<&'a RawValue>,
    /// The coming deal's [`ShuffleShown`], for a seat to add its number to (null for a watcher).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shuffle: Option<&'a RawValue>,
    /// The action this view answers: present only in the view sent to the socket whose action made
    /// this version, so that its page hears "accepted" and the new table in one frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ack: Option<Ack<'a>>,
}

/// What a view frame says of the table and the viewer, besides the deal: small, and the same from
/// one move to the next but for `status` and `outcome` at a deal's end and start, so it goes into a
/// view (as top-level fields) only when it differs from what the socket was last sent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Head {
    pub game: &'static str,
    pub kind: TableKind,
    /// How well the computers play, at a computer table.
    pub level: Option<Level>,
    pub status: Status,
    /// Whose view this is; none for a watcher.
    pub seat: Option<Seat>,
    /// How many people watch the table through its watch link.
    pub watching: usize,
    /// How the deal ended, once it has.
    pub outcome: Option<DealOutcome>,
}

/// A socket's own action, accepted: the id its page gave it.
#[derive(Serialize)]
pub struct Ack<'a> {
    pub id: Option<&'a str>,
}

/// The coming deal's shuffle as a seat sees it: the table's commitment, and who has added a number.
#[derive(Serialize)]
pub struct ShuffleShown<'a> {
    pub commitment: &'a str,
    pub contributed: &'a [bool],
}

/// The match as every seat sees it.
#[derive(Serialize)]
pub struct MatchInfo<'a> {
    #[serde(flatten)]
    pub score: &'a Match,
    /// The winners, once the match is over.
    pub winners: Option<Vec<Seat>>,
}
