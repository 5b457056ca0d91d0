//! What passes between the table core and its shell: the policy and hooks a table is made with, the
//! effects the core asks for, the timers it sets, the store it writes to, and what it counts.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;

use super::replay::Replay;
use super::{ConnId, Notice, Showing};
use crate::table::{ErrorCode, TableId};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Budget;
use chaikhana_rules::game::{Game, Search};

/// How a table behaves; from the server's settings.
#[derive(Clone, Debug)]
pub struct TablePolicy {
    pub bot_delay: Duration,
    /// How long a strong computer at the table thinks per decision.
    pub strong_budget: Budget,
    /// How long a table with nobody connected stays awake before it sleeps (with a store).
    pub sleep_after: Duration,
    /// How long a table lives after its last activity.
    pub expiry: Expiry,
    /// How long a seat is away before the others may offer it to someone else.
    pub offer_after: Duration,
    /// Sockets one seat may hold open at once.
    pub sockets_per_seat: usize,
    /// Watchers one table may have at once.
    pub watchers_per_table: usize,
    /// How long a deal waits for the numbers of the people seated before it is shuffled without the
    /// missing ones (zero: it never waits; see `table::shuffle`).
    pub shuffle_wait: Duration,
}

/// How long tables live after their last activity: by kind while the match is on, and once it is over
/// (kept for its replays and a rematch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expiry {
    pub friends: Duration,
    pub computer: Duration,
    pub finished: Duration,
}

/// The time of an event, as the table's monotonic clock and as the wall clock (Unix milliseconds),
/// given by the shell: the core turns the moments it keeps into Unix times only to tell them.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub at: Instant,
    pub unix_ms: u64,
}

impl Clock {
    /// The Unix time in milliseconds of the moment `t`.
    pub fn unix_ms_of(&self, t: Instant) -> u64 {
        if t >= self.at {
            self.unix_ms + t.duration_since(self.at).as_millis() as u64
        } else {
            self.unix_ms
                .saturating_sub(self.at.duration_since(t).as_millis() as u64)
        }
    }

    /// The moment of the Unix time `unix_ms` (none before the clock's own moment minus that time).
    pub fn instant_of(&self, unix_ms: u64) -> Instant {
        if unix_ms >= self.unix_ms {
            self.at + Duration::from_millis(unix_ms - self.unix_ms)
        } else {
            let back = Duration::from_millis(self.unix_ms - unix_ms);
            self.at.checked_sub(back).unwrap_or(self.at)
        }
    }
}

/// A table's policy and the hooks of the router that started it.
#[derive(Clone)]
pub struct TableConfig {
    pub policy: TablePolicy,
    /// Called once when the table stops, to take it out of the router.
    pub on_closed: OnClosed,
    /// Where snapshots go, when the router keeps them (several nodes); `None` alone.
    pub store: Option<Arc<dyn TableStore>>,
}

/// Called once when a table stops.
pub type OnClosed = Arc<dyn Fn(&TableId, Closing) + Send + Sync>;

/// Why a table stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closing {
    /// It closed for good: its record goes, and what is left says why.
    Closed(Gone),
    /// Nobody was connected: its record stays in the store, and the next seat or watcher to open it
    /// wakes it.
    Asleep,
    /// Its node drains: the snapshot stays for the next owner.
    HandedOver,
    /// Another owner has it now (or its store refused this one's token): its sockets here reconnect
    /// and find it there, and what is stored stays.
    Lost,
}

/// Why a table closed for good, as its link tells whoever opens it later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gone {
    /// Nothing happened at it for as long as a table lives.
    Expired,
    /// A player ended the match while the other was away.
    Ended,
}

/// Stores snapshots.
pub trait TableStore: Send + Sync {
    /// Stores a change of the table, to be kept `keep_for` from now unless changed again; resolves to
    /// what became of it. Changes of one table are stored in the order they are given.
    fn keep(
        &self,
        id: &TableId,
        change: Change,
        keep_for: Duration,
    ) -> BoxFuture<'static, StoreAnswer>;
    /// Stores the table's final snapshot and then lets it go, for another node (or a later wake) to
    /// take; resolves once both have reached the store (or failed).
    fn hand_over(
        &self,
        id: &TableId,
        whole: Change,
        keep_for: Duration,
    ) -> BoxFuture<'static, StoreAnswer>;
}

/// What a table gives its store to keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The whole snapshot as JSON, in place of whatever was stored.
    Whole { game: &'static str, json: String },
    /// Lines to add after what is stored: the actions accepted since it was stored, one line each
    /// (see `Snapshot::played_line`), the first of which made version `from`.
    Played { lines: String, from: u64 },
}

/// What became of a [`Change`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreAnswer {
    Stored,
    /// Not stored: the store is out of reach.
    Failed,
    /// Not stored: lines were to be added to a snapshot the store no longer holds.
    Missing,
    /// Refused: this owner no longer holds the table's lease, so it may not write.
    Fenced,
}

/// What the core asks its shell to do, in order.
pub enum Effect<G: Game> {
    /// Show sockets their views (see [`Showing`]): the presenter writes each socket's frame, leaving
    /// out what it already has. A socket whose queue is full is reported back with
    /// [`TableCore::socket_too_slow`](super::TableCore::socket_too_slow), as with every frame.
    Show(Showing<G>),
    /// Send a notice to a socket, a seat's or a watcher's. A notice sent to several sockets is one,
    /// shared: the presenter writes it once.
    Send(ConnId, Arc<Notice>),
    /// Send a socket the step of a finished deal it asked to replay, whole.
    Replay(ConnId, Box<Replay<G>>),
    /// The socket is gone: forget what it was shown (a socket attaching again is shown its whole
    /// view, as a new one).
    Forget(ConnId),
    /// Close a socket, saying why (the presenter gives the WebSocket close code and reason).
    Close(ConnId, Hangup),
    /// Store this change, taking no other event until the store answers with
    /// [`TableCore::stored`](super::TableCore::stored).
    Store(Change),
    /// Store this final snapshot and let the table go; the answer goes to
    /// [`TableCore::handed_over`](super::TableCore::handed_over).
    HandOver(Change),
    /// Call [`TableCore::timer`](super::TableCore::timer) with this timer once the time has passed.
    Wake(Duration, Timer),
    /// Run a computer's search away from the table, with a generator seeded from `seed`; its choice
    /// goes to [`TableCore::thought`](super::TableCore::thought), no sooner than `play_after` from now (the move delay a person
    /// sees, with the thinking inside it).
    Think {
        seat: Seat,
        version: u64,
        search: Search<G>,
        seed: u64,
        play_after: Duration,
    },
    /// Think a study of the coach's (a hint, or one decision of an analysis) away from the table,
    /// behind every computer's move, with a generator seeded from `seed`; its judgement goes to
    /// [`TableCore::studied`](super::TableCore::studied).
    Study {
        study: super::coaching::Study,
        judge: super::coaching::Judge<G>,
        seed: u64,
    },
    /// The join that took this seat has it stored: answer it.
    Seated(Seat),
    /// Stop the table.
    Stop(Closing),
}

/// Why the table closes one socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hangup {
    /// Its frames piled up: it could not keep up.
    TooSlow,
    /// The table closed for good.
    Gone(Gone),
}

impl<G: Game> std::fmt::Debug for Effect<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Effect::Show(showing) => {
                let to: Vec<ConnId> = showing.to.iter().map(|(conn, _)| *conn).collect();
                write!(f, "Show({}, {to:?})", showing.version)
            }
            Effect::Send(conn, notice) => write!(f, "Send({conn}, {notice:?})"),
            Effect::Replay(conn, replay) => write!(f, "Replay({conn}, {})", replay.version),
            Effect::Forget(conn) => write!(f, "Forget({conn})"),
            Effect::Close(conn, why) => write!(f, "Close({conn}, {why:?})"),
            Effect::Store(change) => write!(f, "Store({change:?})"),
            Effect::HandOver(change) => write!(f, "HandOver({change:?})"),
            Effect::Wake(after, timer) => write!(f, "Wake({after:?}, {timer:?})"),
            Effect::Think { seat, version, .. } => write!(f, "Think({seat:?}, {version})"),
            Effect::Study { study, .. } => write!(f, "Study({study:?})"),
            Effect::Seated(seat) => write!(f, "Seated({seat:?})"),
            Effect::Stop(closing) => write!(f, "Stop({closing:?})"),
        }
    }
}

/// What a timer set with [`Effect::Wake`] was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// The computer in `seat` moves, if the table is still at `version`.
    Computer { seat: Seat, version: u64 },
    /// The deal that waits for the seats' numbers (the wait begun at that version) goes ahead.
    ShuffleWait(u64),
    /// A paused table tries its store again.
    PauseRetry,
    /// The computers of a guided deal have waited long enough for the guide's first words.
    GuideWait,
}

/// Something the table did that the process counts: the core says what, the shell adds it to the
/// metrics (see `table::actor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// A socket asked for its whole view again.
    Resync,
    /// A seat's socket attached again while its person held the seat.
    Reconnect,
    /// A request was refused, with this code.
    Refused(ErrorCode),
    /// An action was accepted.
    Accepted,
    /// A match ended.
    MatchFinished,
    /// A socket could not keep up and was closed.
    SocketTooSlow,
    /// The table paused: its store was out of reach.
    Paused,
    /// The table closed for good.
    Closed(Gone),
    /// A seat's action, which arrived at this moment, has been shown and acknowledged.
    Answered { arrived: Instant },
    /// A computer chose its move in place, in the event that began at this moment.
    ChoseInPlace { began: Instant },
}
