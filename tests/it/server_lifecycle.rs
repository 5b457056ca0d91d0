//! A table's life: the seat hold, a computer table ending when its player has gone, a freed seat at a
//! friends table, a rematch (among friends, once all have asked); and the process itself: settings
//! from the environment and a file, and a clean stop on SIGTERM that closes every socket with 1001.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::json;

use crate::support::cluster::free_port;
use crate::support::*;

#[actix_rt::test]
async fn a_computer_table_ends_when_its_player_stays_away_past_the_hold() {
    let server = TestServer::start(|s| s.seat_hold_secs = 1);
    let me = server.open("panjpar", "computer", None).await;
    let client = server.connect(&me).await;
    client.close().await;
    actix_rt::time::sleep(Duration::from_millis(400)).await;
    // Within the hold the seat is kept: the token opens a socket again.
    let back = server.connect(&me).await;
    back.close().await;
    actix_rt::time::sleep(Duration::from_millis(2_500)).await;
    let (status, _) = server.get(&format!("/t/{}", me.table)).await;
    assert_eq!(status, 404, "the table closed after the hold");
    assert!(Client::connect(&server.base, &me.table, &me.token)
        .await
        .is_err());
}

#[actix_rt::test]
async fn a_friends_seat_left_past_the_hold_is_free_for_the_link() {
    let server = TestServer::start(|s| s.seat_hold_secs = 1);
    let (table, mut clients) = seat_friends(&server, "panjpar", 2, json!(3)).await;
    let guest = clients.pop().unwrap();
    guest.close().await;
    let seats = clients[0].next_of("seats").await;
    assert_eq!(seats["seats"][1]["connected"], false);
    actix_rt::time::sleep(Duration::from_millis(2_500)).await;
    let (status, answer) = server.join(&table).await;
    assert_eq!(status, 201, "{answer}");
    assert_eq!(answer["seat"], 1);
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
