//! A seat of a restarted server that plays one move at a time (or flat out) and remembers every
//! action acknowledged to it and the highest version it was shown; and those acknowledgements checked
//! against what the store kept.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use chaikhana::table::Snapshot;

use super::PATIENCE;
use crate::support::{action, choose, Client, Rng, Seated};

/// An action acknowledged to a seat: the version it made, and what it was.
#[derive(Clone, Debug)]
pub struct Acked {
    pub seat: u64,
    pub version: u64,
    pub action: Value,
}

/// What one table's seats were acknowledged and shown, and how it compares with a stored record.
#[derive(Default, Debug)]
pub struct Checked {
    /// Acknowledged actions found in the record at their version.
    pub found: usize,
    /// Acknowledged actions of an earlier match at the table (a rematch clears the record).
    pub earlier_match: usize,
    /// Every acknowledged action the record does not hold as it was acknowledged, in a sentence.
    pub missing: Vec<String>,
}

/// Compares the actions acknowledged at a table with its stored `snapshot`: each must be there, at
/// the version its acknowledgement gave, made by the same seat, the same action. Those older than
/// the first deal of the stored match belong to a match the record no longer holds.
pub fn check_acks(acked: &[Acked], snapshot: &Snapshot) -> Checked {
    let mut checked = Checked::default();
    let match_began = snapshot.deals.first().map_or(u64::MAX, |d| d.dealt_at);
    for ack in acked {
        if ack.version < match_began {
            checked.earlier_match += 1;
            continue;
        }
        let recorded = snapshot
            .deals
            .iter()
            .flat_map(|deal| &deal.actions)
            .find(|(_, _, made)| *made == ack.version);
        match recorded {
            Some((seat, action, _)) if seat.index() as u64 == ack.seat && *action == ack.action => {
                checked.found += 1
            }
            found => checked.missing.push(format!(
                "seat {} was acknowledged v{} for {}; the record (to v{}) has {found:?} there",
                ack.seat, ack.version, ack.action, snapshot.version
            )),
        }
    }
    checked
}

/// A seat that plays one move at a time and remembers what it was shown and acknowledged.
pub struct Player {
    pub seated: Seated,
    client: Option<Client>,
    /// The highest version this seat was shown.
    pub highest: u64,
    /// The latest view shown, whole.
    pub latest: Value,
    pub acked: Vec<Acked>,
    /// How many times it reconnected.
    pub reconnects: usize,
    /// The refusals it was sent while playing flat out, by code.
    pub refused: std::collections::BTreeMap<String, usize>,
    sent: u64,
}

impl Player {
    /// The seat, its socket opened.
    pub async fn connect(base: &str, seated: Seated) -> Player {
        let client = Client::connect(base, &seated.table, &seated.token)
            .await
            .expect("the socket opens");
        let mut player = Player {
            seated,
            client: Some(client),
            highest: 0,
            latest: Value::Null,
            acked: Vec::new(),
            reconnects: 0,
            refused: Default::default(),
            sent: 0,
        };
        player.next_view().await;
        player
    }

    fn client(&mut self) -> &mut Client {
        self.client.as_mut().expect("the seat is connected")
    }

    pub fn version(&self) -> u64 {
        self.latest["version"].as_u64().unwrap_or(0)
    }

    /// Notes a view shown at `version`, failing the test if it goes back behind one shown before.
    fn never_behind(&mut self, version: u64) {
        assert!(
            version >= self.highest,
            "seat {} of {} was shown v{version} after v{}",
            self.seated.seat,
            self.seated.table,
            self.highest
        );
        self.highest = version;
    }

    /// The next view, whole; refusals fail the test (this seat plays one move at a time, never on a
    /// stale view). A view that goes back behind one shown before fails it too.
    pub async fn next_view(&mut self) -> Value {
        let view = self.read_view().await;
        self.never_behind(view["version"].as_u64().expect("a view's version"));
        self.latest = view.clone();
        view
    }

    async fn read_view(&mut self) -> Value {
        loop {
            let frame = self.client().next().await.unwrap_or_else(|| {
                panic!("seat {}'s socket closed or fell silent", self.seated.seat)
            });
            match frame["type"].as_str() {
                Some("view") => return frame,
                Some("error") => panic!("seat {} was refused: {frame}", self.seated.seat),
                _ => {}
            }
        }
    }

    /// Reads the views already on their way until the socket closes (the process has stopped):
    /// whatever the last life sent counts as shown.
    pub async fn until_closed(&mut self) {
        let Some(mut client) = self.client.take() else {
            return;
        };
        while let Some(frame) = client.next().await {
            if frame["type"] == "view" {
                let version = frame["version"].as_u64().unwrap_or(0);
                self.highest = self.highest.max(version);
                self.latest = frame;
            }
        }
    }

    /// Closes its socket, as a page closed.
    pub async fn close(&mut self) {
        if let Some(client) = self.client.take() {
            client.close().await;
        }
    }

    /// Opens the seat's socket again with its token, as a page does, trying until the server answers;
    /// answers the version of the first view, which must not be below any shown before.
    pub async fn reconnect(&mut self, base: &str) -> u64 {
        let started = Instant::now();
        let client = loop {
            match Client::connect(base, &self.seated.table, &self.seated.token).await {
                Ok(client) => break client,
                Err(e) => assert!(
                    started.elapsed() < PATIENCE,
                    "seat {} of {} could not reconnect: {e}",
                    self.seated.seat,
                    self.seated.table
                ),
            }
            actix_rt::time::sleep(Duration::from_millis(100)).await;
        };
        self.client = Some(client);
        self.reconnects += 1;
        let view = self.read_view().await;
        let version = view["version"].as_u64().expect("a view's version");
        assert!(
            version >= self.highest,
            "seat {} of {} came back at v{version}, below the v{} it was shown",
            self.seated.seat,
            self.seated.table,
            self.highest
        );
        self.highest = version;
        self.latest = view;
        version
    }

    /// Sends an action offered by its latest view and waits for its acknowledgement, remembered.
    pub async fn act(&mut self, rng: &mut Rng) {
        let on = self.version();
        let chosen = choose(&self.latest, rng);
        self.sent += 1;
        let id = format!("r{}", self.sent);
        self.client().send(action(on, &id, &chosen)).await;
        loop {
            let view = self.next_view().await;
            if view.get("ack").is_some() {
                assert_eq!(view["ack"]["id"], id.as_str(), "{view}");
                let version = view["version"].as_u64().unwrap();
                assert_eq!(version, on + 1, "an action makes the next version");
                self.acked.push(Acked {
                    seat: self.seated.seat,
                    version,
                    action: chosen,
                });
                return;
            }
        }
    }

    /// Plays as fast as the table answers, on whatever its latest view offers (the next deal when
    /// one has ended; at a match's end it waits), until its socket closes (the process died): answers the seat
    /// with everything it was shown and acknowledged. Refusals (a friend's move made first, a stale
    /// view) are counted and play goes on from the view that follows.
    pub async fn flat_out(mut self, seed: u64) -> Player {
        let mut rng = crate::support::rng(seed);
        let mut acted_on = None;
        let mut pending: std::collections::HashMap<String, Value> = Default::default();
        // The view it holds is acted on first; its acknowledgement, if any, was taken already.
        let mut first = self.latest.clone();
        if let Some(fields) = first.as_object_mut() {
            fields.remove("ack");
        }
        let mut frame = Some(first);
        while let Some(shown) = frame.take() {
            match shown["type"].as_str() {
                Some("view") => {
                    let version = shown["version"].as_u64().unwrap_or(0);
                    self.never_behind(version);
                    if let Some(id) = shown["ack"]["id"].as_str() {
                        let action = pending.remove(id).expect("an acknowledgement of a sent id");
                        self.acked.push(Acked {
                            seat: self.seated.seat,
                            version,
                            action,
                        });
                    }
                    self.latest = shown;
                    if acted_on != Some(version) {
                        acted_on = Some(version);
                        let reply = match self.latest["status"].as_str() {
                            Some("playing") if self.to_act() => {
                                let chosen = choose(&self.latest, &mut rng);
                                self.sent += 1;
                                let id = format!("f{}", self.sent);
                                pending.insert(id.clone(), chosen.clone());
                                Some(action(version, &id, &chosen))
                            }
                            Some("deal-over") => {
                                Some(json!({ "type": "next-deal", "version": version }))
                            }
                            // A match over waits for the test: a rematch clears the table's
                            // record, so the test checks it against the store first.
                            _ => None,
                        };
                        if let Some(reply) = reply {
                            // A socket the process's death closed is noticed at the next read.
                            let _ = self.client().try_send_text(reply.to_string()).await;
                        }
                    }
                }
                Some("error") => {
                    let code = shown["code"].as_str().unwrap_or("?").to_string();
                    *self.refused.entry(code).or_default() += 1;
                }
                _ => {}
            }
            frame = self.client().next().await;
        }
        self.client = None;
        self
    }

    /// Sends a frame made on its latest view (`next-deal`, `rematch`).
    pub async fn send_on_latest(&mut self, kind: &str) {
        let version = self.version();
        self.client()
            .send(json!({ "type": kind, "version": version }))
            .await;
    }

    /// Whether its latest view asks this seat to act.
    pub fn to_act(&self) -> bool {
        self.latest["status"] == "playing"
            && self.latest["actions"]
                .as_array()
                .is_some_and(|a| !a.is_empty())
    }
}
