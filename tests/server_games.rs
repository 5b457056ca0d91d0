//! Pishe Pasha and Ganjifa tables over real HTTP and WebSocket: a whole match against the computer and
//! a whole match among friends for each, with every frame checked against the truth.

mod support;

use serde_json::json;

use chaikhana::games::ganjifa::Ganjifa;
use chaikhana::games::pishe_pasha::PishePasha;
use support::leaks::*;
use support::*;

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
