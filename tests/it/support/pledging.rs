//! A page's part in a fair deal's shuffle, taken as `verify.js` takes it, for the tests that play as
//! pages do: each deal number answered once, a fresh number drawn and only its pledge sent, then the
//! number once the table has shown the closed list of pledges with that pledge in it. What it gave is
//! kept as the page keeps it in the browser, so that `verify.js` can be run on the frames afterwards.

use std::collections::BTreeMap;

use rand::Rng as _;
use serde_json::{json, Value};

use super::{Client, Rng};
use chaikhana::table::pledge_of;

/// What a page gave to one deal.
#[derive(Clone, Debug)]
pub struct Answered {
    pub commitment: String,
    pub number: String,
    pub pledge: String,
    pub seat: u64,
    /// The closed list of pledges it sent its number against.
    pub closed: Option<Value>,
    pledge_sent: bool,
    given: bool,
}

/// One page's answers, by the table's deal number.
#[derive(Debug, Default)]
pub struct Pledger {
    pub seat: Option<u64>,
    pub deals: BTreeMap<u64, Answered>,
}

impl Pledger {
    /// Answers `frame` (a view, or a `shuffle` frame) on `client` as a page does.
    pub async fn answer(&mut self, client: &mut Client, frame: &Value, rng: &mut Rng) {
        if frame["type"] == "view" {
            self.seat = frame["seat"].as_u64().or(self.seat);
        }
        let shuffle = &frame["shuffle"];
        let (Some(seat), Some(commitment), Some(deal)) = (
            self.seat,
            shuffle["commitment"].as_str(),
            shuffle["deal"].as_u64(),
        ) else {
            return;
        };
        let entry = self.deals.entry(deal).or_insert_with(|| {
            let number = format!("{:032x}", rng.gen::<u128>());
            Answered {
                commitment: commitment.to_string(),
                pledge: pledge_of(&number),
                number,
                seat,
                closed: None,
                pledge_sent: false,
                given: false,
            }
        });
        if entry.commitment != commitment {
            return;
        }
        let mine = shuffle["pledges"][seat as usize] == entry.pledge.as_str();
        if shuffle["closed"] != true {
            if !mine && !entry.pledge_sent {
                entry.pledge_sent = true;
                client
                    .send(
                        json!({ "type": "pledge", "commitment": commitment, "hash": entry.pledge }),
                    )
                    .await;
            }
            return;
        }
        if mine && !entry.given && shuffle["contributed"][seat as usize] == false {
            entry.given = true;
            entry.closed = Some(shuffle["pledges"].clone());
            client
                .send(json!({ "type": "contribute", "commitment": commitment, "value": entry.number }))
                .await;
        }
    }

    /// The next view on `client`, every frame before it answered.
    pub async fn next_view(&mut self, client: &mut Client, rng: &mut Rng) -> Value {
        loop {
            let frame = client.next().await.expect("the socket stays open");
            self.answer(client, &frame, rng).await;
            if frame["type"] == "view" {
                return frame;
            }
        }
    }

    /// Reads `client`, answering every frame, until this page has pledged (`given`: given its number)
    /// to some deal: a table of several people moves on only once each of their pages has.
    pub async fn until(&mut self, client: &mut Client, rng: &mut Rng, given: bool) {
        while !self
            .deals
            .values()
            .any(|a| if given { a.given } else { a.pledge_sent })
        {
            let frame = client.next().await.expect("the socket stays open");
            self.answer(client, &frame, rng).await;
        }
    }

    /// The number this page gave to the deal committed to as `commitment`.
    pub fn number_for(&self, commitment: &str) -> Option<&str> {
        self.deals
            .values()
            .find(|a| a.commitment == commitment)
            .map(|a| a.number.as_str())
    }

    /// What the page keeps in its browser (`sessionStorage`) under its own key `owner`, as
    /// `verify.js` writes it: every deal it answered, with `extra` laid over the top.
    pub fn kept(&self, owner: &str, extra: Value) -> String {
        let deals: serde_json::Map<String, Value> = self
            .deals
            .iter()
            .map(|(deal, a)| {
                let entry = json!({
                    "commitment": a.commitment, "number": a.number, "pledge": a.pledge,
                    "seat": a.seat, "closed": a.closed, "dealt": false,
                });
                (deal.to_string(), entry)
            })
            .collect();
        let mut data = json!({
            "deals": deals, "highest": self.deals.keys().last(), "flag": null,
            "inPlay": null, "seen": {}, "start": null,
        });
        for (k, v) in extra.as_object().expect("an object") {
            data[k] = v.clone();
        }
        json!({ format!("chaikhana-fair:{owner}"): data.to_string() }).to_string()
    }
}
