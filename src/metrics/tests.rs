//! The metrics as Prometheus reads them.

use super::*;

#[test]
fn every_metric_is_prefixed_and_rendered() {
    let m = metrics();
    m.actions_accepted.with_label_values(&["panjpar"]).inc();
    m.action_seconds
        .with_label_values(&["panjpar"])
        .observe(0.001);
    m.tables_active
        .with_label_values(&["panjpar", "computer"])
        .inc();
    m.connections_closed.with_label_values(&["normal"]).inc();
    m.actions_refused
        .with_label_values(&["panjpar", "not-your-turn"])
        .inc();
    m.computer_think_seconds
        .with_label_values(&["panjpar"])
        .observe(0.0001);
    m.matches_finished.with_label_values(&["panjpar"]).inc();
    m.router_frames.with_label_values(&["in"]).inc();
    m.http_requests
        .with_label_values(&["/metrics", "200"])
        .inc();
    let text = m.render();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        assert!(
            line.starts_with("chaikhana_") || line.starts_with("process_"),
            "{line}"
        );
    }
    #[cfg(target_os = "linux")]
    for name in [
        "process_resident_memory_bytes",
        "process_cpu_seconds_total",
        "process_open_fds",
        "process_max_fds",
    ] {
        assert!(text.contains(name), "{name} missing");
    }
    for name in [
        "chaikhana_ws_connections_open",
        "chaikhana_actions_accepted_total",
        "chaikhana_action_seconds_bucket",
        "chaikhana_redis_publish_seconds_bucket",
        "chaikhana_tables_recovered_total",
        "chaikhana_tables_slept_total",
        "chaikhana_tables_woken_total",
        "chaikhana_store_commit_seconds_bucket",
        "chaikhana_store_errors_total",
        "chaikhana_store_open",
        "chaikhana_store_reopens_total",
        "chaikhana_store_damaged_tables_total",
        "chaikhana_tables_asleep",
        "chaikhana_thinking_threads",
        "chaikhana_thinking_queue",
        "chaikhana_thinking_wait_seconds_bucket",
        "chaikhana_thinking_dropped_total",
        "chaikhana_coach_queue",
        "chaikhana_http_connections_cut_total{reason=\"too-slow\"}",
        "chaikhana_http_connections_refused_total{cap=\"node\"}",
    ] {
        assert!(text.contains(name), "{name} missing");
    }
}
