//! One `chaikhana serve` alone (no Redis), over a data folder the test keeps across the process's
//! lives: stopped with SIGTERM or SIGKILL and started again on the same port and folder, as an
//! operator's restart or a crash would; the store each life leaves behind, read from a copy once the
//! process is dead (so that the next life still finds the file exactly as the last one left it, and
//! recovers it by itself); and seats that play, remembering every action acknowledged to them and
//! the highest version they were shown.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use chaikhana::routing::{Disk, Found, FILE_NAME};
use chaikhana::table::{Snapshot, TableId};

use super::cluster::steady_port;
use super::{action, choose, post, Client, Rng, Seated};

/// How long a process may take to listen, to stop, or a seat to reconnect.
const PATIENCE: Duration = Duration::from_secs(20);

/// How a life ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// SIGTERM: the process stops cleanly.
    Term,
    /// SIGKILL: the process dies where it stands, mid-commit perhaps.
    Kill,
}

impl Stop {
    fn signal(self) -> &'static str {
        match self {
            Stop::Term => "-TERM",
            Stop::Kill => "-KILL",
        }
    }
}

/// The server the process runs: this build's, or the one `CHAIKHANA_TEST_SERVER` names.
fn server_binary() -> String {
    std::env::var("CHAIKHANA_TEST_SERVER")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_chaikhana").to_string())
}

/// A `chaikhana serve` process alone, on a port and a data folder it keeps from one life to the next.
pub struct Alone {
    child: Option<Child>,
    pub port: u16,
    /// Its `data_dir`.
    pub dir: PathBuf,
    settings: Vec<(String, String)>,
    /// How many times it has been started.
    pub lives: usize,
    /// Copies of the store read so far.
    reads: usize,
}

impl Alone {
    /// Starts the server on a fresh data folder, with more settings as `CHAIKHANA_*` variables.
    pub async fn start(settings: &[(&str, &str)]) -> Alone {
        Alone::start_in(super::fresh_data_dir(), settings).await
    }

    /// Starts the server on the data folder `dir` (which may hold a store already).
    pub async fn start_in(dir: PathBuf, settings: &[(&str, &str)]) -> Alone {
        let mut alone = Alone {
            child: None,
            port: steady_port(),
            dir,
            settings: settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            lives: 0,
            reads: 0,
        };
        alone.start_again().await;
        alone
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The file the current (or last) life writes its output to.
    fn log(&self) -> PathBuf {
        let mut name = self.dir.file_name().unwrap_or_default().to_owned();
        name.push(format!("-life-{}.log", self.lives));
        self.dir.with_file_name(name)
    }

    /// The end of the last life's output, to say why something went wrong.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.log()).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    }

    /// Starts a new life on the same folder, and waits until it listens: on the same port, unless
    /// another process took it meanwhile (then `base` changes).
    pub async fn start_again(&mut self) {
        assert!(self.child.is_none(), "the server is still running");
        if std::net::TcpListener::bind(("127.0.0.1", self.port)).is_err() {
            self.port = steady_port();
        }
        self.lives += 1;
        let log = std::fs::File::create(self.log()).expect("a log file");
        let child = Command::new(server_binary())
            .arg("serve")
            .env("CHAIKHANA_BOT_DELAY_MS", "1")
            // The test's seats add no number to the shuffles: deal at once.
            .env("CHAIKHANA_SHUFFLE_WAIT_MS", "0")
            .env("CHAIKHANA_RATE_PER_SECOND", "10000")
            .env("CHAIKHANA_RATE_BURST", "10000")
            .env("CHAIKHANA_READ_BYTES_PER_SECOND", "1073741824")
            .env("CHAIKHANA_READ_BYTES_BURST", "1073741824")
            .env("CHAIKHANA_TABLES_PER_MINUTE", "0")
            .env("CHAIKHANA_JOINS_PER_MINUTE", "0")
            .env("CHAIKHANA_LOG_FILTER", "chaikhana=info")
            .envs(self.settings.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .env("CHAIKHANA_DATA_DIR", &self.dir)
            .env("CHAIKHANA_LISTEN", format!("127.0.0.1:{}", self.port))
            .stdout(Stdio::from(log))
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        self.child = Some(child);
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            if let Some(status) = self.child.as_mut().and_then(|c| c.try_wait().ok()?) {
                panic!(
                    "life {} of the server ended before it listened ({status}):\n{}",
                    self.lives,
                    self.log_tail()
                );
            }
            assert!(
                started.elapsed() < PATIENCE,
                "life {} of the server did not listen:\n{}",
                self.lives,
                self.log_tail()
            );
            actix_rt::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The process's metrics, in the Prometheus text format.
    pub async fn metrics(&self) -> String {
        let mut response = awc::Client::new()
            .get(format!("{}/metrics", self.base()))
            .send()
            .await
            .expect("metrics answer");
        String::from_utf8_lossy(&response.body().limit(1 << 22).await.expect("a body")).into_owned()
    }

    /// Ends this life with `stop` and waits until the process has gone.
    pub async fn stop(&mut self, stop: Stop) -> ExitStatus {
        let mut child = self.child.take().expect("the server is running");
        Command::new("kill")
            .args([stop.signal(), &child.id().to_string()])
            .status()
            .expect("kill runs");
        let started = Instant::now();
        loop {
            if let Some(status) = child.try_wait().expect("the child can be waited for") {
                return status;
            }
            if started.elapsed() > PATIENCE {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "life {} of the server did not stop on {stop:?}:\n{}",
                    self.lives,
                    self.log_tail()
                );
            }
            actix_rt::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// What the store holds for each of `tables`, read while the process is dead from a copy of its
    /// file: the copy is opened (and recovered, after a SIGKILL) as a new life would open the store,
    /// and the file itself stays exactly as the last life left it.
    pub fn stored(&mut self, tables: &[&str]) -> Vec<Result<Snapshot, String>> {
        assert!(
            self.child.is_none(),
            "the store is read once the process is dead"
        );
        self.reads += 1;
        let mut name = self.dir.file_name().unwrap_or_default().to_owned();
        name.push(format!("-read-{}", self.reads));
        let copy = self.dir.with_file_name(name);
        let _ = std::fs::remove_dir_all(&copy);
        std::fs::create_dir_all(&copy).expect("a folder for the copy");
        std::fs::copy(self.dir.join(FILE_NAME), copy.join(FILE_NAME)).expect("the store is copied");
        let found = read_store(&copy, tables);
        let _ = std::fs::remove_dir_all(&copy);
        found
    }
}

impl Drop for Alone {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        // A failed test leaves the folder and the logs to be looked at.
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
            for life in 1..=self.lives {
                let mut name = self.dir.file_name().unwrap_or_default().to_owned();
                name.push(format!("-life-{life}.log"));
                let _ = std::fs::remove_file(self.dir.with_file_name(name));
            }
        }
    }
}

/// What the store in the folder `dir` holds for each of `tables` (nothing running may hold it).
pub fn read_store(dir: &Path, tables: &[&str]) -> Vec<Result<Snapshot, String>> {
    let disk = match Disk::open(dir) {
        Ok(disk) => disk,
        Err(e) => return tables.iter().map(|_| Err(e.clone())).collect(),
    };
    let found = tables
        .iter()
        .map(|table| {
            let id = TableId::parse(table).ok_or(format!("{table} is not a table id"))?;
            match disk.find(&id).map_err(|e| e.to_string())? {
                Found::Table(stored) => Ok(stored.snapshot),
                Found::Gone(gone) => Err(format!("the store says table {table} is gone: {gone:?}")),
                Found::Nothing => Err(format!("the store holds nothing for table {table}")),
            }
        })
        .collect();
    drop(disk);
    released(&dir.join(FILE_NAME));
    found
}

/// Waits until nothing in this process holds the store file `path` open (a `Disk`'s writer thread
/// lets it go once it sees its queue close).
pub fn released(path: &Path) {
    let started = Instant::now();
    loop {
        match redb::Database::open(path) {
            Ok(_) => return,
            Err(redb::DatabaseError::DatabaseAlreadyOpen) => {
                assert!(
                    started.elapsed() < PATIENCE,
                    "{} stays open",
                    path.display()
                );
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
}

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
        let mut rng = super::rng(seed);
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

/// A table the test plays: its seats (one at a computer table, every seat at a friends table).
pub struct Table {
    pub game: &'static str,
    pub kind: &'static str,
    pub players: Vec<Player>,
    /// How many rematches it started, and how many acknowledged actions of the matches before were
    /// let go then (a rematch clears the table's record: the test checks them against the store
    /// before it starts one).
    pub rematches: usize,
    pub let_go: usize,
}

impl Table {
    /// Opens a table of `game` against the computer, or among friends with every seat taken, and
    /// connects its seats.
    pub async fn open(base: &str, game: &'static str, kind: &'static str, length: Value) -> Table {
        let body = json!({ "game": game, "opponents": kind, "length": length });
        let (status, answer) = post(base, "/api/tables", &body.to_string()).await;
        assert_eq!(status, 201, "{answer}");
        let table = answer["table"].as_str().unwrap().to_string();
        let mut seated = vec![Seated::from_answer(&table, &answer)];
        if kind == "friends" {
            let seats = match game {
                "ganjifa" => 3,
                _ => 2,
            };
            for _ in 1..seats {
                let (status, answer) = post(base, &format!("/api/tables/{table}/join"), "").await;
                assert_eq!(status, 201, "{answer}");
                seated.push(Seated::from_answer(&table, &answer));
            }
        }
        let mut players = Vec::new();
        for seated in seated {
            players.push(Player::connect(base, seated).await);
        }
        let mut table = Table::of(game, kind, players);
        table.settle().await;
        table
    }

    pub fn of(game: &'static str, kind: &'static str, players: Vec<Player>) -> Table {
        Table {
            game,
            kind,
            players,
            rematches: 0,
            let_go: 0,
        }
    }

    pub fn id(&self) -> &str {
        &self.players[0].seated.table
    }

    /// The highest version any seat was shown.
    pub fn highest(&self) -> u64 {
        self.players.iter().map(|p| p.highest).max().unwrap_or(0)
    }

    pub fn acked(&self) -> Vec<Acked> {
        self.players
            .iter()
            .flat_map(|p| p.acked.iter().cloned())
            .collect()
    }

    /// Reads every seat's views until the table waits for one of them: at a computer table, until
    /// the person's turn or the deal's end; among friends, until every seat has been shown the
    /// table's latest version (each accepted change is shown to every seat).
    async fn settle(&mut self) {
        if self.kind == "computer" {
            let player = &mut self.players[0];
            while !(player.to_act()
                || matches!(
                    player.latest["status"].as_str(),
                    Some("deal-over" | "match-over")
                ))
            {
                player.next_view().await;
            }
            return;
        }
        let target = self.highest();
        for player in self.players.iter_mut() {
            while player.version() < target {
                player.next_view().await;
            }
        }
    }

    /// Plays `moves` acknowledged actions, dealing the next deal (or starting a rematch) whenever one
    /// has ended, and stops mid-deal, with a seat to act.
    pub async fn play(&mut self, moves: usize, rng: &mut Rng) {
        let mut made = 0;
        loop {
            self.settle().await;
            let status = self.players[0].latest["status"]
                .as_str()
                .unwrap_or("")
                .to_string();
            match status.as_str() {
                "deal-over" | "match-over" => {
                    let kind = if status == "deal-over" {
                        "next-deal"
                    } else {
                        "rematch"
                    };
                    let on = self.highest();
                    if kind == "rematch" {
                        self.rematches += 1;
                        for player in self.players.iter_mut() {
                            self.let_go += player.acked.len();
                            player.acked.clear();
                        }
                    }
                    for player in self.players.iter_mut() {
                        player.send_on_latest(kind).await;
                    }
                    for player in self.players.iter_mut() {
                        while player.version() <= on {
                            player.next_view().await;
                        }
                    }
                }
                "playing" if made >= moves => return,
                "playing" => {
                    let acting = self
                        .players
                        .iter()
                        .position(Player::to_act)
                        .expect("a seat acts mid-deal");
                    self.players[acting].act(rng).await;
                    made += 1;
                }
                other => panic!("a table in play was {other}: {}", self.players[0].latest),
            }
        }
    }

    /// Reads what every seat's socket still carries until it closes (the process has stopped).
    pub async fn until_closed(&mut self) {
        for player in self.players.iter_mut() {
            player.until_closed().await;
        }
    }

    /// Every seat's socket closes, as their pages closed.
    pub async fn close(&mut self) {
        for player in self.players.iter_mut() {
            player.close().await;
        }
    }

    /// Every seat reconnects; answers the lowest version they came back at.
    pub async fn reconnect(&mut self, base: &str) -> u64 {
        let mut lowest = u64::MAX;
        for player in self.players.iter_mut() {
            lowest = lowest.min(player.reconnect(base).await);
        }
        lowest
    }
}
