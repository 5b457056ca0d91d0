//! Fair deals over real WebSockets: the table commits to its own order before any number comes; a deal
//! waits for the numbers of the people seated and is their shuffle of that order (a computer gives
//! none); the reveal holds the numbers and no seed or secret; and the page's own check (`verify.js`,
//! run in Node.js) agrees with the server on the shared vectors, passes honest deals of the three
//! games from every seat and a watcher, and gives the right words to forged ones.

mod honest_friends;
mod numbers;
mod page_check;
mod verify_js;

use serde_json::{json, Value};

use crate::support::pledging::Pledger;
use crate::support::*;
use verify_js::{first_deal, node, page_line};

/// Whether Node.js is installed to run the page's own `what` (see `support::have_program`).
fn have_node(what: &str) -> bool {
    have_program("node", &format!("Node.js runs the page's own {what}"))
}

/// The number the environment variable `name` holds, or `default`.
fn from_env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// The next view `wanted` takes on `client`, read as `page` reads it (every frame before it answered).
async fn view_where(
    page: &mut Pledger,
    client: &mut Client,
    rng: &mut Rng,
    wanted: impl Fn(&Value) -> bool,
) -> Value {
    loop {
        let view = page.next_view(client, rng).await;
        if wanted(&view) {
            return view;
        }
    }
}

/// Plays a match against the computer as a page does, pledging and then giving a number for every
/// coming deal; what the page gave.
async fn play_adding_numbers(client: &mut Client, rng: &mut Rng) -> Pledger {
    let mut page = Pledger::default();
    play_adding_numbers_as(client, &mut page, rng).await;
    page
}

async fn play_adding_numbers_as(client: &mut Client, page: &mut Pledger, rng: &mut Rng) {
    loop {
        let view = page.next_view(client, rng).await;
        let version = view["version"].as_u64().unwrap();
        match view["status"].as_str().unwrap() {
            "match-over" => return,
            "deal-over" => {
                client
                    .send(json!({ "type": "next-deal", "version": version }))
                    .await
            }
            "playing" if !view["actions"].as_array().unwrap().is_empty() => {
                client.send(action(version, "a", &choose(&view, rng))).await;
            }
            _ => {}
        }
    }
}
