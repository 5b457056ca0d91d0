//! The table actor: one per table, generic over the game. It owns the match and never waits on a socket:
//! frames go out with `try_send` into each socket's bounded mailbox, and a socket that cannot keep up is
//! dropped while the table goes on.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::{Actor, ActorContext, ActorFutureExt, AsyncContext, Context, WrapFuture};
use futures_util::future::BoxFuture;
use rand::{Rng, SeedableRng};

use super::frames::{MatchInfo, ShuffleShown, Status, ViewFrame};
use super::messages::*;
use super::seats::{Level, Occupant, TableKind};
use super::{
    fresh_salt, DealSeal, RefusalCode, RevealTo, Shuffle, TableId, TableRefusal, TokenHash,
};
use crate::cards::{deal_rng, Seat};
use crate::game::{BotRng, Game};
use crate::games::strong::Budget;
use crate::matches::{Match, MatchLength};
use crate::metrics::metrics;
use crate::outbox::{Frame, NotQueued};
use crate::protocol::{SeatInfo, ServerMsg};

/// About the length of a view frame's JSON, so that its buffer is allocated once.
const VIEW_SIZE_HINT: usize = 2048;

/// How a table behaves; from the server's settings.
#[derive(Clone)]
pub struct TableConfig {
    pub bot_delay: Duration,
    /// How long a strong computer at the table thinks per decision.
    pub strong_budget: Budget,
    pub seat_hold: Duration,
    pub idle_expiry: Duration,
    /// Sockets one seat may hold open at once.
    pub sockets_per_seat: usize,
    /// Watchers one table may have at once.
    pub watchers_per_table: usize,
    /// How long a deal waits for the numbers of the people seated before it is shuffled without the
    /// missing ones (zero: it never waits; see `table::shuffle`).
    pub shuffle_wait: Duration,
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
    /// It closed for good (idle, its player left, or another node owns it now).
    Closed,
    /// Its node drains: the snapshot stays for the next owner.
    HandedOver,
    /// Another owner has it now (or its store refused this one's token): its sockets here reconnect
    /// and find it there, and what is stored stays.
    Lost,
}

/// Stores snapshots.
pub trait TableStore: Send + Sync {
    /// Stores a change of the table; resolves to what became of it. Changes of one table are stored
    /// in the order they are given.
    fn keep(&self, id: &TableId, change: Change) -> BoxFuture<'static, StoreAnswer>;
    /// Stores the table's final snapshot and then lets it go, for another node to take; resolves once
    /// both have reached the store (or failed).
    fn hand_over(&self, id: &TableId, whole: Change) -> BoxFuture<'static, StoreAnswer>;
}

/// What a table gives its store to keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The whole snapshot as JSON, in place of whatever was stored.
    Whole { game: &'static str, json: String },
    /// Lines to add after what is stored: the actions accepted since it was stored, one line each
    /// (see `Snapshot::played_line`).
    Played(String),
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

/// What the table does once a change is stored (tells the seats, answers a join).
type Tell<G> = Box<dyn FnOnce(&mut Table<G>, &mut Context<Table<G>>)>;

/// How soon a paused table tries its store again.
const PAUSE_RETRY: Duration = Duration::from_millis(500);

/// What every socket hears while the table is paused, and what a request made meanwhile is answered.
const PAUSED: &str =
    "Play is paused: the table cannot save its moves right now. It resumes by itself, and nothing is lost.";

mod handlers;
mod keeping;
mod replay;
mod social;
mod thinking;
mod voice;
mod watchers;

/// Every deal's seed (and each match's first seat) comes straight from the operating system's
/// generator: no player can predict the next deal, and a table keeps no generator state of its own.
type TableRng = rand::rngs::OsRng;

pub struct Table<G: Game> {
    id: TableId,
    kind: TableKind,
    /// How well the computers play, at a computer table (none at a friends table).
    level: Option<Level>,
    config: TableConfig,
    seats: Vec<Occupant<G>>,
    length: MatchLength,
    matchup: Match,
    state: Option<G::State>,
    /// The sealed order of the deal in `state`.
    seal: Option<DealSeal>,
    /// The coming deal's shuffle: committed to now, added to by each seat's page.
    shuffle: Shuffle,
    /// Whether the next deal waits for the seats' numbers (see `deal_next`), and which wait it is.
    shuffle_wait: Option<u64>,
    record: Vec<DealRecord>,
    version: u64,
    rng: TableRng,
    bot_rng: BotRng,
    sockets: HashMap<ConnId, (Seat, SocketOut)>,
    /// The sockets of people watching through the watch link (see `watchers`).
    watchers: HashMap<ConnId, SocketOut>,
    voice: voice::VoiceRoom,
    last_activity: Instant,
    /// Why the table stops, once it does.
    closing: Closing,
    /// A change the store has not taken yet, with what to do once it does (see `pause`).
    unstored: Option<Tell<G>>,
    /// Since when the table has been waiting for its store: it is paused while this is set.
    paused_since: Option<Instant>,
    /// What the store holds of the table, when known to be the table as it was then.
    stored: Option<keeping::LastStored>,
    /// The seats that asked for the next deal or the rematch, while the table waits for the rest.
    /// Not stored: after a move to another node, whoever had asked asks again.
    ready: Vec<bool>,
    /// The names people gave their seats. Not stored: each page gives its name again on connecting.
    names: Vec<Option<String>>,
}

impl<G: Game> Table<G> {
    /// A new table. At a computer table the creator (holding the token with hash `creator`) sits in
    /// seat 1 and computers fill the rest; at a friends table the creator takes seat 1 and the others
    /// wait for the link.
    pub fn new(
        id: TableId,
        kind: TableKind,
        length: MatchLength,
        level: Level,
        creator: TokenHash,
        config: TableConfig,
    ) -> Option<Table<G>> {
        let mut rng = TableRng::default();
        let mut seats = vec![Occupant::person(creator)];
        for seat in Seat::all(G::SEATS).skip(1) {
            seats.push(match kind {
                TableKind::Computer => {
                    Occupant::Computer(G::bot(level.bot(), seat, config.strong_budget)?)
                }
                TableKind::Friends => Occupant::Free,
            });
        }
        let level = (kind == TableKind::Computer).then_some(level);
        let matchup = Match::new(length, G::SEATS, &mut rng);
        let bot_rng = BotRng::seed_from_u64(rng.gen());
        let table = Table {
            id,
            kind,
            level,
            config,
            seats,
            length,
            matchup,
            state: None,
            seal: None,
            shuffle: Shuffle::new(G::SEATS),
            shuffle_wait: None,
            record: Vec::new(),
            version: 0,
            rng,
            bot_rng,
            sockets: HashMap::new(),
            watchers: HashMap::new(),
            voice: voice::VoiceRoom::new(G::SEATS),
            last_activity: Instant::now(),
            closing: Closing::Closed,
            unstored: None,
            paused_since: None,
            stored: None,
            ready: vec![false; G::SEATS],
            names: vec![None; G::SEATS],
        };
        Some(table)
    }

    pub fn id(&self) -> &TableId {
        &self.id
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
                self.seats[i].info(s, self.voice.is_on(s), self.ready[i], self.names[i].clone())
            })
            .collect()
    }

    /// The frame for `seat` now (none: a watcher's).
    fn view_frame(&self, seat: Option<Seat>, seats: &[SeatInfo]) -> Frame {
        let status = self.status();
        let outcome = self.state.as_ref().and_then(G::outcome);
        let concealed = match (&self.state, &outcome) {
            (Some(state), Some(_)) => G::concealed_at_end(state),
            _ => Vec::new(),
        };
        let frame = ViewFrame::<G> {
            frame: "view",
            version: self.version,
            table: seat.map(|_| &self.id),
            game: G::NAME,
            kind: self.kind,
            level: self.level(),
            status,
            seat,
            seats,
            watching: self.watchers.len(),
            matchup: MatchInfo {
                score: &self.matchup,
                winners: self.matchup.winners(),
            },
            view: self.state.as_ref().map(|s| G::view(s, seat)),
            actions: match (&self.state, status, seat) {
                (Some(state), Status::Playing, Some(seat)) => G::legal_actions(state, seat),
                _ => Vec::new(),
            },
            deal: self.seal.as_ref().map(|seal| {
                seal.shown(outcome.is_some().then_some(RevealTo {
                    viewer: seat,
                    concealed: &concealed,
                }))
            }),
            shuffle: seat.map(|_| ShuffleShown {
                commitment: self.shuffle.commitment(),
                contributed: self.shuffle.contributed(),
            }),
            outcome,
        };
        Frame::json(&frame, VIEW_SIZE_HINT)
    }

    /// Where a socket's frames go, a seat's or a watcher's.
    fn out_of(&self, conn: ConnId) -> Option<&SocketOut> {
        self.sockets
            .get(&conn)
            .map(|(_, out)| out)
            .or_else(|| self.watchers.get(&conn))
    }

    /// Sends a frame to one socket (a seat's or a watcher's); a socket whose queue is full is dropped.
    fn send(&mut self, conn: ConnId, frame: Frame) {
        let Some(out) = self.out_of(conn) else {
            return;
        };
        match out.try_send(Outbound::Frame(frame)) {
            Ok(()) => metrics().frames_out.inc(),
            // The socket is going; its `Detach` follows, and the seats hear of it then.
            Err(NotQueued::Closed) => {}
            Err(NotQueued::Full) => self.drop_slow_socket(conn),
        }
    }

    /// Closes a socket whose frames pile up, and goes on without it.
    fn drop_slow_socket(&mut self, conn: ConnId) {
        if let Some(out) = self.out_of(conn) {
            metrics().outbound_overflows.inc();
            out.do_send(Outbound::Close(
                1008,
                "too slow: frames were piling up".into(),
            ));
            tracing::warn!(table = %self.id, conn, "dropped a socket that could not keep up");
            self.forget_socket(conn);
        }
    }

    /// Sends an error for a refused request, counting it.
    fn send_refusal(&mut self, conn: ConnId, code: &str, message: &str, id: Option<&str>) {
        metrics()
            .actions_refused
            .with_label_values(&[G::NAME, code])
            .inc();
        let frame = ServerMsg::Error { code, message, id }.to_frame();
        self.send(conn, frame);
    }

    /// Sends every socket its seat's frame, and every watcher what everyone may see.
    fn broadcast(&mut self) {
        let seats = self.seat_infos();
        let frames: Vec<Frame> = Seat::all(G::SEATS)
            .map(|s| self.view_frame(Some(s), &seats))
            .collect();
        let conns: Vec<(ConnId, Seat)> = self.sockets.iter().map(|(c, (s, _))| (*c, *s)).collect();
        for (conn, seat) in conns {
            self.send(conn, frames[seat.index()].clone());
        }
        if !self.watchers.is_empty() {
            let frame = self.view_frame(None, &seats);
            self.tell_watchers(&frame);
        }
    }

    /// Every socket at the table, the watchers' included.
    fn everyone(&self) -> Vec<ConnId> {
        self.sockets
            .keys()
            .chain(self.watchers.keys())
            .copied()
            .collect()
    }

    /// Tells every socket who is connected.
    fn broadcast_seats(&mut self) {
        let frame = ServerMsg::Seats {
            seats: &self.seat_infos(),
            watching: self.watchers.len(),
        }
        .to_frame()
        .superseding();
        for conn in self.everyone() {
            self.send(conn, frame.clone());
        }
    }

    /// Forgets a seat's socket, answering its seat; a watcher's is forgotten too (see `watchers`).
    fn forget_socket(&mut self, conn: ConnId) -> Option<Seat> {
        self.watchers.remove(&conn);
        let (seat, _) = self.sockets.remove(&conn)?;
        if let Occupant::Person {
            sockets,
            gone_since,
            ..
        } = &mut self.seats[seat.index()]
        {
            *sockets = sockets.saturating_sub(1);
            if *sockets == 0 {
                *gone_since = Some(Instant::now());
            }
        }
        Some(seat)
    }

    /// Starts what `seat` asked for (the next deal, a rematch) once every person at the table has
    /// asked for it; until then everyone is told who has. A computer table starts it at once.
    fn agree(
        &mut self,
        seat: Seat,
        ctx: &mut Context<Self>,
        start: fn(&mut Self, &mut Context<Self>),
    ) {
        self.ready[seat.index()] = true;
        let everyone = Seat::all(G::SEATS).all(|s| {
            self.ready[s.index()] || !matches!(self.seats[s.index()], Occupant::Person { .. })
        });
        if everyone {
            start(self, ctx);
        } else {
            self.broadcast_seats();
        }
    }

    /// Starts a new match at the same table.
    fn rematch(&mut self, ctx: &mut Context<Self>) {
        self.matchup = Match::new(self.length, G::SEATS, &mut self.rng);
        // The record keeps the match in play: a table rematching for hours must not keep every
        // action it ever took (the soak found it growing without end).
        self.record.clear();
        self.deal_next(ctx);
    }

    /// Deals the next deal of the match once every person seated has added a number to its shuffle,
    /// or once `shuffle_wait` has passed: a page that never answers does not hold the table up, and
    /// its seat is shown as having given none.
    fn deal_next(&mut self, ctx: &mut Context<Self>) {
        if self.shuffle_wait.is_some() {
            return;
        }
        if self.config.shuffle_wait.is_zero() || self.everyone_contributed() {
            return self.deal_now(ctx);
        }
        let wait = self.version;
        self.shuffle_wait = Some(wait);
        ctx.run_later(self.config.shuffle_wait, move |table, ctx| {
            if table.shuffle_wait == Some(wait) {
                table.deal_now(ctx);
            }
        });
    }

    fn deal_now(&mut self, ctx: &mut Context<Self>) {
        self.shuffle_wait = None;
        self.start_deal();
        self.commit(ctx, Self::after_change);
    }

    /// Whether every person seated has added a number to the coming deal's shuffle.
    fn everyone_contributed(&self) -> bool {
        let contributed = self.shuffle.contributed();
        self.seats
            .iter()
            .zip(contributed)
            .all(|(occupant, given)| given || !matches!(occupant, Occupant::Person { .. }))
    }

    /// Takes a seat's number for the coming deal's shuffle; the deal waiting for it goes ahead once
    /// every person's is in.
    fn contribute(
        &mut self,
        conn: ConnId,
        seat: Seat,
        commitment: &str,
        value: &str,
        ctx: &mut Context<Self>,
    ) {
        if let Err(refused) = self.shuffle.contribute(seat, commitment, value) {
            let message = match refused {
                super::ShuffleRefused::OtherDeal => "That number answers a shuffle already dealt.",
                super::ShuffleRefused::AlreadyIn => {
                    "This seat's number for the coming deal is already in."
                }
                super::ShuffleRefused::Malformed => "A shuffle number is 32 lowercase hex digits.",
            };
            let code = RefusalCode::ContributionRefused.as_str();
            return self.send_refusal(conn, code, message, None);
        }
        if self.shuffle_wait.is_some() && self.everyone_contributed() {
            self.deal_now(ctx);
        }
    }

    fn start_deal(&mut self) {
        self.ready.fill(false);
        let setup = self.matchup.next_deal();
        let shuffle = std::mem::replace(&mut self.shuffle, Shuffle::new(G::SEATS));
        let (seed, shuffle) = shuffle.seal();
        let (state, order) = G::deal_in_order(&setup, &mut deal_rng(seed));
        let salt = fresh_salt();
        self.state = Some(state);
        self.seal = Some(DealSeal::new(order, salt.clone(), shuffle.clone()));
        self.version += 1;
        self.record.push(DealRecord {
            setup,
            seed,
            salt,
            shuffle,
            dealt_at: self.version,
            actions: Vec::new(),
        });
    }

    /// After a change the seats must hear of: when the router keeps snapshots, the table waits (taking
    /// no other message) until the change is stored, so that nobody is shown or acknowledged a version
    /// a new owner could not rebuild; then `tell` runs. Only the actions accepted since the last store
    /// are sent when nothing else has changed (see `keeping`).
    fn commit(
        &mut self,
        ctx: &mut Context<Self>,
        tell: impl FnOnce(&mut Self, &mut Context<Self>) + 'static,
    ) {
        self.store_then(ctx, Box::new(tell));
    }

    fn store_then(&mut self, ctx: &mut Context<Self>, tell: Tell<G>) {
        let Some(store) = self.config.store.clone() else {
            tell(self, ctx);
            return;
        };
        let Some((change, mark)) = self.change_to_store() else {
            tell(self, ctx);
            return;
        };
        let whole = matches!(change, Change::Whole { .. });
        let kept = store.keep(&self.id, change);
        ctx.wait(kept.into_actor(self).map(move |kept, table, ctx| {
            table.stored = (kept == StoreAnswer::Stored).then_some(mark);
            match kept {
                StoreAnswer::Stored => {
                    let paused = table.paused_since.take();
                    tell(table, ctx);
                    if let Some(since) = paused {
                        tracing::info!(table = %table.id, after = ?since.elapsed(), "play resumes");
                        // A computer whose move waited for the pause to end plays it now.
                        table.wake_computer(ctx);
                    }
                }
                // The snapshot to add to is gone (Redis lost it): store the whole table at once.
                StoreAnswer::Missing if !whole => table.store_then(ctx, tell),
                StoreAnswer::Missing | StoreAnswer::Failed => table.pause(tell, ctx),
                StoreAnswer::Fenced => table.step_down(ctx),
            }
        }));
    }

    /// The store could not take a change: the table neither shows nor acknowledges it, and takes no
    /// other change (requests are refused as `unavailable`) until it is stored, trying again every
    /// `PAUSE_RETRY`. Nothing is rolled back: the change is kept, and shown once it is safe.
    fn pause(&mut self, tell: Tell<G>, ctx: &mut Context<Self>) {
        if self.paused_since.is_none() {
            self.paused_since = Some(Instant::now());
            tracing::warn!(table = %self.id, "the table's store is out of reach: play is paused");
            metrics().tables_paused.inc();
            let frame = ServerMsg::Error {
                code: RefusalCode::Unavailable.as_str(),
                message: PAUSED,
                id: None,
            }
            .to_frame();
            for conn in self.everyone() {
                self.send(conn, frame.clone());
            }
        }
        self.unstored = Some(tell);
        ctx.run_later(PAUSE_RETRY, |table, ctx| {
            if let Some(tell) = table.unstored.take() {
                // The store may hold part of what was sent, or nothing: the whole table goes again.
                table.stored = None;
                table.store_then(ctx, tell);
            }
        });
    }

    /// Whether the table waits for its store (see `pause`).
    fn paused(&self) -> bool {
        self.paused_since.is_some()
    }

    /// Another owner holds the table: this one stops at once, saying nothing more, and its sockets
    /// find the table again.
    fn step_down(&mut self, ctx: &mut Context<Self>) {
        tracing::warn!(table = %self.id, "another node owns this table now; stopping here");
        self.closing = Closing::Lost;
        ctx.stop();
    }

    /// After every accepted change: show the computers, send every seat its view,
    /// and wake the next computer.
    fn after_change(&mut self, ctx: &mut Context<Self>) {
        self.last_activity = Instant::now();
        if let Some(state) = &self.state {
            for (i, occupant) in self.seats.iter_mut().enumerate() {
                if let Occupant::Computer(bot) = occupant {
                    if bot.observes() {
                        bot.observe(&G::view(state, Some(Seat::new(i))));
                    }
                }
            }
        }
        self.broadcast();
        self.wake_computer(ctx);
    }

    fn wake_computer(&mut self, ctx: &mut Context<Self>) {
        if self.status() != Status::Playing {
            return;
        }
        let Some(seat) = self.state.as_ref().and_then(G::to_act) else {
            return;
        };
        if matches!(self.seats[seat.index()], Occupant::Computer(_)) {
            let version = self.version;
            ctx.run_later(self.config.bot_delay, move |table, ctx| {
                table.computer_moves(seat, version, ctx)
            });
        }
    }

    fn computer_moves(&mut self, seat: Seat, version: u64, ctx: &mut Context<Self>) {
        if self.version != version || self.status() != Status::Playing || self.paused() {
            return;
        }
        let Some(state) = self.state.as_ref() else {
            return;
        };
        let Occupant::Computer(bot) = &mut self.seats[seat.index()] else {
            return;
        };
        let legal = G::legal_actions(state, seat);
        if legal.is_empty() {
            return;
        }
        let view = G::view(state, Some(seat));
        if let Some(search) = bot.search(&view, &legal) {
            self.think_away(seat, version, search, ctx);
            return;
        }
        let thinking = Instant::now();
        let action = bot.choose(&view, &legal, &mut self.bot_rng);
        metrics()
            .computer_think_seconds
            .with_label_values(&[G::NAME])
            .observe(thinking.elapsed().as_secs_f64());
        self.computer_plays(seat, version, action, ctx);
    }

    /// Plays a computer's chosen action, unless the table has moved on since it was asked.
    fn computer_plays(
        &mut self,
        seat: Seat,
        version: u64,
        mut action: G::Action,
        ctx: &mut Context<Self>,
    ) {
        // A computer that finished thinking while the table paused moves again once it resumes.
        if self.version != version || self.status() != Status::Playing || self.paused() {
            return;
        }
        let Some(state) = self.state.as_mut() else {
            return;
        };
        if let Err(e) = G::apply(state, seat, &action) {
            tracing::error!(table = %self.id, %e, "a computer chose a refused action; it plays its first legal one");
            let Some(first) = G::legal_actions(state, seat).into_iter().next() else {
                return;
            };
            action = first;
            if G::apply(state, seat, &action).is_err() {
                return;
            }
        }
        self.accepted(seat, &action);
        self.commit(ctx, Self::after_change);
    }

    /// Records an accepted action, moves the version on, and counts the deal if it has ended.
    fn accepted(&mut self, seat: Seat, action: &G::Action) {
        metrics().game(G::NAME).accepted.inc();
        self.version += 1;
        let json = serde_json::to_value(action).expect("actions always serialize");
        if let Some(deal) = self.record.last_mut() {
            deal.actions.push((seat, json, self.version));
        }
        // An action that ends the deal is the deal's last: count it in the match here, once.
        if let Some(outcome) = self.state.as_ref().and_then(G::outcome) {
            self.matchup.record(&outcome);
            if self.matchup.winners().is_some() {
                metrics()
                    .matches_finished
                    .with_label_values(&[G::NAME])
                    .inc();
            }
        }
    }

    fn play(
        &mut self,
        conn: ConnId,
        seat: Seat,
        version: u64,
        id: Option<&str>,
        raw: serde_json::Value,
        ctx: &mut Context<Self>,
    ) {
        let arrived = Instant::now();
        if let Err(refusal) = self.check_moment(version, Status::Playing) {
            self.refuse(conn, seat, refusal, id);
            return;
        }
        let action: G::Action = match serde_json::from_value(raw) {
            Ok(action) => action,
            Err(e) => {
                let message = format!("That is not a {} action: {e}.", G::NAME);
                self.send_refusal(conn, RefusalCode::BadAction.as_str(), &message, id);
                return;
            }
        };
        let Some(state) = self.state.as_mut() else {
            return;
        };
        if let Err(e) = G::apply(state, seat, &action) {
            self.send_refusal(conn, e.code, &e.message, id);
            return;
        }
        self.accepted(seat, &action);
        let ack = ServerMsg::Ack {
            id,
            version: self.version,
        }
        .to_frame();
        self.commit(ctx, move |table, ctx| {
            table.send(conn, ack);
            table.after_change(ctx);
            metrics()
                .game(G::NAME)
                .seconds
                .observe(arrived.elapsed().as_secs_f64());
        });
    }

    /// Checks a request made on `version` while the table should be at `wanted`.
    fn check_moment(&self, version: u64, wanted: Status) -> Result<(), TableRefusal> {
        if version != self.version {
            return Err(TableRefusal::new(
                RefusalCode::StaleVersion,
                "The table has moved on since that view; here is the current one.",
            ));
        }
        let status = self.status();
        if status == wanted {
            return Ok(());
        }
        let message = match status {
            Status::Waiting => "The table is waiting for every seat to be taken.",
            Status::Playing => "A deal is being played.",
            Status::DealOver => "This deal is over: deal the next one.",
            Status::MatchOver => "The match is over: start a rematch.",
        };
        Err(TableRefusal::new(RefusalCode::WrongMoment, message))
    }

    /// Sends an error, and with a stale version the current view as well.
    fn refuse(&mut self, conn: ConnId, seat: Seat, refusal: TableRefusal, id: Option<&str>) {
        self.send_refusal(conn, refusal.code.as_str(), &refusal.message, id);
        if let RefusalCode::StaleVersion = refusal.code {
            let frame = self.view_frame(Some(seat), &self.seat_infos());
            self.send(conn, frame);
        }
    }

    fn seat_of(&self, key: &TokenHash) -> Option<Seat> {
        Seat::all(G::SEATS).find(|s| self.seats[s.index()].holds(key))
    }

    /// Refuses one more socket for a seat that holds as many as it may.
    fn room_for_a_socket(&self, seat: Seat) -> Result<(), TableRefusal> {
        match self.seats[seat.index()] {
            Occupant::Person { sockets, .. } if sockets >= self.config.sockets_per_seat => {
                Err(TableRefusal::too_many_sockets())
            }
            _ => Ok(()),
        }
    }

    /// The table's clock: a seat without a socket past the hold is given up (a computer table closes,
    /// a friends table frees the seat for the link), and a table with no socket for the idle time
    /// closes.
    fn tick(&mut self, ctx: &mut Context<Self>) {
        if self.paused() {
            return;
        }
        let hold = self.config.seat_hold;
        let gone = Seat::all(G::SEATS).filter(|s| {
            matches!(self.seats[s.index()], Occupant::Person { sockets: 0, gone_since: Some(since), .. }
                if since.elapsed() >= hold)
        });
        let gone: Vec<Seat> = gone.collect();
        if !gone.is_empty() {
            match self.kind {
                TableKind::Computer => {
                    tracing::info!(table = %self.id, "the player left; the computer table closes");
                    ctx.stop();
                    return;
                }
                TableKind::Friends => {
                    for seat in gone {
                        self.seats[seat.index()] = Occupant::Free;
                        self.ready[seat.index()] = false;
                        self.names[seat.index()] = None;
                    }
                    self.commit(ctx, |table, _| table.broadcast());
                }
            }
        }
        if self.sockets.is_empty() && self.last_activity.elapsed() >= self.config.idle_expiry {
            tracing::info!(table = %self.id, "closing an idle table");
            ctx.stop();
        }
    }
}

impl<G: Game> Actor for Table<G> {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.set_mailbox_capacity(256);
        metrics()
            .tables_active
            .with_label_values(&[G::NAME, self.kind.as_str()])
            .inc();
        let every = (self.config.seat_hold.min(self.config.idle_expiry) / 4)
            .clamp(Duration::from_millis(50), Duration::from_secs(5));
        ctx.run_interval(every, Self::tick);
        if self.status() == Status::Waiting
            && !self.seats.iter().any(|s| matches!(s, Occupant::Free))
        {
            self.deal_next(ctx);
        } else {
            // A table rebuilt from its snapshot at a computer's turn goes on.
            self.wake_computer(ctx);
        }
    }

    fn stopped(&mut self, _ctx: &mut Context<Self>) {
        metrics()
            .tables_active
            .with_label_values(&[G::NAME, self.kind.as_str()])
            .dec();
        let close = match self.closing {
            // The sockets stay for the next owner.
            Closing::HandedOver => None,
            Closing::Lost => Some((1012, "the table has moved; reconnecting")),
            Closing::Closed => Some((1001, "the table has closed")),
        };
        if let Some((code, reason)) = close {
            let seats = self.sockets.values().map(|(_, out)| out);
            for out in seats.chain(self.watchers.values()) {
                out.do_send(Outbound::Close(code, reason.into()));
            }
        }
        (self.config.on_closed)(&self.id, self.closing);
    }
}
