//! Tables that wait for their players, in Chromium: "Your games" on the home page lists a table left
//! mid-match with whose turn it is, and one click resumes the same seat; a friend who closes the tab
//! is shown away, with for how long; the tab's title says "Your turn", and a turn that comes while the
//! tab is hidden is told by a notification (the page's own Notifications API, stubbed in the page);
//! an away seat offered to someone else is free for the link, and its old holder is told so; a match
//! ended by the one left closes both pages with their end panel. Also, without a browser: the page of
//! a table gone for good (`gone.html`) renders for each reason, and with its variables empty.

mod away;
mod closed;
mod tables;
mod turn;
mod your_games;

use tables::{
    arash_goes_away, click_a_move, offerable_at_once, play_one_move, says_closed,
    start_against_the_computer, stored, MY_TURN,
};
