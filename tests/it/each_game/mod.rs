//! The suites every game is run through, generated per game from the catalog's one list of games
//! (`chaikhana::every_game!`), so a game added to the site is played, attacked, replayed and checked
//! for leaks, and followed in Chromium by a watcher's page, with nothing else to list. A game built outside the crate (the small fourth game in
//! `tests/it/high_card/`) is run through the same suites by naming itself to [`suites!`].
//!
//! What a suite needs to know of a game beyond its rules core (the matches to play, what a frame may
//! not show) is its `support::leaks::Tested` implementation. `cargo test --test it each_game::ganjifa`
//! runs one game's suites.

pub mod coaching;
pub mod protocol;
pub mod table;

/// For each `(module, game type)`, a module of tests that runs the game through every suite.
macro_rules! suites {
    ($(($module:ident, $game:ty)),* $(,)?) => {
        $(
            mod $module {
                #[actix_rt::test]
                async fn a_match_against_the_computer() {
                    $crate::each_game::table::against_the_computer::<$game>().await;
                }

                #[actix_rt::test]
                async fn a_match_among_friends() {
                    $crate::each_game::table::among_friends::<$game>().await;
                }

                #[actix_rt::test]
                async fn moves_out_of_turn_malformed_or_stale_are_refused() {
                    $crate::each_game::protocol::refusals_change_nothing::<$game>().await;
                }

                #[actix_rt::test]
                async fn the_coach_hints_and_analyses_a_finished_deal_once_for_its_seat_alone() {
                    $crate::each_game::coaching::analysed_once_for_its_seat::<$game>().await;
                }

                #[actix_rt::test]
                async fn each_seat_replays_each_deal_as_it_saw_it() {
                    $crate::server_replay::replays_as_seen::<$game>().await;
                }

                #[actix_rt::test]
                async fn a_watcher_follows_a_match_in_the_page() {
                    $crate::browser_watch::watch_a_match::<$game>().await;
                }

                #[actix_rt::test]
                async fn frames_hide_the_truth_over_many_matches() {
                    $crate::hidden_over_the_wire::many_matches::<$game>().await;
                }
            }
        )*
    };
}
pub(crate) use suites;

chaikhana::every_game!(suites);
