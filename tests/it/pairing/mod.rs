//! Strangers meeting, over real HTTP and sockets: visitors paired by "Play a person now" and seated
//! at one friends table where they play; one who left never paired; open tables listed, taken and
//! gone when full. Alone, and across two nodes sharing a Redis (visitors on different nodes paired
//! with each other, a node killed while its visitors wait), which without redis-server say why and
//! pass unless CHAIKHANA_TEST_REQUIRE_ALL=1.

mod across_nodes;
mod open_tables;
mod queue;
mod refused;

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::*;

/// A visitor's page: its browser id, and its ticket once it has entered a queue.
struct Visitor {
    base: String,
    browser: String,
    ticket: String,
}

impl Visitor {
    /// Enters `game`'s queue for a match of `length` through the server at `base`; answers the
    /// visitor and where it stands.
    async fn enter(base: &str, game: &str, length: Value) -> (Visitor, Value) {
        let browser = format!("browser-{}", rand::random::<u64>());
        let body = json!({ "game": game, "length": length, "browser": browser });
        let (status, answer) = post(base, "/api/pairing", &body.to_string()).await;
        assert_eq!(status, 201, "{answer}");
        let ticket = answer["ticket"].as_str().expect("a ticket").to_string();
        let visitor = Visitor {
            base: base.to_string(),
            browser,
            ticket,
        };
        (visitor, answer)
    }

    /// Asks where it stands, through the server at `base` (its own or another node).
    async fn ask_at(&self, base: &str) -> (u16, Value) {
        let body = json!({ "ticket": self.ticket }).to_string();
        post(base, "/api/pairing/ask", &body).await
    }

    async fn ask(&self) -> (u16, Value) {
        self.ask_at(&self.base).await
    }

    /// Asks every 100 ms, as a page does (more often), until seated; answers its place.
    async fn seated(&self) -> Seated {
        let started = Instant::now();
        loop {
            let (status, answer) = self.ask().await;
            assert_eq!(status, 200, "{answer}");
            if answer["state"] == "seated" {
                return seat_of(&answer);
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "never seated: {answer}"
            );
            actix_rt::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn leave(&self) -> Value {
        let body = json!({ "ticket": self.ticket }).to_string();
        let (status, answer) = post(&self.base, "/api/pairing/leave", &body).await;
        assert_eq!(status, 200, "{answer}");
        answer
    }
}

fn seat_of(answer: &Value) -> Seated {
    assert_eq!(answer["state"], "seated", "{answer}");
    let table = answer["table"].as_str().unwrap();
    assert_eq!(answer["link"], format!("/t/{table}"));
    Seated::from_answer(table, answer)
}

/// The open tables `base` lists for `game`.
async fn open_tables(base: &str, game: &str) -> Vec<Value> {
    let mut response = awc::Client::new()
        .get(format!("{base}/api/open-tables/{game}"))
        .send()
        .await
        .expect("the list answers");
    assert_eq!(response.status().as_u16(), 200);
    let answer: Value = serde_json::from_slice(&response.body().await.unwrap()).unwrap();
    answer["tables"].as_array().unwrap().clone()
}

/// Two strangers paired at a Panjpar table of one deal to win, the first through `first`, the
/// second through `second`; answers their seats, the first's first.
async fn panjpar_pair(first: &str, second: &str) -> (Seated, Seated) {
    let (a, waiting) = Visitor::enter(first, "panjpar", json!(1)).await;
    assert_eq!(waiting["state"], "waiting", "{waiting}");
    assert_eq!(waiting["waiting"], 1);
    assert_eq!(waiting["offer_computer_after_ms"], 60_000);
    assert_eq!(waiting["offer_computer"], false);
    // Entered in the same millisecond, the two would wait equally long.
    actix_rt::time::sleep(Duration::from_millis(5)).await;
    let (_b, paired) = Visitor::enter(second, "panjpar", json!(1)).await;
    // The second's own entry made the pair: it is seated at once.
    let b_seat = seat_of(&paired);
    let a_seat = a.seated().await;
    assert_eq!(a_seat.table, b_seat.table);
    assert_eq!(
        (a_seat.seat, b_seat.seat),
        (0, 1),
        "the longer waiting sits first"
    );
    (a_seat, b_seat)
}

/// The pair's match, played to its end from a socket each on the node each was seated through.
async fn play_it(seats: [(&str, &Seated); 2], seed: u64) {
    let mut clients = Vec::new();
    for (base, seated) in seats {
        let client = Client::connect(base, &seated.table, &seated.token)
            .await
            .expect("a paired visitor's token opens its seat");
        clients.push(client);
    }
    play_among_friends(&mut clients, &mut rng(seed)).await;
}
