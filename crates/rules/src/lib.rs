//! chaikhana's rules: the three games, their computer players, the coach and self-play, with no
//! server in them. Nothing here reads a clock for play, draws from the operating system's generator,
//! or knows of tables, sockets, stores or metrics: this crate's `Cargo.toml` holds none of the crates
//! that would (the server crate, `chaikhana`, builds on this one).
//!
//! A tour, from the cards up:
//!
//! - [`cards`]: seats, the 52-card deck, the seeded shuffle; [`pack_set`] is the bit-mask set every
//!   pack's cards share, and [`card_codes`] finds card codes in a serialized view.
//! - [`game`]: the contract every game meets ([`game::Game`], [`game::Bot`], the coach's
//!   [`game::Coach`], the computers' budget).
//! - [`games`]: each game in its folder (rules, views, computers, coach, its pages in `web/`, its
//!   measured ratings), and the strong computer's search they share.
//! - [`matches`]: a match around deals; [`coach`]: a finished deal's decisions and their judgement;
//!   [`sim`]: self-play and the levels' ratings; [`game_pages`]: what a game shows of itself.

pub mod card_codes;
pub mod cards;
pub mod coach;
pub mod game;
pub mod game_pages;
pub mod games;
pub mod matches;
pub mod pack_set;
pub mod sim;

/// Nothing of the server compiles here: the crates it runs on are not this crate's dependencies, so
/// naming one is an error, and `tests/dependencies.rs` keeps them out of the graph.
///
/// ```compile_fail
/// use tokio::time::Instant;
/// ```
///
/// ```compile_fail
/// use actix::Actor;
/// ```
///
/// ```compile_fail
/// use redis::Client;
/// ```
#[cfg(doctest)]
pub struct NoServerHere;
