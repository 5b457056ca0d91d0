//! The table core: every decision a table makes (who sits where, versions, the match's flow, the
//! computers' turns, pauses while its store is out of reach, holds and expiry), synchronous and free of
//! I/O. It takes events (a join, a socket attaching, a frame from a seat, a timer, the store's answer)
//! and answers each with [`Effect`]s: what to show which socket, a change to store, a timer to set, a search to
//! run, the table to stop. The actor in `table::actor` is only the shell that carries them out, so the
//! core is tested here without actix, a clock or a socket: time comes in with each event.
//!
//! `TableCore` owns parts that own their state: who is connected (`sockets`), its side of the store
//! (`keeper`), what it notes of each seat (`seat_notes`), the computers' generator and turns
//! (`computers`), the deal's seal with the coming shuffle and its wait (`dealer`), the voice room
//! (`voice`), the coach's studies (`coaching`); the files beside them hold its decisions by concern.
//!
//! It is pure by construction, not only in behaviour: time comes in with each event (a [`Clock`] or an
//! `Instant` the shell read), entropy once, when the table is made or rebuilt (a seed for its own
//! ChaCha generator), and what it did that the process counts goes out as [`Count`]s beside the
//! effects, for the shell to add to the metrics. It logs through `tracing`, which is write-only.
//!
//! The build holds it to that. The crate's `clippy.toml` names the calls and types that would let the
//! outside in (the operating system's generator, the clock, actix, the WebSocket library, Redis, the
//! process's metrics, hashers seeded by the operating system, the JSON writer's raw values and layout
//! hooks: what the core shows goes out typed, and the presenter writes it); those lints are allowed
//! in the package (`Cargo.toml`, `[lints]`) and denied in this module and in the plain table modules
//! it builds on, so `cargo clippy --all-targets -- -D warnings` (CI) fails on any such call or type
//! here. A test (`table::purity`) reads these files and refuses any path to the actor's messages, the
//! outbox, the metrics or those crates, which a lint on calls and types cannot see (a module imported,
//! or a unit value such as `rand::rngs::OsRng` written out in full). A crate of its own in a workspace
//! would draw the same line with the compiler; it was not chosen because the core shares its types
//! (seats, snapshots, the frames' parts, the games' contract) with the rest of `table` and with
//! `protocol`, and cutting them apart would move most of the library for a wall the lints already
//! hold.
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

use super::frames::Status;
use super::seats::{Level, Occupant, TableKind};
use super::DealRecord;
use super::{ErrorCode, Shuffle, TableId, TokenHash};
use crate::protocol::SeatInfo;
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;
use chaikhana_rules::matches::{Match, MatchLength};

mod coaching;
pub use coaching::Study;
mod computers;
mod dealer;
mod flow;
mod keeper;
mod keeping;
mod levels;
mod listing;
pub use listing::Listing;
mod away;
mod replay;
pub use replay::{Replay, ReplayStep};
mod seat_notes;
mod seating;
mod shell;
pub use shell::{
    Change, Clock, Closing, Count, Effect, Expiry, Gone, Hangup, OnClosed, StoreAnswer,
    TableConfig, TablePolicy, TableStore, Timer,
};
mod social;
pub use social::clean_name;
mod sockets;
mod storing;
mod views;
pub use views::{DealShown, Notice, Seen, Showing};
mod voice;
mod watchers;

/// Identifies one WebSocket connection while it lives.
pub type ConnId = u64;

/// What the table does once a change is stored.
#[derive(Clone, Debug)]
enum Then {
    /// Nothing more (a snapshot stored again on the router's order).
    Nothing,
    /// Show everyone the change and wake the next computer.
    Show,
    /// Show everyone the change, telling the socket whose action it was that it was accepted.
    Acknowledge {
        conn: ConnId,
        id: Option<String>,
        arrived: Instant,
    },
    /// A seat was taken: deal once every seat is, or show everyone; then answer its join.
    Seated(Seat),
    /// Seats were given up: show everyone.
    Broadcast,
    /// The coming deal's list of pledges was closed: show it to every seat, and go on waiting for
    /// the numbers (or deal, when none is due).
    ShowPledges,
    /// The coach's word was kept: tell it to the seat (see `coaching`), only now that it is stored.
    Coached(coaching::Said),
}

/// How soon a paused table tries its store again.
const PAUSE_RETRY: Duration = Duration::from_millis(500);

/// What every socket hears while the table is paused, and what a request made meanwhile is answered.
const PAUSED: &str =
    "Play is paused: the table cannot save its moves right now. It resumes by itself, and nothing is lost.";

/// Every deal's secret (and each match's first seat, and the computers' seeds) comes from the table's
/// own ChaCha20 generator, seeded with 256 bits of entropy the shell reads from the operating system
/// when it makes or rebuilds the table: no player can predict the next deal, and a test that gives the
/// same seed gets the same table.
type TableRng = ChaCha20Rng;

pub struct TableCore<G: Game> {
    id: TableId,
    kind: TableKind,
    /// How well the computers play, at a computer table (none at a friends table).
    level: Option<Level>,
    policy: TablePolicy,
    seats: Vec<Occupant<G>>,
    length: MatchLength,
    matchup: Match,
    state: Option<G::State>,
    /// The sealed order of the deal in `state`, the coming deal's shuffle and the wait for the seats'
    /// numbers (see `deal_next`).
    dealer: dealer::Dealer,
    record: Vec<DealRecord<G::Action>>,
    version: u64,
    rng: TableRng,
    /// The computers' generator, and the version they were last asked on.
    computers: computers::Computers,
    /// Who is connected.
    sockets: sockets::Sockets,
    voice: voice::VoiceRoom,
    /// The last frame a seat sent (or the table's start): the table expires a while after it.
    last_activity: Instant,
    /// The shell's clock when the table was made or rebuilt, to tell moments as Unix times.
    clock: Clock,
    /// Whether the table is storing itself to sleep (see `away`).
    sleeping: bool,
    /// Names, who asked for what comes next, seats that may be offered or were given away.
    notes: seat_notes::SeatNotes,
    /// The table's side of its store: what it holds, what is on its way, the pause (see `storing`).
    keeper: keeper::Keeper,
    /// The coach's hints and analyses on their way (see `coaching`).
    coaching: coaching::Studies,
    /// What the shell is to do, in order.
    effects: Vec<Effect<G>>,
    /// What the shell is to count.
    counts: Vec<Count>,
}

impl<G: Game> TableCore<G> {
    /// A new table. At a computer table the creator (holding the token with hash `creator`) sits in
    /// seat 1 and computers fill the rest; at a friends table the creator takes seat 1 and the others
    /// wait for the link. `keeps`: whether its changes go to a store. `entropy` seeds the table's
    /// generator: the shell reads it from the operating system.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: TableId,
        kind: TableKind,
        length: MatchLength,
        level: Level,
        creator: TokenHash,
        policy: TablePolicy,
        keeps: bool,
        now: Clock,
        entropy: [u8; 32],
    ) -> Option<TableCore<G>> {
        let mut rng = TableRng::from_seed(entropy);
        let mut seats = vec![Occupant::person(creator, now.at)];
        for seat in Seat::all(G::SEATS).skip(1) {
            seats.push(match kind {
                TableKind::Computer => {
                    Occupant::Computer(level.computer::<G>(seat, policy.strong_budget)?)
                }
                TableKind::Friends => Occupant::Free,
            });
        }
        let level = (kind == TableKind::Computer).then_some(level);
        let matchup = Match::new(length, G::SEATS, &mut rng);
        Some(TableCore::assemble(
            id,
            kind,
            level,
            policy,
            keeps,
            seats,
            (length, matchup),
            Vec::new(),
            0,
            now,
            rng,
        ))
    }

    /// A table of these seats and this record, at this version, with nothing in play yet: `new` and
    /// `rebuild` both make theirs here.
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        id: TableId,
        kind: TableKind,
        level: Option<Level>,
        policy: TablePolicy,
        keeps: bool,
        seats: Vec<Occupant<G>>,
        (length, matchup): (MatchLength, Match),
        record: Vec<DealRecord<G::Action>>,
        version: u64,
        now: Clock,
        mut rng: TableRng,
    ) -> TableCore<G> {
        let computers = computers::Computers::new(rng.gen());
        let shuffle = Shuffle::new::<G>(matchup.next_deal(), 0, &mut rng);
        TableCore {
            id,
            kind,
            level,
            policy,
            seats,
            length,
            matchup,
            state: None,
            // A rebuilt table keeps the coming deal's secret (see `rebuild`), not its numbers: the
            // pages send theirs again.
            dealer: dealer::Dealer::new(shuffle),
            record,
            version,
            rng,
            computers,
            sockets: sockets::Sockets::new(now.at),
            voice: voice::VoiceRoom::new(G::SEATS),
            last_activity: now.at,
            clock: now,
            sleeping: false,
            notes: seat_notes::SeatNotes::new(G::SEATS),
            keeper: keeper::Keeper::new(keeps),
            coaching: coaching::Studies::default(),
            effects: Vec::new(),
            counts: Vec::new(),
        }
    }

    pub fn id(&self) -> &TableId {
        &self.id
    }

    pub fn kind(&self) -> TableKind {
        self.kind
    }

    pub fn version(&self) -> u64 {
        self.version
    }

    /// The deals of the match in play, each with its actions.
    pub fn record(&self) -> &[DealRecord<G::Action>] {
        &self.record
    }

    /// Moves what the shell is to do now into `into`, in order, keeping both buffers' room: the
    /// shell calls this after every event, so no allocation is made for it once the table has run.
    pub fn move_effects(&mut self, into: &mut Vec<Effect<G>>) {
        into.append(&mut self.effects);
    }

    /// Moves what the shell is to count now into `into`, as [`TableCore::move_effects`] does.
    pub fn move_counts(&mut self, into: &mut Vec<Count>) {
        into.append(&mut self.counts);
    }

    /// Counts something the table did.
    fn count(&mut self, count: Count) {
        self.counts.push(count);
    }

    /// How often the shell calls [`TableCore::tick`].
    pub fn tick_every(&self) -> Duration {
        let soonest = self.policy.sleep_after.min(self.policy.offer_after);
        (soonest / 4).clamp(Duration::from_millis(50), Duration::from_secs(5))
    }

    /// Once the shell runs: a table whose seats are all taken deals, and one rebuilt from its
    /// snapshot at a computer's turn goes on.
    pub fn start(&mut self) {
        if self.status() == Status::Waiting
            && !self.seats.iter().any(|s| matches!(s, Occupant::Free))
        {
            self.deal_next();
        } else {
            self.wake_computer();
        }
    }

    fn status(&self) -> Status {
        if self.seats.iter().any(|s| matches!(s, Occupant::Free)) {
            return Status::Waiting;
        }
        match self.state.as_ref().map(G::outcome) {
            None => Status::Waiting,
            Some(None) => Status::Playing,
            Some(Some(_)) if self.matchup.winners().is_some() => Status::MatchOver,
            Some(Some(_)) => Status::DealOver,
        }
    }

    fn seat_infos(&self) -> Vec<SeatInfo> {
        Seat::all(G::SEATS)
            .map(|s| {
                let i = s.index();
                let mut info = self.seats[i].info(
                    s,
                    self.voice.is_on(s),
                    self.notes.is_ready(s),
                    self.notes.name(s).cloned(),
                );
                info.away_since = self.seats[i].away_since().map(|t| self.clock.unix_ms_of(t));
                info.offerable = self.notes.is_offerable(s);
                info
            })
            .collect()
    }

    /// Sends a notice to one socket (a seat's or a watcher's).
    fn send(&mut self, conn: ConnId, notice: Notice) {
        self.effects.push(Effect::Send(conn, Arc::new(notice)));
    }

    /// Sends a notice to every socket at the table, the watchers' included: one notice, shared.
    fn send_everyone(&mut self, notice: Notice) {
        let notice = Arc::new(notice);
        let everyone = self.sockets.everyone();
        let sends = everyone.map(|conn| Effect::Send(conn, Arc::clone(&notice)));
        self.effects.extend(sends);
    }

    /// A socket could not take its frame: its frames pile up, so it is closed and the table goes on
    /// without it.
    pub fn socket_too_slow(&mut self, conn: ConnId, now: Instant) {
        self.count(Count::SocketTooSlow);
        tracing::warn!(table = %self.id, conn, "dropped a socket that could not keep up");
        self.effects.push(Effect::Close(conn, Hangup::TooSlow));
        self.forget_socket(conn, now);
    }

    /// Sends an error for a refused request, counting it.
    fn send_refusal(
        &mut self,
        conn: ConnId,
        code: impl Into<ErrorCode>,
        message: impl Into<Cow<'static, str>>,
        id: Option<&str>,
    ) {
        let code = code.into();
        self.count(Count::Refused(code));
        let message = message.into();
        let id = id.map(str::to_string);
        self.send(conn, Notice::Refused { code, message, id });
    }

    /// Tells every socket who is connected (the presenter sends each socket's next view the seats
    /// and the head again, as this frame may be dropped when frames pile up).
    fn broadcast_seats(&mut self) {
        self.send_everyone(Notice::Seats {
            seats: self.seat_infos(),
            watching: self.sockets.watching(),
        });
    }

    /// Forgets a seat's socket, answering its seat; a watcher's is forgotten too (see `watchers`).
    /// The presenter forgets what it was shown.
    fn forget_socket(&mut self, conn: ConnId, now: Instant) -> Option<Seat> {
        self.effects.push(Effect::Forget(conn));
        let sockets::Went::Seat(seat) = self.sockets.remove(conn, now) else {
            return None;
        };
        if let Occupant::Person { gone_since, .. } = &mut self.seats[seat.index()] {
            if self.sockets.of_seat(seat) == 0 {
                *gone_since = Some(now);
            }
        }
        Some(seat)
    }

    fn seat_of(&self, key: &TokenHash) -> Option<Seat> {
        Seat::all(G::SEATS).find(|s| self.seats[s.index()].holds(key))
    }

    /// Stops the table.
    fn stop(&mut self, closing: Closing) {
        self.effects.push(Effect::Stop(closing));
    }
}

#[cfg(test)]
mod seeded;
#[cfg(test)]
mod tests;

/// Tables and their changes for the tests of the stores.
#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;
    use crate::protocol::ClientMsg;
    use crate::table::Token;
    use chaikhana_rules::games::panjpar::Panjpar;

    /// A computer table of one deal, dealt, its player's token unknown.
    pub fn computer_table<G: Game>() -> TableCore<G> {
        let kind = TableKind::Computer;
        let creator = Token::random().hash();
        let length = G::Length::default().into();
        let mut table = tests::open::<G>(kind, length, Level::Standard, creator);
        table.start_deal();
        table
    }

    /// A Panjpar friends table with both seats taken and dealt, nothing stored and no socket attached
    /// yet; the moment, and the seats' tokens.
    pub fn friends_dealt() -> (TableCore<Panjpar>, Instant, [TokenHash; 2]) {
        tests::friends_dealt(false)
    }

    /// The socket whose turn it is at a table of [`friends_dealt`] (1 for seat 0, 2 for seat 1), and
    /// the first action its view offers, made on the table's version.
    pub fn turn(table: &mut TableCore<Panjpar>) -> (ConnId, ClientMsg) {
        let (conn, chosen) = tests::turn(table);
        (conn, tests::action(table.version(), chosen))
    }

    /// Plays one random legal action (seeded by `seed`) and answers what would go to the store, as
    /// if it then went.
    pub fn play_and_change<G: Game>(table: &mut TableCore<G>, seed: u64) -> Option<Change> {
        tests::play(table, 1, seed);
        let (change, mark) = table.change_to_store()?;
        table.keeper.holds(mark);
        Some(change)
    }
}
