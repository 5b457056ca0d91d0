//! A `chaikhana serve` process a test starts (a cluster's node, or a server restarted over its own
//! store): which binary, the settings that let a test's clients play flat out, signals, metrics.

use std::process::Command;

/// The command that starts a server: this build's, or the one `CHAIKHANA_TEST_SERVER` names (an
/// older build, say, to see which of these tests it fails), with `serve`.
pub fn serve_command() -> Command {
    let binary = std::env::var("CHAIKHANA_TEST_SERVER")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_chaikhana").to_string());
    let mut command = Command::new(binary);
    command.arg("serve");
    command
}

/// The settings of a server whose clients play as fast as it answers: the computers answer at once,
/// the rates allow a flood of frames and joins, and no deal waits for a number (the test's seats add
/// none to the shuffles).
pub fn flat_out(command: &mut Command) -> &mut Command {
    command
        .env("CHAIKHANA_BOT_DELAY_MS", "1")
        .env("CHAIKHANA_SHUFFLE_WAIT_MS", "0")
        .env("CHAIKHANA_RATE_PER_SECOND", "10000")
        .env("CHAIKHANA_RATE_BURST", "10000")
        .env("CHAIKHANA_JOINS_PER_MINUTE", "0")
}

/// Sends the process `pid` a signal, as `kill` names it ("-KILL", "-TERM", "-STOP", "-CONT").
pub fn signal(pid: u32, signal: &str) {
    Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .expect("kill runs");
}

/// The metrics of the server at `base`, in the Prometheus text format.
pub async fn metrics_of(base: &str) -> String {
    let mut response = awc::Client::new()
        .get(format!("{base}/metrics"))
        .send()
        .await
        .expect("metrics answer");
    String::from_utf8_lossy(&response.body().limit(1 << 22).await.expect("a body")).into_owned()
}
