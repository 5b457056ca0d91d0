//! What a seat could know: a deal's states rebuilt from the table's record, and every view a seat
//! received checked against them (nothing shown that the seat could not see; the deal's seal too).

use serde_json::Value;

use chaikhana::table::{DealRecord, TableRecord};

use super::check_deal_seal;

/// The record of the deal in play at `version`: the last dealt at or before it.
pub fn deal_at(record: &TableRecord, version: u64) -> Option<&DealRecord> {
    record.deals.iter().rev().find(|d| d.dealt_at <= version)
}

/// The states of the deal in play at `version`, from its deal to that version, rebuilt from the
/// table's record (deal seeds and actions).
pub fn deal_history<G: chaikhana_rules::game::Game>(
    record: &TableRecord,
    version: u64,
) -> Vec<G::State> {
    let Some(deal) = deal_at(record, version) else {
        return Vec::new();
    };
    let (mut state, _, _) = deal.dealt::<G>();
    let mut history = vec![state.clone()];
    for (seat, json, made) in &deal.actions {
        if *made > version {
            break;
        }
        let action: G::Action = serde_json::from_value(json.clone()).unwrap();
        G::apply(&mut state, *seat, &action).expect("recorded actions replay");
        history.push(state.clone());
    }
    history
}

/// Checks every view frame a seat received against the truth: `leaks` says what in a frame the seat
/// could not know, given the deal's states up to that frame's version. The deal's seal is checked too
/// (see [`check_deal_seal`]); its reveal, the whole order shown once the deal has ended, is left out of
/// what `leaks` is asked about.
pub fn assert_frames_hide_the_truth<G: chaikhana_rules::game::Game>(
    record: &TableRecord,
    seat: usize,
    frames: &[Value],
    leaks: impl Fn(&[G::State], chaikhana_rules::cards::Seat, &Value) -> Option<String>,
) {
    let mut checked = 0;
    let views: Vec<&Value> = frames
        .iter()
        .filter(|f| f["type"] == "view" && !f["view"].is_null())
        .collect();
    for frame in &views {
        let version = frame["version"].as_u64().unwrap();
        let history = deal_history::<G>(record, version);
        assert!(!history.is_empty());
        let mut shown = (*frame).clone();
        if let Some(deal) = shown.get_mut("deal").and_then(Value::as_object_mut) {
            deal.remove("reveal");
        }
        if let Some(leak) = leaks(&history, chaikhana_rules::cards::Seat::new(seat), &shown) {
            panic!("seat {seat} at version {version}: {leak}");
        }
        checked += 1;
    }
    assert!(checked > 0, "no view frame was checked");
    check_deal_seal::<G>(record, frames);
}
