//! A player at a computer table of their own, who must be able to play on whatever an attacker does
//! to the server beside them.

use serde_json::json;

use crate::support::cluster::Node;
use crate::support::{action, choose, rng, Client, Rng, TestServer};

pub struct Bystander {
    client: Client,
    rng: Rng,
}

impl Bystander {
    pub async fn seat(server: &TestServer) -> Bystander {
        let seated = server.open("panjpar", "computer", Some(json!(5))).await;
        Bystander {
            client: server.connect(&seated).await,
            rng: rng(7),
        }
    }

    /// The same, at a server in a process of its own.
    pub async fn seat_at(node: &Node) -> Bystander {
        let seated = node.open("panjpar", "computer", json!(5)).await;
        Bystander {
            client: node.connect(&seated).await,
            rng: rng(7),
        }
    }

    /// Waits for the player's turn and makes one move, which the table acknowledges.
    pub async fn plays_a_move(&mut self) {
        loop {
            let view = self.client.next_of("view").await;
            let version = view["version"].as_u64().unwrap();
            if view["status"] == "playing" && !view["actions"].as_array().unwrap().is_empty() {
                let chosen = choose(&view, &mut self.rng);
                self.client.send(action(version, "b", &chosen)).await;
                let ack = self.client.next_ack().await;
                assert_eq!(ack["version"].as_u64(), Some(version + 1));
                return;
            }
            if view["status"] == "deal-over" {
                self.client
                    .send(json!({ "type": "next-deal", "version": version }))
                    .await;
            }
        }
    }
}
