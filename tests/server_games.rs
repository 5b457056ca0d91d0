//! Pishe Pasha and Ganjifa tables over real HTTP and WebSocket: a whole match against the computer and
//! a whole match among friends for each, with every frame checked against the truth.

mod support;

use serde_json::{json, Value};

use chaikhana::cards::{cards_in_json, CardSet, Seat};
use chaikhana::games::ganjifa::{pack::GCard, pack::GSet, view::visible_to, Ganjifa};
use chaikhana::games::pishe_pasha::{self, PishePasha};
use support::*;

/// A Pishe Pasha frame may show only cards that have left a stock at some point of the deal so far:
/// a card never turned up from a stock is seen by nobody.
fn pishe_pasha_leaks(history: &[pishe_pasha::State], _seat: Seat, frame: &Value) -> Option<String> {
    let mut seen = CardSet::EMPTY;
    for state in history {
        let in_stocks: CardSet = Seat::all(2)
            .flat_map(|s| state.stock(s).as_slice().iter().copied())
            .collect();
        seen = seen.union(CardSet::DECK.minus(in_stocks));
    }
    let leaked = cards_in_json(frame).minus(seen);
    (!leaked.is_empty()).then(|| format!("shown stock cards {leaked:?}"))
}

/// Every Ganjifa card code in a frame.
fn ganjifa_cards(value: &Value, found: &mut GSet) {
    match value {
        Value::String(text) => {
            if let Ok(card) = text.parse::<GCard>() {
                found.insert(card);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| ganjifa_cards(v, found)),
        Value::Object(map) => map.values().for_each(|v| ganjifa_cards(v, found)),
        _ => {}
    }
}

fn ganjifa_leaks(
    history: &[chaikhana::games::ganjifa::State],
    seat: Seat,
    frame: &Value,
) -> Option<String> {
    let mut shown = GSet::EMPTY;
    ganjifa_cards(frame, &mut shown);
    let leaked = shown.minus(visible_to(history.last()?, Some(seat)));
    (!leaked.is_empty()).then(|| format!("shown {leaked:?}"))
}

#[actix_rt::test]
async fn a_pishe_pasha_match_against_the_computer() {
    let server = TestServer::start(|_| {});
    let me = server
        .open("pishe-pasha", "computer", Some(json!("one-deal")))
        .await;
    let mut client = server.connect(&me).await;
    assert_eq!(play_against_computer(&mut client, &mut rng(4)).await, 1);
    let record = server.record(&me.table).await;
    assert_frames_hide_the_truth::<PishePasha>(&record, 0, &client.received, pishe_pasha_leaks);
}

#[actix_rt::test]
async fn a_pishe_pasha_match_among_friends() {
    let server = TestServer::start(|_| {});
    let (table, mut clients) = seat_friends(&server, "pishe-pasha", 2, json!("one-deal")).await;
    play_among_friends(&mut clients, &mut rng(5)).await;
    let record = server.record(&table).await;
    for (seat, client) in clients.iter().enumerate() {
        assert_frames_hide_the_truth::<PishePasha>(
            &record,
            seat,
            &client.received,
            pishe_pasha_leaks,
        );
    }
}

#[actix_rt::test]
async fn a_ganjifa_match_against_two_computers() {
    let server = TestServer::start(|_| {});
    let me = server.open("ganjifa", "computer", Some(json!(3))).await;
    let mut client = server.connect(&me).await;
    assert_eq!(play_against_computer(&mut client, &mut rng(6)).await, 3);
    let last = client
        .received
        .iter()
        .rev()
        .find(|f| f["type"] == "view")
        .unwrap();
    let totals: Vec<i64> = serde_json::from_value(last["match"]["totals"].clone()).unwrap();
    assert_eq!(totals.iter().sum::<i64>(), 0, "deal scores add up to zero");
    assert_eq!(last["seats"][1]["who"], "computer");
    assert_eq!(last["seats"][2]["who"], "computer");
    let record = server.record(&me.table).await;
    assert_frames_hide_the_truth::<Ganjifa>(&record, 0, &client.received, ganjifa_leaks);
}

#[actix_rt::test]
async fn a_ganjifa_match_among_three_friends() {
    let server = TestServer::start(|_| {});
    let (table, mut clients) = seat_friends(&server, "ganjifa", 3, json!(3)).await;
    play_among_friends(&mut clients, &mut rng(7)).await;
    let record = server.record(&table).await;
    for (seat, client) in clients.iter().enumerate() {
        assert_frames_hide_the_truth::<Ganjifa>(&record, seat, &client.received, ganjifa_leaks);
    }
}

#[actix_rt::test]
async fn match_lengths_are_checked_per_game() {
    let server = TestServer::start(|_| {});
    for (game, length, ok) in [
        ("pishe-pasha", json!("one-deal"), true),
        ("pishe-pasha", json!(50), true),
        ("pishe-pasha", json!(100), true),
        ("pishe-pasha", json!(75), false),
        ("ganjifa", json!(6), true),
        ("ganjifa", json!(4), false),
        ("panjpar", json!(5), true),
    ] {
        let body = json!({ "game": game, "opponents": "computer", "length": length });
        let (status, answer) = server.post("/api/tables", &body.to_string()).await;
        assert_eq!(status == 201, ok, "{game} {length}: {answer}");
    }
}
