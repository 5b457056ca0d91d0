//! Verifiable deals over real WebSockets: each deal's commitment reaches every seat before anyone acts,
//! the order and salt stay out of every frame until the deal ends, and then they hash to the commitment
//! and are the order the deal's seed really dealt.

use serde_json::json;

use crate::support::*;
use chaikhana_rules::game::Game;
use chaikhana_rules::games::{ganjifa::Ganjifa, panjpar::Panjpar, pishe_pasha::PishePasha};

/// Plays a friends match of `G` and checks the seal in every seat's frames; returns the reveals seen.
async fn play_and_check<G: Game>(seats: usize, length: serde_json::Value, seed: u64) -> usize {
    let server = TestServer::start(|_| {});
    let (table, mut clients) = seat_friends(&server, G::NAME, seats, length).await;
    // The deal's first frame, before any seat has acted: the commitment is there, the order is not.
    for client in clients.iter_mut() {
        let first = loop {
            let view = client.next_of("view").await;
            if view["version"] == 1 {
                break view;
            }
        };
        assert_eq!(first["status"], "playing");
        assert!(first["deal"]["commitment"].as_str().unwrap().len() == 64);
        assert!(first["deal"]["reveal"].is_null());
        if G::NAME == "panjpar" {
            assert_eq!(
                first["view"]["phase"]["name"], "guess",
                "sealed before the guess"
            );
        }
    }
    // Every seat has its version-1 frame; let the helper see it again by resyncing each seat.
    for client in clients.iter_mut() {
        client.send(json!({ "type": "resync" })).await;
    }
    play_among_friends(&mut clients, &mut rng(seed)).await;
    let record = server.record(&table).await;
    let mut reveals = 0;
    for client in &clients {
        reveals += check_deal_seal::<G>(&record, &client.received);
    }
    assert!(
        reveals >= seats,
        "every seat saw at least one deal revealed"
    );
    reveals
}

#[actix_rt::test]
async fn panjpar_deals_are_sealed_before_the_guess_and_revealed_at_the_end() {
    play_and_check::<Panjpar>(2, json!(1), 11).await;
}

#[actix_rt::test]
async fn pishe_pasha_deals_are_sealed_and_revealed() {
    play_and_check::<PishePasha>(2, json!("one-deal"), 12).await;
}

#[actix_rt::test]
async fn ganjifa_deals_are_sealed_and_revealed() {
    play_and_check::<Ganjifa>(3, json!(3), 13).await;
}

#[actix_rt::test]
async fn a_reconnect_mid_deal_gets_the_same_commitment_and_no_order() {
    let server = TestServer::start(|_| {});
    let host = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut first = server.connect(&host).await;
    let view = first.next_of("view").await;
    let commitment = view["deal"]["commitment"].clone();
    assert!(commitment.is_string());
    drop(first);
    let mut again = server.connect(&host).await;
    let view = again.next_of("view").await;
    assert_eq!(view["deal"]["commitment"], commitment);
    assert!(view["deal"]["reveal"].is_null());
    // The helper below starts from a view of its own.
    again.send(json!({ "type": "resync" })).await;
    let deals = play_against_computer(&mut again, &mut rng(14)).await;
    assert!(deals >= 1);
    let record = server.record(&host.table).await;
    assert!(check_deal_seal::<Panjpar>(&record, &again.received) >= 1);
}
