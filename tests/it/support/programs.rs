//! The programs a suite needs from this machine (redis-server, Chromium, promtool, Node.js...): found
//! on the path or skipped with a word, unless CI requires every suite; and waiting for one to listen.

use std::time::Duration;

/// Whether CI asks every suite to run (`CHAIKHANA_TEST_REQUIRE_ALL=1`): a missing program then fails
/// a test instead of skipping it.
pub fn everything_required() -> bool {
    std::env::var("CHAIKHANA_TEST_REQUIRE_ALL").is_ok_and(|v| v == "1")
}

/// Waits, up to 20 s, until something listens on `port` of this machine; `what` names it if not.
pub fn wait_listening(port: u16, what: &str) {
    let started = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{what} did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether `program` is on this machine's path, said nowhere.
pub fn on_path(program: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// Whether `program` is on this machine's path. Without it a test says what it needed it for and
/// skips, unless `CHAIKHANA_TEST_REQUIRE_ALL=1`, when it fails.
pub fn have_program(program: &str, needed_for: &str) -> bool {
    let found = on_path(program);
    if !found {
        assert!(
            !everything_required(),
            "{program} is required (CHAIKHANA_TEST_REQUIRE_ALL=1) but missing: {needed_for}"
        );
        eprintln!("skipping: {program} is not installed ({needed_for})");
    }
    found
}
