//! The integration tests, in one crate so that the server is linked once: one module per suite, all
//! sharing `support` (a server in this process, clients, clusters of `chaikhana serve` around Redis)
//! and `chromium` (browsers through chromedriver). `cargo test --test it browser_ganjifa::` runs
//! one suite; a new suite is a file here and one `mod` line below.
//!
//! The tests of all suites run side by side on the harness's threads, so none may rely on being
//! alone in its process: each server, redis-server, chromedriver and TURN server takes a port of its
//! own, settings go to a server through its `Settings` or its child process's environment (never
//! this process's), Prometheus metrics are one registry for every server in this process (a test
//! that reads one also checks its own server's state, or measures a server process of its own), and
//! the suites that must not overlap each other take `support::heavy` (see there).

mod browser_access;
mod browser_coach;
mod browser_fair;
mod browser_ganjifa;
mod browser_keyboard;
mod browser_layouts;
mod browser_levels;
mod browser_lobby;
mod browser_panjpar;
mod browser_phone;
mod browser_pishe_pasha;
mod browser_replay;
mod browser_voice;
mod browser_waiting;
mod browser_watch;
mod chromium;
mod coach_kept;
mod each_game;
mod fair_shuffle;
mod hidden_over_the_wire;
mod high_card;
mod hostile;
mod hostile_wire;
mod http_flood;
// It runs the load generator's binary, built only with the feature.
#[cfg(feature = "loadgen")]
mod loadgen;
mod multinode;
mod multinode_faults;
mod operations;
mod pairing;
mod persian;
mod properties;
mod redis_cluster;
mod redis_sentinel;
mod redis_tls;
mod restarts;
mod server_games;
mod server_levels;
mod server_lifecycle;
mod server_panjpar;
mod server_replay;
mod server_social;
mod server_voice;
mod server_waiting;
mod server_watch;
mod simulate_cli;
mod sleep_across_nodes;
mod store_heals;
mod support;
mod table_store;
mod thinking_across_nodes;
mod verifiable_deals;
mod web_pages;
mod web_security;
