//! The load generator binary against a real server in this process: every game played by every seat
//! over real sockets with no error, the echo baseline, idle connections, and a rate-limited server said
//! clearly. Nothing here asserts on timing: speed is measured by running `chaikhana-loadgen`
//! (tests/perf/README.md).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::support::{field_names, TestServer};

/// What one `chaikhana-loadgen run --json` printed: its report, and its standard error.
struct Run {
    report: Value,
    stderr: String,
}

/// Runs `chaikhana-loadgen run --json` against `url` with these extra arguments, on a blocking thread
/// so that the server in this process keeps answering.
async fn run(url: &str, game: &str, extra: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chaikhana-loadgen"));
    command.args(["run", "--json", "--threads", "2", "--seed", "7"]);
    command.args(["--url", url, "--game", game]);
    command.args(extra);
    let output = actix_web::rt::task::spawn_blocking(move || command.output())
        .await
        .expect("the waiting thread does not panic")
        .expect("chaikhana-loadgen starts");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{}: {stderr}", output.status);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("the report is JSON ({e}): {stdout}"));
    Run { report, stderr }
}

/// This process's id: the server under load runs in it.
fn here() -> String {
    std::process::id().to_string()
}

/// The play report holds exactly the eight fields tests/perf/README.md names.
fn checked_play_report(report: &Value) {
    let keys = field_names(report);
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
}

#[actix_rt::test]
async fn every_game_is_played_by_every_seat_without_an_error() {
    let server = TestServer::start(|_| {});
    let pid = here();
    for (game, seats) in [("panjpar", 2), ("pishe-pasha", 2), ("ganjifa", 3)] {
        let args = ["--tables", "3", "--duration", "2", "--server-pid", &pid];
        let Run { report, stderr } = run(&server.base, game, &args).await;
        checked_play_report(&report);
        assert_eq!(report["errors"], 0, "{game}: {stderr}");
        assert!(
            report["actions_per_second"].as_f64().unwrap() > 0.0,
            "{report}"
        );
        assert_eq!(report["connections"], 3 * seats, "{report}");
        let (p50, p99, max) = (
            report["p50_ms"].as_f64().unwrap(),
            report["p99_ms"].as_f64().unwrap(),
            report["max_ms"].as_f64().unwrap(),
        );
        assert!(p50 <= p99 && p99 <= max, "{report}");
        assert!(report["server_rss_bytes"].as_u64().unwrap() > 0, "{report}");
        assert!(report["server_cpu_us_per_action"].is_number(), "{report}");
    }
}

#[actix_rt::test]
async fn computer_tables_beside_the_friends_tables_are_played_and_reported_apart() {
    let server = TestServer::start(|s| s.strong_budget_ms = 2);
    let args = [
        "--tables",
        "2",
        "--duration",
        "2",
        "--computer-tables",
        "3",
        "--computer-game",
        "ganjifa",
        "--computer-level",
        "strong",
    ];
    let Run { report, stderr } = run(&server.base, "panjpar", &args).await;
    assert_eq!(report["errors"], 0, "{stderr}");
    assert_eq!(report["connections"], 2 * 2, "friends only: {report}");
    let beside = &report["computer_tables"];
    assert_eq!(
        field_names(beside),
        [
            "computer_move_p50_ms",
            "computer_move_p99_ms",
            "computer_moves",
            "connections",
            "errors",
            "first_problem",
            "person_actions_per_second",
            "person_p50_ms",
            "person_p99_ms"
        ]
    );
    assert_eq!(beside["connections"], 3, "{report}");
    assert_eq!(beside["errors"], 0, "{report}");
    assert!(
        beside["person_actions_per_second"].as_f64().unwrap() > 0.0,
        "{report}"
    );
    // The computers' moves as their persons saw them come.
    assert!(beside["computer_moves"].as_u64() > Some(0), "{report}");
    assert!(
        beside["computer_move_p50_ms"].as_f64() <= beside["computer_move_p99_ms"].as_f64(),
        "{report}"
    );
}

#[actix_rt::test]
async fn analyses_of_finished_deals_are_asked_at_once_and_timed_to_their_end() {
    let server = TestServer::start(|s| {
        s.bot_delay_ms = 1;
        s.strong_budget_ms = 2;
    });
    let args = [
        "--tables",
        "0",
        "--duration",
        "1",
        "--analyses",
        "3",
        "--analyse-game",
        "panjpar",
        "--analysis-timeout",
        "60",
    ];
    let Run { report, stderr } = run(&server.base, "panjpar", &args).await;
    let analyses = &report["analyses"];
    assert_eq!(analyses["asked"], 3, "{report} {stderr}");
    assert_eq!(analyses["finished"], 3, "{report} {stderr}");
    assert_eq!(analyses["errors"], 0, "{report} {stderr}");
    assert!(analyses["judged"].as_u64() > Some(0), "{report}");
}

/// Stops the echo server it holds when dropped, whatever the test did.
struct EchoServer(std::process::Child);

impl Drop for EchoServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[actix_rt::test]
async fn the_echo_server_is_timed_the_same_way() {
    let mut echo = EchoServer(
        Command::new(env!("CARGO_BIN_EXE_chaikhana-loadgen"))
            .args(["echo", "--listen", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("the echo server starts"),
    );
    let stdout = echo.0.stdout.take().expect("its standard output");
    let mut first = String::new();
    BufReader::new(stdout)
        .read_line(&mut first)
        .expect("the echo server says where it listens");
    let addr = first
        .trim()
        .strip_prefix("echoing WebSocket frames at ws://")
        .and_then(|rest| rest.strip_suffix("/ws"))
        .unwrap_or_else(|| panic!("an address in {first:?}"));
    let url = format!("http://{addr}");
    let Run { report, stderr } = run(&url, "echo", &["--tables", "4", "--duration", "1"]).await;
    checked_play_report(&report);
    assert_eq!(report["errors"], 0, "{stderr}");
    assert_eq!(report["connections"], 4);
    assert!(
        report["actions_per_second"].as_f64().unwrap() > 0.0,
        "{report}"
    );
    assert!(report["server_rss_bytes"].is_null() && report["server_cpu_us_per_action"].is_null());
}

#[actix_rt::test]
async fn idle_connections_are_held_and_priced() {
    let server = TestServer::start(|_| {});
    let args = ["--idle", "20", "--duration", "1", "--server-pid", &here()];
    let Run { report, stderr } = run(&server.base, "ganjifa", &args).await;
    assert_eq!(report["errors"], 0, "{stderr}");
    assert_eq!(report["connections"], 20, "{report}");
    assert!(
        report["server_bytes_per_connection"].is_number(),
        "{report}"
    );
    // The sockets are closed once the run is over; the server hears it a moment later.
    for _ in 0..250 {
        if server.running.registry.open() == 0 {
            break;
        }
        actix_rt::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(server.running.registry.open(), 0, "closed after the run");
}

#[actix_rt::test]
async fn a_rate_limited_server_is_reported_as_such() {
    let server = TestServer::start(|settings| {
        settings.rate_per_second = 2;
        settings.rate_burst = 2;
    });
    let args = ["--tables", "2", "--duration", "2"];
    let Run { report, stderr } = run(&server.base, "panjpar", &args).await;
    let limited: u64 = stderr
        .split("the server rate-limited ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("stderr says how many frames were rate-limited: {stderr}"));
    assert!(limited > 0, "{stderr}");
    assert!(report["errors"].as_u64().unwrap() >= limited, "{report}");
}
