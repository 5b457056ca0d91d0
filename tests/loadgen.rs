//! The load generator against a real server in this process: every game played by every seat over real
//! sockets with no error, the echo baseline, idle connections, and a rate-limited server said clearly.
//! Nothing here asserts on timing: speed is measured by running `chaikhana loadgen` (README).

mod support;

use std::time::Duration;

use serde_json::Value;

use chaikhana::loadgen::{self, Options, Outcome};
use support::TestServer;

fn options(url: &str, game: &str, tables: usize, seconds: u64) -> Options {
    Options {
        url: url.to_string(),
        game: game.to_string(),
        tables,
        duration: Duration::from_secs(seconds),
        server_pid: Some(std::process::id()),
        idle: None,
        threads: 2,
        seed: 7,
    }
}

async fn run(options: Options) -> Outcome {
    actix_web::rt::task::spawn_blocking(move || loadgen::run(&options))
        .await
        .expect("the load generator does not panic")
        .expect("the load generator runs")
}

/// The JSON report holds exactly the eight fields the issue names.
fn checked_json(json: &str) -> Value {
    let value: Value = serde_json::from_str(json).expect("the report is JSON");
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "actions_per_second",
            "connections",
            "errors",
            "max_ms",
            "p50_ms",
            "p99_ms",
            "server_cpu_us_per_action",
            "server_rss_bytes"
        ]
    );
    value
}

#[actix_rt::test]
async fn every_game_is_played_by_every_seat_without_an_error() {
    let server = TestServer::start(|_| {});
    for (game, seats) in [("panjpar", 2), ("pishe-pasha", 2), ("ganjifa", 3)] {
        let Outcome::Play(report) = run(options(&server.base, game, 3, 2)).await else {
            panic!("a play run gives a play report");
        };
        assert_eq!(report.errors, 0, "{game}: {:?}", report.first_problem);
        let json = checked_json(&report.to_json());
        assert!(json["actions_per_second"].as_f64().unwrap() > 0.0, "{json}");
        assert_eq!(json["connections"], 3 * seats, "{json}");
        assert_eq!(json["errors"], 0);
        let (p50, p99, max) = (
            json["p50_ms"].as_f64().unwrap(),
            json["p99_ms"].as_f64().unwrap(),
            json["max_ms"].as_f64().unwrap(),
        );
        assert!(p50 <= p99 && p99 <= max, "{json}");
        assert!(json["server_rss_bytes"].as_u64().unwrap() > 0, "{json}");
        assert!(json["server_cpu_us_per_action"].is_number(), "{json}");
        assert!(report.actions > 0, "{game}: no action was played");
    }
}

#[actix_rt::test]
async fn the_echo_server_is_timed_the_same_way() {
    let echo = loadgen::echo::start("127.0.0.1:0").expect("the echo server starts");
    let url = format!("http://{}", echo.addr);
    let mut wanted = options(&url, "echo", 4, 1);
    wanted.server_pid = None;
    let Outcome::Play(report) = run(wanted).await else {
        panic!("an echo run gives a play report");
    };
    assert_eq!(report.errors, 0, "{:?}", report.first_problem);
    let json = checked_json(&report.to_json());
    assert_eq!(json["connections"], 4);
    assert!(report.actions > 0);
    assert!(json["server_rss_bytes"].is_null() && json["server_cpu_us_per_action"].is_null());
    echo.handle.stop(true).await;
}

#[actix_rt::test]
async fn idle_connections_are_held_and_priced() {
    let server = TestServer::start(|_| {});
    let mut wanted = options(&server.base, "ganjifa", 0, 1);
    wanted.idle = Some(20);
    let Outcome::Idle(report) = run(wanted).await else {
        panic!("an idle run gives an idle report");
    };
    assert_eq!(report.errors, 0, "{:?}", report.first_problem);
    assert_eq!(report.connections, 20);
    // The sockets are closed once the run is over; the server hears it a moment later.
    for _ in 0..250 {
        if server.running.registry.open() == 0 {
            break;
        }
        actix_rt::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(server.running.registry.open(), 0, "closed after the run");
    let json: Value = serde_json::from_str(&report.to_json()).unwrap();
    assert!(json["server_bytes_per_connection"].is_number(), "{json}");
}

#[actix_rt::test]
async fn a_rate_limited_server_is_reported_as_such() {
    let server = TestServer::start(|settings| {
        settings.rate_per_second = 2;
        settings.rate_burst = 2;
    });
    let Outcome::Play(report) = run(options(&server.base, "panjpar", 2, 2)).await else {
        panic!("a play run gives a play report");
    };
    assert!(report.rate_limited > 0, "{report:?}");
    assert!(report.errors >= report.rate_limited);
}
