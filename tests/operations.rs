//! What operators rely on: `/metrics` in the Prometheus text format with every project metric after a
//! match, `/healthz` and `/readyz` (not ready while draining), all three on a port of their own when
//! `ops_listen` asks, and the real tools: `promtool check
//! metrics` on the live output, a real Prometheus scraping the server, `promtool check rules` on the
//! alert rules and on every dashboard query, `promtool test rules` showing each alert firing and not
//! firing, and `kubernetes-validate` on the manifests.

mod support;

use std::path::Path;
use std::process::Command;

use serde_json::json;

use support::*;

/// Whether a program is on this machine; without it a suite skips, unless CI requires everything.
fn have(program: &str) -> bool {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        let required = std::env::var("CHAIKHANA_TEST_REQUIRE_ALL").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "{program} is required (CHAIKHANA_TEST_REQUIRE_ALL=1) but missing"
        );
        eprintln!("skipping: {program} is not installed (apt-get install prometheus / pip install kubernetes-validate)");
    }
    found
}

async fn played_server() -> (TestServer, String) {
    let server = TestServer::start(|_| {});
    let me = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&me).await;
    play_against_computer(&mut client, &mut rng(9)).await;
    client.send(json!({"type": "resync"})).await;
    client
        .send(json!({"type": "action", "version": 0, "action": {"type": "pick-up"}}))
        .await;
    client.next_of("error").await;
    let (status, text) = server.get("/metrics").await;
    assert_eq!(status, 200);
    (server, text)
}

#[actix_rt::test]
async fn metrics_and_health_can_have_a_port_of_their_own() {
    let server = TestServer::start(|s| s.ops_listen = "127.0.0.1:0".into());
    let ops = format!("http://{}", server.running.ops_addr.expect("the ops port"));
    let get = |base: String, path: &'static str| async move {
        let mut answer = awc::Client::new()
            .get(format!("{base}{path}"))
            .send()
            .await
            .expect("the server answers");
        let body = answer.body().await.unwrap_or_default();
        (
            answer.status().as_u16(),
            String::from_utf8_lossy(&body).into_owned(),
        )
    };
    for path in ["/metrics", "/healthz", "/readyz"] {
        assert_eq!(
            get(ops.clone(), path).await.0,
            200,
            "{path} on the ops port"
        );
        assert_eq!(server.get(path).await.0, 404, "{path} on the site's port");
    }
    assert!(get(ops.clone(), "/metrics")
        .await
        .1
        .contains("chaikhana_ws_connections_open"));
    // The ops port serves nothing of the site.
    assert_eq!(get(ops.clone(), "/").await.0, 404);
    assert_eq!(get(ops, "/api/voice").await.0, 404);
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
    ] {
        assert!(text.contains(wanted), "{wanted} missing from /metrics");
    }
    let (status, _) = server.get("/healthz").await;
    assert_eq!(status, 200);
    let (status, _) = server.get("/readyz").await;
    assert_eq!(status, 200);
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

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

#[test]
fn promtool_accepts_the_alert_rules_and_every_dashboard_query() {
    if !have("promtool") {
        return;
    }
    let check = |file: &str| {
        let out = Command::new("promtool")
            .args(["check", "rules", file])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{file}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    check(&repo("deploy/prometheus/alerts.yml"));
    // Each alert fires on the series that should make it fire, and stays quiet on the others.
    let tested = Command::new("promtool")
        .args(["test", "rules", &repo("deploy/prometheus/alerts_test.yml")])
        .output()
        .unwrap();
    assert!(
        tested.status.success(),
        "promtool test rules: {}{}",
        String::from_utf8_lossy(&tested.stdout),
        String::from_utf8_lossy(&tested.stderr)
    );

    // Every panel query of the dashboard, its variables filled in, as a rules file.
    let dashboard: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo("deploy/grafana/chaikhana.json")).unwrap(),
    )
    .unwrap();
    let mut rules = String::from("groups:\n  - name: dashboard\n    rules:\n");
    let mut count = 0;
    for panel in dashboard["panels"].as_array().unwrap() {
        for target in panel["targets"].as_array().into_iter().flatten() {
            let expr = target["expr"]
                .as_str()
                .unwrap()
                .replace("$__rate_interval", "5m")
                .replace("$__interval", "1m")
                .replace("$pod", ".*");
            rules += &format!(
                "      - record: dashboard:query_{count}\n        expr: {}\n",
                serde_json::to_string(&expr).unwrap()
            );
            count += 1;
        }
    }
    assert!(count >= 10, "the dashboard has {count} queries");
    let file = std::env::temp_dir().join(format!(
        "chaikhana-dashboard-rules-{}.yml",
        std::process::id()
    ));
    std::fs::write(&file, rules).unwrap();
    check(file.to_str().unwrap());
    std::fs::remove_file(&file).ok();
}

#[test]
fn the_dashboard_names_no_datasource_uid_and_has_a_datasource_variable() {
    let text = std::fs::read_to_string(repo("deploy/grafana/chaikhana.json")).unwrap();
    let dashboard: serde_json::Value = serde_json::from_str(&text).unwrap();
    let variables = dashboard["templating"]["list"].as_array().unwrap();
    assert!(variables
        .iter()
        .any(|v| v["type"] == "datasource" && v["query"] == "prometheus"));
    for panel in dashboard["panels"].as_array().unwrap() {
        assert_eq!(
            panel["datasource"]["uid"], "${datasource}",
            "{}",
            panel["title"]
        );
    }
}

#[test]
fn kubernetes_validate_accepts_every_manifest() {
    if !have("kubernetes-validate") {
        return;
    }
    let dir = repo("k8s");
    let mut manifests: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".yaml") && !p.ends_with("kustomization.yaml"))
        .collect();
    manifests.sort();
    assert!(manifests.len() >= 10, "{manifests:?}");
    let out = Command::new("kubernetes-validate")
        .arg("--strict")
        .args(&manifests)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    for kind in [
        "namespace/chaikhana",
        "configmap/chaikhana",
        "deployment/chaikhana",
        "service/chaikhana",
        "ingress/chaikhana",
        "horizontalpodautoscaler/chaikhana",
        "poddisruptionbudget/chaikhana",
        "statefulset/redis",
        "service/redis",
        "networkpolicy/chaikhana-web",
        "networkpolicy/redis-from-app-only",
    ] {
        assert!(
            text.contains(&format!("passed for resource {kind}")),
            "{kind}: {text}"
        );
    }
    // The ServiceMonitor is the Prometheus Operator's own kind: kubernetes-validate has no schema for
    // it, so check its shape here.
    let monitor = std::fs::read_to_string(repo("k8s/servicemonitor.yaml")).unwrap();
    assert!(monitor.contains("kind: ServiceMonitor") && monitor.contains("path: /metrics"));
}

#[actix_rt::test]
async fn a_real_prometheus_scrapes_the_server() {
    if !have("prometheus") {
        return;
    }
    let (server, _) = played_server().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = std::env::temp_dir().join(format!("chaikhana-prometheus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: chaikhana\n    static_configs:\n      - targets: ['{}']\n",
            server.running.addr
        ),
    )
    .unwrap();
    let mut prometheus = Command::new("prometheus")
        .arg(format!("--config.file={}", config.display()))
        .arg(format!(
            "--storage.tsdb.path={}",
            dir.join("data").display()
        ))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("prometheus starts");
    let query =
        format!("http://127.0.0.1:{port}/api/v1/query?query=chaikhana_matches_finished_total");
    let mut found = serde_json::Value::Null;
    for _ in 0..60 {
        actix_rt::time::sleep(std::time::Duration::from_millis(500)).await;
        let Ok(mut response) = awc::Client::new().get(&query).send().await else {
            continue;
        };
        let Ok(answer) = response.json::<serde_json::Value>().await else {
            continue;
        };
        if answer["data"]["result"]
            .as_array()
            .is_some_and(|r| !r.is_empty())
        {
            found = answer;
            break;
        }
    }
    prometheus.kill().ok();
    prometheus.wait().ok();
    std::fs::remove_dir_all(&dir).ok();
    let result = &found["data"]["result"][0];
    assert_eq!(result["metric"]["game"], "panjpar", "{found}");
    // Other tests of this process play matches too: the count is at least this test's one.
    let finished: f64 = result["value"][1].as_str().unwrap().parse().unwrap();
    assert!(finished >= 1.0, "{found}");
}
