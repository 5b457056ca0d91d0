//! A real Prometheus scraping two nodes that share a Redis, after an operator's day of play on them,
//! answering every dashboard query (of chaikhana's own series) with data, each pod a series of its own.

use std::process::Command;

use serde_json::json;

use super::promql::metric_names;
use super::{dashboard_queries, filled_in, have, play_resync_and_be_refused};
use crate::support::cluster;
use crate::support::*;

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
    let (me, _) = open_table(&b.base, &strong).await;
    let mut client = b.connect(&me).await;
    play_resync_and_be_refused(&mut client, &mut rng).await;
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

    let mut queries = Vec::new();
    for (title, expr) in dashboard_queries() {
        // Series such as redis_exporter's come from other programs, which this test does not
        // run: only what chaikhana itself exports is asked for.
        let names = metric_names(&expr);
        if let Some(other) = names
            .iter()
            .find(|n| !n.starts_with("chaikhana_") && !n.starts_with("process_"))
        {
            eprintln!("not asked (\"{other}\" is not chaikhana's): {expr}");
            continue;
        }
        // Both plays fall inside a 30 s window; `$pod` as "All" selects every pod.
        queries.push((title, filled_in(&expr, "30s", "5s")));
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
