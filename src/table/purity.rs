//! The other half of the table core's purity check. The lints named in `clippy.toml` refuse calls and
//! types in the core, but not a path to a module (the actor's messages, the outbox) nor a value such as
//! `rand::rngs::OsRng` written out in full. This test reads the core's files, and those of the plain
//! table modules it builds on (each that denies those lints), and refuses any such path in their code.

use std::path::{Path, PathBuf};

/// What the core's code may not name: the actor's side, the wire (the outbox, and the JSON writer's
/// raw values and layout hooks, which are the presenter's), the stores, the process's metrics, the
/// operating system's generator and clock, and hashers seeded by the operating system.
const REFUSED: &[&str] = &[
    "actix",
    "tungstenite",
    "tokio",
    "redis",
    "crate::metrics",
    "crate::outbox",
    "crate::server",
    "crate::routing",
    "crate::thinking",
    "messages::",
    "OsRng",
    "thread_rng",
    "from_entropy",
    "Instant::now",
    "SystemTime",
    "HashMap",
    "HashSet",
    "std::fs",
    "std::net",
    "std::env",
    "std::process",
    "std::thread",
    "RawValue",
    "serde_json::ser",
];

/// The attribute by which a table module declares itself pure.
const PURE: &str = "#![deny(clippy::disallowed_methods, clippy::disallowed_types)]";

/// Each refused name in `source`'s code (comments aside), with its line.
fn breaches(source: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for refused in REFUSED {
            if code.contains(refused) {
                found.push((n + 1, *refused));
            }
        }
    }
    found
}

fn table_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/table")
}

/// The Rust files in `dir`, and with `deep` in the folders under it.
fn rust_files(dir: &Path, deep: bool) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && deep {
            files.extend(rust_files(&path, deep));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The core's files and the plain modules that declare themselves pure.
fn pure_files() -> Vec<PathBuf> {
    let mut files = rust_files(&table_dir().join("core"), true);
    for file in rust_files(&table_dir(), false) {
        let source = std::fs::read_to_string(&file).unwrap();
        if source.lines().any(|line| line == PURE) {
            files.push(file);
        }
    }
    files
}

#[test]
fn the_table_core_names_nothing_of_the_actor_the_wire_the_clock_or_the_os() {
    let files = pure_files();
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for expected in [
        "core.rs",
        "flow.rs",
        "views.rs",
        "shuffle.rs",
        "seats.rs",
        "snapshot.rs",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} is checked: {names:?}"
        );
    }
    assert!(!names.iter().any(|n| n == "actor.rs" || n == "messages.rs"));
    let mut all = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        for (line, refused) in breaches(&source) {
            all.push(format!("{}:{line}: {refused}", file.display()));
        }
    }
    assert!(
        all.is_empty(),
        "the table core names what it may not:\n{}",
        all.join("\n")
    );
}

#[test]
fn the_check_finds_a_refused_path_in_code_and_not_in_a_comment() {
    let source = "use super::super::messages::ConnId;\n\
                  // Redis, actix and OsRng are named here only in words.\n\
                  let x = rand::rngs::OsRng.next_u64(); // and here\n\
                  let t = crate::metrics::metrics();\n";
    assert_eq!(
        breaches(source),
        vec![(1, "messages::"), (3, "OsRng"), (4, "crate::metrics")]
    );
}
