//! Fair deals over real WebSockets: the table commits to its own order before any number comes; a deal
//! waits for the numbers of the people seated and is their shuffle of that order (a computer gives
//! none); the reveal holds the numbers and no seed or secret; and the page's own check (`verify.js`,
//! run in Node.js) agrees with the server on the shared vectors, passes honest deals of the three
//! games from every seat and a watcher, and gives the right words to forged ones.

use std::collections::HashMap;

use serde_json::{json, Value};

use crate::support::*;
use chaikhana::game::Game;
use chaikhana::games::{ganjifa::Ganjifa, panjpar::Panjpar, pishe_pasha::PishePasha};

/// A fresh number for a shuffle, as a page draws one.
fn number(rng: &mut Rng) -> String {
    use rand::Rng as _;
    format!("{:032x}", rng.gen::<u128>())
}

/// Sends this seat's number when `view` shows a coming deal it has not answered; keeps it in `sent`.
async fn answer(
    client: &mut Client,
    view: &Value,
    sent: &mut HashMap<String, String>,
    rng: &mut Rng,
) {
    let (Some(seat), Some(commitment)) = (
        view["seat"].as_u64(),
        view["shuffle"]["commitment"].as_str(),
    ) else {
        return;
    };
    if view["shuffle"]["contributed"][seat as usize] == false && !sent.contains_key(commitment) {
        let value = number(rng);
        client
            .send(json!({ "type": "contribute", "commitment": commitment, "value": value }))
            .await;
        sent.insert(commitment.to_string(), value);
    }
}

/// Plays a match against the computer as a page does, adding a number to every coming deal. The
/// numbers it sent, by the commitment they answered.
async fn play_adding_numbers(client: &mut Client, rng: &mut Rng) -> HashMap<String, String> {
    let mut sent = HashMap::new();
    loop {
        let view = client.next_of("view").await;
        let version = view["version"].as_u64().unwrap();
        answer(client, &view, &mut sent, rng).await;
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
    // Refused, and nothing changes: a number for another shuffle, one not in hex.
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
    assert_eq!(
        dealt["deal"]["commitment"],
        commitment.as_str(),
        "the deal is the one committed to"
    );
    assert_ne!(
        dealt["shuffle"]["commitment"],
        commitment.as_str(),
        "the next deal is committed to at once"
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

    // Every deal's reveal: this seat's number, none from the computers, and no seed or secret.
    let record = server.record(&me.table).await;
    let ended: Vec<&Value> = client
        .received
        .iter()
        .filter(|f| f["type"] == "view" && !f["deal"]["reveal"].is_null())
        .collect();
    assert!(ended.len() >= 3, "three deals revealed");
    for frame in &ended {
        let reveal = &frame["deal"]["reveal"];
        let committed = frame["deal"]["commitment"].as_str().unwrap();
        assert_eq!(
            reveal["numbers"][0],
            sent[committed].as_str(),
            "this seat's number"
        );
        assert_eq!(reveal["numbers"][1], Value::Null, "a computer gives none");
        assert!(reveal.get("seed").is_none() && reveal.get("secret").is_none());
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

/// Runs `verify.js` in Node.js: `script` is the body of a module that has `verify` (the module),
/// `check(frames, kept, lang)` and `vectors` at hand; what it prints. The page's shared modules it
/// needs are copied beside it, with each game's hooks (`{game}-hooks.js`, from the catalog), which
/// say what a view of that game shows.
fn node(script: &str, inputs: &[(&str, String)]) -> String {
    let dir = std::env::temp_dir().join(format!(
        "chaikhana-verify-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        "verify.js",
        "verify-words.js",
        "board.js",
        "cards.js",
        "gcards.js",
    ] {
        std::fs::copy(root.join("src/web/static").join(file), dir.join(file)).unwrap();
    }
    for game in chaikhana::catalog::GAMES {
        let hooks = format!("{}-hooks.js", game.name());
        let file = game.pages().static_file(&hooks).expect("the game's hooks");
        std::fs::write(dir.join(&hooks), file.text).unwrap();
    }
    std::fs::copy(
        root.join("tests/fixtures/fair-vectors.json"),
        dir.join("vectors.json"),
    )
    .unwrap();
    std::fs::write(dir.join("package.json"), r#"{"type":"module"}"#).unwrap();
    for (name, text) in inputs {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let prelude = r#"
import { readFileSync } from "node:fs";
import * as verify from "./verify.js";
import { useBoard } from "./board.js";
const read = (name) => JSON.parse(readFileSync(new URL(`./${name}`, import.meta.url)));
const vectors = read("vectors.json");
/** The line a page shows after following `frames`, its browser storage holding `kept`. */
async function check(frames, kept, lang = "en") {
  const store = { getItem: (k) => (k in kept ? kept[k] : null), setItem: (k, v) => { kept[k] = v; } };
  const mark = { textContent: "", title: "", dataset: {}, hidden: true, append() {} };
  const page = new verify.DealCheck(mark, () => lang, () => true, store);
  // The table page takes its game's hooks with its board.
  const game = frames.find((f) => f.game)?.game;
  if (game) useBoard(await import(`./${game}-hooks.js`));
  for (const frame of frames) await page.follow(frame);
  return `${mark.dataset.state}|${mark.textContent}|${mark.title}`;
}
"#;
    std::fs::write(dir.join("run.js"), format!("{prelude}\n{script}")).unwrap();
    let out = std::process::Command::new("node")
        .arg(dir.join("run.js"))
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

/// What a page keeps in the browser for `table` and `seat` after answering with `numbers`.
fn kept(table: &str, seat: u64, numbers: &HashMap<String, String>, extra: Value) -> String {
    let mut data =
        json!({ "answered": numbers, "pending": null, "inPlay": null, "seen": {}, "start": null });
    for (k, v) in extra.as_object().unwrap() {
        data[k] = v.clone();
    }
    json!({ format!("chaikhana-fair:{table}:{seat}"): data.to_string() }).to_string()
}

/// The page's line after following `frames` with `store` as its browser storage.
fn page_line(frames: &[Value], store: String, lang: &str) -> String {
    node(
        &format!(r#"console.log(await check(read("frames.json"), read("store.json"), "{lang}"));"#),
        &[
            ("frames.json", serde_json::to_string(frames).unwrap()),
            ("store.json", store),
        ],
    )
}

#[test]
fn the_page_and_the_server_shuffle_alike_on_the_shared_vectors() {
    if !have_program("node", "Node.js runs the page's own shuffle") {
        return;
    }
    let out = node(
        r#"
let ok = 0;
for (const v of vectors.streams) {
  const s = await verify.Stream.of(v.key_text);
  for (const w of v.words) if ((await s.word()) !== w) throw new Error(`word of ${v.key_text}`);
  ok += 1;
}
for (const v of vectors.shuffles) {
  const s = await verify.playersStream(v.commitment, v.numbers);
  for (const round of v.rounds) if (JSON.stringify(await s.shuffle(v.n)) !== JSON.stringify(round)) throw new Error("shuffle");
  ok += 1;
}
console.log(ok);
"#,
        &[],
    );
    assert_eq!(out, "6");
}

/// The view frames of `client` from the start up to the first reveal.
fn first_deal(client: &Client) -> Vec<Value> {
    let views: Vec<Value> = client
        .received
        .iter()
        .filter(|f| f["type"] == "view")
        .cloned()
        .collect();
    let end = views
        .iter()
        .position(|f| !f["deal"]["reveal"].is_null())
        .expect("a reveal");
    views[..=end].to_vec()
}

#[actix_rt::test]
async fn the_pages_check_gives_the_right_words_to_honest_and_forged_deals() {
    if !have_program("node", "Node.js runs the page's own check") {
        return;
    }
    let server = TestServer::start(|s| s.shuffle_wait_ms = 600_000);
    let me = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&me).await;
    let sent = play_adding_numbers(&mut client, &mut rng(8)).await;
    let deal = first_deal(&client);
    let end = deal.len() - 1;
    let table = me.table.as_str();
    let honest = page_line(&deal, kept(table, 0, &sent, json!({})), "en");
    assert!(
        honest.starts_with("fair|✓ Fair deal: shuffled with your number"),
        "{honest}"
    );
    let persian = page_line(&deal, kept(table, 0, &sent, json!({})), "fa");
    assert!(persian.starts_with("fair|✓ دست منصفانه"), "{persian}");

    // A chosen order: the first hand the page was shown holds a card the shuffle put in the pile.
    let reveal = &deal[end]["deal"]["reveal"];
    let numbers: Vec<Option<String>> = serde_json::from_value(reveal["numbers"].clone()).unwrap();
    let commitment = deal[end]["deal"]["commitment"].as_str().unwrap();
    let dealt = chaikhana::table::mix::Stream::new(chaikhana::table::mix::players_key(
        commitment, &numbers,
    ))
    .shuffle(52);
    let pile_card = (0..52)
        .find(|&j| reveal["to"][j] == "pile")
        .map(|j| reveal["cards"][dealt[j]].as_str().unwrap().to_string())
        .unwrap();
    let mut chosen = deal.clone();
    for frame in chosen.iter_mut().take(end) {
        if let Some(hand) = frame["view"]["hand"].as_array_mut() {
            if !hand.is_empty() {
                hand[0] = json!(pile_card);
            }
        }
    }
    let caught = page_line(&chosen, kept(table, 0, &sent, json!({})), "en");
    assert!(caught.starts_with("failed|✗ Deal check FAILED"), "{caught}");

    // Two places swapped in the reveal: they no longer hash to the commitment.
    let mut swapped = deal.clone();
    let cards = &mut swapped[end]["deal"]["reveal"]["cards"];
    let (a, b) = (cards[0].clone(), cards[1].clone());
    cards[0] = b;
    cards[1] = a;
    let caught = page_line(&swapped, kept(table, 0, &sent, json!({})), "en");
    assert!(caught.contains("do not hash to the commitment"), "{caught}");

    // The commitment swapped after the numbers: the page answered another one than the deal came with.
    let other = "ab".repeat(32);
    let mut answered_other = HashMap::new();
    answered_other.insert(other.clone(), "12".repeat(16));
    let mut before_swap = deal.clone();
    for frame in before_swap.iter_mut() {
        if frame["status"] == "waiting" {
            frame["shuffle"]["commitment"] = json!(other);
        }
    }
    let store = kept(table, 0, &answered_other, json!({ "pending": other }));
    let line = page_line(&before_swap, store.clone(), "en");
    assert!(
        line.starts_with("missing|✗ Not shuffled with your number"),
        "{line}"
    );
    assert!(line.contains("another commitment"), "{line}");
    // The same page reconnecting after the swap (mid-deal, its number kept in the browser): the same.
    let reconnected: Vec<Value> = deal[end.min(3)..].to_vec();
    let line = page_line(&reconnected, store, "en");
    assert!(line.starts_with("missing|"), "{line}");

    // A page that joined after the shuffle: its own storage knows no number for this deal.
    let line = page_line(
        &reconnected,
        kept(table, 0, &HashMap::new(), json!({})),
        "en",
    );
    assert!(
        line.starts_with("joined|This page joined after the shuffle"),
        "{line}"
    );

    // A deal this page saw begin, never revealed, replaced by another (as after a restart).
    let left = json!({ "inPlay": { "commitment": "cd".repeat(32), "revealed": false } });
    let line = page_line(&deal, kept(table, 0, &sent, left), "en");
    assert!(line.starts_with("replaced|✗ A deal was replaced"), "{line}");
}

#[actix_rt::test]
async fn a_number_that_never_arrived_is_not_a_fair_deal_for_its_page() {
    if !have_program("node", "Node.js runs the page's own check") {
        return;
    }
    // The page drew its number and kept it, but the table never got it: the deal went without it.
    let server = TestServer::start(|s| s.shuffle_wait_ms = 200);
    let me = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&me).await;
    let waiting = client.next_of("view").await;
    let commitment = waiting["shuffle"]["commitment"]
        .as_str()
        .unwrap()
        .to_string();
    client.next_of("view").await;
    client.send(json!({ "type": "resync" })).await;
    play_against_computer(&mut client, &mut rng(9)).await;
    let mut lost = HashMap::new();
    lost.insert(commitment.clone(), "34".repeat(16));
    let frames: Vec<Value> = first_deal(&client)
        .into_iter()
        .map(|mut f| {
            // As the page saw it: its number sent, so the coming deal showed it in.
            if f["status"] == "waiting" {
                f["shuffle"]["contributed"][0] = json!(true);
            }
            f
        })
        .collect();
    let line = page_line(
        &frames,
        kept(&me.table, 0, &lost, json!({ "pending": commitment })),
        "en",
    );
    assert!(
        line.starts_with("missing|✗ Not shuffled with your number"),
        "{line}"
    );
    assert!(line.contains("not among this deal's numbers"), "{line}");
}

/// Seats friends at a `G` table with a watcher, every seat adding its numbers, and plays to the end of
/// the first deal; each seat's numbers, the seats' and the watcher's sockets, and the table.
async fn friends_first_deal<G: Game>(
    length: Value,
    seed: u64,
) -> (String, Vec<Client>, Vec<HashMap<String, String>>, Client) {
    let server = TestServer::start(|s| s.shuffle_wait_ms = 600_000);
    let host = server.open(G::NAME, "friends", Some(length)).await;
    let watch = server.watch_id(&host).await;
    let mut clients = vec![server.connect(&host).await];
    for _ in 1..G::SEATS {
        let (status, answer) = server.join(&host.table).await;
        assert_eq!(status, 201, "{answer}");
        clients.push(
            server
                .connect(&Seated::from_answer(&host.table, &answer))
                .await,
        );
    }
    let mut watcher = Client::watch(&server.base, &watch).await.unwrap();
    let mut rng = rng(seed);
    let mut sent = vec![HashMap::new(); G::SEATS];
    // Each seat answers the first deal's commitment; the deal comes with the last number.
    for (seat, client) in clients.iter_mut().enumerate() {
        let view = loop {
            let view = client.next_of("view").await;
            if view["shuffle"]["commitment"].is_string() {
                break view;
            }
        };
        answer(client, &view, &mut sent[seat], &mut rng).await;
    }
    let mut views = Vec::new();
    for client in clients.iter_mut() {
        views.push(loop {
            let view = client.next_of("view").await;
            if view["status"] == "playing" {
                break view;
            }
        });
    }
    let mut target = views[0]["version"].as_u64().unwrap();
    while views[0]["status"] == "playing" {
        let acting: Vec<usize> = (0..clients.len())
            .filter(|i| !views[*i]["actions"].as_array().unwrap().is_empty())
            .collect();
        assert_eq!(acting.len(), 1, "exactly one seat acts");
        let chosen = choose(&views[acting[0]], &mut rng);
        clients[acting[0]].send(action(target, "x", &chosen)).await;
        target += 1;
        views.clear();
        for (seat, client) in clients.iter_mut().enumerate() {
            let view = loop {
                let view = client.next_of("view").await;
                if view["version"].as_u64().unwrap() >= target {
                    break view;
                }
            };
            answer(client, &view, &mut sent[seat], &mut rng).await;
            views.push(view);
        }
    }
    loop {
        let frame = watcher.next_of("view").await;
        if !frame["deal"]["reveal"].is_null() {
            break;
        }
    }
    (host.table, clients, sent, watcher)
}

async fn honest_friends_deal_checks_from_every_seat_and_a_watcher<G: Game>(
    length: Value,
    seed: u64,
) {
    let (table, clients, sent, watcher) = friends_first_deal::<G>(length, seed).await;
    for (seat, client) in clients.iter().enumerate() {
        let line = page_line(
            &first_deal(client),
            kept(&table, seat as u64, &sent[seat], json!({})),
            "en",
        );
        assert!(
            line.starts_with("fair|✓ Fair deal"),
            "{} seat {seat}: {line}",
            G::NAME
        );
    }
    let line = page_line(&first_deal(&watcher), "{}".into(), "en");
    assert!(
        line.starts_with("watched|✓ Watched deal checked"),
        "{} watcher: {line}",
        G::NAME
    );
}

#[actix_rt::test]
async fn an_honest_panjpar_deal_checks_from_every_seat_and_a_watcher() {
    if have_program("node", "Node.js runs the page's own check") {
        honest_friends_deal_checks_from_every_seat_and_a_watcher::<Panjpar>(json!(1), 21).await;
    }
}

#[actix_rt::test]
async fn an_honest_pishe_pasha_deal_checks_from_every_seat_and_a_watcher() {
    if have_program("node", "Node.js runs the page's own check") {
        honest_friends_deal_checks_from_every_seat_and_a_watcher::<PishePasha>(
            json!("one-deal"),
            22,
        )
        .await;
    }
}

#[actix_rt::test]
async fn an_honest_ganjifa_deal_checks_from_every_seat_and_a_watcher() {
    if have_program("node", "Node.js runs the page's own check") {
        honest_friends_deal_checks_from_every_seat_and_a_watcher::<Ganjifa>(json!(3), 23).await;
    }
}
