//! Fair deals over real WebSockets: the table commits to its secret before any number comes; a deal
//! waits for the numbers of the people seated and is shuffled from them (a computer's is skipped); the
//! reveal shows the secret, every number and the seed they give; a Ganjifa talafa played face down
//! stays out of every other seat's reveal; and the page's own check (`verify.js`, run in Node.js)
//! passes on a real deal and catches forged reveals.

use std::collections::HashMap;

use serde_json::{json, Value};

use crate::support::*;
use chaikhana::game::Game;
use chaikhana::games::ganjifa::Ganjifa;
use chaikhana::table::TableRecord;

/// A fresh number for a shuffle, as a page draws one.
fn number(rng: &mut Rng) -> String {
    use rand::Rng as _;
    format!("{:032x}", rng.gen::<u128>())
}

/// Plays a match against the computer as a page does: it adds a number to every coming deal's
/// shuffle the first time a view shows one, and plays random actions. The numbers it sent, by the
/// shuffle commitment they answered.
async fn play_adding_numbers(client: &mut Client, rng: &mut Rng) -> HashMap<String, String> {
    let mut sent = HashMap::new();
    loop {
        let view = client.next_of("view").await;
        let version = view["version"].as_u64().unwrap();
        let shuffle = &view["shuffle"];
        let seat = view["seat"].as_u64().unwrap() as usize;
        let commitment = shuffle["commitment"].as_str().unwrap().to_string();
        if shuffle["contributed"][seat] == false && !sent.contains_key(&commitment) {
            let value = number(rng);
            client
                .send(json!({ "type": "contribute", "commitment": commitment, "value": value }))
                .await;
            sent.insert(commitment, value);
        }
        match view["status"].as_str().unwrap() {
            "match-over" => return sent,
            "deal-over" => {
                client
                    .send(json!({ "type": "next-deal", "version": version }))
                    .await
            }
            "playing" if !view["actions"].as_array().unwrap().is_empty() => {
                client.send(action(version, "a", &choose(&view, rng))).await;
            }
            _ => {}
        }
    }
}

#[actix_rt::test]
async fn each_deal_waits_for_the_players_number_and_is_shuffled_from_it() {
    // A wait far longer than the frames take: a deal that comes did not come by the clock.
    let server = TestServer::start(|s| s.shuffle_wait_ms = 600_000);
    let me = server.open("ganjifa", "computer", Some(json!(3))).await;
    let mut client = server.connect(&me).await;
    let first = client.next_of("view").await;
    assert_eq!(first["status"], "waiting", "no deal before the number");
    assert!(first["deal"].is_null() && first["view"].is_null());
    let commitment = first["shuffle"]["commitment"].as_str().unwrap().to_string();
    assert_eq!(commitment.len(), 64);
    assert_eq!(
        first["shuffle"]["contributed"],
        json!([false, false, false])
    );
    // Refused, and nothing changes: a number for another shuffle, one not in hex, then the right one twice.
    for (commitment, value) in [
        ("0".repeat(64), "ab".repeat(16)),
        (commitment.clone(), "AB".repeat(16)),
    ] {
        client
            .send(json!({ "type": "contribute", "commitment": commitment, "value": value }))
            .await;
        let error = client.next_of("error").await;
        assert_eq!(error["code"], "contribution-refused", "{error}");
    }
    client.send(json!({ "type": "resync" })).await;
    assert_eq!(client.next_of("view").await["status"], "waiting");
    let mine = "5a".repeat(16);
    client
        .send(json!({ "type": "contribute", "commitment": commitment, "value": mine }))
        .await;
    let dealt = client.next_of("view").await;
    assert_eq!(
        dealt["status"], "playing",
        "the deal came with the last person's number"
    );
    assert_ne!(
        dealt["shuffle"]["commitment"], commitment,
        "the next deal's shuffle is committed to at once"
    );
    client
        .send(json!({ "type": "contribute", "commitment": commitment, "value": mine }))
        .await;
    assert_eq!(
        client.next_of("error").await["code"],
        "contribution-refused",
        "a shuffle already dealt takes no number"
    );
    client.send(json!({ "type": "resync" })).await;
    let mut sent = play_adding_numbers(&mut client, &mut rng(3)).await;
    sent.insert(commitment.clone(), mine.clone());

    // Every deal's reveal: the secret committed to before, this seat's number, none from the computers,
    // and the seed they give is the one the deal was dealt from.
    let record = server.record(&me.table).await;
    let reveals: Vec<&Value> = client
        .received
        .iter()
        .filter(|f| f["type"] == "view" && !f["deal"]["reveal"].is_null())
        .map(|f| &f["deal"]["reveal"])
        .collect();
    assert!(reveals.len() >= 3, "three deals revealed");
    for reveal in &reveals {
        let shuffle = &reveal["shuffle"];
        let committed = shuffle["commitment"].as_str().unwrap();
        assert_eq!(sha256_hex(shuffle["secret"].as_str().unwrap()), committed);
        assert_eq!(
            shuffle["contributions"],
            json!([sent[committed], null, null]),
            "my number in every deal, none from the computers"
        );
        let numbers = vec![Some(sent[committed].clone()), None, None];
        let seed = chaikhana::table::seed_from(shuffle["secret"].as_str().unwrap(), &numbers);
        assert_eq!(reveal["seed"], format!("{seed:016x}"));
        assert!(record.deals.iter().any(|d| d.seed == seed));
    }
    assert!(check_deal_seal::<Ganjifa>(&record, &client.received) >= 3);
}

#[actix_rt::test]
async fn a_deal_whose_numbers_do_not_come_is_dealt_after_the_wait_without_them() {
    let server = TestServer::start(|s| s.shuffle_wait_ms = 300);
    let me = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&me).await;
    assert_eq!(client.next_of("view").await["status"], "waiting");
    let dealt = client.next_of("view").await;
    assert_eq!(dealt["status"], "playing");
    // The helper below starts from a view of its own (the player may be the one to guess first).
    client.send(json!({ "type": "resync" })).await;
    play_against_computer(&mut client, &mut rng(5)).await;
    let reveal = client
        .received
        .iter()
        .find(|f| !f["deal"]["reveal"].is_null())
        .map(|f| f["deal"]["reveal"].clone())
        .expect("a reveal");
    assert_eq!(reveal["shuffle"]["contributions"], json!([null, null]));
}

/// Plays Ganjifa matches among three friends until some deal had a talafa played face down; the
/// table's record and every seat's frames.
async fn ganjifa_with_face_down_talafas() -> (TableRecord, Vec<Client>, Vec<(usize, Vec<String>)>) {
    for seed in 0..40 {
        let server = TestServer::start(|_| {});
        let (table, mut clients) = seat_friends(&server, "ganjifa", 3, json!(3)).await;
        play_among_friends(&mut clients, &mut rng(seed)).await;
        let record = server.record(&table).await;
        let mut face_down = Vec::new();
        for (index, deal) in record.deals.iter().enumerate() {
            let (mut state, _) =
                Ganjifa::deal_in_order(&deal.setup, &mut chaikhana::cards::deal_rng(deal.seed));
            for (seat, json, _) in &deal.actions {
                let action = serde_json::from_value(json.clone()).unwrap();
                Ganjifa::apply(&mut state, *seat, &action).unwrap();
            }
            let concealed = Ganjifa::concealed_at_end(&state);
            if !concealed.is_empty() {
                face_down.push((index, concealed));
            }
        }
        if !face_down.is_empty() {
            return (record, clients, face_down);
        }
    }
    panic!("no talafa was played face down in 40 matches");
}

#[actix_rt::test]
async fn a_talafa_played_face_down_stays_out_of_every_other_seats_reveal() {
    let (record, clients, face_down) = ganjifa_with_face_down_talafas().await;
    let mut checked = 0;
    for (index, cards) in &face_down {
        let deal = &record.deals[*index];
        let (_, order) =
            Ganjifa::deal_in_order(&deal.setup, &mut chaikhana::cards::deal_rng(deal.seed));
        let places: Vec<&str> = order.cards().collect();
        for (viewer, client) in clients.iter().enumerate() {
            let ended = client
                .received
                .iter()
                .find(|f| {
                    f["type"] == "view"
                        && !f["deal"]["reveal"].is_null()
                        && f["version"].as_u64() > Some(deal.dealt_at)
                        && f["deal"]["commitment"].is_string()
                        && record
                            .deals
                            .get(index + 1)
                            .is_none_or(|next| f["version"].as_u64() < Some(next.dealt_at))
                })
                .expect("every seat was sent the deal's reveal");
            let reveal = &ended["deal"]["reveal"];
            let revealed = reveal.to_string();
            for card in cards {
                let place = places.iter().position(|c| c == card).unwrap();
                let holder = order.to[place];
                let own = serde_json::to_value(holder).unwrap() == json!(viewer);
                if own {
                    // Its holder learns its own card's place, as every other of its own.
                    assert_eq!(reveal["order"][place], *card);
                } else {
                    // Nobody else: no card, no holder, no salt; only the leaf that keeps it checkable.
                    assert!(reveal["order"][place].is_null(), "{revealed}");
                    assert!(reveal["to"][place].is_null());
                    assert!(
                        !revealed.contains(&format!("\"{card}\"")),
                        "{card} in {revealed}"
                    );
                    checked += 1;
                }
            }
            assert_eq!(
                commitment_of_reveal(reveal),
                ended["deal"]["commitment"].as_str().unwrap()
            );
        }
    }
    assert!(checked > 0);
}

/// Runs `verify.js`'s `DealCheck` in Node.js over `frames`, with `numbers` as the page's stored
/// numbers; the state and text the check ends with.
fn page_check(frames: &[Value], numbers: &HashMap<String, String>, seat_of_frames: u64) -> String {
    let dir = std::env::temp_dir().join(format!(
        "chaikhana-verify-{}-{seat_of_frames}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let verify = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web/static/verify.js");
    std::fs::copy(&verify, dir.join("verify.mjs")).unwrap();
    std::fs::write(
        dir.join("frames.json"),
        serde_json::to_string(frames).unwrap(),
    )
    .unwrap();
    let stored: HashMap<String, &String> = numbers
        .iter()
        .map(|(c, v)| (format!("chaikhana-shuffle:{c}"), v))
        .collect();
    std::fs::write(
        dir.join("numbers.json"),
        serde_json::to_string(&stored).unwrap(),
    )
    .unwrap();
    std::fs::write(
        dir.join("run.mjs"),
        r#"
import { readFileSync } from "node:fs";
import { DealCheck } from "./verify.mjs";
const frames = JSON.parse(readFileSync(new URL("./frames.json", import.meta.url)));
const numbers = JSON.parse(readFileSync(new URL("./numbers.json", import.meta.url)));
const store = { getItem: (k) => numbers[k] ?? null, setItem: () => {} };
const mark = { textContent: "", title: "", dataset: {}, hidden: true, append() {} };
const check = new DealCheck(mark, () => "en", () => true, store);
for (const frame of frames) await check.follow(frame);
console.log(`${mark.dataset.state}|${mark.textContent}|${mark.title}`);
"#,
    )
    .unwrap();
    let out = std::process::Command::new("node")
        .arg(dir.join("run.mjs"))
        .output()
        .expect("node runs");
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[actix_rt::test]
async fn the_pages_check_passes_on_a_real_deal_and_catches_forged_reveals() {
    if !have_program("node", "Node.js runs the page's own check") {
        return;
    }
    let server = TestServer::start(|s| s.shuffle_wait_ms = 600_000);
    let me = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&me).await;
    let sent = play_adding_numbers(&mut client, &mut rng(8)).await;
    let frames: Vec<Value> = client
        .received
        .iter()
        .filter(|f| f["type"] == "view")
        .cloned()
        .collect();
    // The first deal, from its waiting frame to its reveal.
    let end = frames
        .iter()
        .position(|f| !f["deal"]["reveal"].is_null())
        .expect("a reveal");
    let deal = &frames[..=end];
    let passed = page_check(deal, &sent, 0);
    assert!(
        passed.starts_with("fair|✓ Fair deal: shuffled with your number"),
        "{passed}"
    );
    assert!(passed.contains("nobody could choose it alone"), "{passed}");

    // A table that changed its secret after committing to it: caught.
    let mut forged = deal.to_vec();
    let other_secret = "77".repeat(32);
    let reveal = &mut forged[end]["deal"]["reveal"];
    reveal["shuffle"]["secret"] = json!(other_secret);
    reveal["shuffle"]["commitment"] = json!(sha256_hex(&other_secret));
    let caught = page_check(&forged, &sent, 0);
    assert!(
        caught.starts_with("failed|✗ Deal check FAILED: the table's secret"),
        "{caught}"
    );

    // A secret that is not the committed one's preimage: caught.
    let mut forged = deal.to_vec();
    forged[end]["deal"]["reveal"]["shuffle"]["secret"] = json!("88".repeat(32));
    assert!(page_check(&forged, &sent, 0).starts_with("failed|"));

    // A seed not worked out from the numbers: caught.
    let mut forged = deal.to_vec();
    forged[end]["deal"]["reveal"]["seed"] = json!("0123456789abcdef");
    let caught = page_check(&forged, &sent, 0);
    assert!(caught.contains("seed"), "{caught}");

    // Another number in this seat's place: caught.
    let mut forged = deal.to_vec();
    forged[end]["deal"]["reveal"]["shuffle"]["contributions"][0] = json!("99".repeat(16));
    assert!(page_check(&forged, &sent, 0).starts_with("failed|"));

    // Two cards swapped in the revealed order: caught by the commitment.
    let mut forged = deal.to_vec();
    let order = &mut forged[end]["deal"]["reveal"]["order"];
    let (a, b) = (order[0].clone(), order[1].clone());
    order[0] = b;
    order[1] = a;
    let caught = page_check(&forged, &sent, 0);
    assert!(caught.contains("does not match the commitment"), "{caught}");
}
