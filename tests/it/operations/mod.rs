//! What operators rely on: `/metrics` in the Prometheus text format with every project metric after a
//! match, `/healthz` and `/readyz` (not ready while draining), all three on a port of their own when
//! `ops_listen` asks, and the real tools: `promtool check
//! metrics` on the live output, a real Prometheus scraping two nodes that share a Redis and answering
//! every dashboard query with data, `promtool check rules` on the
//! alert rules and on every dashboard query, `promtool test rules` showing each alert firing and not
//! firing, and `kubernetes-validate` on the manifests.

mod manifests;
mod metrics;
mod prometheus;
mod promql;
mod thinking;

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use crate::support::*;

/// Whether a program this suite drives is installed (see `support::have_program`).
fn have(program: &str) -> bool {
    have_program(
        program,
        "apt-get install prometheus / pip install kubernetes-validate",
    )
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

/// The Grafana dashboard, `deploy/grafana/chaikhana.json`.
fn dashboard() -> Value {
    serde_json::from_str(&std::fs::read_to_string(repo("deploy/grafana/chaikhana.json")).unwrap())
        .unwrap()
}

/// Every panel query of the dashboard: the panel's title and the query as written, its variables
/// still in it.
fn dashboard_queries() -> Vec<(String, String)> {
    let dashboard = dashboard();
    let mut queries = Vec::new();
    for panel in dashboard["panels"].as_array().unwrap() {
        for target in panel["targets"].as_array().into_iter().flatten() {
            let title = panel["title"].as_str().unwrap_or("").to_string();
            queries.push((title, target["expr"].as_str().unwrap().to_string()));
        }
    }
    queries
}

/// A dashboard query with its variables filled in: the rate window and the step as given, and `$pod`
/// as "All" (every pod).
fn filled_in(expr: &str, rate_interval: &str, interval: &str) -> String {
    expr.replace("$__rate_interval", rate_interval)
        .replace("$__interval", interval)
        .replace("$pod", ".*")
}

/// GETs `path` of the server at `base`: the status and the body.
async fn get(base: &str, path: &str) -> (u16, String) {
    let (status, _, body) = fetch(base, path).await;
    (status, body)
}

/// Plays a computer table's match to its end on `client`, then asks for a resync and sends a move on
/// a stale version, which is refused: what makes every counter of play grow.
async fn play_resync_and_be_refused(client: &mut Client, rng: &mut Rng) {
    play_against_computer(client, rng).await;
    client.send(json!({"type": "resync"})).await;
    client
        .send(json!({"type": "action", "version": 0, "action": {"type": "pick-up"}}))
        .await;
    client.next_of("error").await;
}
