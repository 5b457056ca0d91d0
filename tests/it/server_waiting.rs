//! Over real sockets: what a table does for a friend who does not come back (the seat offered to
//! someone else, the match ended, each refused until the seat has been away long enough), and "Your
//! games", the one request that lists the tables a browser holds seats at.

use serde_json::{json, Value};

use crate::support::*;

/// A friends Panjpar table of three deals with both seats taken: the host's and the guest's seats.
async fn friends(server: &TestServer) -> (Seated, Seated) {
    let host = server.open("panjpar", "friends", Some(json!(3))).await;
    let (status, answer) = server.join(&host.table).await;
    assert_eq!(status, 201, "{answer}");
    (host.clone(), Seated::from_answer(&host.table, &answer))
}

/// The next `seats` frame in which seat 1 is as `wanted` says.
async fn seats_until(client: &mut Client, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let seats = client.next_of("seats").await;
        if wanted(&seats["seats"][1]) {
            return seats;
        }
    }
}

#[actix_rt::test]
async fn an_away_seat_is_offered_to_whoever_opens_the_link_and_its_old_token_is_told_why() {
    let server = TestServer::start(|s| s.offer_seat_after_secs = 1);
    let (host, guest) = friends(&server).await;
    let mut mine = server.connect(&host).await;
    let theirs = server.connect(&guest).await;
    mine.next_of("view").await;
    // Too early: refused with a sentence, and nothing changes.
    mine.send(json!({"type": "offer-seat", "seat": 1})).await;
    let refused = mine.next_of("error").await;
    assert_eq!(refused["code"], "wrong-moment", "{refused}");
    theirs.close().await;
    seats_until(&mut mine, |seat| seat["connected"] == false).await;
    let offerable = seats_until(&mut mine, |seat| seat["offerable"] == true).await;
    assert_eq!(offerable["seats"][1]["who"], "person");
    // A watcher may not offer it.
    let watch = server.watch_id(&host).await;
    let mut watcher = Client::watch(&server.base, &watch).await.unwrap();
    watcher.next_of("view").await;
    watcher.send(json!({"type": "offer-seat", "seat": 1})).await;
    assert_eq!(
        watcher.next_of("error").await["code"],
        "watchers-cannot-act"
    );
    mine.send(json!({"type": "offer-seat", "seat": 1})).await;
    seats_until(&mut mine, |seat| seat["who"] == "free").await;
    // The old token is told why it no longer opens the seat, on the socket and over HTTP.
    let back = Client::connect(&server.base, &host.table, &guest.token)
        .await
        .err()
        .expect("the old token is refused");
    assert!(back.contains("seat-given-away"), "{back}");
    // Whoever opens the link now takes the seat, with its score.
    let (status, answer) = server.join(&host.table).await;
    assert_eq!((status, &answer["seat"]), (201, &json!(1)), "{answer}");
    let newcomer = Seated::from_answer(&host.table, &answer);
    let mut newcomer = server.connect(&newcomer).await;
    assert_eq!(newcomer.next_of("view").await["seat"], 1);
}

#[actix_rt::test]
async fn the_one_left_at_two_seats_may_end_the_match_and_the_link_then_says_so() {
    let server = TestServer::start(|s| s.offer_seat_after_secs = 1);
    let (host, guest) = friends(&server).await;
    let mut mine = server.connect(&host).await;
    let theirs = server.connect(&guest).await;
    mine.next_of("view").await;
    theirs.close().await;
    seats_until(&mut mine, |seat| seat["offerable"] == true).await;
    let version = mine.last_view()["version"].clone();
    mine.send(json!({"type": "end-match", "version": version}))
        .await;
    assert_eq!(mine.close_code().await, Some(4410));
    let (status, page) = server.get(&format!("/t/{}", host.table)).await;
    assert_eq!(status, 410, "{page}");
    let back = Client::connect(&server.base, &host.table, &guest.token)
        .await
        .err()
        .expect("the table has closed");
    assert!(back.contains("410"), "{back}");
}

#[actix_rt::test]
async fn your_games_lists_each_table_for_its_seat_in_one_request() {
    let server = TestServer::start(|_| {});
    let me = server.open("panjpar", "computer", None).await;
    let mut client = server.connect(&me).await;
    let played = play_against_computer_a_little(&mut client).await;
    let (host, _guest) = friends(&server).await;
    let other = server.open("ganjifa", "computer", None).await;
    let body = json!({"tables": [
        {"id": me.table, "token": me.token},
        {"id": host.table, "token": host.token},
        {"id": other.table, "token": me.token},
        {"id": "not-a-table", "token": me.token},
    ]});
    let (status, answer) = server.post("/api/tables/mine", &body.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    let tables = answer["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 4);
    let first = &tables[0];
    assert_eq!(
        (
            &first["open"],
            &first["game"],
            &first["kind"],
            &first["seat"]
        ),
        (
            &json!(true),
            &json!("panjpar"),
            &json!("computer"),
            &json!(0)
        ),
        "{first}"
    );
    // The computer may have moved since: the listing is never behind what the seat was shown.
    assert!(
        first["version"].as_u64() >= played.as_u64(),
        "{first} {played}"
    );
    assert!(first["last_move"].as_u64().unwrap() > 1_700_000_000_000);
    assert_eq!(first["seats"][1]["who"], "computer");
    assert_eq!(first["score"], json!([0, 0]));
    assert!(
        matches!(first["turn"].as_str(), Some("you" | "other")),
        "{first}"
    );
    assert_eq!(tables[1]["kind"], "friends");
    assert_eq!(tables[1]["seats"][1]["who"], "person");
    // Who is connected right now is not in a table's record: a listing does not guess it.
    assert_eq!(tables[1]["seats"][1].get("connected"), None);
    // A token that is not the table's, and a link that is not one, are said so and nothing more.
    assert_eq!(
        tables[2],
        json!({"id": other.table, "open": false, "reason": "wrong-token"})
    );
    assert_eq!(tables[3]["reason"], "unknown");
    assert!(
        !answer.to_string().contains(&me.token),
        "no token in the answer"
    );
    let many: Vec<Value> = (0..51)
        .map(|_| json!({"id": me.table, "token": me.token}))
        .collect();
    let (status, _) = server
        .post("/api/tables/mine", &json!({ "tables": many }).to_string())
        .await;
    assert_eq!(status, 400, "at most fifty at once");
    let (status, _) = server
        .post("/api/tables/mine", r#"{"tables": [], "extra": 1}"#)
        .await;
    assert_eq!(status, 400, "unknown fields are refused");
}

/// Plays a few of this seat's moves against the computer, as the views offer them; answers the
/// version the table stands at once the computer waits for this seat.
async fn play_against_computer_a_little(client: &mut Client) -> Value {
    let mut rng = rng(5);
    let mut moves = 0;
    let mut view = client.next_of("view").await;
    loop {
        let offered = view["actions"].as_array().map_or(0, Vec::len);
        if view["status"] != "playing" || offered == 0 {
            view = client.next_of("view").await;
            continue;
        }
        if moves == 3 {
            return view["version"].clone();
        }
        let version = view["version"].as_u64().unwrap();
        client
            .send(action(version, "a", &choose(&view, &mut rng)))
            .await;
        view = client.next_ack().await;
        moves += 1;
    }
}
