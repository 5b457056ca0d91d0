//! Hidden information over the wire, at scale: many random friends matches of each game, with seats
//! dropping and reconnecting, asking to resync, acting out of turn and on stale versions, through deal
//! ends and rematches. Every frame each seat received, on every socket it had, is checked against the
//! truth rebuilt from the deal seeds: nothing it could not know, and the deal's seal kept until the end.
//!
//! `CHAIKHANA_HIDDEN_MATCHES` sets the matches per game (default 12; the README's Reliability section
//! gives the command that ran 1,000 of each).

use rand::Rng;
use serde_json::{json, Value};

use crate::support::leaks::*;
use crate::support::*;
use chaikhana::table::TableRecord;
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;
use chaikhana_rules::games::ganjifa::Ganjifa;

fn matches_per_game() -> usize {
    std::env::var("CHAIKHANA_HIDDEN_MATCHES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(12)
}

/// What one seat went through: its current socket and the frames of the sockets it closed.
struct Player {
    seated: Seated,
    client: Client,
    earlier: Vec<Value>,
    reconnects: usize,
}

impl Player {
    fn frames(&self) -> Vec<Value> {
        let mut all = self.earlier.clone();
        all.extend(self.client.received.iter().cloned());
        all
    }

    /// The next view at `version` or later.
    async fn view_from(&mut self, version: u64) -> Value {
        loop {
            let view = self.client.next_of("view").await;
            if view["version"].as_u64().unwrap() >= version {
                return view;
            }
        }
    }
}

#[derive(Default)]
struct Tally {
    matches: usize,
    views: usize,
    frames: usize,
    reveals: usize,
    reconnects: usize,
    refusals: usize,
}

/// Plays one friends match of `G` to its end with disruptions drawn from `seed`, then checks every
/// frame of every seat.
/// A game's check of what a frame may not show (see `support::leaks`).
type Leaks<G> = fn(&[<G as Game>::State], Seat, &Value) -> Option<String>;

async fn one_match<G: Game>(
    server: &TestServer,
    length: Value,
    seed: u64,
    leaks: Leaks<G>,
    tally: &mut Tally,
) {
    let mut rng = rng(seed);
    let seated = take_seats(server, G::NAME, G::SEATS, length).await;
    let table = seated[0].table.clone();
    let mut players = Vec::new();
    for seat in seated {
        let client = server.connect(&seat).await;
        players.push(Player {
            seated: seat,
            client,
            earlier: Vec::new(),
            reconnects: 0,
        });
    }
    let mut target = 1;
    // The first match's record, taken before the rematch starts the table's record afresh.
    let mut first_match: Option<(u64, chaikhana::table::TableRecord)> = None;
    loop {
        let mut views = Vec::new();
        for player in players.iter_mut() {
            views.push(player.view_from(target).await);
        }
        for view in &views {
            assert_eq!(view["version"].as_u64(), Some(target));
        }
        let acting = (0..players.len())
            .find(|i| !views[*i]["actions"].as_array().unwrap().is_empty())
            .unwrap_or(0);
        let chosen = match views[acting]["status"].as_str().unwrap() {
            "playing" => Some(choose(&views[acting], &mut rng)),
            _ => None,
        };
        // A disruption, sometimes, before the real move; each leaves the table where it was.
        let who = rng.gen_range(0..players.len());
        match rng.gen_range(0..100) {
            0..=4 => {
                // A seat drops and comes back with its token.
                let fresh = server.connect(&players[who].seated).await;
                let old = std::mem::replace(&mut players[who].client, fresh);
                players[who].earlier.extend(old.received.iter().cloned());
                drop(old);
                players[who].reconnects += 1;
                let again = players[who].view_from(target).await;
                assert_eq!(again["version"].as_u64(), Some(target), "the same version");
            }
            5..=9 => {
                players[who].client.send(json!({ "type": "resync" })).await;
                players[who].view_from(target).await;
            }
            10..=14 if target > 1 => {
                // A replayed or stale action: refused, and the current view comes with the refusal.
                let stale = action(target - 1, "stale", chosen.as_ref().unwrap_or(&json!({})));
                players[who].client.send(stale).await;
                let error = players[who].client.next_of("error").await;
                assert_eq!(error["code"], "stale-version");
                tally.refusals += 1;
            }
            15..=19 if chosen.is_some() && who != acting => {
                // Another seat plays the acting seat's move.
                let frame = action(target, "theirs", chosen.as_ref().unwrap());
                players[who].client.send(frame).await;
                let error = players[who].client.next_of("error").await;
                assert!(error["message"].is_string());
                tally.refusals += 1;
            }
            _ => {}
        }
        match views[0]["status"].as_str().unwrap() {
            "match-over" if first_match.is_some() => break,
            "match-over" => {
                first_match = Some((target, server.record(&table).await));
                let rematch = json!({ "type": "rematch", "version": target });
                for player in players.iter_mut() {
                    player.client.send(rematch.clone()).await;
                }
            }
            "deal-over" => {
                let next = json!({ "type": "next-deal", "version": target });
                for player in players.iter_mut() {
                    player.client.send(next.clone()).await;
                }
            }
            "playing" => {
                let frame = action(target, "x", chosen.as_ref().unwrap());
                players[acting].client.send(frame).await;
            }
            other => panic!("unexpected status {other}"),
        }
        target += 1;
    }
    let rematch = server.record(&table).await;
    let (over_at, first) = first_match.expect("the first match ended");
    assert!(
        rematch.deals[0].dealt_at > over_at,
        "the record holds the match in play"
    );
    for (seat, player) in players.iter().enumerate() {
        let frames = player.frames();
        let before = |f: &&Value| f["version"].as_u64().is_none_or(|v| v <= over_at);
        let (earlier, later): (Vec<Value>, Vec<Value>) =
            frames.iter().cloned().partition(|f| before(&f));
        for (record, frames) in [(&first, &earlier), (&rematch, &later)] {
            assert_frames_hide_the_truth::<G>(record, seat, frames, leaks);
            tally.reveals += check_deal_seal::<G>(record, frames);
        }
        tally.views += frames.iter().filter(|f| f["type"] == "view").count();
        tally.frames += frames.len();
        tally.reconnects += player.reconnects;
    }
    tally.matches += 1;
}

/// Many matches of `G` among friends who reconnect, send stale moves and play each other's, every
/// frame checked against the truth; run for every game by `each_game`.
pub async fn many_matches<G: Tested>() {
    let (length, leaks): (Value, Leaks<G>) = (G::short(), G::leaks);
    let server = TestServer::start(|s| {
        s.bot_delay_ms = 1;
    });
    let mut tally = Tally::default();
    let n = matches_per_game();
    for i in 0..n {
        one_match::<G>(&server, length.clone(), 1_000 + i as u64, leaks, &mut tally).await;
    }
    assert_eq!(tally.matches, n);
    assert!(
        tally.reveals >= n * G::SEATS,
        "every seat saw its deals revealed"
    );
    eprintln!(
        "{}: {} matches, {} frames received ({} views) checked, {} deal reveals verified, {} reconnects, {} refusals",
        G::NAME,
        tally.matches,
        tally.frames,
        tally.views,
        tally.reveals,
        tally.reconnects,
        tally.refusals
    );
}

/// The frames `frames` sent during `deal` of `record` and at its end (up to the next deal).
fn frames_of_deal<'a>(record: &TableRecord, index: usize, frames: &'a [Value]) -> Vec<&'a Value> {
    let from = record.deals[index].dealt_at;
    let until = record.deals.get(index + 1).map_or(u64::MAX, |d| d.dealt_at);
    frames
        .iter()
        .filter(|f| f["type"] == "view")
        .filter(|f| {
            f["version"]
                .as_u64()
                .is_some_and(|v| v >= from && v < until)
        })
        .collect()
}

#[actix_rt::test]
async fn a_card_played_face_down_is_never_named_to_a_seat_that_did_not_see_it() {
    // Ganjifa matches among friends until talafas have gone face down; for every other seat that
    // never saw such a card in play, no frame names it: not during the deal, not in its reveal.
    // Once the match is over, every step of every deal is replayed to each seat and to a watcher:
    // a replay names no more than play did, its `action` included.
    let mut hidden = 0;
    for seed in 0..40 {
        let server = TestServer::start(|_| {});
        let (host, mut clients) = seat_friends_with_host(&server, "ganjifa", 3, json!(3)).await;
        let table = host.table.clone();
        play_among_friends(&mut clients, &mut rng(seed)).await;
        let watch = server.watch_id(&host).await;
        let record = server.record(&table).await;
        let mut watcher = Client::watch(&server.base, &watch)
            .await
            .expect("a watcher");
        for (index, deal) in record.deals.iter().enumerate() {
            for step in 1..=deal.actions.len() {
                let ask = json!({"type": "replay", "deal": index, "step": step});
                for client in clients.iter_mut().chain([&mut watcher]) {
                    client.send(ask.clone()).await;
                    client.next_of("replay").await;
                }
            }
        }
        for (index, deal) in record.deals.iter().enumerate() {
            let (mut state, _, _) = deal.dealt::<Ganjifa>();
            for (seat, action, _) in &deal.actions {
                Ganjifa::apply(
                    &mut state,
                    *seat,
                    &serde_json::from_value(action.clone()).unwrap(),
                )
                .unwrap();
            }
            let concealed = Ganjifa::concealed_at_end(&state);
            let viewers = (0..clients.len()).map(|s| Some(Seat::new(s))).chain([None]);
            for (viewer, client) in viewers.zip(clients.iter().chain([&watcher])) {
                let seen = Ganjifa::seen_at_end(&state, viewer);
                let frames = frames_of_deal(&record, index, &client.received);
                // The watcher came after the match: it was sent the last deal's end only.
                assert!(
                    viewer.is_none() || frames.iter().any(|f| !f["deal"]["reveal"].is_null()),
                    "a reveal"
                );
                let replays = client
                    .received
                    .iter()
                    .filter(|f| f["type"] == "replay" && f["replay"]["deal"] == index);
                assert_eq!(
                    replays.clone().count(),
                    deal.actions.len(),
                    "every step replayed"
                );
                let text: Vec<String> = frames
                    .into_iter()
                    .chain(replays)
                    .map(|f| f.to_string())
                    .collect();
                for card in concealed.iter().filter(|c| !seen.contains(c)) {
                    let quoted = format!("\"{card}\"");
                    assert!(
                        text.iter().all(|t| !t.contains(&quoted)),
                        "{viewer:?} was sent {card}, played face down by another"
                    );
                    hidden += 1;
                }
            }
        }
        if hidden > 0 {
            return;
        }
    }
    panic!("no talafa went face down in 40 matches");
}

#[actix_rt::test]
async fn the_move_list_of_a_replay_names_no_card_its_viewer_never_saw() {
    // Ganjifa among friends: the first deal is played, the second dealt, and a watcher arrives. The
    // watcher and each seat ask for the replay of the deal that ended: its list of moves is the
    // record's, each told as its viewer may know it, and no card laid face down by another seat is
    // named to a viewer that never saw it, not even by the move that laid it.
    let mut hidden = 0;
    for seed in 0..60 {
        let server = TestServer::start(|_| {});
        let (host, mut clients) = seat_friends_with_host(&server, "ganjifa", 3, json!(3)).await;
        play_deals(&mut clients, 1, seed).await;
        let over = server.record(&host.table).await.version;
        for client in clients.iter_mut() {
            let next = json!({"type": "next-deal", "version": over});
            client.send(next).await;
        }
        for client in clients.iter_mut() {
            let dealt = loop {
                let view = client.next_of("view").await;
                if view["version"].as_u64().unwrap() > over {
                    break view;
                }
            };
            assert_eq!(dealt["status"], "playing");
        }
        let record = server.record(&host.table).await;
        assert_eq!(record.deals.len(), 2, "the second deal is in play");
        let watch = server.watch_id(&host).await;
        let mut watcher = Client::watch(&server.base, &watch)
            .await
            .expect("a watcher");
        let deal = &record.deals[0];
        let (mut state, _, _) = deal.dealt::<Ganjifa>();
        let mut actions = Vec::new();
        for (seat, action, _) in &deal.actions {
            let action = serde_json::from_value(action.clone()).unwrap();
            Ganjifa::apply(&mut state, *seat, &action).unwrap();
            actions.push((*seat, action));
        }
        let concealed = Ganjifa::concealed_at_end(&state);
        let viewers = (0..clients.len()).map(|s| Some(Seat::new(s))).chain([None]);
        for (viewer, client) in viewers.zip(clients.iter_mut().chain([&mut watcher])) {
            // The deal in play is no replay; the one before it is, to seats and watchers alike.
            client
                .send(json!({"type": "replay", "deal": 1, "step": 0}))
                .await;
            assert_eq!(client.next_of("error").await["code"], "deal-in-play");
            client.send(json!({"type": "replay", "step": 0})).await;
            let frame = client.next_of("replay").await;
            assert_eq!(frame["replay"]["deal"], 0, "{viewer:?}");
            assert_eq!(frame["replay"]["deals"], 1, "{viewer:?}");
            let moves = frame["replay"]["moves"].as_array().unwrap();
            assert_eq!(moves.len(), actions.len());
            for (told, (by, action)) in moves.iter().zip(&actions) {
                assert_eq!(told["by"], by.index());
                let expected = Ganjifa::action_told_to(action, *by, viewer);
                assert_eq!(told["action"], json!(expected), "{viewer:?}");
            }
            let list = frame["replay"]["moves"].to_string();
            let seen = Ganjifa::seen_at_end(&state, viewer);
            for card in concealed.iter().filter(|c| !seen.contains(c)) {
                assert!(
                    !list.contains(&format!("\"{card}\"")),
                    "{viewer:?}'s move list names {card}, laid face down by another"
                );
                hidden += 1;
            }
        }
        if hidden > 0 {
            return;
        }
    }
    panic!("no talafa went face down in the first deal of 60 matches");
}
