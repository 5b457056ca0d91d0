//! chaikhana: Panjpar, Pishe Pasha and Ganjifa, played through a shared link or against the computer.
//!
//! The rules cores are pure ([`game::Game`]); tables are actors ([`table`]) found through a router
//! ([`routing`]); the actix-web app ([`server`]) serves the pages and the WebSocket play; self-play
//! ([`sim`]) measures the computer players.

pub mod card_codes;
pub mod cards;
pub mod catalog;
pub mod coach;
pub mod game;
pub mod game_pages;
pub mod games;
pub mod lobby;
pub mod matches;
pub mod memory;
pub mod metrics;
#[cfg(test)]
mod module_graph;
pub mod outbox;
pub mod pack_set;
pub mod protocol;
pub mod routing;
pub mod server;
pub mod settings;
pub mod sim;
pub mod table;
pub mod thinking;
