//! A request for a new table, as the HTTP handler makes it and the router carries it to the node that
//! opens it.

use serde::{Deserialize, Serialize};

use super::{Level, TableKind, TableRefusal, TokenHash};
use crate::thinking;
use chaikhana_rules::matches::MatchLength;

/// A table to open: its game, kind and match length, and the hash of its creator's token.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OpenTable {
    pub game: String,
    pub kind: TableKind,
    /// How well the computers play, at a computer table.
    #[serde(default)]
    pub level: Level,
    pub length: MatchLength,
    /// At a friends table, whether the coach's hints are offered to every player.
    #[serde(default)]
    pub hints: bool,
    /// At a computer table, whether its first deal is guided: the computers wait for the guide's
    /// first words (see `TableCore::guided`).
    #[serde(default)]
    pub guided: bool,
    pub creator: TokenHash,
}

impl OpenTable {
    /// Whether the table's computers think on the thinking pool (the strong and the clever ones do),
    /// so that it is placed only on a node whose pool is not saturated.
    pub fn thinks(&self) -> bool {
        self.kind == TableKind::Computer && matches!(self.level, Level::Strong | Level::Clever)
    }

    /// Refused when the table would think on this node's pool and the pool is saturated.
    pub fn fits_here(&self) -> Result<(), TableRefusal> {
        if self.thinks() && thinking::pool().saturated() {
            return Err(TableRefusal::computers_busy());
        }
        Ok(())
    }
}
