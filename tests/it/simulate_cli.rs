//! `chaikhana simulate`, run as a user runs it: the JSON shape shared by every game, determinism, clear
//! errors, and a trace that replays its deals exactly.

use std::path::Path;
use std::process::{Command, Output};

use chaikhana_rules::cards::deal_rng;
use chaikhana_rules::game::{DealSetup, Game};
use chaikhana_rules::games::panjpar::Panjpar;
use serde_json::Value;

use crate::support::field_names;

fn simulate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chaikhana"))
        .arg("simulate")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn simulate_json(args: &[&str]) -> Value {
    let out = simulate(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn panjpar_json_has_the_shared_shape_and_the_same_seed_gives_the_same_figures() {
    let args = [
        "panjpar",
        "--deals",
        "400",
        "--seed",
        "5",
        "--bots",
        "computer,random",
        "--json",
    ];
    let report = simulate_json(&args);
    let keys = field_names(&report);
    assert_eq!(
        keys,
        [
            "bots",
            "ci95",
            "deals",
            "deals_per_second",
            "draws",
            "game",
            "points",
            "seed",
            "wins"
        ]
    );
    assert_eq!(report["game"], "panjpar");
    assert_eq!(report["deals"], 400);
    assert_eq!(report["seed"], 5);
    assert_eq!(report["bots"], serde_json::json!(["computer", "random"]));
    let wins: Vec<u64> = serde_json::from_value(report["wins"].clone()).unwrap();
    let draws = report["draws"].as_u64().unwrap();
    assert_eq!(wins.iter().sum::<u64>() + draws, 400);
    assert_eq!(
        report["points"], report["wins"],
        "a Panjpar point is a deal won"
    );
    for (seat, interval) in report["ci95"].as_array().unwrap().iter().enumerate() {
        let (lo, hi) = (interval[0].as_f64().unwrap(), interval[1].as_f64().unwrap());
        let share = wins[seat] as f64 / 400.0;
        assert!(lo <= share && share <= hi, "{lo} {share} {hi}");
    }
    assert!(report["deals_per_second"].as_f64().unwrap() > 0.0);
    // The computer beats a random player.
    assert!(wins[0] > wins[1], "{wins:?}");

    let again = simulate_json(&args);
    for key in ["wins", "draws", "points", "ci95"] {
        assert_eq!(report[key], again[key], "{key}");
    }
    let other_seed = simulate_json(&[
        "panjpar",
        "--deals",
        "400",
        "--seed",
        "6",
        "--bots",
        "computer,random",
        "--json",
    ]);
    assert_ne!(report["wins"], other_seed["wins"]);
}

#[test]
fn the_text_report_names_each_seat_and_the_speed() {
    let out = simulate(&["panjpar", "--deals", "50", "--bots", "random,random"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("seat 1 (random): won"), "{text}");
    assert!(text.contains("95% CI"), "{text}");
    assert!(text.contains("deals per second"), "{text}");
}

#[test]
fn bad_arguments_get_a_clear_error() {
    for (args, says) in [
        (
            vec!["chess", "--bots", "random,random"],
            "no game called \"chess\"",
        ),
        (vec!["panjpar", "--bots", "random"], "name 2 bots"),
        (
            vec!["panjpar", "--bots", "random,genius"],
            "no panjpar bot called \"genius\"",
        ),
    ] {
        let out = simulate(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let error = String::from_utf8_lossy(&out.stderr);
        assert!(error.contains(says), "{args:?}: {error}");
    }
}

/// Replays every deal of a trace from its deal seed and setup, checking each recorded state.
fn replay_trace<G: Game>(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).expect("the trace was written");
    let mut state: Option<(u64, G::State)> = None;
    let mut deals = 0;
    for line in text.lines() {
        let record: Value = serde_json::from_str(line).expect("each line is JSON");
        for key in [
            "deal",
            "deal_seed",
            "setup",
            "seat",
            "state",
            "view",
            "legal",
            "action",
        ] {
            assert!(record.get(key).is_some(), "{key} missing from {line}");
        }
        let deal = record["deal"].as_u64().unwrap();
        if state.as_ref().map(|(d, _)| *d) != Some(deal) {
            let setup: DealSetup = serde_json::from_value(record["setup"].clone()).unwrap();
            let seed = record["deal_seed"].as_u64().unwrap();
            state = Some((deal, G::deal(&setup, &mut deal_rng(seed))));
            deals += 1;
        }
        let (_, current) = state.as_mut().unwrap();
        assert_eq!(serde_json::to_value(&*current).unwrap(), record["state"]);
        let seat = serde_json::from_value(record["seat"].clone()).unwrap();
        assert_eq!(G::to_act(current), Some(seat));
        let action: G::Action = serde_json::from_value(record["action"].clone()).unwrap();
        let legal: Vec<G::Action> = serde_json::from_value(record["legal"].clone()).unwrap();
        assert!(legal.contains(&action));
        G::apply(current, seat, &action).expect("a traced action replays");
    }
    deals
}

#[test]
fn a_panjpar_trace_replays_its_deals_exactly() {
    let dir = std::env::temp_dir().join(format!("chaikhana-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("panjpar.jsonl");
    let out = simulate(&[
        "panjpar",
        "--deals",
        "20",
        "--seed",
        "3",
        "--bots",
        "computer,random",
        "--trace",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(replay_trace::<Panjpar>(&path), 20);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ratings_written_with_out_read_back_as_the_pages_read_them() {
    let path = std::env::temp_dir().join(format!("ratings-{}.json", std::process::id()));
    let out = simulate(&[
        "panjpar",
        "--ratings",
        "--deals",
        "10",
        "--budget-samples",
        "1",
        "--seed",
        "3",
        "--threads",
        "1",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let measured = chaikhana::catalog::MeasuredRatings::read(&text).unwrap();
    assert_eq!(measured.game, "panjpar");
    assert_eq!(
        measured.command,
        "simulate panjpar --ratings --deals 10 --budget-samples 1 --seed 3 --threads 1"
    );
    let shown = measured.shown();
    let levels: Vec<&str> = shown.iter().map(|l| l.level.as_str()).collect();
    assert_eq!(levels, ["gentle", "standard", "clever", "strong"]);
    assert_eq!((shown[1].rating, shown[1].margin), (1500, 0));
    assert_eq!(measured.pairs.len(), 6);
    assert!(measured.levels.iter().all(|l| l.games == 60));
}
