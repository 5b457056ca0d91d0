//! Honest deals among friends judged by the page's check from every seat and a watcher, each seat's
//! page pledging and giving its numbers: one deal of each game, and many with draws, pickups, stock
//! turns and blind leads.

use serde_json::{json, Value};

use chaikhana_rules::game::Game;
use chaikhana_rules::games::{ganjifa::Ganjifa, panjpar::Panjpar, pishe_pasha::PishePasha};

use super::{first_deal, from_env, have_node, page_line, view_where};
use crate::support::pledging::Pledger;
use crate::support::*;

/// Seats friends at a `G` table with a watcher, every seat's page pledging and giving its numbers,
/// and plays to the end of the first deal; each seat's page, the seats' and the watcher's sockets.
async fn friends_first_deal<G: Game>(
    length: Value,
    seed: u64,
) -> (Vec<Client>, Vec<Pledger>, Client) {
    let server = TestServer::start(|s| s.shuffle_wait_ms = 600_000);
    let host = server.open(G::NAME, "friends", Some(length)).await;
    let watch = server.watch_id(&host).await;
    let mut clients = vec![server.connect(&host).await];
    for _ in 1..G::SEATS {
        let guest = join_table(&server.base, &host.table).await;
        clients.push(server.connect(&guest).await);
    }
    let mut watcher = Client::watch(&server.base, &watch).await.unwrap();
    let mut rng = rng(seed);
    let mut pages: Vec<Pledger> = (0..G::SEATS).map(|_| Pledger::default()).collect();
    // Each seat's page pledges; once all have, each is shown the closed list and gives its number;
    // the deal comes with the last one. Every seat reads on until its first view of the deal.
    for given in [false, true] {
        for (page, client) in pages.iter_mut().zip(clients.iter_mut()) {
            page.until(client, &mut rng, given).await;
        }
    }
    let mut views = Vec::new();
    for (page, client) in pages.iter_mut().zip(clients.iter_mut()) {
        views.push(view_where(page, client, &mut rng, |v| v["status"] == "playing").await);
    }
    let mut target = views[0]["version"].as_u64().unwrap();
    while views[0]["status"] == "playing" {
        let acting: Vec<usize> = (0..clients.len())
            .filter(|i| !views[*i]["actions"].as_array().unwrap().is_empty())
            .collect();
        assert_eq!(acting.len(), 1, "exactly one seat acts");
        let chosen = choose(&views[acting[0]], &mut rng);
        clients[acting[0]].send(action(target, "x", &chosen)).await;
        // The page's board tells its deal check what it chose, as it sends it (table.js `acted`).
        clients[acting[0]]
            .received
            .push(json!({ "type": "acted", "action": chosen }));
        target += 1;
        views.clear();
        for (page, client) in pages.iter_mut().zip(clients.iter_mut()) {
            let at_target = |v: &Value| v["version"].as_u64().unwrap() >= target;
            views.push(view_where(page, client, &mut rng, at_target).await);
        }
    }
    loop {
        let frame = watcher.next_of("view").await;
        if !frame["deal"]["reveal"].is_null() {
            break;
        }
    }
    (clients, pages, watcher)
}

/// Plays the first deal of a friends table of `G` (see [`friends_first_deal`]) and has the page's check
/// judge it from every seat and from the watcher; skipped without Node.js.
async fn honest_friends_deal_checks_from_every_seat_and_a_watcher<G: Game>(
    length: Value,
    seed: u64,
) {
    if !have_node("check") {
        return;
    }
    let (clients, pages, watcher) = friends_first_deal::<G>(length, seed).await;
    for (seat, (client, page)) in clients.iter().zip(&pages).enumerate() {
        let line = page_line(
            &first_deal(client),
            page.kept("page", json!({})),
            "en",
            false,
        );
        // A Ganjifa page may be unable to judge what cards hidden from it decide (a reshuffle for
        // a void deal, a blind lead after face-down cards): "partly", never more, never less.
        let partly = G::NAME == "ganjifa" && line.starts_with("partly|");
        if !(line.starts_with("fair|") || partly) {
            if let Ok(dir) = std::env::var("CHAIKHANA_FAIR_DUMP") {
                let frames = serde_json::to_string(&first_deal(client)).unwrap();
                let at = format!("{dir}/{}-{seed}-{seat}", G::NAME);
                std::fs::write(format!("{at}.frames.json"), frames).unwrap();
                std::fs::write(format!("{at}.store.json"), page.kept("page", json!({}))).unwrap();
            }
        }
        assert!(
            line.starts_with("fair|✓ Fair deal") || partly,
            "{} seed {seed} seat {seat}: {line}",
            G::NAME
        );
    }
    let line = page_line(&first_deal(&watcher), "{}".into(), "en", true);
    assert!(
        line.starts_with("watched|✓ Watched deal checked"),
        "{} seed {seed} watcher: {line}",
        G::NAME
    );
}

#[actix_rt::test]
async fn an_honest_panjpar_deal_checks_from_every_seat_and_a_watcher() {
    honest_friends_deal_checks_from_every_seat_and_a_watcher::<Panjpar>(json!(1), 21).await;
}

#[actix_rt::test]
async fn an_honest_pishe_pasha_deal_checks_from_every_seat_and_a_watcher() {
    honest_friends_deal_checks_from_every_seat_and_a_watcher::<PishePasha>(json!("one-deal"), 22)
        .await;
}

#[actix_rt::test]
async fn an_honest_ganjifa_deal_checks_from_every_seat_and_a_watcher() {
    honest_friends_deal_checks_from_every_seat_and_a_watcher::<Ganjifa>(json!(3), 23).await;
}

#[actix_rt::test]
async fn honest_deals_with_draws_pickups_and_stock_turns_are_green_from_every_seat() {
    // Every card a page sees placed where the game's dealing puts it (Panjpar's draws and pickups,
    // Pishe Pasha's stock turns and turn-overs, Ganjifa's blind leads), over many honest deals
    // played through the server.
    // `CHAIKHANA_FAIR_REAL_DEALS` sets how many of each game (default 3); `CHAIKHANA_FAIR_DUMP`, a
    // folder, keeps the frames and storage of a page whose line is wrong, to follow them again.
    if !have_node("check") {
        return;
    }
    let deals: u64 = from_env("CHAIKHANA_FAIR_REAL_DEALS", 3);
    for seed in 100..100 + deals {
        honest_friends_deal_checks_from_every_seat_and_a_watcher::<Panjpar>(json!(1), seed).await;
        honest_friends_deal_checks_from_every_seat_and_a_watcher::<PishePasha>(
            json!("one-deal"),
            seed,
        )
        .await;
        honest_friends_deal_checks_from_every_seat_and_a_watcher::<Ganjifa>(json!(3), seed).await;
    }
}
