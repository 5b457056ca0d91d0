//! What operators rely on: `/metrics` in the Prometheus text format with every project metric after a
//! match, `/healthz` and `/readyz` (not ready while draining), all three on a port of their own when
//! `ops_listen` asks, and the real tools: `promtool check
//! metrics` on the live output, a real Prometheus scraping two nodes that share a Redis and answering
//! every dashboard query with data, `promtool check rules` on the
//! alert rules and on every dashboard query, `promtool test rules` showing each alert firing and not
//! firing, and `kubernetes-validate` on the manifests.

use crate::support::cluster;

use std::path::Path;
use std::process::Command;

use serde_json::json;

use crate::support::*;

/// Whether a program this suite drives is installed (see `support::have_program`).
fn have(program: &str) -> bool {
    have_program(
        program,
        "apt-get install prometheus / pip install kubernetes-validate",
    )
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

/// Runs `command` to its end; fails, with everything it printed, unless it succeeded. Returns what
/// it printed.
fn succeeds(command: &mut Command, what: &str) -> String {
    let out = command.output().expect("the program runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what}: {text}");
    text
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
        succeeds(
            Command::new("promtool").args(["check", "rules", file]),
            file,
        )
    };
    check(&repo("deploy/prometheus/alerts.yml"));
    // Each alert fires on the series that should make it fire, and stays quiet on the others.
    succeeds(
        Command::new("promtool").args([
            "test",
            "rules",
            &repo("deploy/prometheus/alerts_test.yml"),
        ]),
        "promtool test rules",
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
    let text = succeeds(
        Command::new("kubernetes-validate")
            .arg("--strict")
            .args(&manifests),
        "kubernetes-validate",
    );
    for kind in [
        "namespace/chaikhana",
        "configmap/chaikhana",
        "deployment/chaikhana-edge",
        "deployment/chaikhana-tables",
        "service/chaikhana",
        "service/chaikhana-tables",
        "ingress/chaikhana",
        "horizontalpodautoscaler/chaikhana-edge",
        "horizontalpodautoscaler/chaikhana-tables",
        "poddisruptionbudget/chaikhana-edge",
        "poddisruptionbudget/chaikhana-tables",
        "statefulset/redis",
        "service/redis",
        "networkpolicy/chaikhana-edge",
        "networkpolicy/chaikhana-tables",
        "networkpolicy/redis",
    ] {
        assert!(
            text.contains(&format!("passed for resource {kind}")),
            "{kind}: {text}"
        );
    }
    // The ServiceMonitors are the Prometheus Operator's own kind: kubernetes-validate has no schema
    // for them, so check their shape here: the chaikhana pods' ops port and the Redis exporter's.
    let monitor = std::fs::read_to_string(repo("k8s/servicemonitor.yaml")).unwrap();
    assert_eq!(
        monitor.matches("kind: ServiceMonitor").count(),
        2,
        "{monitor}"
    );
    assert!(monitor.contains("port: ops") && monitor.contains("port: metrics"));
    assert_eq!(monitor.matches("path: /metrics").count(), 2, "{monitor}");
    // kustomize makes the Secret `redis-auth` from redis.env; its password goes into a redis:// URL
    // as it is, so it must hold nothing a URL would read otherwise.
    let env = std::fs::read_to_string(repo("k8s/redis.env")).unwrap();
    let password = env
        .lines()
        .find_map(|line| line.strip_prefix("password="))
        .expect("k8s/redis.env sets password=");
    assert!(
        password.len() >= 32 && password.chars().all(|c| c.is_ascii_hexdigit()),
        "the Redis password in k8s/redis.env is at least 32 hex digits"
    );
}

/// The metric names a PromQL expression reads: its identifiers, less functions (those followed by
/// `(`), operators and keywords (`sum by (pod) (...)`), label names (inside `{}` and in `by (...)` and
/// the like), strings, durations and numbers.
fn metric_names(expr: &str) -> Vec<String> {
    let text = expr.as_bytes();
    let mut names = Vec::new();
    let mut i = 0;
    // Past a closing `close`, skipping quoted strings on the way.
    let skip_to = |mut i: usize, close: u8| {
        while i < text.len() && text[i] != close {
            if text[i] == b'"' {
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
            }
            i += 1;
        }
        i + 1
    };
    while i < text.len() {
        let c = text[i];
        if c == b'"' {
            i = skip_to(i + 1, b'"');
        } else if c == b'{' {
            i = skip_to(i + 1, b'}');
        } else if c == b'[' {
            i = skip_to(i + 1, b']');
        } else if c.is_ascii_digit() || c == b'.' {
            while i < text.len() && (text[i].is_ascii_alphanumeric() || text[i] == b'.') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b':' {
            let start = i;
            while i < text.len() && (text[i].is_ascii_alphanumeric() || b"_:".contains(&text[i])) {
                i += 1;
            }
            let word = &expr[start..i];
            let mut next = i;
            while next < text.len() && text[next] == b' ' {
                next += 1;
            }
            let grouping = [
                "by",
                "without",
                "on",
                "ignoring",
                "group_left",
                "group_right",
            ];
            let keywords = [
                "and",
                "or",
                "unless",
                "offset",
                "bool",
                "inf",
                "nan",
                "sum",
                "min",
                "max",
                "avg",
                "group",
                "stddev",
                "stdvar",
                "count",
                "count_values",
                "bottomk",
                "topk",
                "quantile",
                "limitk",
                "limit_ratio",
            ];
            if grouping.contains(&word) {
                if text.get(next) == Some(&b'(') {
                    i = skip_to(next + 1, b')');
                }
            } else if text.get(next) != Some(&b'(') && !keywords.contains(&word) {
                names.push(word.to_string());
            }
        } else {
            i += 1;
        }
    }
    names
}

#[test]
fn metric_names_are_read_from_a_query() {
    assert_eq!(
        metric_names(
            r#"histogram_quantile(0.99, sum by (le, game) (rate(chaikhana_action_seconds_bucket{pod=~"$pod", x="}"}[5m]))) * 60"#
        ),
        ["chaikhana_action_seconds_bucket"]
    );
    assert_eq!(
        metric_names("max by (pod) (redis_memory_used_bytes) / on (pod) process_max_fds"),
        ["redis_memory_used_bytes", "process_max_fds"]
    );
}

/// A real Prometheus, scraping every second the nodes given, each labelled `pod` as Kubernetes'
/// service discovery labels them (see `deploy/prometheus/prometheus.yml`).
struct Prometheus {
    child: std::process::Child,
    base: String,
    dir: std::path::PathBuf,
}

impl Prometheus {
    fn start(targets: &[(&str, &cluster::Node)]) -> Prometheus {
        let port = cluster::free_port();
        let dir = std::env::temp_dir().join(format!("chaikhana-prometheus-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut config = String::from(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: chaikhana\n    static_configs:\n",
        );
        for (pod, node) in targets {
            let address = node.base.trim_start_matches("http://");
            config +=
                &format!("      - targets: ['{address}']\n        labels:\n          pod: {pod}\n");
        }
        std::fs::write(dir.join("prometheus.yml"), config).unwrap();
        let child = Command::new("prometheus")
            .arg(format!(
                "--config.file={}",
                dir.join("prometheus.yml").display()
            ))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.join("data").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("prometheus starts");
        Prometheus {
            child,
            base: format!("http://127.0.0.1:{port}"),
            dir,
        }
    }

    /// The result of an instant query, or `None` while Prometheus does not answer.
    async fn query(&self, query: &str) -> Option<Vec<serde_json::Value>> {
        let mut response = awc::Client::new()
            .get(format!("{}/api/v1/query", self.base))
            .query(&[("query", query)])
            .ok()?
            .send()
            .await
            .ok()?;
        let answer = response.json::<serde_json::Value>().await.ok()?;
        assert_ne!(answer["status"], "error", "{query}: {answer}");
        answer["data"]["result"].as_array().cloned()
    }

    /// Waits until every target has been scraped.
    async fn until_scraped(&self, targets: usize) {
        let started = std::time::Instant::now();
        loop {
            let up = self.query("up == 1").await.unwrap_or_default();
            if up.len() == targets {
                return;
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(20),
                "Prometheus scrapes every node: {up:?}"
            );
            actix_rt::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What an operator's day looks like on two nodes: a friends match with a player on each, a match
/// against the computer, a refused move, a resync, sockets closed, two strangers paired (one waiting
/// on each node) and one who leaves the queue.
async fn play_across(a: &cluster::Node, b: &cluster::Node, seed: u64) {
    let mut rng = rng(seed);
    let enter =
        |browser: &str| json!({"game": "panjpar", "length": 1, "browser": browser}).to_string();
    let (status, waiting) = post(&a.base, "/api/pairing", &enter(&format!("waiting-{seed}"))).await;
    assert_eq!(status, 201, "{waiting}");
    let (_, paired) = post(&b.base, "/api/pairing", &enter(&format!("pairing-{seed}"))).await;
    assert_eq!(paired["state"], "seated", "{paired}");
    let (_, left) = post(&a.base, "/api/pairing", &enter(&format!("leaving-{seed}"))).await;
    let leave = json!({ "ticket": left["ticket"] }).to_string();
    assert_eq!(
        post(&a.base, "/api/pairing/leave", &leave).await.1["left"],
        true
    );
    let (_, mut friends) = cluster::friends_across(a, b).await;
    play_among_friends(&mut friends, &mut rng).await;
    let strong =
        json!({"game": "panjpar", "opponents": "computer", "length": 1, "level": "strong"});
    let (status, answer) = post(&b.base, "/api/tables", &strong.to_string()).await;
    assert_eq!(status, 201, "{answer}");
    let me = Seated::from_answer(answer["table"].as_str().unwrap(), &answer);
    let mut client = b.connect(&me).await;
    play_against_computer(&mut client, &mut rng).await;
    client.send(json!({"type": "resync"})).await;
    client
        .send(json!({"type": "action", "version": 0, "action": {"type": "pick-up"}}))
        .await;
    client.next_of("error").await;
    for socket in friends.into_iter().chain([client]) {
        socket.close().await;
    }
}

/// Whether an instant query's result has a sample that is a number (a histogram quantile over no
/// observations is NaN, which a panel draws as nothing).
fn has_data(result: &[serde_json::Value]) -> bool {
    result.iter().any(|series| {
        series["value"][1]
            .as_str()
            .and_then(|v| v.parse::<f64>().ok())
            .is_some_and(|v| !v.is_nan())
    })
}

#[actix_rt::test]
async fn a_real_prometheus_answers_every_dashboard_query() {
    if !have("prometheus") || !cluster::have_redis() {
        return;
    }
    let started = std::time::Instant::now();
    let redis = cluster::Redis::start().await;
    // The computer table plays at the strong level, so that the thinking pool's panels have data;
    // a short budget keeps it quick.
    let quick = [("CHAIKHANA_STRONG_BUDGET_MS", "5")];
    let a = cluster::Node::start_with(&redis.url(), "all", &quick).await;
    let b = cluster::Node::start_with(&redis.url(), "all", &quick).await;
    let prometheus = Prometheus::start(&[("node-a", &a), ("node-b", &b)]);
    prometheus.until_scraped(2).await;
    // Played twice with scrapes between, so that every counter and histogram the play touches has
    // grown inside the rate window, not merely appeared.
    play_across(&a, &b, 31).await;
    actix_rt::time::sleep(std::time::Duration::from_secs(2)).await;
    play_across(&a, &b, 32).await;

    let dashboard: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo("deploy/grafana/chaikhana.json")).unwrap(),
    )
    .unwrap();
    let mut queries = Vec::new();
    for panel in dashboard["panels"].as_array().unwrap() {
        for target in panel["targets"].as_array().into_iter().flatten() {
            let expr = target["expr"].as_str().unwrap();
            // Series such as redis_exporter's come from other programs, which this test does not
            // run: only what chaikhana itself exports is asked for.
            let names = metric_names(expr);
            if let Some(other) = names
                .iter()
                .find(|n| !n.starts_with("chaikhana_") && !n.starts_with("process_"))
            {
                eprintln!("not asked (\"{other}\" is not chaikhana's): {expr}");
                continue;
            }
            // Both plays fall inside a 30 s window; `$pod` as "All" selects every pod.
            let query = expr
                .replace("$__rate_interval", "30s")
                .replace("$__interval", "5s")
                .replace("$pod", ".*");
            queries.push((panel["title"].as_str().unwrap_or("").to_string(), query));
        }
    }
    assert!(
        queries.len() >= 10,
        "the dashboard has {} queries",
        queries.len()
    );

    // Asked until each has data (the last scrapes land within a second or two).
    let mut empty: Vec<String> = Vec::new();
    for _ in 0..20 {
        empty.clear();
        for (title, query) in &queries {
            let result = prometheus.query(query).await.unwrap_or_default();
            if !has_data(&result) {
                empty.push(format!("{title}: {query} -> {result:?}"));
            }
        }
        if empty.is_empty() {
            break;
        }
        actix_rt::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    assert!(
        empty.is_empty(),
        "dashboard queries with no data:\n{}",
        empty.join("\n")
    );
    // Each pod is a series of its own, as on the dashboard.
    let pods = prometheus
        .query("sum by (pod) (chaikhana_ws_connections_open)")
        .await
        .unwrap_or_default();
    assert_eq!(pods.len(), 2, "{pods:?}");
    eprintln!(
        "{} dashboard queries answered with data in {:.1} s",
        queries.len(),
        started.elapsed().as_secs_f64()
    );
}

/// GETs `path` of the server at `base`: the status and the body.
async fn get(base: &str, path: &str) -> (u16, String) {
    let mut answer = awc::Client::new()
        .get(format!("{base}{path}"))
        .send()
        .await
        .expect("the server answers");
    let body = answer.body().limit(1 << 20).await.unwrap_or_default();
    (
        answer.status().as_u16(),
        String::from_utf8_lossy(&body).into_owned(),
    )
}

/// A node whose one thinking thread has more strong computers than it can think for: `/readyz` says it
/// takes no new strong computer table (503 asked `?for=computer`) and `POST /api/tables` refuses one
/// with 503 and a Retry-After, while friends and standard computer tables still open; once the
/// computers have stopped, strong tables open again.
#[actix_rt::test]
async fn a_node_saturated_with_thinking_takes_no_new_strong_computer_table() {
    let node = cluster::Node::alone(&[
        ("CHAIKHANA_THINKING_THREADS", "1"),
        ("CHAIKHANA_THINKING_SATURATED_MS", "100"),
        ("CHAIKHANA_THINKING_FLOOR_MS", "20"),
        ("CHAIKHANA_STRONG_BUDGET_MS", "200"),
        ("CHAIKHANA_TABLES_PER_MINUTE", "0"),
        ("CHAIKHANA_DATA_DIR", ""),
    ])
    .await;
    let ready = || async {
        let (status, body) = get(&node.base, "/readyz").await;
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<serde_json::Value>(&body).unwrap()
    };
    assert_eq!(ready().await["computer_tables"], true);
    let strong =
        json!({"game": "ganjifa", "opponents": "computer", "length": 3, "level": "strong"});
    // Players who answer at once: their computers think all the time, up to 200 ms of CPU a decision.
    let mut players = Vec::new();
    for seed in 0..8 {
        let (status, answer) = post(&node.base, "/api/tables", &strong.to_string()).await;
        assert_eq!(status, 201, "{answer}");
        let me = Seated::from_answer(answer["table"].as_str().unwrap(), &answer);
        let mut client = node.connect(&me).await;
        players.push(actix_rt::spawn(async move {
            play_against_computer(&mut client, &mut rng(seed)).await;
        }));
    }
    let since = std::time::Instant::now();
    let mut seen = ready().await;
    while seen["computer_tables"] != false {
        assert!(
            since.elapsed() < std::time::Duration::from_secs(60),
            "never saturated: {seen}"
        );
        actix_rt::time::sleep(std::time::Duration::from_millis(50)).await;
        seen = ready().await;
    }
    assert!(seen["thinking"]["waiting"].as_u64() >= Some(1), "{seen}");
    let (status, body) = get(&node.base, "/readyz?for=computer").await;
    assert_eq!(status, 503, "{body}");
    let refused = awc::Client::new()
        .post(format!("{}/api/tables", node.base))
        .insert_header(("content-type", "application/json"))
        .send_body(strong.to_string())
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 503);
    assert_eq!(
        refused.headers().get("retry-after").map(|v| v.as_bytes()),
        Some(&b"5"[..])
    );
    for other in [
        json!({"game": "ganjifa", "opponents": "friends"}),
        json!({"game": "ganjifa", "opponents": "computer"}),
    ] {
        let (status, answer) = post(&node.base, "/api/tables", &other.to_string()).await;
        assert_eq!(status, 201, "{other}: {answer}");
    }
    // The decisions asked behind the long queue are given less of their budget, and counted.
    let shortened = || async {
        let metrics = get(&node.base, "/metrics").await.1;
        metrics
            .lines()
            .find(|l| {
                l.starts_with(
                    "chaikhana_thinking_shortened_total{game=\"ganjifa\",level=\"strong\"}",
                )
            })
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|n| n.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let since = std::time::Instant::now();
    while shortened().await == 0.0 {
        assert!(
            since.elapsed() < std::time::Duration::from_secs(30),
            "a long queue shortens decisions"
        );
        actix_rt::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // The players stop: the computers soon wait for them, and nothing is left to think.
    for player in players {
        player.abort();
    }
    let since = std::time::Instant::now();
    while ready().await["computer_tables"] != true {
        assert!(
            since.elapsed() < std::time::Duration::from_secs(60),
            "still saturated"
        );
        actix_rt::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (status, answer) = post(&node.base, "/api/tables", &strong.to_string()).await;
    assert_eq!(status, 201, "{answer}");
}
