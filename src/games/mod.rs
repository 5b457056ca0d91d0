//! The three games' rules cores, and the one place that finds a game by its name: for self-play and for
//! opening a table.

pub mod panjpar;

use actix::Actor;
use serde_json::Value;

use crate::game::Game;
use crate::matches::MatchLength;
use crate::sim::{simulate, SimConfig, SimReport};
use crate::table::{SeatTicket, Table, TableConfig, TableHandle, TableId, TableKind};

/// Every game's name, as used on the command line and in URLs.
pub const NAMES: &[&str] = &["panjpar"];

fn unknown_game(name: &str) -> String {
    format!(
        "There is no game called \"{name}\"; the games are {}.",
        NAMES.join(", ")
    )
}

/// Runs self-play of the game called `name`.
pub fn simulate_by_name(name: &str, config: &SimConfig) -> Result<SimReport, String> {
    match name {
        "panjpar" => simulate::<panjpar::Panjpar>(config),
        other => Err(unknown_game(other)),
    }
}

/// A game's match length from a table request's `length` (absent for the game's default).
pub fn match_length(name: &str, length: Option<&Value>) -> Result<MatchLength, String> {
    match name {
        "panjpar" => match length {
            None => Ok(panjpar::DEFAULT_MATCH),
            Some(value) => value
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    "A Panjpar match length is a number of deals won: 1, 3 or 5.".to_string()
                })
                .and_then(panjpar::match_length),
        },
        other => Err(unknown_game(other)),
    }
}

/// Opens a table of the game called `name` and starts its actor; returns its handle and the creator's
/// seat.
pub fn open_table(
    name: &str,
    kind: TableKind,
    length: MatchLength,
    config: TableConfig,
) -> Result<(TableHandle, SeatTicket), String> {
    match name {
        "panjpar" => start::<panjpar::Panjpar>(kind, length, config),
        other => Err(unknown_game(other)),
    }
}

fn start<G: Game>(
    kind: TableKind,
    length: MatchLength,
    config: TableConfig,
) -> Result<(TableHandle, SeatTicket), String> {
    let id = TableId::random();
    let (table, ticket) = Table::<G>::new(id.clone(), kind, length, G::BOTS[0], config)
        .ok_or_else(|| format!("{} has no computer player", G::NAME))?;
    let addr = table.start();
    Ok((TableHandle::new(id, G::NAME, &addr), ticket))
}
