//! The computer's level at a computer table: chosen when the table is opened (standard by default),
//! shown in every frame, changeable for the next match, and refused in words when unknown.

use serde_json::{json, Value};

use crate::support::*;
use chaikhana_rules::games::panjpar::{view::visible_to, Panjpar};

fn server() -> TestServer {
    // The strong computer thinks for 2 ms a decision here, so that a match is quick.
    TestServer::start(|s| s.strong_budget_ms = 2)
}

async fn open(server: &TestServer, body: Value) -> (u16, Value) {
    server.post("/api/tables", &body.to_string()).await
}

#[actix_rt::test]
async fn a_strong_panjpar_match_shows_its_level_and_hides_the_truth() {
    let server = server();
    let body =
        json!({ "game": "panjpar", "opponents": "computer", "length": 1, "level": "strong" });
    let (status, answer) = open(&server, body).await;
    assert_eq!(status, 201, "{answer}");
    let seated = Seated::from_answer(answer["table"].as_str().unwrap(), &answer);
    let mut client = server.connect(&seated).await;
    play_against_computer(&mut client, &mut rng(3)).await;
    let views: Vec<&Value> = client
        .received
        .iter()
        .filter(|f| f["type"] == "view")
        .collect();
    assert!(views.iter().all(|v| v["level"] == "strong"));
    let record = server.record(&seated.table).await;
    assert_frames_hide_the_truth::<Panjpar>(
        &record,
        0,
        &client.received,
        |history, seat, frame| {
            let state = history.last()?;
            let leaked =
                crate::support::leaks::cards_in_json(frame).minus(visible_to(state, Some(seat)));
            (!leaked.is_empty()).then(|| format!("shown {leaked:?}"))
        },
    );

    // The next match may be against the standard computer; an unknown level is refused in words.
    let over = views.last().unwrap();
    let version = over["version"].as_u64().unwrap();
    client
        .send(json!({ "type": "rematch", "version": version, "level": "grandmaster" }))
        .await;
    let error = client.next_of("error").await;
    assert_eq!(error["code"], "bad-level");
    assert!(
        error["message"].as_str().unwrap().contains("\"strong\""),
        "{error}"
    );
    client
        .send(json!({ "type": "rematch", "version": version, "level": "standard" }))
        .await;
    let fresh = client.next_of("view").await;
    assert_eq!(fresh["level"], "standard");
    assert_eq!(fresh["status"], "playing");
}

#[actix_rt::test]
async fn every_game_opens_a_strong_table_and_standard_is_the_default() {
    let server = server();
    for game in ["panjpar", "pishe-pasha", "ganjifa"] {
        for (level, shown) in [
            (Some("strong"), "strong"),
            (Some("standard"), "standard"),
            (None, "standard"),
        ] {
            let mut body = json!({ "game": game, "opponents": "computer" });
            if let Some(level) = level {
                body["level"] = json!(level);
            }
            let (status, answer) = open(&server, body).await;
            assert_eq!(status, 201, "{game} {level:?}: {answer}");
            let seated = Seated::from_answer(answer["table"].as_str().unwrap(), &answer);
            let mut client = server.connect(&seated).await;
            let view = client.next_of("view").await;
            assert_eq!(view["level"], shown, "{game}");
        }
    }
    // A friends table has no computer, so no level.
    let seated = server.open("panjpar", "friends", None).await;
    let mut client = server.connect(&seated).await;
    assert_eq!(client.next_of("view").await["level"], Value::Null);
}

#[actix_rt::test]
async fn an_unknown_level_or_a_level_for_friends_is_a_clear_400() {
    let server = server();
    let cases = [
        (
            json!({ "game": "ganjifa", "opponents": "computer", "level": "grandmaster" }),
            "\"gentle\", \"standard\", \"clever\" or \"strong\"",
        ),
        (
            json!({ "game": "panjpar", "opponents": "computer", "level": 3 }),
            "Send JSON like",
        ),
        (
            json!({ "game": "panjpar", "opponents": "friends", "level": "strong" }),
            "only at a table against the computer",
        ),
    ];
    for (body, says) in cases {
        let (status, answer) = open(&server, body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["code"], "bad-request");
        assert!(
            answer["message"].as_str().unwrap().contains(says),
            "{answer}"
        );
    }
}
