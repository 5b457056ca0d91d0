//! What the coach keeps and what it allows, over the wire: an analysis kept with its deal comes back
//! exactly, every digit of its values, and a hint heard stays counted, after the server is killed
//! where it stands; a seat that floods the coach with
//! frames is refused past its allowance like any flood, the hint counted once; and at a friends table
//! whose host offered hints, a friend takes a seat only by agreeing to them, any seat may ask at its
//! turn, and everyone, watchers too, sees every seat's count.

use serde_json::{json, Value};

use crate::support::restarts::{Alone, Stop};
use crate::support::*;

/// The next `kind` frame or error.
async fn answer(client: &mut Client, kind: &str) -> Value {
    loop {
        let frame = client.next().await.expect("the table answers");
        if frame["type"] == kind || frame["type"] == "error" {
            return frame;
        }
    }
}

#[actix_rt::test]
async fn what_the_coach_said_comes_back_digit_for_digit_after_the_server_is_killed() {
    let mut alone = Alone::start(&[("CHAIKHANA_STRONG_BUDGET_MS", "5")]).await;
    let body = json!({"game": "panjpar", "opponents": "computer", "length": 1});
    let (base, body) = (alone.base(), body.to_string());
    let open = || async {
        let (status, opened) = post(&base, "/api/tables", &body).await;
        assert_eq!(status, 201, "{opened}");
        Seated::from_answer(opened["table"].as_str().unwrap(), &opened)
    };
    let hinted = open().await;

    // A hint heard at one table...
    let mut client = Client::connect(&alone.base(), &hinted.table, &hinted.token)
        .await
        .unwrap();
    let turn = loop {
        let view = client.next_of("view").await;
        if !view["actions"].as_array().unwrap().is_empty() {
            break view;
        }
    };
    client
        .send(json!({"type": "hint", "version": turn["version"]}))
        .await;
    let hint = answer(&mut client, "hint").await;
    assert_eq!(hint["type"], "hint", "{hint}");
    drop(client);

    // ...and an analysis heard at another, of a deal with marks to keep. The computer's play
    // depends on the time it is given, so a random player's deal may hold no mistake: another
    // table is opened until one does.
    let (seated, first) = 'marked: {
        for seed in 57..67 {
            let seated = open().await;
            let mut client = Client::connect(&alone.base(), &seated.table, &seated.token)
                .await
                .unwrap();
            play_against_computer(&mut client, &mut rng(seed)).await;
            client.send(json!({"type": "analyse"})).await;
            let first = answer(&mut client, "analysis").await;
            assert_eq!(first["type"], "analysis", "{first}");
            let values: Vec<f64> = first["marks"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|m| [m["made_value"].as_f64(), m["best_value"].as_f64()])
                .map(Option::unwrap)
                .collect();
            if !values.is_empty() {
                break 'marked (seated, first);
            }
        }
        panic!("ten random players' deals against the computer held no mark");
    };

    // Killed where it stands: what was heard had been stored before it was said.
    alone.stop(Stop::Kill).await;
    alone.start_again().await;
    let mut client = Client::connect(&alone.base(), &seated.table, &seated.token)
        .await
        .unwrap();
    client.send(json!({"type": "analyse"})).await;
    let again = answer(&mut client, "analysis").await;
    assert_eq!(again.to_string(), first.to_string());
    let mut client = Client::connect(&alone.base(), &hinted.table, &hinted.token)
        .await
        .unwrap();
    let view = client.next_of("view").await;
    assert_eq!(view["hints_taken"][0], 1, "{view}");
    alone.stop(Stop::Term).await;
}

#[actix_rt::test]
async fn a_flood_of_coach_frames_is_refused_past_the_allowance_and_the_hint_counted_once() {
    let server = TestServer::start(|s| {
        s.rate_per_second = 5;
        s.rate_burst = 5;
        s.strong_budget_ms = 5;
    });
    let seated = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&seated).await;
    let view = loop {
        let view = client.next_of("view").await;
        if !view["actions"].as_array().unwrap().is_empty() {
            break view;
        }
    };
    for _ in 0..12 {
        client
            .send(json!({"type": "hint", "version": view["version"]}))
            .await;
    }
    // The first frames pass (a hint asked again while it is thought waits for the same answer);
    // the rest are refused.
    let (mut hints, mut limited) = (0, 0);
    while hints == 0 || limited < 6 {
        let frame = answer(&mut client, "hint").await;
        match frame["type"].as_str() {
            Some("hint") => hints += 1,
            _ if frame["code"] == "rate-limited" => limited += 1,
            _ => panic!("{frame}"),
        }
    }
    assert!(hints <= 5, "{hints} hints, {limited} refused");
    // Past the flood, the seat is heard again, and its hints were counted once.
    actix_rt::time::sleep(std::time::Duration::from_millis(1200)).await;
    client.send(json!({"type": "resync"})).await;
    let counted = client.next_of("view").await;
    assert_eq!(counted["hints_taken"][0], 1, "{counted}");
}

#[actix_rt::test]
async fn hints_among_friends_are_agreed_before_the_seat_and_counted_for_everyone() {
    let server = TestServer::start(|s| s.strong_budget_ms = 5);
    // Only among friends: a computer table always offers them.
    let (status, refused) = server
        .post(
            "/api/tables",
            &json!({"game": "panjpar", "opponents": "computer", "hints": true}).to_string(),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    let body = json!({"game": "panjpar", "opponents": "friends", "length": 1, "hints": true});
    let (status, opened) = server.post("/api/tables", &body.to_string()).await;
    assert_eq!(status, 201, "{opened}");
    let host = Seated::from_answer(opened["table"].as_str().unwrap(), &opened);
    let join = format!("/api/tables/{}/join", host.table);
    // Without the agreement, or with a body that is not one, no seat is given.
    for body in [
        "",
        r#"{"hints": false}"#,
        r#"{"hints": "yes"}"#,
        r#"{"agree": true}"#,
    ] {
        let (status, refused) = server.post(&join, body).await;
        let code = if body.is_empty() || body.contains("false") {
            (428, "hints-to-agree")
        } else {
            (400, "bad-request")
        };
        assert_eq!(
            (status, refused["code"].as_str().unwrap()),
            code,
            "{body}: {refused}"
        );
    }
    let (status, seated) = server.post(&join, r#"{"hints": true}"#).await;
    assert_eq!(status, 201, "{seated}");
    assert_eq!(
        seated["seat"], 1,
        "the seat refused before is the one given"
    );
    let guest = Seated::from_answer(&host.table, &seated);
    let mut seats = [server.connect(&host).await, server.connect(&guest).await];
    let mut watcher = Client::watch(&server.base, &server.watch_id(&host).await)
        .await
        .unwrap();

    // Whoever's turn it is asks; the count is every seat's, in every view.
    let (mover, version) = loop {
        let views = [
            seats[0].next_of("view").await,
            seats[1].next_of("view").await,
        ];
        if let Some(at) = views
            .iter()
            .position(|v| !v["actions"].as_array().unwrap().is_empty())
        {
            assert_eq!(views[at]["hints_taken"], json!([0, 0]), "{}", views[at]);
            break (at, views[at]["version"].clone());
        }
    };
    seats[mover]
        .send(json!({"type": "hint", "version": version}))
        .await;
    let hint = answer(&mut seats[mover], "hint").await;
    assert_eq!(hint["type"], "hint", "{hint}");
    let mut taken = json!([0, 0]);
    taken[mover] = json!(1);
    for client in seats.iter_mut().chain([&mut watcher]) {
        client.send(json!({"type": "resync"})).await;
        let view = loop {
            let view = client.next_of("view").await;
            if view["hints_taken"] == taken {
                break view;
            }
        };
        assert_eq!(view["hints_taken"], taken);
    }
}
