//! A real server on an ephemeral port, and WebSocket clients that talk to it as a browser would.

#![allow(dead_code)]

pub mod bystander;
pub mod cluster;
mod friends;
pub mod leaks;
pub mod players;
pub mod pledging;
pub mod raw;
pub mod redis_procs;
pub mod restarts;
pub mod slow;

use std::time::Duration;

use actix_codec::Framed;
use awc::ws::{Codec, Frame, Message};
use awc::BoxedSocket;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};

use chaikhana::server::{start, Running};
use chaikhana::settings::Settings;
use chaikhana::table::{Inspect, TableId, TableRecord};

pub use friends::*;

/// The suites that each keep both cores busy for a minute or more, and time what they watch: a
/// browser (Chromium, chromedriver and the server: a page's waits) and a multi-node fault scene (three
/// processes and Redis: play resumed within two lease times). Two of them side by side on a two-core
/// machine starve each other past those times, so each of their tests holds this while it runs;
/// everything else runs beside them.
pub async fn heavy() -> tokio::sync::MutexGuard<'static, ()> {
    static HEAVY: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    HEAVY.lock().await
}

/// A folder of its own for one server's store, under the build's scratch folder.
pub fn fresh_data_dir() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("data-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub struct TestServer {
    pub running: Running,
    pub base: String,
}

impl TestServer {
    pub fn start(tune: impl FnOnce(&mut Settings)) -> TestServer {
        let mut settings = Settings::defaults();
        settings.listen = "127.0.0.1:0".into();
        settings.bot_delay_ms = 1;
        // These clients play as fast as the server answers; the flood test sets its own limits.
        settings.rate_per_second = 10_000;
        settings.rate_burst = 10_000;
        settings.read_bytes_per_second = 1 << 30;
        settings.read_bytes_burst = 1 << 30;
        // Tests open many tables and connections from one address; the limits' own tests set them.
        settings.tables_per_minute = 0;
        settings.joins_per_minute = 0;
        settings.your_games_per_minute = 0;
        settings.http_connections_per_address = 0;
        // These clients add no number to the shuffles: deals are dealt at once (the shuffle's own
        // tests set a wait). A page still adds its number to each coming deal.
        settings.shuffle_wait_ms = 0;
        // Each server its own store (tables kept on disk, as by default).
        settings.data_dir = fresh_data_dir().display().to_string();
        tune(&mut settings);
        let running = start(settings).expect("the server starts");
        let base = format!("http://{}", running.addr);
        TestServer { running, base }
    }

    pub async fn post(&self, path: &str, body: &str) -> (u16, Value) {
        post(&self.base, path, body).await
    }

    pub async fn get(&self, path: &str) -> (u16, String) {
        let (status, _, body) = self.fetch(path).await;
        (status, body)
    }

    /// GETs `path`: the status, the content type and the body.
    pub async fn fetch(&self, path: &str) -> (u16, String, String) {
        let mut response = awc::Client::new()
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("the server answers");
        let status = response.status().as_u16();
        let kind = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let body = response.body().limit(1 << 20).await.expect("a body");
        (status, kind, String::from_utf8_lossy(&body).into_owned())
    }

    /// Opens a table: (table id, seat, token).
    pub async fn open(&self, game: &str, opponents: &str, length: Option<Value>) -> Seated {
        let mut body = json!({ "game": game, "opponents": opponents });
        if let Some(length) = length {
            body["length"] = length;
        }
        let (status, answer) = self.post("/api/tables", &body.to_string()).await;
        assert_eq!(status, 201, "{answer}");
        Seated::from_answer(answer["table"].as_str().unwrap(), &answer)
    }

    pub async fn join(&self, table: &str) -> (u16, Value) {
        self.post(&format!("/api/tables/{table}/join"), "").await
    }

    pub async fn connect(&self, seated: &Seated) -> Client {
        Client::connect(&self.base, &seated.table, &seated.token)
            .await
            .expect("the socket opens")
    }

    /// The watch link's id of the table this seat holds, asked for with its token.
    pub async fn watch_id(&self, seated: &Seated) -> String {
        let body = json!({ "token": seated.token }).to_string();
        let (status, answer) = self
            .post(&format!("/api/tables/{}/watch", seated.table), &body)
            .await;
        assert_eq!(status, 200, "{answer}");
        let link = answer["watch"].as_str().expect("a watch link");
        link.strip_prefix("/w/").expect("a /w/ link").to_string()
    }

    /// The table's record, straight from its actor (never over the network).
    pub async fn record(&self, table: &str) -> TableRecord {
        let handle = self
            .running
            .router
            .find(&TableId::parse(table).unwrap())
            .await
            .expect("the table is open");
        handle
            .inspect
            .send(Inspect)
            .await
            .expect("the table answers")
    }
}

#[derive(Clone, Debug)]
pub struct Seated {
    pub table: String,
    pub seat: u64,
    pub token: String,
}

impl Seated {
    pub fn from_answer(table: &str, answer: &Value) -> Seated {
        Seated {
            table: table.to_string(),
            seat: answer["seat"].as_u64().unwrap(),
            token: answer["token"].as_str().unwrap().to_string(),
        }
    }
}

pub struct Client {
    framed: Framed<BoxedSocket, Codec>,
    /// Every JSON frame received, in order, each view whole (see `whole`).
    pub received: Vec<Value>,
    /// The same frames as they came, before each view was laid over the last.
    pub as_sent: Vec<Value>,
    /// The last view, whole.
    view: Option<Value>,
    /// The first frame, read while connecting and not yet taken by `next`.
    waiting: Option<Value>,
}

impl Client {
    /// A seat's socket: opened, then its hello with the seat's token. `Err` when the upgrade is
    /// refused, or the table answers the hello with an error (its code and message) rather than a view.
    pub async fn connect(base: &str, table: &str, token: &str) -> Result<Client, String> {
        let mut client = Client::open(&format!("/ws/{table}"), base).await?;
        let hello = json!({ "type": "hello", "token": token }).to_string();
        if !client.try_send_text(hello).await {
            return Err("the socket closed before its hello".into());
        }
        match client.next().await {
            Some(frame) if frame["type"] == "error" => {
                Err(format!("{}: {}", frame["code"], frame["message"]))
            }
            Some(first) => {
                client.received.pop();
                client.waiting = Some(first);
                Ok(client)
            }
            None => Err("the socket closed before its first frame".into()),
        }
    }

    /// A watcher's socket, through the watch link's id `watch` (and no token).
    pub async fn watch(base: &str, watch: &str) -> Result<Client, String> {
        Client::open(&format!("/ws/w/{watch}"), base).await
    }

    async fn open(path: &str, base: &str) -> Result<Client, String> {
        let url = format!("{}{path}", base.replacen("http", "ws", 1));
        let (_, framed) = awc::Client::new()
            .ws(url)
            .max_frame_size(1 << 24)
            .connect()
            .await
            .map_err(|e| match e {
                awc::error::WsClientError::InvalidResponseStatus(status) => {
                    format!("the upgrade was refused with {}", status.as_u16())
                }
                e => e.to_string(),
            })?;
        Ok(Client {
            framed,
            received: Vec::new(),
            as_sent: Vec::new(),
            view: None,
            waiting: None,
        })
    }

    pub async fn send(&mut self, frame: Value) {
        self.send_text(frame.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        assert!(self.try_send_text(text).await, "the frame is sent");
    }

    /// Sends a frame; `false` when the connection has gone (the server closed it).
    pub async fn try_send_text(&mut self, text: String) -> bool {
        self.framed.send(Message::Text(text.into())).await.is_ok()
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.framed
            .send(Message::Binary(bytes.into()))
            .await
            .expect("the frame is sent");
    }

    /// The next JSON frame, or `None` if the socket closed or nothing came within 30 s.
    pub async fn next(&mut self) -> Option<Value> {
        if let Some(first) = self.waiting.take() {
            self.received.push(first.clone());
            return Some(first);
        }
        // One deadline for the whole wait: the server's pings must not keep it waiting for ever.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let frame = tokio::time::timeout_at(deadline, self.framed.next())
                .await
                .ok()??;
            match frame.ok()? {
                Frame::Text(bytes) => {
                    let frame: Value = serde_json::from_slice(&bytes).expect("frames are JSON");
                    self.as_sent.push(frame.clone());
                    let value = self.whole(frame);
                    self.received.push(value.clone());
                    return Some(value);
                }
                Frame::Ping(bytes) => {
                    let _ = self.framed.send(Message::Pong(bytes)).await;
                }
                Frame::Close(_) => return None,
                _ => {}
            }
        }
    }

    /// A view leaves out the parts and deal-view fields this socket was sent unchanged
    /// (docs/protocol.md): it is laid over the last view, as a page does, so that every view a test
    /// reads is whole. Other frames are as sent.
    fn whole(&mut self, frame: Value) -> Value {
        let Value::Object(fields) = frame else {
            return frame;
        };
        if fields.get("type").and_then(Value::as_str) != Some("view") {
            return Value::Object(fields);
        }
        let mut whole = match self.view.take() {
            Some(Value::Object(last)) => last,
            _ => serde_json::Map::new(),
        };
        whole.remove("ack");
        for (key, value) in fields {
            match (whole.get_mut(&key), value) {
                // The deal view's fields are laid over the last ones in the same way.
                (Some(Value::Object(deal)), Value::Object(news)) if key == "view" => {
                    deal.extend(news);
                }
                (_, value) => {
                    whole.insert(key, value);
                }
            }
        }
        let whole = Value::Object(whole);
        self.view = Some(whole.clone());
        whole
    }

    /// Frames until one of type `kind` arrives.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let frame = self
                .next()
                .await
                .unwrap_or_else(|| panic!("no {kind} frame came"));
            if frame["type"] == kind {
                return frame;
            }
        }
    }

    /// The next view that answers this socket's own action (it carries `ack`). It is also the
    /// table's new view, so it is left to be read again as the next frame.
    pub async fn next_ack(&mut self) -> Value {
        loop {
            let view = self.next_of("view").await;
            if view.get("ack").is_some() {
                self.received.pop();
                self.waiting = Some(view.clone());
                return view;
            }
        }
    }

    /// The last view frame received.
    pub fn last_view(&self) -> &Value {
        self.received
            .iter()
            .rev()
            .find(|f| f["type"] == "view")
            .expect("a view was received")
    }

    /// The close code, once the server closes the socket.
    pub async fn close_code(&mut self) -> Option<u16> {
        self.received.extend(self.waiting.take());
        // One deadline for the whole wait: the server's pings must not keep it waiting for ever.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let frame = tokio::time::timeout_at(deadline, self.framed.next())
                .await
                .ok()??;
            match frame.ok()? {
                Frame::Close(reason) => return reason.map(|r| u16::from(r.code)),
                Frame::Text(bytes) => {
                    let frame = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                    let value = self.whole(frame);
                    self.received.push(value);
                }
                _ => {}
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.framed.send(Message::Close(None)).await;
        let _ = self.framed.close().await;
    }
}

/// POSTs JSON to a server at `base`: the status and the answer.
pub async fn post(base: &str, path: &str, body: &str) -> (u16, Value) {
    let mut response = awc::Client::new()
        .post(format!("{base}{path}"))
        .insert_header(("content-type", "application/json"))
        .send_body(body.to_string())
        .await
        .expect("the server answers");
    let status = response.status().as_u16();
    let bytes = response.body().await.expect("a body");
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

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

/// The states of the deal in play at `version`, from its deal to that version, rebuilt from the
/// table's record (deal seeds and actions).
pub fn deal_history<G: chaikhana_rules::game::Game>(
    record: &TableRecord,
    version: u64,
) -> Vec<G::State> {
    let Some(deal) = record.deals.iter().rev().find(|d| d.dealt_at <= version) else {
        return Vec::new();
    };
    let (mut state, _, _) = deal.dealt::<G>();
    let mut history = vec![state.clone()];
    for (seat, json, made) in &deal.actions {
        if *made > version {
            break;
        }
        let action: G::Action = serde_json::from_value(json.clone()).unwrap();
        G::apply(&mut state, *seat, &action).expect("recorded actions replay");
        history.push(state.clone());
    }
    history
}

/// Checks every view frame a seat received against the truth: `leaks` says what in a frame the seat
/// could not know, given the deal's states up to that frame's version. The deal's seal is checked too
/// (see [`check_deal_seal`]); its reveal, the whole order shown once the deal has ended, is left out of
/// what `leaks` is asked about.
pub fn assert_frames_hide_the_truth<G: chaikhana_rules::game::Game>(
    record: &TableRecord,
    seat: usize,
    frames: &[Value],
    leaks: impl Fn(&[G::State], chaikhana_rules::cards::Seat, &Value) -> Option<String>,
) {
    let mut checked = 0;
    let views: Vec<&Value> = frames
        .iter()
        .filter(|f| f["type"] == "view" && !f["view"].is_null())
        .collect();
    for frame in &views {
        let version = frame["version"].as_u64().unwrap();
        let history = deal_history::<G>(record, version);
        assert!(!history.is_empty());
        let mut shown = (*frame).clone();
        if let Some(deal) = shown.get_mut("deal").and_then(Value::as_object_mut) {
            deal.remove("reveal");
        }
        if let Some(leak) = leaks(&history, chaikhana_rules::cards::Seat::new(seat), &shown) {
            panic!("seat {seat} at version {version}: {leak}");
        }
        checked += 1;
    }
    assert!(checked > 0, "no view frame was checked");
    check_deal_seal::<G>(record, frames);
}

/// The lowercase hex SHA-256 of `text`, worked out here rather than by the server's code.
pub fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The commitment a deal's reveal gives, worked out as a page does (see `table::seal`).
pub fn commitment_of_reveal(reveal: &Value) -> String {
    let cards = reveal["cards"]
        .as_array()
        .expect("a reveal lists every place");
    let leaves: Vec<String> = (0..cards.len())
        .map(|i| match cards[i].as_str() {
            Some(card) => {
                let salt = reveal["salts"][i].as_str().expect("a shown place's salt");
                sha256_hex(&format!("{i}|{card}|{salt}"))
            }
            None => reveal["leaves"][i]
                .as_str()
                .expect("a hidden place's leaf")
                .to_string(),
        })
        .collect();
    let to: Vec<String> = reveal["to"]
        .as_array()
        .expect("where each place went")
        .iter()
        .map(|to| match to {
            Value::Number(n) => n.to_string(),
            other => other.as_str().expect("a destination").to_string(),
        })
        .collect();
    // The table's number for the deal, where the deal was named.
    let named = reveal["deal"]
        .as_u64()
        .map_or(String::new(), |deal| format!("|{deal}"));
    sha256_hex(&format!("{}|{}{named}", leaves.join(","), to.join(",")))
}

/// Checks the fair deal in one seat's (or a watcher's) frames: every frame of a deal carries one
/// commitment, the one a seat was shown as the coming deal's before the deal; nothing of the order,
/// no salt and never the table's secret before the end; at the end a reveal that hashes to the
/// commitment, holds the deal's numbers, and whose players' shuffle gives the order really dealt; in a
/// deal where a card stayed concealed, the reveal names only cards this viewer saw in play. Returns how
/// many reveals were checked.
pub fn check_deal_seal<G: chaikhana_rules::game::Game>(
    record: &TableRecord,
    frames: &[Value],
) -> usize {
    use std::collections::BTreeMap;
    let mut by_deal: BTreeMap<u64, Vec<&Value>> = BTreeMap::new();
    for frame in frames
        .iter()
        .filter(|f| f["type"] == "view" && !f["view"].is_null())
    {
        let version = frame["version"].as_u64().unwrap();
        let deal = record
            .deals
            .iter()
            .rev()
            .find(|d| d.dealt_at <= version)
            .expect("a view belongs to a deal");
        by_deal.entry(deal.dealt_at).or_default().push(frame);
    }
    let mut reveals = 0;
    for (dealt_at, deal_frames) in by_deal {
        let deal = record
            .deals
            .iter()
            .find(|d| d.dealt_at == dealt_at)
            .unwrap();
        let fair = deal.fair.as_ref().expect("every deal is a fair deal");
        let (_, order, _) = deal.dealt::<G>();
        let last = deal_frames.last().unwrap()["version"].as_u64().unwrap();
        let history = deal_history::<G>(record, last);
        let ended_state = history.last().unwrap();
        let commitment = deal_frames[0]["deal"]["commitment"]
            .as_str()
            .expect("every frame of a deal carries its commitment")
            .to_string();
        assert_eq!(commitment.len(), 64, "a hex SHA-256");
        // A seat that saw the table before the deal was shown this commitment as the coming deal's.
        let before: Vec<&Value> = frames
            .iter()
            .filter(|f| f["type"] == "view" && f["version"].as_u64() < Some(dealt_at))
            .filter(|f| f["shuffle"]["commitment"].is_string())
            .collect();
        if let Some(last) = before.last() {
            assert_eq!(
                last["shuffle"]["commitment"],
                commitment.as_str(),
                "the deal's commitment is the one shown before it"
            );
        }
        let mut salts: Vec<String> = Vec::new();
        for frame in &deal_frames {
            assert_eq!(
                frame["deal"]["commitment"],
                commitment.as_str(),
                "one commitment a deal"
            );
            assert!(
                !frame.to_string().contains(&fair.secret),
                "the table's secret left it"
            );
            let reveal = &frame["deal"]["reveal"];
            let ended = !frame["outcome"].is_null();
            assert_eq!(
                !reveal.is_null(),
                ended,
                "the order is shown exactly once the deal has ended"
            );
            if !ended {
                continue;
            }
            assert!(reveal.get("seed").is_none(), "no seed is published");
            assert_eq!(
                commitment_of_reveal(reveal),
                commitment,
                "the reveal hashes to the commitment"
            );
            assert_eq!(
                reveal["numbers"],
                serde_json::to_value(&fair.numbers).unwrap()
            );
            assert_eq!(
                reveal["to"],
                serde_json::to_value(&order.to).unwrap(),
                "where each place went"
            );
            // The players' shuffle of the revealed order is the order dealt.
            let n = order.to.len();
            let mut stream = chaikhana::table::mix::Stream::new(
                chaikhana::table::mix::players_key(&commitment, &fair.numbers),
            );
            let mut dealt: Vec<usize> = (0..n).collect();
            for _ in 0..reveal["rounds"].as_u64().unwrap() {
                let shuffle = stream.shuffle(n);
                dealt = shuffle.iter().map(|&j| dealt[j]).collect();
            }
            let viewer = frame["seat"]
                .as_u64()
                .map(|s| chaikhana_rules::cards::Seat::new(s as usize));
            let concealed = G::concealed_at_end(ended_state);
            let seen = G::seen_at_end(ended_state, viewer);
            for (j, card) in order.cards().enumerate() {
                let place = dealt[j];
                let shown = &reveal["cards"][place];
                if shown.is_null() {
                    assert!(
                        !concealed.is_empty(),
                        "a deal with nothing face down is shown whole"
                    );
                    assert!(
                        !seen.iter().any(|c| c == card),
                        "{card} was seen, yet hidden"
                    );
                    assert!(
                        reveal["leaves"][place].is_string() && reveal["salts"][place].is_null()
                    );
                } else {
                    assert_eq!(
                        shown, card,
                        "the players' shuffle of the revealed order is the deal"
                    );
                    if !concealed.is_empty() {
                        assert!(
                            seen.iter().any(|c| c == card),
                            "{card} shown, never seen in play"
                        );
                    }
                    salts.push(reveal["salts"][place].as_str().unwrap().to_string());
                }
            }
            for card in &concealed {
                if !seen.contains(card) {
                    assert!(
                        !reveal.to_string().contains(&format!("\"{card}\"")),
                        "{card} in a reveal"
                    );
                }
            }
            reveals += 1;
        }
        for frame in deal_frames.iter().filter(|f| f["outcome"].is_null()) {
            let text = frame.to_string();
            for salt in &salts {
                assert!(
                    !text.contains(salt.as_str()),
                    "a salt was sent before the end"
                );
            }
        }
    }
    reveals
}

/// Whether CI asks every suite to run (`CHAIKHANA_TEST_REQUIRE_ALL=1`): a missing program then fails
/// a test instead of skipping it.
pub fn everything_required() -> bool {
    std::env::var("CHAIKHANA_TEST_REQUIRE_ALL").is_ok_and(|v| v == "1")
}

/// Waits, up to 20 s, until something listens on `port` of this machine; `what` names it if not.
pub fn wait_listening(port: u16, what: &str) {
    let started = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{what} did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether `program` is on this machine's path, said nowhere.
pub fn on_path(program: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// Whether `program` is on this machine's path. Without it a test says what it needed it for and
/// skips, unless `CHAIKHANA_TEST_REQUIRE_ALL=1`, when it fails.
pub fn have_program(program: &str, needed_for: &str) -> bool {
    let found = on_path(program);
    if !found {
        assert!(
            !everything_required(),
            "{program} is required (CHAIKHANA_TEST_REQUIRE_ALL=1) but missing: {needed_for}"
        );
        eprintln!("skipping: {program} is not installed ({needed_for})");
    }
    found
}
