//! chaikhana: Panjpar, Pishe Pasha and Ganjifa, played through a shared link or against the computer.
//!
//! The rules cores are pure ([`game::Game`]); self-play ([`sim`]) measures the computer players.

pub mod cards;
pub mod game;
pub mod games;
pub mod matches;
pub mod sim;
