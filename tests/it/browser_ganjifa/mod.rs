//! Ganjifa in Chromium: a whole three-deal match against two computers played by clicking (leads
//! from the ladder's buttons or hand cards, cards put down, backs picked); the one-screen board at a
//! desktop and a phone (hand and action bar always in sight, no console error; the landscape phone
//! and the large screen are in browser_layouts.rs);
//! cards that travel, and stay still under reduced motion; focus kept across redraws; a move tried
//! offline said, not lost; the staged deal; the Persian pages and table; and the screenshots in
//! docs/screenshots.

mod clicking;
mod matches;
mod offline;
mod persian;
mod redraws;
mod screen;
mod staged;

pub(crate) use clicking::{click_a_move, BOARD_STATE};
use clicking::{
    play_the_computer_from_home, play_to_a_put_down, play_to_the_end, wait_for_our_turn,
};
use screen::fits;
