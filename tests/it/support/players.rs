//! The two players, each a task of its own that plays whatever its latest view offers and writes
//! down everything it sends and hears.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{action, choose, rng, Client, Rng, Seated};

/// How often a player looks up from its socket.
const TICK: Duration = Duration::from_millis(200);
/// How long after a refusal a player asks for its view again, as a page retries.
const RETRY: Duration = Duration::from_millis(300);
/// Silence after which a player asks for its view again; after two unanswered asks (3 s) it
/// reconnects: a frozen node keeps its sockets open but says nothing, and a reconnect after its
/// lease has run out makes the other node take the table while the frozen one sleeps.
const QUIET: Duration = Duration::from_secs(1);
/// How long a player takes over a move: a person's pace is far slower, but without one the
/// match outruns the test's eye and the fault would not strike mid-deal.
const PACE: Duration = Duration::from_millis(20);
/// How long a socket may take to open.
const CONNECTING: Duration = Duration::from_secs(3);

/// With `CHAIKHANA_FAULT_TRACE=1`, every frame a player sends or hears, timed, on stderr.
pub fn trace(who: impl std::fmt::Display, what: &str, frame: &str) {
    static TRACING: OnceLock<(bool, Instant)> = OnceLock::new();
    let (on, since) = TRACING.get_or_init(|| {
        let on = std::env::var("CHAIKHANA_FAULT_TRACE").is_ok_and(|v| v == "1");
        (on, Instant::now())
    });
    if *on {
        let text: String = frame.chars().take(160).collect();
        eprintln!("{:>7} ms {who} {what} {text}", since.elapsed().as_millis());
    }
}

pub struct Sent {
    pub seat: u64,
    pub action: Value,
    /// The version of the view it was made on.
    pub on: u64,
    pub at: Instant,
}

pub struct Ack {
    pub seat: u64,
    pub id: String,
    pub version: u64,
    pub at: Instant,
}

pub struct Shown {
    pub seat: u64,
    pub version: u64,
    pub view: Value,
}

/// What both players sent and heard in one run.
#[derive(Default)]
pub struct Journal {
    pub sent: HashMap<String, Sent>,
    pub acks: Vec<Ack>,
    pub views: Vec<Shown>,
    /// Views older than one the seat had been shown: (right after a reconnect or resync, not).
    pub went_back: (usize, usize),
    pub errors: BTreeMap<String, usize>,
    pub reconnects: usize,
    pub over: bool,
}

impl Journal {
    pub fn acked_up_to(&self) -> u64 {
        self.acks.iter().map(|a| a.version).max().unwrap_or(0)
    }

    /// The highest version anyone was shown or acknowledged.
    pub fn highest(&self) -> u64 {
        let shown = self.views.iter().map(|v| v.version).max().unwrap_or(0);
        shown.max(self.acked_up_to())
    }

    /// How long after `ended` the first action sent since `began` was acknowledged: an
    /// acknowledgement already on its way when the fault struck does not count.
    pub fn resumed_after(&self, began: Instant, ended: Instant) -> Option<Duration> {
        let since = |ack: &&Ack| self.sent.get(&ack.id).is_some_and(|s| s.at >= began);
        self.acks
            .iter()
            .filter(since)
            .map(|a| a.at.saturating_duration_since(ended))
            .min()
    }

    pub fn note(&self) -> String {
        format!(
            "went_back_after_resync={} went_back_otherwise={} reconnects={} errors={:?}",
            self.went_back.0, self.went_back.1, self.reconnects, self.errors
        )
    }
}

pub struct Player {
    seated: Seated,
    /// The node it reconnects through (the fault may change it).
    home: Rc<RefCell<String>>,
    client: Client,
    journal: Rc<RefCell<Journal>>,
    rng: Rng,
    stop: Rc<Cell<bool>>,
    /// The highest version this seat has been shown.
    highest: u64,
    /// The view to act on, and whether this seat has acted on it.
    latest: Option<Value>,
    acted: bool,
    /// The next view answers a reconnect or a resync, so may be older than one shown before.
    fresh: bool,
    last_frame: Instant,
    asks: u32,
    retry_at: Option<Instant>,
    sent: u64,
}

impl Player {
    pub fn new(
        seated: Seated,
        client: Client,
        home: Rc<RefCell<String>>,
        journal: Rc<RefCell<Journal>>,
        seed: u64,
    ) -> Player {
        Player {
            seated,
            home,
            client,
            journal,
            rng: rng(seed),
            stop: Rc::new(Cell::new(false)),
            highest: 0,
            latest: None,
            acted: false,
            fresh: true,
            last_frame: Instant::now(),
            asks: 0,
            retry_at: None,
            sent: 0,
        }
    }

    async fn play(mut self) {
        while !self.stop.get() {
            match actix_rt::time::timeout(TICK, self.client.next()).await {
                Ok(Some(frame)) => self.hear(frame).await,
                Ok(None) => self.reconnect().await,
                Err(_) => self.look_up().await,
            }
        }
    }

    async fn hear(&mut self, frame: Value) {
        trace(
            format_args!("seat {}", self.seated.seat),
            "<-",
            &frame.to_string(),
        );
        self.last_frame = Instant::now();
        self.asks = 0;
        match frame["type"].as_str() {
            Some("view") => {
                if let Some(ack) = frame.get("ack") {
                    self.journal.borrow_mut().acks.push(Ack {
                        seat: self.seated.seat,
                        id: ack["id"].as_str().unwrap_or_default().to_string(),
                        version: frame["version"].as_u64().unwrap_or(0),
                        at: Instant::now(),
                    });
                }
                self.shown(frame).await
            }
            Some("error") => {
                let code = frame["code"].as_str().unwrap_or("?").to_string();
                *self.journal.borrow_mut().errors.entry(code).or_default() += 1;
                self.retry_at = Some(Instant::now() + RETRY);
            }
            _ => {}
        }
    }

    async fn shown(&mut self, frame: Value) {
        let version = frame["version"].as_u64().unwrap_or(0);
        self.write_down(version, &frame);
        let newer = self
            .latest
            .as_ref()
            .is_none_or(|latest| latest["version"].as_u64() < Some(version));
        if self.fresh || newer {
            self.latest = Some(frame);
            self.acted = false;
        }
        self.fresh = false;
        self.act().await;
    }

    /// Records a view shown, and whether it went back behind one shown before.
    fn write_down(&mut self, version: u64, frame: &Value) {
        let mut journal = self.journal.borrow_mut();
        if version < self.highest {
            // The page-visible rule: only recorded, the page follows a resync's older view.
            if self.fresh {
                journal.went_back.0 += 1;
            } else {
                journal.went_back.1 += 1;
            }
        }
        self.highest = self.highest.max(version);
        if !frame["view"].is_null() {
            journal.views.push(Shown {
                seat: self.seated.seat,
                version,
                view: frame["view"].clone(),
            });
        }
    }

    /// Plays the latest view once: a random action when it offers some, the next deal when one
    /// has ended.
    async fn act(&mut self) {
        let Some(view) = self.latest.as_ref().filter(|_| !self.acted) else {
            return;
        };
        let version = view["version"].as_u64().unwrap_or(0);
        let offered = view["actions"].as_array().is_some_and(|a| !a.is_empty());
        let frame = match view["status"].as_str() {
            Some("playing") if offered => {
                let chosen = choose(view, &mut self.rng);
                self.sent += 1;
                let id = format!("s{}-{}", self.seated.seat, self.sent);
                let frame = action(version, &id, &chosen);
                let sent = Sent {
                    seat: self.seated.seat,
                    action: chosen,
                    on: version,
                    at: Instant::now(),
                };
                self.journal.borrow_mut().sent.insert(id, sent);
                frame
            }
            Some("deal-over") => json!({ "type": "next-deal", "version": version }),
            Some("match-over") => {
                self.journal.borrow_mut().over = true;
                return;
            }
            _ => return,
        };
        self.acted = true;
        actix_rt::time::sleep(PACE).await;
        trace(
            format_args!("seat {}", self.seated.seat),
            "->",
            &frame.to_string(),
        );
        if !self.client.try_send_text(frame.to_string()).await {
            self.reconnect().await;
        }
    }

    /// Between frames: asks for the view again after a refusal, or after a silence; reconnects
    /// when even that goes unanswered.
    async fn look_up(&mut self) {
        let now = Instant::now();
        if self.retry_at.is_some_and(|at| now >= at) {
            self.retry_at = None;
            self.resync().await;
        } else if self.last_frame.elapsed() >= QUIET * (self.asks + 1) {
            if self.asks >= 2 {
                self.reconnect().await;
            } else {
                self.asks += 1;
                self.resync().await;
            }
        }
    }

    async fn resync(&mut self) {
        trace(format_args!("seat {}", self.seated.seat), "->", "resync");
        self.fresh = true;
        if !self
            .client
            .try_send_text(json!({"type": "resync"}).to_string())
            .await
        {
            self.reconnect().await;
        }
    }

    /// Opens a new socket through its node, waiting a little first as a page backs off.
    async fn reconnect(&mut self) {
        self.journal.borrow_mut().reconnects += 1;
        while !self.stop.get() {
            actix_rt::time::sleep(RETRY).await;
            let base = self.home.borrow().clone();
            let opening = Client::connect(&base, &self.seated.table, &self.seated.token);
            match actix_rt::time::timeout(CONNECTING, opening).await {
                Ok(Ok(client)) => {
                    trace(
                        format_args!("seat {}", self.seated.seat),
                        "connected through",
                        &base,
                    );
                    self.client = client;
                    break;
                }
                Ok(Err(e)) => trace(
                    format_args!("seat {}", self.seated.seat),
                    "cannot connect:",
                    &e,
                ),
                Err(_) => trace(
                    format_args!("seat {}", self.seated.seat),
                    "cannot connect:",
                    "no answer",
                ),
            }
        }
        self.fresh = true;
        self.last_frame = Instant::now();
        self.asks = 0;
        self.retry_at = None;
    }
}

/// The running players, stopped together.
pub struct Players {
    stop: Rc<Cell<bool>>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Players {
    pub fn new() -> Players {
        Players {
            stop: Rc::new(Cell::new(false)),
            tasks: Vec::new(),
        }
    }

    /// A player for each seat, its socket already open through its home node.
    pub fn seat(
        seated: Vec<Seated>,
        clients: Vec<Client>,
        homes: &[Rc<RefCell<String>>],
        journal: &Rc<RefCell<Journal>>,
        run: u64,
    ) -> Players {
        let mut players = Players::new();
        for ((seated, client), home) in seated.into_iter().zip(clients).zip(homes) {
            let seed = run * 10 + seated.seat;
            let player = Player::new(seated, client, home.clone(), journal.clone(), seed);
            players.spawn(player);
        }
        players
    }

    pub fn spawn(&mut self, mut player: Player) {
        player.stop = self.stop.clone();
        self.tasks.push(actix_rt::spawn(player.play()));
    }

    pub async fn stop(self) {
        self.stop.set(true);
        for task in self.tasks {
            let _ = task.await;
        }
    }
}
