//! Panjpar in Chromium: whole matches played by clicking against the computer, between two browsers
//! joined through the friends link, and in Persian; high contrast across a reload; a keyboard-only move;
//! a defence made by dragging; the reconnecting banner when the network drops; the message for a move
//! made on an out-of-date view. The table on one screen at 1280x800 and 390x844 (hand and action bar in
//! sight at every turn, no console error, screenshots for the README); a move that travels, and does not
//! under reduced motion; focus kept across redraws; a move tried offline refused with a sentence and the
//! choice kept.

mod board;
mod clicking;
mod connection;
mod guided;
mod hand;
mod keyboard;
mod matches;
mod persian;

use clicking::{
    a_move_then_a_redraw, attack_with_the_first_card, choose_the_first_card, click_a_move,
    move_and_see_it_taken, moved_on, reload_the_table, wait_for_our_turn, with_state,
};
pub(crate) use clicking::{
    click_panjpar_move, play_to_an_attack, play_to_the_end, Clicked, BOARD_STATE,
};
