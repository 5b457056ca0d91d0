//! Ganjifa's tests: the scenarios of the rulings, whole deals set up card by card, seeded playouts
//! checking every rule at every step, and self-play below.

mod deal_scenarios;
mod playouts;
mod scenarios;
mod second_phase;

use super::*;
use crate::cards::deal_rng;
use crate::sim::{simulate, SimConfig};

fn config(deals: u64, bots: &str, trace: Option<std::path::PathBuf>) -> SimConfig {
    SimConfig {
        deals,
        seed: 4,
        bots: bots.split(',').map(String::from).collect(),
        trace,
        budget: crate::game::DEFAULT_BUDGET,
    }
}

#[test]
fn self_play_scores_add_up_to_zero_and_the_computer_beats_random_players() {
    let report = simulate::<Ganjifa>(&config(400, "computer,random,random", None)).unwrap();
    assert_eq!(report.points.iter().sum::<i64>(), 0);
    assert!(report.points_per_deal[0].low > 2.0, "{}", report.to_text());
    assert!(simulate::<Ganjifa>(&config(1, "computer,random", None)).is_err());
    assert!(simulate::<Ganjifa>(&config(1, "computer,random,nobody", None)).is_err());
}

#[test]
fn a_trace_replays_every_deal_exactly() {
    let path = std::env::temp_dir().join(format!("ganjifa-trace-{}.jsonl", std::process::id()));
    let report =
        simulate::<Ganjifa>(&config(20, "computer,random,computer", Some(path.clone()))).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let mut replays: Vec<(State, i64)> = Vec::new();
    for line in text.lines() {
        let line: serde_json::Value = serde_json::from_str(line).unwrap();
        let deal = line["deal"].as_i64().unwrap();
        if replays.last().is_none_or(|(_, d)| *d != deal) {
            let setup: DealSetup = serde_json::from_value(line["setup"].clone()).unwrap();
            let seed = line["deal_seed"].as_u64().unwrap();
            replays.push((Ganjifa::deal(&setup, &mut deal_rng(seed)), deal));
        }
        let (state, _) = replays.last_mut().unwrap();
        assert_eq!(serde_json::to_value(&*state).unwrap(), line["state"]);
        let seat: Seat = serde_json::from_value(line["seat"].clone()).unwrap();
        let action: Action = serde_json::from_value(line["action"].clone()).unwrap();
        Ganjifa::apply(state, seat, &action).unwrap();
    }
    assert_eq!(replays.len(), 20);
    let mut points = [0i64; 3];
    for (state, _) in &replays {
        let outcome = Ganjifa::outcome(state).expect("every replayed deal ends");
        for (total, p) in points.iter_mut().zip(outcome.points) {
            *total += i64::from(p);
        }
    }
    assert_eq!(points.to_vec(), report.points);
}

/// The Persian board words every refusal it may be sent: each of Ganjifa's codes and the shared ones
/// has its sentence in `web/ganjifa-fa.js`, and every reason of the ladder its case.
#[test]
fn the_persian_board_words_every_refusal_and_every_reason_of_the_ladder() {
    use crate::game::RuleCode;
    use strum::IntoEnumIterator;
    let persian = include_str!("../web/ganjifa-fa.js");
    let codes = codes::Code::iter().map(RuleCode::from);
    for code in codes.chain(RuleCode::SHARED) {
        let key = code.as_str();
        assert!(
            persian.contains(&format!("\"{key}\": \"")),
            "no Persian sentence for the refusal {key}"
        );
    }
    for say in [
        "run-held",
        "runs-held",
        "no-run",
        "run-first",
        "deni-must",
        "deni-lone",
        "no-deni",
        "deni-first",
        "choice",
        "no-choice",
        "blind-may",
        "blind-must",
        "hold-hukm",
    ] {
        assert!(
            persian.contains(&format!("case \"{say}\":")),
            "no Persian words for the reason {say}"
        );
        assert!(
            include_str!("../view.rs").contains(&format!("\"say\", \"{say}\"")),
            "the view sends no reason {say}"
        );
    }
}
