//! The page's deal check in Node.js: it shuffles as the server does on the shared vectors, gives the
//! right words to an honest deal and to a chosen order, a swapped reveal, a page that joined late or a
//! deal replaced; forged frame sequences never end green; honest Ganjifa deals with hidden cards are
//! never failed.

use std::collections::HashMap;

use serde_json::{json, Value};

use super::{first_deal, from_env, have_node, node, page_line, play_adding_numbers};
use crate::support::*;

#[test]
fn the_page_and_the_server_shuffle_alike_on_the_shared_vectors() {
    if !have_node("shuffle") {
        return;
    }
    let out = node(
        r#"
let ok = 0;
for (const v of vectors.streams) {
  const s = await reveal.Stream.of(v.key_text);
  for (const w of v.words) if ((await s.word()) !== w) throw new Error(`word of ${v.key_text}`);
  ok += 1;
}
for (const v of vectors.shuffles) {
  const s = await reveal.playersStream(v.commitment, v.numbers);
  for (const round of v.rounds) if (JSON.stringify(await s.shuffle(v.n)) !== JSON.stringify(round)) throw new Error("shuffle");
  ok += 1;
}
console.log(ok);
"#,
        &[],
    );
    assert_eq!(out, "6");
}

#[actix_rt::test]
async fn the_pages_check_gives_the_right_words_to_honest_and_forged_deals() {
    if !have_node("check") {
        return;
    }
    let server = TestServer::start(|s| s.shuffle_wait_ms = 600_000);
    let me = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&me).await;
    let page = play_adding_numbers(&mut client, &mut rng(8)).await;
    let deal = first_deal(&client);
    let end = deal.len() - 1;
    let kept = || page.kept("page", json!({}));
    let honest = page_line(&deal, kept(), "en", false);
    assert!(
        honest.starts_with("fair|✓ Fair deal: shuffled with your number"),
        "{honest}"
    );
    let persian = page_line(&deal, kept(), "fa", false);
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
    let caught = page_line(&chosen, kept(), "en", false);
    assert!(caught.starts_with("failed|✗ Deal check FAILED"), "{caught}");

    // Two places swapped in the reveal: they no longer hash to the commitment.
    let mut swapped = deal.clone();
    let cards = &mut swapped[end]["deal"]["reveal"]["cards"];
    let (a, b) = (cards[0].clone(), cards[1].clone());
    cards[0] = b;
    cards[1] = a;
    let caught = page_line(&swapped, kept(), "en", false);
    assert!(caught.contains("do not hash to the commitment"), "{caught}");

    // A page that joined after the shuffle: its own storage knows no number for this deal.
    let reconnected: Vec<Value> = deal[end.min(3)..].to_vec();
    let line = page_line(&reconnected, "{}".into(), "en", false);
    assert!(
        line.starts_with("joined|This page joined after the shuffle"),
        "{line}"
    );

    // A deal this page saw begin, never revealed, replaced by another (as after a restart).
    let left = json!({ "inPlay": { "commitment": "cd".repeat(32), "revealed": false } });
    let line = page_line(&deal, page.kept("page", left), "en", false);
    assert!(line.starts_with("replaced|✗ A deal was replaced"), "{line}");
}

#[test]
fn forged_frame_sequences_never_end_green() {
    // Whole forged sequences from a dishonest table (tests/it/fair_forgeries): asking twice, numbers
    // chosen after this page's, rounds, reused commitments, gaps, other table ids, seatless frames,
    // malformed reveals; each must end in the state the scheme gives it, and honest runs green.
    if !have_node("check") {
        return;
    }
    let out = node(
        r#"
const { runAll } = await import("./forgeries.js");
for (const line of await runAll()) console.log(line);
"#,
        &[],
    );
    let wrong: Vec<&str> = out.lines().filter(|l| !l.starts_with("ok ")).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(out.lines().count() >= 30, "{out}");
}

#[test]
fn honest_ganjifa_deals_with_hidden_cards_are_never_failed() {
    // Honest Ganjifa deals (void rounds among them) judged from every seat, cards of the other seats
    // hidden from each reveal as face-down talafas hide them: never FAILED, and green but where a
    // reshuffle could not be judged. `CHAIKHANA_FAIR_DEALS` sets how many (default 200).
    if !have_node("check") {
        return;
    }
    let deals: usize = from_env("CHAIKHANA_FAIR_DEALS", 200);
    let out = node(
        &format!(
            r#"
const {{ honestGanjifa }} = await import("./forgeries.js");
console.log(JSON.stringify(await honestGanjifa({deals})));
"#
        ),
        &[],
    );
    let states: HashMap<String, usize> = serde_json::from_str(&out).unwrap();
    eprintln!("{deals} honest Ganjifa deals, every seat: {states:?}");
    assert_eq!(states.values().sum::<usize>(), deals * 3);
    assert_eq!(states.get("failed"), None, "{states:?}");
    assert!(
        states.keys().all(|k| k == "fair" || k == "partly"),
        "{states:?}"
    );
}
