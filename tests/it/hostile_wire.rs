//! The socket tier under attack, from raw TCP bytes (`support::raw`, which shares nothing with the
//! server's transport): frames that declare more than the server keeps, fragments, bad UTF-8, floods of
//! every kind of frame, a reader that stops reading, and the caps on sockets. In every case another
//! table's player goes on playing meanwhile.

use std::time::{Duration, Instant};

use crate::support::bystander::Bystander;
use crate::support::cluster::Node;
use crate::support::raw::{self, Raw, Upgraded};
use crate::support::{Seated, TestServer};
use serde_json::{json, Value};

async fn computer_seat(server: &TestServer, game: &str) -> Seated {
    server.open(game, "computer", None).await
}

#[actix_rt::test]
async fn a_frame_declaring_2_to_the_62_bytes_is_closed_with_1009_and_never_kept() {
    // The server's memory is measured, so it runs in a process of its own, reading as fast as
    // the test's own servers do.
    let server = Node::alone(&[
        ("CHAIKHANA_READ_BYTES_PER_SECOND", "1073741824"),
        ("CHAIKHANA_READ_BYTES_BURST", "1073741824"),
    ])
    .await;
    let mut bystander = Bystander::seat_at(&server).await;
    let seat = server.open("panjpar", "computer", Value::Null).await;
    let mut rude = Raw::open(server.addr(), &seat.table, &seat.token).await;
    let before = server.resident_bytes();
    rude.send(&raw::text_header(1 << 62)).await.unwrap();
    // Stream for five seconds, or until the server has stopped taking bytes.
    let chunk = vec![b'z'; 64 * 1024];
    let started = Instant::now();
    let mut sent = 0usize;
    while started.elapsed() < Duration::from_secs(5) {
        let write = tokio::time::timeout(Duration::from_millis(500), rude.send(&chunk)).await;
        match write {
            Ok(Ok(())) => sent += chunk.len(),
            Ok(Err(_)) => break,
            Err(_) => {}
        }
    }
    let grown = server.resident_bytes().saturating_sub(before);
    assert!(
        grown < 16 << 20,
        "resident memory grew by {grown} bytes ({sent} sent)"
    );
    assert_eq!(rude.close_code().await, Some(1009));
    bystander.plays_a_move().await;
}

#[actix_rt::test]
async fn a_fragmented_message_is_joined_with_pings_between_its_pieces() {
    let server = TestServer::start(|_| {});
    let mut bystander = Bystander::seat(&server).await;
    // A friends table, where nobody moves but this socket: its views change only when it acts.
    let seat = server
        .open("pishe-pasha", "friends", Some(json!("one-deal")))
        .await;
    assert_eq!(server.join(&seat.table).await.0, 201);
    let mut raw = Raw::open(server.running.addr, &seat.table, &seat.token).await;
    let first = raw.next_of("view").await;
    let mut bytes = raw::frame(false, raw::TEXT, br#"{"type""#);
    bytes.extend(raw::frame(true, raw::PING, b"between"));
    bytes.extend(raw::frame(false, raw::CONTINUATION, br#":"res"#));
    bytes.extend(raw::frame(true, raw::PING, b"again"));
    bytes.extend(raw::frame(true, raw::CONTINUATION, br#"ync"}"#));
    raw.send(&bytes).await.unwrap();
    let mut pongs = Vec::new();
    let view = loop {
        let (opcode, payload) = raw.next_frame(Duration::from_secs(10)).await.unwrap();
        match opcode {
            raw::PONG => pongs.push(payload),
            raw::TEXT => {
                let value: serde_json::Value = serde_json::from_slice(&payload).unwrap();
                if value["type"] == "view" {
                    break value;
                }
            }
            _ => {}
        }
    };
    // Each ping is answered, though a pong not yet sent may give way to the next one's (RFC 6455, 5.5.3).
    assert_eq!(pongs.last(), Some(&b"again".to_vec()), "{pongs:?}");
    assert!(pongs.iter().all(|p| p == b"between" || p == b"again"));
    // The resync was understood: the same view again.
    assert_eq!(view["version"], first["version"]);
    // Pieces that add up to more than the cap close the socket with 1009.
    let piece = vec![b' '; 4096];
    let mut bytes = raw::frame(false, raw::TEXT, b"[");
    for _ in 0..9 {
        bytes.extend(raw::frame(false, raw::CONTINUATION, &piece));
    }
    bytes.extend(raw::frame(true, raw::CONTINUATION, b"]"));
    let _ = raw.send(&bytes).await;
    assert_eq!(raw.close_code().await, Some(1009));
    bystander.plays_a_move().await;
}

#[actix_rt::test]
async fn bad_utf8_closes_with_1007_and_a_clients_close_code_is_echoed() {
    let server = TestServer::start(|_| {});
    let mut bystander = Bystander::seat(&server).await;
    let seat = computer_seat(&server, "panjpar").await;
    let mut raw = Raw::open(server.running.addr, &seat.table, &seat.token).await;
    raw.send(&raw::frame(true, raw::TEXT, &[b'{', 0xff, 0xfe, b'}']))
        .await
        .unwrap();
    assert_eq!(raw.close_code().await, Some(1007));
    let mut leaving = Raw::open(server.running.addr, &seat.table, &seat.token).await;
    leaving
        .send(&raw::frame(true, raw::CLOSE, &4321u16.to_be_bytes()))
        .await
        .unwrap();
    assert_eq!(leaving.close_code().await, Some(4321));
    bystander.plays_a_move().await;
}

#[actix_rt::test]
async fn floods_of_binary_ping_and_oversized_frames_are_closed_with_1008() {
    let server = TestServer::start(|s| {
        s.rate_per_second = 10;
        s.rate_burst = 20;
    });
    let mut bystander = Bystander::seat(&server).await;
    let seat = computer_seat(&server, "panjpar").await;
    let oversized = format!(r#"{{"type":"resync","x":"{}"}}"#, "o".repeat(9_000));
    let floods: [(&str, Vec<u8>, usize); 3] = [
        (
            "binary",
            raw::frame(true, raw::BINARY, &[0xAB; 64]),
            100_000,
        ),
        ("ping", raw::frame(true, raw::PING, b"p"), 100_000),
        (
            "oversized",
            raw::frame(true, raw::TEXT, oversized.as_bytes()),
            100,
        ),
    ];
    for (kind, one, count) in floods {
        let mut raw = Raw::open(server.running.addr, &seat.table, &seat.token).await;
        let burst: Vec<u8> = one
            .iter()
            .copied()
            .cycle()
            .take(one.len() * count)
            .collect();
        // The server may close before it has read them all.
        let _ = tokio::time::timeout(Duration::from_secs(20), raw.send(&burst)).await;
        assert_eq!(raw.close_code().await, Some(1008), "a {kind} flood");
        bystander.plays_a_move().await;
    }
}

#[actix_rt::test]
async fn a_socket_that_never_reads_is_closed_within_the_write_timeout() {
    let server = TestServer::start(|s| s.write_timeout_secs = 2);
    let mut bystander = Bystander::seat(&server).await;
    let seat = computer_seat(&server, "ganjifa").await;
    // The bystander's move shows its socket is counted; the sleeper's first view shows its own is.
    bystander.plays_a_move().await;
    let others = server.running.registry.open();
    let Upgraded::Open(mut sleeper) =
        Raw::upgrade(server.running.addr, &seat.table, &seat.token, Some(2048)).await
    else {
        panic!("the sleeper's socket opens");
    };
    sleeper.next_of("view").await;
    assert_eq!(server.running.registry.open(), others + 1);
    // Fewer views than the queue holds, more bytes than the connection's buffers take.
    let resync = raw::frame(true, raw::TEXT, br#"{"type":"resync"}"#);
    for _ in 0..50 {
        sleeper.send(&resync).await.unwrap();
    }
    let started = Instant::now();
    while server.running.registry.open() > others {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the sleeper's socket is still open"
        );
        bystander.plays_a_move().await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Its connection ends: reading what the server had sent reaches the end.
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        while sleeper.next_frame(Duration::from_secs(5)).await.is_some() {}
    })
    .await;
    assert!(ended.is_ok(), "the connection ended");
    bystander.plays_a_move().await;
}

/// Opens sockets one after another until the server refuses one: those opened, and the refusal (the
/// HTTP status of a refused upgrade, or 1008 for a socket closed after its hello, and the code).
async fn open_until_refused(server: &TestServer, seats: &[Seated]) -> (Vec<Raw>, u16, String) {
    let mut open = Vec::new();
    for seat in seats.iter().cycle().take(100) {
        match Raw::upgrade(server.running.addr, &seat.table, &seat.token, None).await {
            Upgraded::Open(mut raw) => {
                // Its first view says the table has counted it.
                raw.next_of("view").await;
                open.push(raw)
            }
            Upgraded::Refused(status, body) => {
                return (open, status, body["code"].as_str().unwrap_or("").into())
            }
            Upgraded::Dismissed(error) => {
                return (open, 1008, error["code"].as_str().unwrap_or("").into())
            }
        }
    }
    panic!("no socket was refused");
}

#[actix_rt::test]
async fn the_seat_address_and_node_caps_refuse_the_next_socket() {
    // Per seat: four sockets (the default), then the fifth is told why and closed after its hello;
    // one closed makes room again.
    let server = TestServer::start(|_| {});
    let mut bystander = Bystander::seat(&server).await;
    let seat = computer_seat(&server, "panjpar").await;
    let (mut open, status, code) = open_until_refused(&server, std::slice::from_ref(&seat)).await;
    assert_eq!(
        (open.len(), status, code.as_str()),
        (4, 1008, "too-many-sockets-for-seat")
    );
    bystander.plays_a_move().await;
    drop(open.pop());
    let started = Instant::now();
    loop {
        match Raw::upgrade(server.running.addr, &seat.table, &seat.token, None).await {
            Upgraded::Open(_) => break,
            Upgraded::Refused(..) | Upgraded::Dismissed(_) => {
                assert!(started.elapsed() < Duration::from_secs(5), "no room came");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }

    // Per address: the bystander's socket and five more, then 429.
    let server = TestServer::start(|s| s.sockets_per_address = 6);
    let mut bystander = Bystander::seat(&server).await;
    let seats = [
        computer_seat(&server, "panjpar").await,
        computer_seat(&server, "ganjifa").await,
    ];
    let (open, status, code) = open_until_refused(&server, &seats).await;
    assert_eq!(
        (open.len(), status, code.as_str()),
        (5, 429, "too-many-sockets-from-address")
    );
    bystander.plays_a_move().await;

    // Per process: the bystander's socket and two more, then 503.
    let server = TestServer::start(|s| s.sockets_per_node = 3);
    let mut bystander = Bystander::seat(&server).await;
    let seats = [computer_seat(&server, "pishe-pasha").await];
    let (open, status, code) = open_until_refused(&server, &seats).await;
    assert_eq!((open.len(), status, code.as_str()), (2, 503, "server-full"));
    bystander.plays_a_move().await;
}

/// The text of the first text frame of `raw` and the close code after it.
async fn error_then_close(raw: &mut Raw) -> (serde_json::Value, Option<u16>) {
    let error = raw.next_of("error").await;
    (error, raw.close_code().await)
}

#[actix_rt::test]
async fn a_seat_token_travels_only_in_the_hello_frame() {
    let server = TestServer::start(|s| s.hello_timeout_secs = 1);
    let mut bystander = Bystander::seat(&server).await;
    let seat = computer_seat(&server, "panjpar").await;
    let addr = server.running.addr;

    // The old way, the token in the address, is refused before the upgrade, even with a good token.
    for path in [
        format!("/ws/{}?token={}", seat.table, seat.token),
        format!("/ws/{}?x=1&token", seat.table),
    ] {
        match Raw::upgrade_path(addr, &path, None).await {
            Upgraded::Refused(status, body) => {
                assert_eq!((status, body["code"].as_str()), (403, Some("token-in-url")))
            }
            _ => panic!("{path} was upgraded"),
        }
    }

    // A first frame that is not a hello is answered with why, and the socket closed; nothing of the
    // table is sent before.
    for first in [
        json!({ "type": "resync" }).to_string(),
        json!({ "type": "hello" }).to_string(),
        json!({ "type": "hello", "token": seat.token, "seat": 0 }).to_string(),
        "hello".to_string(),
    ] {
        let Upgraded::Open(mut raw) =
            Raw::upgrade_path(addr, &format!("/ws/{}", seat.table), None).await
        else {
            panic!("the upgrade is answered");
        };
        raw.send(&raw::frame(true, raw::TEXT, first.as_bytes()))
            .await
            .unwrap();
        let (error, code) = error_then_close(&mut raw).await;
        assert_eq!(error["code"], "hello-expected", "{first}");
        assert_eq!(code, Some(1008), "{first}");
    }

    // A wrong token, and a token shaped wrong, are refused the same way.
    for token in [
        chaikhana::table::TableId::random().to_string(),
        "AAAA".into(),
    ] {
        match Raw::upgrade(addr, &seat.table, &token, None).await {
            Upgraded::Dismissed(error) => assert_eq!(error["code"], "wrong-token"),
            _ => panic!("a wrong token was let in"),
        }
    }

    // A socket that says nothing is closed once the hello's time is up.
    let Upgraded::Open(mut silent) =
        Raw::upgrade_path(addr, &format!("/ws/{}", seat.table), None).await
    else {
        panic!("the upgrade is answered");
    };
    let started = Instant::now();
    assert_eq!(silent.close_code().await, Some(1008));
    assert!(started.elapsed() < Duration::from_secs(5));

    // The good token in its hello opens the seat; the table played on meanwhile.
    let mut good = Raw::open(addr, &seat.table, &seat.token).await;
    let view = good.next_of("view").await;
    assert_eq!(view["seat"], 0);
    bystander.plays_a_move().await;
}
