//! The parts of a `view` frame as typed values: where the table stands, the head of a view, the
//! coming shuffle and the match as every seat is shown them. The core says with them what each socket
//! is shown; the presenter (`table::present`) writes them into frames.
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use serde::Serialize;

use super::seats::{Level, TableKind};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::DealOutcome;
use chaikhana_rules::matches::Match;

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
    /// At a table that offers the coach's hints, how many each seat has taken in this deal (none:
    /// the table offers none).
    pub hints_taken: Option<Vec<u32>>,
}

/// A socket's own action, accepted: the id its page gave it.
#[derive(Serialize)]
pub struct Ack<'a> {
    pub id: Option<&'a str>,
}

pub use crate::protocol::ShuffleShown;

/// The match as every seat sees it.
#[derive(Serialize)]
pub struct MatchInfo<'a> {
    #[serde(flatten)]
    pub score: &'a Match,
    /// The winners, once the match is over.
    pub winners: Option<Vec<Seat>>,
}
