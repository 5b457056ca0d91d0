//! The frames to a browser that are not views (views are built by the table, which knows the game's
//! types), and the seats as every seat sees them.

use serde::Serialize;

use super::{Phrase, SignalKind};
use chaikhana_rules::cards::Seat;

/// A frame to a browser (views are built by the table, which knows the game's types).
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ServerMsg<'a> {
    /// Something was refused; nothing changed.
    Error {
        code: &'a str,
        message: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
    },
    /// Who sits where and who is connected, and how many watch.
    Seats {
        seats: &'a [SeatInfo],
        watching: usize,
    },
    /// A quick phrase said by a seat (friends tables only).
    Phrase { seat: Seat, id: Phrase },
    /// A piece of the WebRTC handshake from another seat of this table.
    Signal {
        from: Seat,
        kind: SignalKind,
        data: &'a serde_json::Value,
    },
    /// The coach's choice for this seat's turn on the view with `version`: the action, its expected
    /// result in `unit`, and why: a [`chaikhana_rules::game::Reason`] the page words in its language.
    Hint {
        version: u64,
        action: &'a serde_json::Value,
        value: f64,
        unit: &'a str,
        why: &'a chaikhana_rules::game::Why,
    },
    /// The coming deal's shuffle, once its list of pledges is closed: each seat's page may now send
    /// the number it pledged.
    Shuffle { shuffle: &'a ShuffleShown },
    /// How far the analysis of this seat's decisions in deal `deal` has come: `done` of `of`.
    Analysing { deal: usize, done: usize, of: usize },
    /// This seat's decisions in deal `deal`, judged: how many, and the costly ones marked.
    Analysis {
        deal: usize,
        #[serde(flatten)]
        analysis: &'a chaikhana_rules::coach::Analysis,
    },
}

/// One seat as every seat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatInfo {
    pub seat: Seat,
    pub who: Who,
    pub connected: bool,
    /// Whether this seat has voice on (always false at a computer table).
    pub voice: bool,
    /// Whether this seat has asked for the next deal or the rematch (at a friends table these start
    /// once every person has).
    pub ready: bool,
    /// The name its person gave, if any (plain text: pages show it as text, never as markup).
    pub name: Option<String>,
    /// Since when (Unix milliseconds) its person has had no socket open, while they have none: the
    /// table waits for them, and shows them away.
    pub away_since: Option<u64>,
    /// Whether a person has ever come to this seat (a socket attached to it): one who took the seat
    /// and has not come yet is shown as on their way, not away.
    pub arrived: bool,
    /// Whether its person has been away long enough that the others at a friends table may offer the
    /// seat to someone else (`offer-seat`), or at two seats end the match (`end-match`).
    pub offerable: bool,
}

/// Who sits in a seat, as every seat is told: "person", "computer" or "free".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Who {
    Person,
    Computer,
    Free,
}

impl ServerMsg<'_> {
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("server frames always serialize")
    }
}

/// The coming deal's shuffle as a seat sees it: the table's number for the deal (none for a shuffle
/// kept from before deals were named), its commitment, each seat's pledge so far, whether that list
/// is closed (then a seat with none gives no number), and who has added a number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShuffleShown {
    pub deal: Option<u64>,
    pub commitment: String,
    pub pledges: Vec<Option<String>>,
    pub closed: bool,
    pub contributed: Vec<bool>,
}
