//! Playing as a test does: action frames, seeded random choices among the actions a view offers, a
//! match against the computer played to its end (its frames checked against the truth), and a
//! watcher followed to the match's end.

use serde_json::{json, Value};

use super::{assert_frames_hide_the_truth, Client, TestServer};

/// An action frame.
pub fn action(version: u64, id: &str, action: &Value) -> Value {
    json!({ "type": "action", "version": version, "id": id, "action": action })
}

pub type Rng = rand_chacha::ChaCha8Rng;

/// A seeded random source for a test's choices.
pub fn rng(seed: u64) -> Rng {
    use rand::SeedableRng;
    Rng::seed_from_u64(seed)
}

/// One of the actions a view offers, at random.
pub fn choose(view: &Value, rng: &mut Rng) -> Value {
    use rand::seq::SliceRandom;
    view["actions"]
        .as_array()
        .expect("a view lists its actions")
        .choose(rng)
        .cloned()
        .expect("a seat to act has an action")
}

/// Plays a computer table's match to its end, picking among the actions each view offers; returns how
/// many deals were played.
pub async fn play_against_computer(client: &mut Client, rng: &mut Rng) -> usize {
    let mut deals = 0;
    loop {
        let view = client.next_of("view").await;
        let version = view["version"].as_u64().unwrap();
        assert_eq!(view["kind"], "computer");
        match view["status"].as_str().unwrap() {
            "match-over" => return deals + 1,
            "deal-over" => {
                deals += 1;
                client
                    .send(json!({ "type": "next-deal", "version": version }))
                    .await;
            }
            "playing" if !view["actions"].as_array().unwrap().is_empty() => {
                client.send(action(version, "a", &choose(&view, rng))).await;
                let ack = client.next_ack().await;
                assert_eq!(ack["version"].as_u64(), Some(version + 1));
            }
            _ => {}
        }
    }
}

/// A whole match of `G` against the computer, played with the actions offered (chosen from `seed`),
/// and every frame the player's seat received checked against the truth by `leaks`. Returns the
/// player's socket, with everything it received, and how many deals were played.
pub async fn computer_match<G: chaikhana_rules::game::Game>(
    server: &TestServer,
    length: Value,
    seed: u64,
    leaks: impl Fn(&[G::State], chaikhana_rules::cards::Seat, &Value) -> Option<String>,
) -> (Client, usize) {
    let me = server.open(G::NAME, "computer", Some(length)).await;
    assert_eq!(me.seat, 0);
    let mut client = server.connect(&me).await;
    let deals = play_against_computer(&mut client, &mut rng(seed)).await;
    let record = server.record(&me.table).await;
    assert_frames_hide_the_truth::<G>(&record, 0, &client.received, leaks);
    (client, deals)
}

/// The names of a JSON object's fields, sorted.
pub fn field_names(object: &Value) -> Vec<&str> {
    let mut names: Vec<&str> = object
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    names.sort_unstable();
    names
}

/// Reads a watcher's frames until the match is over, on a task of its own (so that its queue never
/// fills while the seats play), and gives the socket back with everything it received.
pub fn follow_to_the_end(mut watcher: Client) -> tokio::task::JoinHandle<Client> {
    actix_rt::spawn(async move {
        loop {
            let frame = watcher
                .next()
                .await
                .expect("the watcher's socket stays open");
            if frame["type"] == "view" && frame["status"] == "match-over" {
                return watcher;
            }
        }
    })
}
