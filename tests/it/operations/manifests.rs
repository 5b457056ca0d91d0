//! The deployment's files checked by the real tools: `promtool check rules` on the alert rules and on
//! every dashboard query, `promtool test rules` showing each alert firing and not, the dashboard's
//! datasource left to a variable, and `kubernetes-validate` on the manifests.

use std::process::Command;

use super::{dashboard, dashboard_queries, filled_in, have, repo, succeeds};

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
    let mut rules = String::from("groups:\n  - name: dashboard\n    rules:\n");
    let queries = dashboard_queries();
    for (count, (_, expr)) in queries.iter().enumerate() {
        let expr = filled_in(expr, "5m", "1m");
        rules += &format!(
            "      - record: dashboard:query_{count}\n        expr: {}\n",
            serde_json::to_string(&expr).unwrap()
        );
    }
    let count = queries.len();
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
    let dashboard = dashboard();
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
