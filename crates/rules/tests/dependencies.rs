//! The rules are pure by their dependencies: this crate's graph, as Cargo resolves it for this crate
//! alone, holds no async runtime, actor system, WebSocket, Redis, metrics or operating-system
//! randomness. A rule that reached for one would need the crate added to `Cargo.toml`, and this test
//! names it then. (Built with the server, Cargo unifies `rand`'s features; alone, as here and as
//! `cargo check -p chaikhana-rules` builds it, `rand::rngs::OsRng` does not exist.)

use std::process::Command;

/// Crates the rules may never depend on, at any depth.
const REFUSED: &[&str] = &[
    "tokio",
    "actix",
    "actix-rt",
    "actix-web",
    "tungstenite",
    "tokio-tungstenite",
    "redis",
    "prometheus",
    "getrandom",
    "redb",
];

/// Every crate in the rules' normal (not dev, not build) dependency graph, by name.
fn dependencies() -> Vec<String> {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let out = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "--locked", "-e", "normal"])
        .args([
            "--prefix",
            "none",
            "--format",
            "{p}",
            "--manifest-path",
            manifest,
        ])
        .args(["-p", "chaikhana-rules"])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("cargo tree writes UTF-8");
    let mut names: Vec<String> = text
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn the_rules_depend_on_no_runtime_socket_store_metrics_or_os_randomness() {
    let names = dependencies();
    for must in ["chaikhana-rules", "rand", "rand_chacha", "serde_json"] {
        assert!(names.iter().any(|n| n == must), "{must} in {names:?}");
    }
    let refused: Vec<&String> = names
        .iter()
        .filter(|name| REFUSED.contains(&name.as_str()) || name.starts_with("actix"))
        .collect();
    assert!(refused.is_empty(), "the rules depend on {refused:?}");
}
