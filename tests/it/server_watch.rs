//! Watchers over the wire. A seat asks for its table's watch link; the link's id is not the table's,
//! opens neither the seat page nor a seat, and a watcher's socket needs no token. A watcher follows a
//! whole friends match live: every view it is sent is exactly what no seat's view shows (the view of
//! nobody, rebuilt here from the deal's seed and actions), with no action open, and the seats see how
//! many watch. A watcher cannot act, talk, name itself or send phrases; it may resync and replay a
//! finished deal. The table takes no more watchers than its cap.

use serde_json::{json, Value};

use crate::support::*;
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;
use chaikhana_rules::games::{ganjifa::Ganjifa, panjpar::Panjpar, pishe_pasha::PishePasha};

#[actix_rt::test]
async fn the_watch_link_is_for_watching_only() {
    let server = TestServer::start(|_| {});
    let host = server.open("panjpar", "friends", Some(json!(1))).await;
    let watch = server.watch_id(&host).await;
    assert_ne!(watch, host.table);
    assert_eq!(watch.len(), 22);
    // The same link every time it is asked for.
    assert_eq!(server.watch_id(&host).await, watch);
    // It opens the table's page for a watcher, but is no table id: no seat page, no seat.
    let (status, page) = server.get(&format!("/w/{watch}")).await;
    assert_eq!(status, 200);
    assert!(page.contains("table.js"), "{page}");
    assert_eq!(server.get(&format!("/t/{watch}")).await.0, 404);
    assert_eq!(server.join(&watch).await.0, 404);
    // A link of no table, or of no shape, is a 404, and so is its socket.
    let mut other = watch.clone().into_bytes();
    other[3] = if other[3] == b'A' { b'B' } else { b'A' };
    let other = String::from_utf8(other).unwrap();
    assert_eq!(server.get(&format!("/w/{other}")).await.0, 404);
    assert_eq!(server.get("/w/nothing").await.0, 404);
    assert!(Client::watch(&server.base, &other).await.is_err());
    // Only a seat's token gets the link.
    for body in [
        json!({"token": "0000000000000000000000"}).to_string(),
        json!({"token": "short"}).to_string(),
        json!({"token": host.token, "seat": 1}).to_string(),
        String::new(),
    ] {
        let (status, answer) = server
            .post(&format!("/api/tables/{}/watch", host.table), &body)
            .await;
        assert!(status == 403 || status == 400, "{body}: {status} {answer}");
        assert!(answer["message"].is_string());
    }
}

/// Plays a friends match of `G` with a watcher following; checks every frame the watcher was sent.
async fn a_watcher_follows<G: Game>(length: Value, seed: u64) {
    let server = TestServer::start(|s| s.bot_delay_ms = 1);
    let host = server.open(G::NAME, "friends", Some(length)).await;
    let watch = server.watch_id(&host).await;
    let mut watcher = Client::watch(&server.base, &watch)
        .await
        .expect("a watcher's socket");
    let first = watcher.next_of("view").await;
    assert!(first["seat"].is_null(), "{first}");
    assert_eq!(first["status"], "waiting");
    assert_eq!(first["watching"], 1);
    // The seats fill; each sees one watcher.
    let seated = fill_seats(&server, host.clone(), G::SEATS).await;
    let mut clients = Vec::new();
    for seat in &seated {
        clients.push(server.connect(seat).await);
    }
    let following = follow_to_the_end(watcher);
    play_among_friends(&mut clients, &mut rng(seed)).await;
    for client in &clients {
        let view = client
            .received
            .iter()
            .find(|f| f["type"] == "view")
            .unwrap();
        assert_eq!(view["watching"], 1, "{view}");
    }
    let mut watcher = following.await.expect("the watcher followed the match");
    // Asking to play, talk or name itself is refused; the table does not move.
    let record = server.record(&host.table).await;
    for ask in [
        json!({"type": "action", "version": record.version, "action": {"type": "pick-up"}}),
        json!({"type": "rematch", "version": record.version}),
        json!({"type": "phrase", "id": "good-game"}),
        json!({"type": "name", "name": "Spy"}),
        json!({"type": "voice", "on": true}),
    ] {
        watcher.send(ask.clone()).await;
        let error = watcher.next_of("error").await;
        assert_eq!(error["code"], "watchers-cannot-act", "{ask}: {error}");
    }
    // A resync and a replay answer as a watcher.
    watcher.send(json!({"type": "resync"})).await;
    let again = watcher.next_of("view").await;
    assert!(again["seat"].is_null() && again["actions"] == json!([]));
    watcher.send(json!({"type": "replay", "step": 1})).await;
    let replay = watcher.next_of("replay").await;
    assert!(replay["seat"].is_null(), "{replay}");
    assert_eq!(server.record(&host.table).await.version, record.version);
    // Nothing the watcher was sent names the table: its id would open the seat link.
    for frame in &watcher.received {
        assert!(!frame.to_string().contains(&host.table), "{frame}");
    }
    // Every view the watcher was sent is the view of nobody at that version, with no action open.
    let mut checked = 0;
    for frame in watcher.received.iter().filter(|f| f["type"] == "view") {
        let version = frame["version"].as_u64().unwrap();
        assert!(frame["seat"].is_null(), "{frame}");
        assert_eq!(frame["actions"], json!([]), "{frame}");
        if frame["view"].is_null() {
            continue;
        }
        let history = deal_history::<G>(&record, version);
        let truth = history.last().expect("a deal at that version");
        let nobody = serde_json::to_value(G::view(truth, None)).unwrap();
        assert_eq!(frame["view"], nobody, "{} at version {version}", G::NAME);
        // And no seat's own view, whose hand or cards nobody else may see.
        for seat in Seat::all(G::SEATS) {
            let own = serde_json::to_value(G::view(truth, Some(seat))).unwrap();
            if own != nobody {
                assert_ne!(frame["view"], own);
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} views were checked");
    eprintln!("{}: the watcher's {checked} views checked", G::NAME);
}

#[actix_rt::test]
async fn a_watcher_follows_a_panjpar_match() {
    a_watcher_follows::<Panjpar>(json!(1), 11).await;
}

#[actix_rt::test]
async fn a_watcher_follows_a_pishe_pasha_deal() {
    a_watcher_follows::<PishePasha>(json!("one-deal"), 12).await;
}

#[actix_rt::test]
async fn a_watcher_follows_a_ganjifa_match() {
    a_watcher_follows::<Ganjifa>(json!(3), 13).await;
}

#[actix_rt::test]
async fn a_table_takes_no_more_watchers_than_its_cap() {
    let server = TestServer::start(|s| s.watchers_per_table = 2);
    let host = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut player = server.connect(&host).await;
    player.next_of("view").await;
    let watch = server.watch_id(&host).await;
    let mut watchers = Vec::new();
    for n in 1..=2 {
        let mut watcher = Client::watch(&server.base, &watch).await.unwrap();
        assert_eq!(watcher.next_of("view").await["watching"], n);
        watchers.push(watcher);
    }
    // The seat hears of each watcher that came.
    loop {
        let seats = player.next_of("seats").await;
        if seats["watching"] == 2 {
            break;
        }
    }
    let mut third = Client::watch(&server.base, &watch).await.unwrap();
    assert_eq!(third.close_code().await, Some(1008));
    // One leaves; another may come (once the table has heard it went).
    watchers.pop().unwrap().close().await;
    for _ in 0..50 {
        let mut again = Client::watch(&server.base, &watch).await.unwrap();
        if let Some(view) = again.next().await.filter(|f| f["type"] == "view") {
            assert_eq!(view["watching"], 2);
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no watcher was let in after one left");
}
