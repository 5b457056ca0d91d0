//! A table's snapshot: everything needed to rebuild it exactly on another process, and no secret.
//!
//! It holds the game, the kind of table, the match (its length and running score), who sits where
//! (a person only by the SHA-256 of their seat token), every deal's setup and seed with the actions
//! played and the versions they made, and the table's version. Rebuilding deals the last deal again from
//! its seed and replays its actions through the rules core, so the rebuilt table is the same table at
//! the same version, and every player's token still works.

use serde::{Deserialize, Serialize};

use super::messages::DealRecord;
use super::seats::TableKind;
use super::TokenHash;
use crate::matches::{Match, MatchLength};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub game: String,
    pub kind: TableKind,
    pub length: MatchLength,
    pub matchup: Match,
    pub seats: Vec<SeatRecord>,
    pub deals: Vec<DealRecord>,
    pub version: u64,
}

/// Who sits in a seat, as a snapshot keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "who", rename_all = "lowercase")]
pub enum SeatRecord {
    Free,
    Person { key: TokenHash },
    Computer { bot: String },
}

impl Snapshot {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("snapshots always serialize")
    }

    pub fn from_json(text: &[u8]) -> Result<Snapshot, String> {
        serde_json::from_slice(text)
            .map_err(|e| format!("a table snapshot that cannot be read: {e}"))
    }
}
