//! A deal waits for the numbers of the people seated, over real WebSockets: the pledge first, then
//! the number pledged, each refused out of turn; the deal is the one committed to, and its reveal
//! holds the numbers and no seed or secret; a rematch is dealt from the shuffle already answered; a
//! deal whose numbers do not come is dealt after the wait without them.

use serde_json::{json, Value};

use chaikhana::table::pledge_of;
use chaikhana_rules::games::ganjifa::Ganjifa;

use super::{play_adding_numbers, play_adding_numbers_as, view_where};
use crate::support::pledging::Pledger;
use crate::support::*;

#[actix_rt::test]
async fn each_deal_waits_for_the_players_pledge_then_number_and_is_shuffled_from_it() {
    // A wait far longer than the frames take: a deal that comes did not come by the clock.
    let server = TestServer::start(|s| s.shuffle_wait_ms = 600_000);
    let me = server.open("ganjifa", "computer", Some(json!(3))).await;
    let mut client = server.connect(&me).await;
    let first = client.next_of("view").await;
    assert_eq!(first["status"], "waiting", "no deal before the number");
    assert!(first["deal"].is_null() && first["view"].is_null());
    let shuffle = &first["shuffle"];
    let commitment = shuffle["commitment"].as_str().unwrap().to_string();
    assert_eq!(commitment.len(), 64);
    assert_eq!(shuffle["deal"], 0, "the table's first deal");
    assert_eq!(shuffle["pledges"], json!([null, null, null]));
    assert_eq!(shuffle["closed"], false);
    assert_eq!(shuffle["contributed"], json!([false, false, false]));
    let mine = "5a".repeat(16);
    // Refused, and nothing changes: a number before any pledge, a pledge for another shuffle, one
    // not in hex.
    for frame in [
        json!({ "type": "contribute", "commitment": commitment, "value": mine }),
        json!({ "type": "pledge", "commitment": "0".repeat(64), "hash": pledge_of(&mine) }),
        json!({ "type": "pledge", "commitment": commitment, "hash": "AB".repeat(32) }),
    ] {
        client.send(frame.clone()).await;
        let error = client.next_of("error").await;
        assert_eq!(error["code"], "contribution-refused", "{frame}: {error}");
    }
    // The pledge closes the list at once (the other seats are computers, which give none); the page
    // is shown it, and only then gives the number pledged.
    client
        .send(json!({ "type": "pledge", "commitment": commitment, "hash": pledge_of(&mine) }))
        .await;
    let closed = client.next_of("shuffle").await;
    assert_eq!(
        closed["shuffle"]["pledges"],
        json!([pledge_of(&mine), null, null])
    );
    assert_eq!(closed["shuffle"]["closed"], true);
    client
        .send(json!({ "type": "contribute", "commitment": commitment, "value": "5b".repeat(16) }))
        .await;
    assert_eq!(
        client.next_of("error").await["code"],
        "contribution-refused",
        "a number that is not the one pledged"
    );
    client
        .send(json!({ "type": "contribute", "commitment": commitment, "value": mine }))
        .await;
    let dealt = client.next_of("view").await;
    assert_eq!(
        dealt["status"], "playing",
        "the deal came with the last person's number"
    );
    assert_eq!(
        dealt["deal"]["commitment"],
        commitment.as_str(),
        "the deal is the one committed to"
    );
    assert_eq!(dealt["deal"]["dealt_at"], dealt["version"]);
    assert_ne!(
        dealt["shuffle"]["commitment"],
        commitment.as_str(),
        "the next deal is committed to at once"
    );
    assert_eq!(dealt["shuffle"]["deal"], 1);
    client
        .send(json!({ "type": "contribute", "commitment": commitment, "value": mine }))
        .await;
    assert_eq!(
        client.next_of("error").await["code"],
        "contribution-refused",
        "a shuffle already dealt takes no number"
    );
    client.send(json!({ "type": "resync" })).await;
    let page = play_adding_numbers(&mut client, &mut rng(3)).await;

    // Every deal's reveal: its number at the table, the pledges, this seat's number, none from the
    // computers, and no seed or secret.
    let record = server.record(&me.table).await;
    let ended: Vec<&Value> = client
        .received
        .iter()
        .filter(|f| f["type"] == "view" && !f["deal"]["reveal"].is_null())
        .collect();
    assert!(ended.len() >= 3, "three deals revealed");
    let mut deals = Vec::new();
    for frame in &ended {
        let reveal = &frame["deal"]["reveal"];
        let committed = frame["deal"]["commitment"].as_str().unwrap();
        let number = page.number_for(committed).unwrap_or(&mine);
        assert_eq!(reveal["numbers"][0], number, "this seat's number");
        assert_eq!(reveal["pledges"][0], pledge_of(number), "its pledge");
        assert_eq!(reveal["numbers"][1], Value::Null, "a computer gives none");
        assert_eq!(reveal["pledges"][1], Value::Null, "nor pledges any");
        assert!(reveal.get("seed").is_none() && reveal.get("secret").is_none());
        deals.push(reveal["deal"].as_u64().unwrap());
    }
    deals.dedup();
    assert_eq!(deals, vec![0, 1, 2], "each deal named in turn");
    assert!(check_deal_seal::<Ganjifa>(&record, &client.received) >= 3);
}

#[actix_rt::test]
async fn a_rematch_is_dealt_from_the_shuffle_the_page_already_answered() {
    // One number per deal: the deal after a match is committed to while the match's last deal is
    // played, and the rematch deals it; nothing is asked for twice.
    let server = TestServer::start(|s| s.shuffle_wait_ms = 600_000);
    let me = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&me).await;
    let mut rng = rng(4);
    let mut page = Pledger::default();
    play_adding_numbers_as(&mut client, &mut page, &mut rng).await;
    let over = client.last_view().clone();
    let coming = over["shuffle"]["commitment"].as_str().unwrap().to_string();
    let version = over["version"].as_u64().unwrap();
    client
        .send(json!({ "type": "rematch", "version": version }))
        .await;
    let dealt = view_where(&mut page, &mut client, &mut rng, |v| {
        v["status"] == "playing"
    })
    .await;
    assert_eq!(dealt["deal"]["commitment"], coming.as_str());
    let commitments: Vec<&str> = client
        .received
        .iter()
        .filter_map(|f| f["shuffle"]["commitment"].as_str())
        .collect();
    let asked: std::collections::BTreeSet<(u64, &str)> = client
        .received
        .iter()
        .filter_map(|f| {
            Some((
                f["shuffle"]["deal"].as_u64()?,
                f["shuffle"]["commitment"].as_str()?,
            ))
        })
        .collect();
    let numbers: std::collections::BTreeSet<u64> = asked.iter().map(|(d, _)| *d).collect();
    assert_eq!(
        asked.len(),
        numbers.len(),
        "one commitment per deal number: {asked:?}"
    );
    assert!(commitments.contains(&coming.as_str()));
}

#[actix_rt::test]
async fn a_deal_whose_numbers_do_not_come_is_dealt_after_the_wait_without_them() {
    let server = TestServer::start(|s| s.shuffle_wait_ms = 300);
    let me = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&me).await;
    assert_eq!(client.next_of("view").await["status"], "waiting");
    let dealt = client.next_of("view").await;
    assert_eq!(dealt["status"], "playing");
    client.send(json!({ "type": "resync" })).await;
    play_against_computer(&mut client, &mut rng(5)).await;
    let reveal = client
        .received
        .iter()
        .find(|f| !f["deal"]["reveal"].is_null())
        .map(|f| f["deal"]["reveal"].clone())
        .expect("a reveal");
    assert_eq!(reveal["numbers"], json!([null, null]));
}
