//! Play across nodes: a friends Panjpar table with a seat on each of two nodes, played to a version,
//! and a seat's view at a version.

use serde_json::{json, Value};

use super::Node;
use crate::support::{action, choose, Client, Rng, Seated};

/// A friends Panjpar table opened on `host`, its second player joined through `guest`; the clients
/// connect to the node each joined through.
pub async fn friends_across(host: &Node, guest: &Node) -> (Vec<Seated>, Vec<Client>) {
    friends_across_for(host, guest, json!(1)).await
}

/// The same, for a match of `length` (deals to win).
pub async fn friends_across_for(
    host: &Node,
    guest: &Node,
    length: Value,
) -> (Vec<Seated>, Vec<Client>) {
    let first = host.open("panjpar", "friends", length).await;
    let second = guest.join(&first.table).await;
    let clients = vec![host.connect(&first).await, guest.connect(&second).await];
    (vec![first, second], clients)
}

/// Plays until the table's version reaches `until` (mid-deal); answers every seat's last view.
pub async fn play_until(clients: &mut [Client], rng: &mut Rng, until: u64) -> Vec<Value> {
    let mut target = 1;
    loop {
        let mut views = Vec::new();
        for client in clients.iter_mut() {
            views.push(loop {
                let view = client.next_of("view").await;
                if view["version"].as_u64().unwrap() >= target {
                    break view;
                }
            });
        }
        if target >= until && views[0]["status"] == "playing" {
            return views;
        }
        let acting = (0..clients.len())
            .find(|i| !views[*i]["actions"].as_array().unwrap().is_empty())
            .expect("a seat acts mid-deal");
        let chosen = choose(&views[acting], rng);
        clients[acting].send(action(target, "x", &chosen)).await;
        target += 1;
    }
}

/// The latest view each client gets within the time left, at the version wanted.
pub async fn view_at(client: &mut Client, version: u64) -> Value {
    loop {
        let view = client.next_of("view").await;
        if view["version"].as_u64() == Some(version) {
            return view;
        }
        assert!(
            view["version"].as_u64().unwrap() < version,
            "a version went missing: {view}"
        );
    }
}
