//! Friends tables of any of the three games: seated through the link, and played to the end with
//! the actions each view offers.

use std::collections::HashMap;

use serde_json::{json, Value};

use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;

use super::{action, assert_frames_hide_the_truth, choose, rng, Client, Rng, Seated, TestServer};

/// Opens a friends table of `game` and takes its other `seats - 1` seats through the link, in order;
/// one more player is then refused. Nobody is connected yet.
pub async fn take_seats(
    server: &TestServer,
    game: &str,
    seats: usize,
    length: Value,
) -> Vec<Seated> {
    let host = server.open(game, "friends", Some(length)).await;
    fill_seats(server, host, seats).await
}

/// Takes the other seats of the friends table `host` opened, through its link: every seat's
/// `Seated`, the host's first.
pub async fn fill_seats(server: &TestServer, host: Seated, seats: usize) -> Vec<Seated> {
    let mut seated = vec![host];
    for seat in 1..seats {
        seated.push(join_as(server, &seated[0].table, seat).await);
    }
    refuses_one_more(server, &seated[0].table).await;
    seated
}

/// A two-seat friends table of `game` with both seats taken and connected: host, guest and their
/// sockets.
pub async fn friends_pair(
    server: &TestServer,
    game: &str,
    length: Option<Value>,
) -> (Seated, Seated, Client, Client) {
    let host = server.open(game, "friends", length).await;
    let guest = join_as(server, &host.table, 1).await;
    let a = server.connect(&host).await;
    let b = server.connect(&guest).await;
    (host, guest, a, b)
}

/// Opens a friends table, seats every player through the link, and connects each as it sits (the
/// host first, while the table waits).
pub async fn seat_friends(
    server: &TestServer,
    game: &str,
    seats: usize,
    length: Value,
) -> (String, Vec<Client>) {
    let (host, clients) = seat_friends_with_host(server, game, seats, length).await;
    (host.table, clients)
}

/// [`seat_friends`], keeping the host's seat (for a watch link).
pub async fn seat_friends_with_host(
    server: &TestServer,
    game: &str,
    seats: usize,
    length: Value,
) -> (Seated, Vec<Client>) {
    let host = server.open(game, "friends", Some(length)).await;
    let mut clients = vec![server.connect(&host).await];
    for seat in 1..seats {
        clients.push(
            server
                .connect(&join_as(server, &host.table, seat).await)
                .await,
        );
    }
    refuses_one_more(server, &host.table).await;
    (host, clients)
}

/// Joins `table` through its link, which gives the next free seat, `seat`.
async fn join_as(server: &TestServer, table: &str, seat: usize) -> Seated {
    let (status, answer) = server.join(table).await;
    assert_eq!(status, 201, "{answer}");
    assert_eq!(answer["seat"].as_u64(), Some(seat as u64));
    Seated::from_answer(table, &answer)
}

/// One more player is refused a seat, and offered the table's watch link instead.
async fn refuses_one_more(server: &TestServer, table: &str) {
    let (status, answer) = server.join(table).await;
    assert_eq!(status, 409, "one more player is refused: {answer}");
    assert_eq!(answer["code"], "table-full", "{answer}");
    let watch = answer["watch"].as_str().unwrap_or_default();
    assert!(watch.starts_with("/w/"), "{answer}");
    let watcher = Client::watch(&server.base, watch.trim_start_matches("/w/")).await;
    assert!(watcher.is_ok(), "the watch link opens: {answer}");
}

/// A whole friends match of `G` for all its seats, played with the actions offered (chosen from
/// `seed`), and every frame each seat received checked against the truth by `leaks`. Returns the
/// table and its clients, with everything they received.
pub async fn friends_match<G: Game>(
    server: &TestServer,
    length: Value,
    seed: u64,
    leaks: impl Fn(&[G::State], Seat, &Value) -> Option<String> + Copy,
) -> (String, Vec<Client>) {
    let (table, mut clients) = seat_friends(server, G::NAME, G::SEATS, length).await;
    play_among_friends(&mut clients, &mut rng(seed)).await;
    let record = server.record(&table).await;
    for (seat, client) in clients.iter().enumerate() {
        assert_frames_hide_the_truth::<G>(&record, seat, &client.received, leaks);
    }
    (table, clients)
}

/// Plays a friends table's match to its end with one client per seat: after every change each seat
/// sees the same new version, and exactly one seat has actions.
pub async fn play_among_friends(clients: &mut [Client], rng: &mut Rng) {
    play_among_friends_from(clients, rng, 1).await;
}

/// The same, from the table's version `target` on (a match already under way).
pub async fn play_among_friends_from(clients: &mut [Client], rng: &mut Rng, mut target: u64) {
    loop {
        let mut views = Vec::new();
        for client in clients.iter_mut() {
            let view = loop {
                let view = client.next_of("view").await;
                if view["version"].as_u64().unwrap() >= target {
                    break view;
                }
            };
            views.push(view);
        }
        for view in &views {
            assert_eq!(view["version"].as_u64(), Some(target));
            assert_eq!(view["status"], views[0]["status"]);
            assert_eq!(view["kind"], "friends");
        }
        match views[0]["status"].as_str().unwrap() {
            "match-over" => return,
            "deal-over" => {
                // Every friend asks for it; the last one to ask deals it.
                for client in clients.iter_mut() {
                    client
                        .send(json!({ "type": "next-deal", "version": target }))
                        .await;
                }
            }
            "playing" => {
                let acting: Vec<usize> = (0..clients.len())
                    .filter(|i| !views[*i]["actions"].as_array().unwrap().is_empty())
                    .collect();
                assert_eq!(acting.len(), 1, "exactly one seat acts");
                let chosen = choose(&views[acting[0]], rng);
                clients[acting[0]].send(action(target, "x", &chosen)).await;
            }
            other => panic!("unexpected status {other}"),
        }
        target += 1;
    }
}

/// Plays a friends match to its end, or `deals` deals of it, with random offered actions (every
/// seat asking for the next deal), keeping every whole view frame each seat is sent by version.
pub async fn play_deals(
    clients: &mut [Client],
    deals: usize,
    seed: u64,
) -> Vec<HashMap<u64, Value>> {
    let mut rng = rng(seed);
    let mut seen: Vec<HashMap<u64, Value>> = vec![HashMap::new(); clients.len()];
    let mut target = 1;
    let mut ended = 0;
    loop {
        let mut views = Vec::new();
        for (i, client) in clients.iter_mut().enumerate() {
            let view = loop {
                let view = client.next_of("view").await;
                seen[i].insert(view["version"].as_u64().unwrap(), view.clone());
                if view["version"].as_u64().unwrap() >= target {
                    break view;
                }
            };
            views.push(view);
        }
        match views[0]["status"].as_str().unwrap() {
            "playing" => {}
            "deal-over" if ended + 1 < deals => {
                ended += 1;
                for client in clients.iter_mut() {
                    client
                        .send(json!({"type": "next-deal", "version": target}))
                        .await;
                }
                // The next deal is dealt once every seat has asked for it: one version on.
                target += 1;
                continue;
            }
            _ => return seen,
        }
        let acting = (0..clients.len())
            .find(|i| !views[*i]["actions"].as_array().unwrap().is_empty())
            .expect("a seat to act");
        let chosen = choose(&views[acting], &mut rng);
        clients[acting].send(action(target, "x", &chosen)).await;
        target += 1;
    }
}
