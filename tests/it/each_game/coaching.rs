//! The coach at a table of any game, over the wire: a hint at the seat's turn is one of its actions;
//! a deal in play cannot be analysed, nor can a watcher analyse a seat's decisions; the seat's
//! analysis of the finished deal marks only its own decisions, comes to the seat alone, and asked
//! again is answered from the deal's record with no more thinking. A game without a coach refuses
//! both with `no-hints`.

use chaikhana_rules::game::{Reason, Why};
use serde_json::{json, Value};

use crate::support::leaks::Tested;
use crate::support::*;

/// How many studies of `kind` the coach has thought for `game`, read from `/metrics`.
async fn studies(server: &TestServer, game: &str, kind: &str) -> u64 {
    let (_, text) = server.get("/metrics").await;
    let series = format!("chaikhana_coach_studies_total{{game=\"{game}\",kind=\"{kind}\"}} ");
    text.lines()
        .find_map(|line| line.strip_prefix(&series))
        .map_or(0, |n| n.trim().parse().unwrap())
}

/// The next frame of `kind` or an `error`, passing over the views and seats between.
async fn answer(client: &mut Client, kind: &str) -> Value {
    loop {
        let frame = client
            .next()
            .await
            .unwrap_or_else(|| panic!("the table answers a {kind}"));
        if frame["type"] == kind || frame["type"] == "error" {
            return frame;
        }
    }
}

pub async fn analysed_once_for_its_seat<G: Tested>() {
    let server = TestServer::start(|s| {
        s.bot_delay_ms = 1;
        s.strong_budget_ms = 5;
    });
    let coached = G::coach().is_some();
    let seated = server.open(G::NAME, "computer", Some(G::short())).await;
    let mut client = server.connect(&seated).await;

    // At the seat's first turn: a deal in play is not analysed; a hint is one of the seat's moves.
    let view = loop {
        let view = client.next_of("view").await;
        if !view["actions"].as_array().unwrap().is_empty() {
            break view;
        }
    };
    client.send(json!({"type": "analyse", "deal": 0})).await;
    let refused = answer(&mut client, "analysis").await;
    assert_eq!(refused["code"], "deal-in-play", "{}: {refused}", G::NAME);
    if coached {
        // Refused in the words of an analysis, and a malformed ask is malformed, the field named.
        assert!(
            refused["message"].as_str().unwrap().contains("analysed"),
            "{refused}"
        );
        client.send(json!({"type": "analyse", "deal": 99})).await;
        let refused = answer(&mut client, "analysis").await;
        assert_eq!(refused["code"], "no-such-deal", "{refused}");
        assert!(
            refused["message"].as_str().unwrap().contains("analyse"),
            "{refused}"
        );
        client.send(json!({"type": "analyse", "deal": "0"})).await;
        let refused = answer(&mut client, "analysis").await;
        assert_eq!(refused["code"], "malformed", "{refused}");
        assert!(
            refused["message"].as_str().unwrap().contains("`deal`"),
            "{refused}"
        );
    }
    client
        .send(json!({"type": "hint", "version": view["version"]}))
        .await;
    let hint = answer(&mut client, "hint").await;
    if coached {
        assert!(
            view["actions"]
                .as_array()
                .unwrap()
                .contains(&hint["action"]),
            "{}: {hint} among {}",
            G::NAME,
            view["actions"]
        );
        // The reason is a value the page words: a hint's own sentence, at the hint's value.
        let why: Why = serde_json::from_value(hint["why"].clone()).expect("a reason");
        match why.reason() {
            Some(Reason::Hint { value, best, .. }) => {
                assert_eq!(Some(*value), hint["value"].as_f64(), "{hint}");
                assert!(best["type"].is_string(), "{hint}");
            }
            Some(
                Reason::Only { .. }
                | Reason::Guess { .. }
                | Reason::SolvedHint { .. }
                | Reason::Unseen,
            ) => {}
            other => panic!("{}: a hint's reason {other:?}", G::NAME),
        }
        let counted = client.next_of("view").await;
        assert_eq!(counted["hints_taken"][0], 1, "{}: {counted}", G::NAME);
    } else {
        assert_eq!(hint["code"], "no-hints", "{}: {hint}", G::NAME);
    }
    client.send(json!({"type": "resync"})).await;
    play_against_computer(&mut client, &mut rng(21)).await;

    // A watcher may not; the seat may, once, and it alone hears of it.
    let mut watcher = Client::watch(&server.base, &server.watch_id(&seated).await)
        .await
        .unwrap();
    watcher.send(json!({"type": "analyse"})).await;
    let refused = answer(&mut watcher, "analysis").await;
    assert_eq!(
        refused["code"],
        "not-your-decisions",
        "{}: {refused}",
        G::NAME
    );
    client.send(json!({"type": "analyse"})).await;
    let analysis = answer(&mut client, "analysis").await;
    if !coached {
        assert_eq!(analysis["code"], "no-hints", "{}: {analysis}", G::NAME);
        return;
    }
    assert_eq!(analysis["type"], "analysis", "{}: {analysis}", G::NAME);
    let judged = analysis["judged"].as_u64().unwrap();
    assert!(judged > 0, "{}: {analysis}", G::NAME);
    let record = server.record(&seated.table).await;
    let deal = record.deals.last().unwrap();
    assert_eq!(analysis["deal"], record.deals.len() - 1);
    for mark in analysis["marks"].as_array().unwrap() {
        let step = mark["step"].as_u64().unwrap() as usize;
        assert_eq!(deal.actions[step].0.index(), 0, "{}: {mark}", G::NAME);
        assert!(
            mark["best_value"].as_f64() >= mark["made_value"].as_f64(),
            "{mark}"
        );
        // A mark's reason says what was better than the move made, at the mark's values.
        let why: Why = serde_json::from_value(mark["why"].clone()).expect("a reason");
        match why.reason() {
            Some(Reason::Better {
                best_value,
                made_value,
                best,
                made,
                ..
            }) => {
                assert_eq!(Some(*best_value), mark["best_value"].as_f64(), "{mark}");
                assert_eq!(Some(*made_value), mark["made_value"].as_f64(), "{mark}");
                assert!(
                    best["type"].is_string() && made["type"].is_string(),
                    "{mark}"
                );
            }
            Some(Reason::SolvedBetter {
                best_end, made_end, ..
            }) => {
                assert_ne!(best_end, made_end, "{mark}");
            }
            other => panic!("{}: a mark's reason {other:?}", G::NAME),
        }
    }
    let thought = studies(&server, G::NAME, "analysis").await;
    assert!(
        thought >= judged,
        "{}: {thought} studies for {judged}",
        G::NAME
    );

    // Asked again: the same analysis at once, thought no more.
    client.send(json!({"type": "analyse"})).await;
    let again = client.next_of("analysis").await;
    assert_eq!(again, analysis);
    assert_eq!(studies(&server, G::NAME, "analysis").await, thought);
    // The watcher heard nothing of it: no frame it was sent before the answer to its resync.
    watcher.send(json!({"type": "resync"})).await;
    loop {
        let frame = watcher.next().await.expect("the watcher's view");
        assert!(
            !["analysis", "analysing", "hint"].contains(&frame["type"].as_str().unwrap()),
            "{}: a watcher was sent {frame}",
            G::NAME
        );
        if frame["type"] == "view" {
            break;
        }
    }
}
