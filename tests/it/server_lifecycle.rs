//! A table's life: a seat kept for its player however long they are away, a table that sleeps, wakes
//! and expires, a rematch (among friends, once all have asked); and the process itself: settings
//! from the environment and a file, and a clean stop on SIGTERM that closes every socket with 1001.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::json;

use crate::support::cluster::{free_port, wait_until};
use crate::support::*;

/// With the default settings (no hold shortened): a friend and a computer table's player away for
/// longer than the minute seats were once held for come back to their seats and views, and the others
/// saw them as away meanwhile.
#[actix_rt::test]
async fn a_seat_away_longer_than_the_old_hold_comes_back_to_its_seat() {
    let server = TestServer::start(|_| {});
    let (host, guest) = friends(&server).await;
    let table = host.table.clone();
    let mut mine = server.connect(&host).await;
    let mut guest_socket = server.connect(&guest).await;
    let version = guest_socket.next_of("view").await["version"].clone();
    let me = server.open("pishe-pasha", "computer", None).await;
    let alone = server.connect(&me).await;
    alone.close().await;
    guest_socket.close().await;
    let seats = mine.next_of("seats").await;
    assert_eq!(seats["seats"][1]["connected"], false);
    assert_eq!(seats["seats"][1]["who"], "person");
    assert!(
        seats["seats"][1]["away_since"].as_u64().is_some(),
        "{seats}"
    );
    actix_rt::time::sleep(Duration::from_secs(65)).await;
    let (status, answer) = server.join(&table).await;
    assert_eq!(status, 409, "the seat is still its player's: {answer}");
    let mut back = Client::connect(&server.base, &table, &guest.token)
        .await
        .expect("the away seat's token still opens it");
    let view = back.next_of("view").await;
    assert_eq!(view["seat"], 1);
    assert_eq!(view["version"], version);
    let seats = mine.next_of("seats").await;
    assert_eq!(seats["seats"][1]["connected"], true);
    assert_eq!(seats["seats"][1]["away_since"], serde_json::Value::Null);
    let mut again = server.connect(&me).await;
    assert_eq!(again.next_of("view").await["game"], "pishe-pasha");
}

/// A table nobody is at leaves memory and wakes from the store with everything it had; one with no
/// activity for as long as a table lives closes and says so.
#[actix_rt::test]
async fn a_table_sleeps_wakes_and_expires() {
    let server = TestServer::start(|s| {
        s.sleep_after_secs = 1;
        s.friends_table_expiry_secs = 4;
    });
    let (host, guest) = friends(&server).await;
    let table = host.table.clone();
    let mut first = server.connect(&host).await;
    let second = server.connect(&guest).await;
    first.send(json!({"type": "name", "name": "Arash"})).await;
    first.next_of("seats").await;
    let version = first.last_view()["version"].clone();
    first.close().await;
    second.close().await;
    wait_until("the table sleeps", || {
        server.running.router.open_tables() == 0
    })
    .await;
    let mut back = Client::connect(&server.base, &table, &host.token)
        .await
        .expect("a seat wakes it");
    let view = back.next_of("view").await;
    assert_eq!(view["version"], version, "{view}");
    assert_eq!(view["seats"][0]["name"], "Arash", "{view}");
    assert_eq!(server.running.router.open_tables(), 1);
    // Kept awake by its socket, it expires once nothing has happened at it for its expiry.
    assert_eq!(back.close_code().await, Some(4411), "the table expired");
    let (status, page) = server.get(&format!("/t/{table}")).await;
    assert_eq!(status, 410, "{page}");
    let (status, answer) = server.join(&table).await;
    assert_eq!((status, &answer["code"]), (410, &json!("table-expired")));
}

/// A Panjpar friends table of three deals: its host's seat and its guest's, neither connected yet.
async fn friends(server: &TestServer) -> (Seated, Seated) {
    let host = server.open("panjpar", "friends", Some(json!(3))).await;
    let (status, answer) = server.join(&host.table).await;
    assert_eq!(status, 201, "{answer}");
    let guest = Seated::from_answer(&host.table, &answer);
    (host, guest)
}

#[actix_rt::test]
async fn a_rematch_starts_a_new_match_at_the_same_table() {
    let server = TestServer::start(|_| {});
    let me = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&me).await;
    play_against_computer(&mut client, &mut rng(8)).await;
    let over = client.last_view().clone();
    assert_eq!(over["status"], "match-over");
    let version = over["version"].as_u64().unwrap();
    client
        .send(json!({"type": "next-deal", "version": version}))
        .await;
    assert_eq!(client.next_of("error").await["code"], "wrong-moment");
    client
        .send(json!({"type": "rematch", "version": version}))
        .await;
    let fresh = client.next_of("view").await;
    assert_eq!(fresh["status"], "playing");
    assert_eq!(fresh["version"].as_u64(), Some(version + 1));
    assert_eq!(fresh["match"]["deals_dealt"], 0);
    assert_eq!(fresh["match"]["deals_won"], json!([0, 0]));
}

#[actix_rt::test]
async fn at_a_friends_table_the_rematch_starts_once_every_friend_has_asked() {
    let server = TestServer::start(|_| {});
    let (_, mut clients) = seat_friends(&server, "panjpar", 2, json!(1)).await;
    play_among_friends(&mut clients, &mut rng(5)).await;
    let over = clients[1].last_view().clone();
    assert_eq!(over["status"], "match-over");
    let version = over["version"].as_u64().unwrap();
    let rematch = json!({"type": "rematch", "version": version});
    clients[0].send(rematch.clone()).await;
    // The other friend is told who asked; nothing is dealt yet.
    let seats = clients[1].next_of("seats").await;
    assert_eq!(seats["seats"][0]["ready"], true, "{seats}");
    assert_eq!(seats["seats"][1]["ready"], false, "{seats}");
    clients[0].send(json!({"type": "resync"})).await;
    let still = clients[0].next_of("view").await;
    assert_eq!(still["version"].as_u64(), Some(version), "{still}");
    assert_eq!(still["status"], "match-over");
    // The second ask starts it, for both, with nobody ready any more.
    clients[1].send(rematch).await;
    for client in clients.iter_mut() {
        let fresh = client.next_of("view").await;
        assert_eq!(fresh["status"], "playing");
        assert_eq!(fresh["version"].as_u64(), Some(version + 1));
        assert!(fresh["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["ready"] == false));
    }
}

#[actix_rt::test]
async fn the_process_reads_its_settings_and_stops_cleanly_on_sigterm() {
    let port = free_port();
    let dir = std::env::temp_dir().join(format!("chaikhana-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("settings.toml");
    std::fs::write(&file, "bot_delay_ms = 3\nlisten = \"127.0.0.1:1\"\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaikhana"))
        .args(["serve", "--config", file.to_str().unwrap()])
        .env("CHAIKHANA_LISTEN", format!("127.0.0.1:{port}"))
        .env("CHAIKHANA_LOG_FORMAT", "json")
        .env("CHAIKHANA_DATA_DIR", fresh_data_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let serving = lines
        .by_ref()
        .map(|line| line.expect("a log line"))
        .inspect(|line| {
            serde_json::from_str::<serde_json::Value>(line).expect("log lines are JSON");
        })
        .find(|line| line.contains("serving"))
        .expect("the server says where it serves");
    assert!(serving.contains(&format!("127.0.0.1:{port}")), "{serving}");
    let rest = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<String>>());

    let server_base = format!("http://127.0.0.1:{port}");
    let body = json!({"game": "ganjifa", "opponents": "computer"}).to_string();
    let (status, answer) = post(&server_base, "/api/tables", &body).await;
    assert_eq!(status, 201, "the environment's address serves: {answer}");
    let mut client = Client::connect(
        &server_base,
        answer["table"].as_str().unwrap(),
        answer["token"].as_str().unwrap(),
    )
    .await
    .unwrap();
    assert_eq!(client.next_of("view").await["game"], "ganjifa");

    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert_eq!(client.close_code().await, Some(1001));
    let mut waited = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(waited < 100, "the server did not exit after SIGTERM");
        actix_rt::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
    };
    assert!(status.success(), "{status}");
    let logged = rest.join().unwrap();
    assert!(
        logged.iter().any(|l| l.contains("shutting down")),
        "{logged:?}"
    );
    let token = answer["token"].as_str().unwrap();
    assert!(
        logged.iter().all(|l| !l.contains(token)),
        "a seat token was logged"
    );
    std::fs::remove_dir_all(&dir).ok();
}
