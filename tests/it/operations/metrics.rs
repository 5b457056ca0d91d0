//! The ops endpoints of a server in this process: `/metrics` with every project metric after a match
//! (and `promtool check metrics` on it), `/healthz` and `/readyz` (not ready while draining), all
//! three on a port of their own when `ops_listen` asks.

use std::process::Command;

use serde_json::json;

use super::{get, have, play_resync_and_be_refused};
use crate::support::*;

async fn played_server() -> (TestServer, String) {
    let server = TestServer::start(|_| {});
    let me = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&me).await;
    play_resync_and_be_refused(&mut client, &mut rng(9)).await;
    let (status, text) = server.get("/metrics").await;
    assert_eq!(status, 200);
    (server, text)
}

#[actix_rt::test]
async fn metrics_and_health_can_have_a_port_of_their_own() {
    let server = TestServer::start(|s| s.ops_listen = "127.0.0.1:0".into());
    let ops = format!("http://{}", server.running.ops_addr.expect("the ops port"));
    for path in ["/metrics", "/healthz", "/readyz"] {
        assert_eq!(get(&ops, path).await.0, 200, "{path} on the ops port");
        assert_eq!(server.get(path).await.0, 404, "{path} on the site's port");
    }
    assert!(get(&ops, "/metrics")
        .await
        .1
        .contains("chaikhana_ws_connections_open"));
    // The ops port serves nothing of the site.
    assert_eq!(get(&ops, "/").await.0, 404);
    assert_eq!(get(&ops, "/api/voice").await.0, 404);
    assert_eq!(server.get("/").await.0, 200);
}

#[actix_rt::test]
async fn metrics_health_and_readiness() {
    let (server, text) = played_server().await;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        assert!(
            line.starts_with("chaikhana_") || line.starts_with("process_"),
            "{line}"
        );
    }
    for wanted in [
        "process_resident_memory_bytes",
        "process_cpu_seconds_total",
        "process_open_fds",
        "process_max_fds",
        "chaikhana_ws_connections_open",
        "chaikhana_ws_connections_opened_total",
        "chaikhana_tables_active{game=\"panjpar\",kind=\"computer\"}",
        "chaikhana_actions_accepted_total{game=\"panjpar\"}",
        "chaikhana_actions_refused_total{code=\"stale-version\",game=\"panjpar\"}",
        "chaikhana_action_seconds_bucket{game=\"panjpar\"",
        "chaikhana_computer_think_seconds_bucket{game=\"panjpar\"",
        "chaikhana_matches_finished_total{game=\"panjpar\"}",
        "chaikhana_resyncs_total",
        "chaikhana_router_frames_total{direction=\"in\"}",
        "chaikhana_http_requests_total{route=\"/api/tables\",status=\"201\"}",
        "chaikhana_redis_publish_seconds_bucket",
        "chaikhana_snapshots_written_total",
        "chaikhana_tables_recovered_total",
        "chaikhana_tables_handed_over_total",
        "chaikhana_outbound_overflows_total",
        "chaikhana_rate_limited_total",
        "chaikhana_reconnects_total",
        "chaikhana_thinking_threads",
        "chaikhana_thinking_queue",
        "chaikhana_thinking_wait_seconds_bucket",
        "chaikhana_thinking_shortened_total{game=\"ganjifa\",level=\"strong\"}",
        "chaikhana_thinking_dropped_total",
        "chaikhana_coach_queue",
        "chaikhana_coach_studies_total{game=\"ganjifa\",kind=\"analysis\"}",
    ] {
        assert!(text.contains(wanted), "{wanted} missing from /metrics");
    }
    let (status, _) = server.get("/healthz").await;
    assert_eq!(status, 200);
    let (status, ready) = server.get("/readyz").await;
    assert_eq!(status, 200);
    let ready: serde_json::Value = serde_json::from_str(&ready).unwrap();
    assert_eq!(ready["computer_tables"], true, "{ready}");
    assert!(ready["thinking"]["threads"].as_u64() >= Some(1), "{ready}");
    assert_eq!(server.get("/readyz?for=computer").await.0, 200);
    server.running.registry.drain();
    let (status, _) = server.get("/readyz").await;
    assert_eq!(status, 503, "not ready while draining");
    let (status, _) = server.get("/healthz").await;
    assert_eq!(status, 200, "alive while draining");
    let (status, _) = server
        .post(
            "/api/tables",
            r#"{"game":"panjpar","opponents":"computer"}"#,
        )
        .await;
    assert_eq!(status, 503, "no new tables while draining");
}

#[actix_rt::test]
async fn promtool_accepts_the_live_metrics() {
    if !have("promtool") {
        return;
    }
    let (_server, text) = played_server().await;
    let mut child = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
