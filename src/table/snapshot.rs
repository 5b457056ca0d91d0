//! A table's snapshot: everything needed to rebuild it exactly on another process, and no secret.
//!
//! It holds the game, the kind of table, the match (its length and running score), who sits where
//! (a person only by the SHA-256 of their seat token), every deal's setup and seed with the actions
//! played and the versions they made, and the table's version. Rebuilding deals the last deal again from
//! its seed and replays its actions through the rules core, so the rebuilt table is the same table at
//! the same version, and every player's token still works.
//!
//! Snapshots carry their format's number ([`FORMAT`]); one written by an earlier release (format 1:
//! no names, no away times, no seats given away) reads as the same table with those left empty, and
//! one of a later format than this release knows is refused rather than misread.
//!
//! A store need not write the whole snapshot after every move: it may keep the snapshot as it was at
//! the last change of any other kind and add each accepted action after it, one line per action (see
//! [`Snapshot::from_stored`]). The snapshot read back that way is the same as a whole one.
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use serde::{Deserialize, Serialize};

use super::seats::TableKind;
use super::DealRecord;
use super::TokenHash;
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::BotKind;
use chaikhana_rules::matches::{Match, MatchLength};

/// The format of the snapshots this release writes.
pub const FORMAT: u32 = 2;

/// The format of a snapshot written without its number: the first release's.
fn first_format() -> u32 {
    1
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    #[serde(default = "first_format")]
    pub format: u32,
    pub game: String,
    pub kind: TableKind,
    pub length: MatchLength,
    pub matchup: Match,
    pub seats: Vec<SeatRecord>,
    pub deals: Vec<DealRecord>,
    pub version: u64,
    /// The name each seat's person goes by, if they gave one.
    #[serde(default)]
    pub names: Vec<Option<String>>,
    /// Since when (Unix ms) each seat's person has been away, when they were as it was stored.
    #[serde(default)]
    pub away: Vec<Option<u64>>,
    /// The hashes of the tokens whose seats were offered to someone else.
    #[serde(default)]
    pub given_away: Vec<TokenHash>,
    /// The coming deal's secret (see `table::seal`), so that a rebuilt table keeps the commitment
    /// its pages answered. Absent in snapshots stored before fair deals: a fresh one is drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coming: Option<Coming>,
    /// Whether the coach's hints are offered at this friends table, as every seat agreed when it
    /// took its seat (a computer table always offers them).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
}

/// The coming deal's secret and the deal it was committed for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coming {
    pub secret: String,
    pub setup: chaikhana_rules::game::DealSetup,
    /// The table's number for the coming deal (none in a snapshot from before deals were named).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<u64>,
    /// Its list of pledges, once closed (and so shown to the pages): a rebuilt table keeps it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pledges: Option<Vec<Option<String>>>,
}

/// A snapshot of a table borrowed from it, to be written without copying its record first. It is
/// written exactly as the [`Snapshot`] it stands for.
#[derive(Serialize)]
pub struct SnapshotOf<'a, A: Serialize> {
    pub format: u32,
    pub game: &'a str,
    pub kind: TableKind,
    pub length: MatchLength,
    pub matchup: &'a Match,
    pub seats: Vec<SeatRecord>,
    pub deals: &'a [DealRecord<A>],
    pub version: u64,
    pub names: &'a [Option<String>],
    pub away: Vec<Option<u64>>,
    pub given_away: &'a [TokenHash],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coming: Option<Coming>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
}

impl<A: Serialize> SnapshotOf<'_, A> {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("snapshots always serialize")
    }
}

/// Who sits in a seat, as a snapshot keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "who", rename_all = "lowercase")]
pub enum SeatRecord {
    Free,
    Person { key: TokenHash },
    Computer { bot: BotKind },
}

impl Snapshot {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("snapshots always serialize")
    }

    pub fn from_json(text: &[u8]) -> Result<Snapshot, RecordError> {
        let snapshot: Snapshot =
            serde_json::from_slice(text).map_err(|e| RecordError::Unreadable(e.to_string()))?;
        if snapshot.format > FORMAT {
            return Err(RecordError::NewerFormat(snapshot.format));
        }
        Ok(snapshot)
    }

    /// Reads a snapshot as a store keeps it: the snapshot's JSON on the first line, then one line for
    /// each action accepted since (see [`Snapshot::played_line`]), added to the last deal in order.
    pub fn from_stored(text: &[u8]) -> Result<Snapshot, RecordError> {
        let mut lines = text.split(|b| *b == b'\n');
        let mut snapshot = Snapshot::from_json(lines.next().unwrap_or_default())?;
        for line in lines {
            let played: Played = serde_json::from_slice(line)
                .map_err(|e| RecordError::ActionUnreadable(e.to_string()))?;
            snapshot.add_played(played)?;
        }
        Ok(snapshot)
    }

    /// The line a store adds after the snapshot for one accepted action (with its leading newline).
    pub fn played_line(seat: Seat, action: &impl Serialize, made: u64) -> String {
        let json = serde_json::to_string(&(seat, action, made)).expect("actions always serialize");
        format!("\n{json}")
    }

    /// Adds an action accepted after the snapshot was taken. It must be the very next version: a line
    /// missing in between would rebuild a different table, so that is refused rather than guessed.
    fn add_played(&mut self, (seat, action, made): Played) -> Result<(), RecordError> {
        if made != self.version + 1 {
            return Err(RecordError::NotNext {
                at: self.version,
                made,
            });
        }
        let Some(deal) = self.deals.last_mut() else {
            return Err(RecordError::NoDeal);
        };
        deal.actions.push((seat, action, made));
        self.version = made;
        Ok(())
    }
}

/// Why a stored table cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The snapshot is not one: serde's words.
    Unreadable(String),
    /// Written by a newer release, in this format.
    NewerFormat(u32),
    /// An action stored after the snapshot is not one: serde's words.
    ActionUnreadable(String),
    /// An action stored after the snapshot at version `at` made version `made`, not the next.
    NotNext { at: u64, made: u64 },
    /// An action stored after a snapshot with no deal.
    NoDeal,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::Unreadable(e) => write!(f, "a table snapshot that cannot be read: {e}"),
            RecordError::NewerFormat(format) => write!(
                f,
                "a table snapshot of format {format}, newer than this release's {FORMAT}"
            ),
            RecordError::ActionUnreadable(e) => {
                write!(f, "an action stored after a snapshot cannot be read: {e}")
            }
            RecordError::NotNext { at, made } => write!(
                f,
                "an action stored after a snapshot at version {at} made version {made}"
            ),
            RecordError::NoDeal => f.write_str("an action stored after a snapshot with no deal"),
        }
    }
}

impl std::error::Error for RecordError {}

/// One accepted action as stored after a snapshot: the seat, the action, and the version it made.
type Played = (Seat, serde_json::Value, u64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_that_cannot_be_read_says_which_part_and_why() {
        let junk = Snapshot::from_stored(b"{").unwrap_err();
        assert!(matches!(junk, RecordError::Unreadable(_)), "{junk:?}");
        assert!(junk
            .to_string()
            .starts_with("a table snapshot that cannot be read"));
        let gap = RecordError::NotNext { at: 4, made: 6 };
        assert_eq!(
            gap.to_string(),
            "an action stored after a snapshot at version 4 made version 6"
        );
        let newer = RecordError::NewerFormat(FORMAT + 1).to_string();
        assert!(newer.contains("newer than this release's"), "{newer}");
    }
}
