//! The three games' rules cores, and the one place that finds a game by its name.

pub mod ganjifa;

use crate::sim::{simulate, SimConfig, SimReport};

/// Every game's name, as used on the command line and in URLs.
pub const NAMES: &[&str] = &["ganjifa"];

/// Runs self-play of the game called `name`.
pub fn simulate_by_name(name: &str, config: &SimConfig) -> Result<SimReport, String> {
    match name {
        "ganjifa" => simulate::<ganjifa::Ganjifa>(config),
        other => Err(format!(
            "there is no game called \"{other}\" (choose from {})",
            NAMES.join(", ")
        )),
    }
}
