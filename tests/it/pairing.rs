//! Strangers meeting, over real HTTP and sockets: visitors paired by "Play a person now" and seated
//! at one friends table where they play; one who left never paired; open tables listed, taken and
//! gone when full. Alone, and across two nodes sharing a Redis (visitors on different nodes paired
//! with each other, a node killed while its visitors wait), which without redis-server say why and
//! pass unless CHAIKHANA_TEST_REQUIRE_ALL=1.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::cluster::{Node, Redis};
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

#[actix_rt::test]
async fn two_strangers_are_paired_at_one_table_and_play_its_match() {
    let server = TestServer::start(|_| {});
    let (a, b) = panjpar_pair(&server.base, &server.base).await;
    play_it([(&server.base, &a), (&server.base, &b)], 59).await;
}

#[actix_rt::test]
async fn three_strangers_make_a_ganjifa_table() {
    let server = TestServer::start(|_| {});
    let (first, _) = Visitor::enter(&server.base, "ganjifa", json!(3)).await;
    let (second, waiting) = Visitor::enter(&server.base, "ganjifa", json!(3)).await;
    assert_eq!(waiting["waiting"], 2, "{waiting}");
    // Another length is another queue: nobody there to pair with.
    let (other, apart) = Visitor::enter(&server.base, "ganjifa", json!(6)).await;
    assert_eq!(apart["waiting"], 1, "{apart}");
    let (_third, paired) = Visitor::enter(&server.base, "ganjifa", json!(3)).await;
    let third = seat_of(&paired);
    let seats = [first.seated().await, second.seated().await, third];
    assert!(seats.iter().all(|s| s.table == seats[0].table));
    let mut taken: Vec<u64> = seats.iter().map(|s| s.seat).collect();
    taken.sort();
    assert_eq!(taken, [0, 1, 2]);
    assert_eq!(other.ask().await.1["state"], "waiting");
    let mut clients = Vec::new();
    for seated in &seats {
        clients.push(server.connect(seated).await);
    }
    let views: Vec<Value> = {
        let mut views = Vec::new();
        for client in &mut clients {
            views.push(client.next_of("view").await);
        }
        views
    };
    assert!(views.iter().all(|v| v["kind"] == "friends"), "{views:?}");
}

#[actix_rt::test]
async fn a_visitor_who_left_is_never_paired() {
    let server = TestServer::start(|_| {});
    let (gone, _) = Visitor::enter(&server.base, "pishe-pasha", Value::Null).await;
    assert_eq!(gone.leave().await["left"], true);
    assert_eq!(gone.leave().await["left"], false);
    let (status, answer) = gone.ask().await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (404, Some("not-waiting"))
    );
    let (next, waiting) = Visitor::enter(&server.base, "pishe-pasha", Value::Null).await;
    assert_eq!(waiting["state"], "waiting", "{waiting}");
    assert_eq!(waiting["waiting"], 1);
    // The same browser entering again replaces its entry: it is never paired with itself.
    let again = json!({ "game": "pishe-pasha", "browser": next.browser });
    let (status, answer) = server.post("/api/pairing", &again.to_string()).await;
    assert_eq!(status, 201);
    assert_eq!(answer["waiting"], 1, "{answer}");
    assert_eq!(next.ask().await.0, 404);
}

#[actix_rt::test]
async fn a_page_that_stops_asking_leaves_the_queue_within_seconds() {
    let server = TestServer::start(|s| s.pairing_gone_after_secs = 1);
    let (silent, _) = Visitor::enter(&server.base, "panjpar", json!(3)).await;
    actix_rt::time::sleep(Duration::from_millis(1_300)).await;
    let (_, answer) = Visitor::enter(&server.base, "panjpar", json!(3)).await;
    assert_eq!(answer["state"], "waiting", "{answer}");
    assert_eq!(answer["waiting"], 1);
    assert_eq!(silent.ask().await.0, 404);
}

#[actix_rt::test]
async fn what_the_lobby_cannot_read_is_refused_and_changes_nothing() {
    let server = TestServer::start(|_| {});
    for (path, body) in [
        ("/api/pairing", "not json"),
        (
            "/api/pairing",
            r#"{"game": "chess", "browser": "browser-1"}"#,
        ),
        ("/api/pairing", r#"{"game": "panjpar", "browser": "short"}"#),
        (
            "/api/pairing",
            r#"{"game": "panjpar", "browser": "browser-1", "x": 1}"#,
        ),
        (
            "/api/pairing",
            r#"{"game": "panjpar", "length": 4, "browser": "browser-1"}"#,
        ),
        ("/api/pairing/ask", r#"{"ticket": 7}"#),
        ("/api/open-tables/host", r#"{"table": "t"}"#),
    ] {
        let (status, answer) = server.post(path, body).await;
        assert_eq!(status, 400, "{path} {body}: {answer}");
        assert_eq!(answer["code"], "bad-request");
    }
    let (status, answer) = server
        .post("/api/pairing/ask", r#"{"ticket": "nope"}"#)
        .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (404, Some("not-waiting"))
    );
    let (status, _) = server.get("/api/open-tables/chess").await;
    assert_eq!(status, 404);
    let too_long = json!({ "game": "panjpar", "browser": "b".repeat(300) }).to_string();
    assert_eq!(server.post("/api/pairing", &too_long).await.0, 413);
    let (_, waiting) = Visitor::enter(&server.base, "panjpar", json!(5)).await;
    assert_eq!(waiting["waiting"], 1, "nothing the refusals sent entered");
}

/// Opens a friends table listed as open, through `base`; answers the host's seat.
async fn open_listed(base: &str, game: &str, name: &str) -> Seated {
    let body = json!({ "game": game, "opponents": "friends", "open": true, "name": name });
    let (status, answer) = post(base, "/api/tables", &body.to_string()).await;
    assert_eq!(status, 201, "{answer}");
    assert_eq!(answer["listed"], true);
    Seated::from_answer(answer["table"].as_str().unwrap(), &answer)
}

/// The host's word to the list: "here" or "close", with `token`.
async fn host_says(base: &str, table: &str, token: &str, close: bool) -> u16 {
    let body = json!({ "table": table, "token": token, "close": close });
    post(base, "/api/open-tables/host", &body.to_string())
        .await
        .0
}

/// An open table listed through `a` shows on `b`'s list too; its seats taken through `b` (the third
/// of a Ganjifa table through `a`), it is gone from both lists.
async fn open_tables_listed_and_taken(a: &str, b: &str) {
    let host = open_listed(a, "ganjifa", "  Parvin\u{202E} ").await;
    let other = open_listed(a, "ganjifa", "").await;
    let listed = open_tables(b, "ganjifa").await;
    let mine = listed
        .iter()
        .find(|t| t["table"] == host.table.as_str())
        .expect("listed on the other node");
    assert_eq!(mine["name"], "Parvin", "cleaned as a seat's name");
    assert_eq!(
        (mine["seats"].as_u64(), mine["free"].as_u64()),
        (Some(3), Some(2))
    );
    assert!(open_tables(a, "panjpar").await.is_empty());
    let joined = post(b, &format!("/api/tables/{}/join", host.table), "").await;
    assert_eq!(joined.0, 201, "{}", joined.1);
    let listed = open_tables(a, "ganjifa").await;
    let mine = listed.iter().find(|t| t["table"] == host.table.as_str());
    assert_eq!(mine.expect("one seat still free")["free"], 1);
    assert_eq!(
        post(a, &format!("/api/tables/{}/join", host.table), "")
            .await
            .0,
        201
    );
    for base in [a, b] {
        let listed = open_tables(base, "ganjifa").await;
        assert!(
            listed.iter().all(|t| t["table"] != host.table.as_str()),
            "{listed:?}"
        );
    }
    // Only the host keeps the other listed, or closes it.
    assert_eq!(host_says(b, &other.table, &host.token, true).await, 404);
    assert_eq!(host_says(b, &other.table, &other.token, false).await, 200);
    listed_soon(a, "ganjifa", 1).await;
    assert_eq!(host_says(b, &other.table, &other.token, true).await, 200);
    listed_soon(a, "ganjifa", 0).await;
}

/// Waits until `base` lists `count` open tables of `game`: at once through the node that changed
/// the list, within its second of reading through another.
async fn listed_soon(base: &str, game: &str, count: usize) {
    let started = Instant::now();
    loop {
        let listed = open_tables(base, game).await;
        if listed.len() == count {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(2), "{listed:?}");
        actix_rt::time::sleep(Duration::from_millis(100)).await;
    }
}

#[actix_rt::test]
async fn open_tables_are_listed_until_their_seats_are_taken() {
    let server = TestServer::start(|_| {});
    open_tables_listed_and_taken(&server.base, &server.base).await;
    // A computer table is never listed.
    let body = json!({ "game": "panjpar", "opponents": "computer", "open": true });
    assert_eq!(server.post("/api/tables", &body.to_string()).await.0, 400);
}

#[actix_rt::test]
async fn strangers_on_two_nodes_are_paired_within_a_second_and_play() {
    let Some(redis) = Redis::if_installed().await else {
        return;
    };
    let (a, b) = Node::pair(&redis, "all").await;
    let started = Instant::now();
    let (first, second) = panjpar_pair(&a.base, &b.base).await;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(1), "paired in {took:?}");
    // Redis holds no ticket and no seat token in clear: only their hashes.
    let lobby = lobby_in_redis(&redis);
    for secret in [&first.token, &second.token] {
        assert!(
            !lobby.contains(secret.as_str()),
            "a seat token in Redis: {lobby}"
        );
    }
    play_it([(&a.base, &first), (&b.base, &second)], 61).await;
    open_tables_listed_and_taken(&a.base, &b.base).await;
}

#[actix_rt::test]
async fn visitors_of_a_node_killed_while_they_wait_are_paired_through_another() {
    let Some(redis) = Redis::if_installed().await else {
        return;
    };
    let (a, b) = Node::pair(&redis, "all").await;
    let (first, _) = Visitor::enter(&a.base, "ganjifa", json!(3)).await;
    let (second, _) = Visitor::enter(&a.base, "ganjifa", json!(3)).await;
    a.signal("-KILL");
    // Their pages ask the site again and reach the other node: still waiting, their waits kept.
    for visitor in [&first, &second] {
        let (status, answer) = visitor.ask_at(&b.base).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["state"], "waiting", "{answer}");
        assert_eq!(answer["waiting"], 2);
    }
    let (_, paired) = Visitor::enter(&b.base, "ganjifa", json!(3)).await;
    let third = seat_of(&paired);
    for visitor in [&first, &second] {
        let (_, answer) = visitor.ask_at(&b.base).await;
        assert_eq!(seat_of(&answer).table, third.table);
    }
    // One who leaves through the surviving node is never paired.
    let (gone, _) = Visitor::enter(&b.base, "panjpar", json!(3)).await;
    gone.leave().await;
    let (_, alone) = Visitor::enter(&b.base, "panjpar", json!(3)).await;
    assert_eq!(alone["state"], "waiting", "{alone}");
}

/// Every key of the lobby in `redis`, with its fields and values, as one text.
fn lobby_in_redis(redis: &Redis) -> String {
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_connection().unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg("chaikhana:{lobby}:*")
        .query(&mut conn)
        .unwrap();
    let mut text = String::new();
    for key in keys {
        let kind: String = redis::cmd("TYPE").arg(&key).query(&mut conn).unwrap();
        let values: Vec<String> = match kind.as_str() {
            "hash" => redis::cmd("HGETALL").arg(&key).query(&mut conn).unwrap(),
            "zset" => redis::cmd("ZRANGE")
                .arg(&key)
                .arg(0)
                .arg(-1)
                .query(&mut conn)
                .unwrap(),
            _ => vec![redis::cmd("GET")
                .arg(&key)
                .query::<Option<String>>(&mut conn)
                .unwrap()
                .unwrap_or_default()],
        };
        text.push_str(&format!("{key} {values:?}\n"));
    }
    assert!(
        text.contains(":t:"),
        "the lobby keeps its tickets here: {text}"
    );
    text
}

/// A raw POST of `body` to `path`, its connection then reset (SO_LINGER 0) without reading the
/// answer: a client that goes away half way.
fn post_and_reset(addr: std::net::SocketAddr, path: &str, body: &str) {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    let mut stream = std::net::TcpStream::connect(addr).expect("the server listens");
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let linger = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    // SAFETY: a valid socket and a `linger` of the size given.
    unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&linger as *const libc::linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        );
    }
    drop(stream);
}

#[actix_rt::test]
async fn a_client_gone_half_way_through_its_entry_leaves_its_partner_seated_at_once() {
    let server = TestServer::start(|_| {});
    let (waiting, _) = Visitor::enter(&server.base, "panjpar", json!(5)).await;
    let body = json!({ "game": "panjpar", "length": 5, "browser": "gone-half-way" });
    post_and_reset(server.running.addr, "/api/pairing", &body.to_string());
    // The pair was made by the entry whose client went: the table is still made, and the one who
    // waited is seated well before a formation's limit (10 s).
    let started = Instant::now();
    waiting.seated().await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[actix_rt::test]
async fn another_sites_page_cannot_open_join_or_enter_a_queue() {
    let server = TestServer::start(|_| {});
    let client = awc::Client::new();
    let enter = json!({ "game": "panjpar", "browser": "from-elsewhere" }).to_string();
    let table = json!({ "game": "panjpar", "opponents": "friends" }).to_string();
    for (path, body) in [("/api/pairing", &enter), ("/api/tables", &table)] {
        for (header, value) in [
            ("origin", "https://evil.example"),
            ("sec-fetch-site", "cross-site"),
        ] {
            let response = client
                .post(format!("{}{path}", server.base))
                .insert_header(("content-type", "text/plain"))
                .insert_header((header, value))
                .send_body(body.clone())
                .await
                .unwrap();
            assert_eq!(response.status().as_u16(), 403, "{path} with {header}");
        }
    }
    // The site's own page (its Origin the host it asked) is let through.
    let own = format!("http://{}", server.running.addr);
    let response = client
        .post(format!("{}/api/pairing", server.base))
        .insert_header(("origin", own.as_str()))
        .insert_header(("sec-fetch-site", "same-origin"))
        .send_body(enter)
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 201);
    let (_, waiting) = Visitor::enter(&server.base, "panjpar", json!(1)).await;
    assert_eq!(waiting["waiting"], 1, "no entry from the other site waits");
}

#[actix_rt::test]
async fn one_address_takes_a_few_seats_a_minute_and_lists_a_few_tables() {
    let server = TestServer::start(|s| s.joins_per_minute = 2);
    let mut listed = Vec::new();
    for _ in 0..3 {
        listed.push(open_listed(&server.base, "ganjifa", "").await);
    }
    let body = json!({ "game": "ganjifa", "opponents": "friends", "open": true });
    let (status, answer) = server.post("/api/tables", &body.to_string()).await;
    assert_eq!(status, 201, "the table is made");
    assert_eq!(answer["listed"], false, "{answer}");
    assert!(answer["not_listed"]
        .as_str()
        .unwrap()
        .contains("3 tables listed"));
    assert_eq!(open_tables(&server.base, "ganjifa").await.len(), 3);
    let join = |table: &str| format!("/api/tables/{table}/join");
    assert_eq!(server.post(&join(&listed[0].table), "").await.0, 201);
    assert_eq!(server.post(&join(&listed[1].table), "").await.0, 201);
    let (status, answer) = server.post(&join(&listed[2].table), "").await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (429, Some("rate-limited"))
    );
}
