//! The queue of "Play a person now" on one server: two strangers paired at a Panjpar table where they
//! play, three at a Ganjifa table (another length another queue), one who left or stopped asking
//! never paired, and a partner seated at once when the client that made the pair went half way.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{panjpar_pair, play_it, seat_of, Visitor};
use crate::support::*;

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
