//! The table actor: one per table, generic over the game, and only the shell around its
//! [`TableCore`]. It hands the core each message with the time, then carries out the effects the core
//! answers with: what the core shows each socket goes through the table's [`Presenter`], which writes
//! the frames, and out with `try_send` into each socket's bounded queue (a socket that cannot keep up
//! is reported back to the core, which drops it), changes go to the store while the actor takes
//! no other message, timers are set on the actor's context, and searches are asked of the thinking
//! pool (`crate::thinking`), whose choice comes back as a message. It reads the clock and the
//! operating system's generator for the core, and adds what the core counts to the metrics.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use actix::{
    Actor, ActorContext, ActorFutureExt, AsyncContext, Context, Handler, Message, ResponseFuture,
    WrapFuture,
};
use rand::SeedableRng;

use super::core::{
    Clock, Closing, Count, Effect, Gone, OnClosed, Study, TableConfig, TableCore, TableStore,
};
use super::messages::*;
use super::present::{self, Presenter};
use super::seats::{Level, TableKind};
use super::{ConnId, DealRecord, Snapshot, TableId, TableRefusal, TokenHash};
use crate::metrics::metrics;
use crate::outbox::{Frame, NotQueued};
use crate::thinking::{self, Asker, Decision};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::{BotRng, Game, Judgement};
use chaikhana_rules::matches::MatchLength;

pub struct Table<G: Game> {
    core: TableCore<G>,
    /// Where each socket's frames go, a seat's or a watcher's.
    outs: HashMap<ConnId, SocketOut>,
    /// Writes the frames of what the core shows, and remembers what each socket was sent.
    presenter: Presenter,
    store: Option<Arc<dyn TableStore>>,
    on_closed: OnClosed,
    /// The joins waiting for their seat to be stored, by the seat each took.
    joins: HashMap<Seat, tokio::sync::oneshot::Sender<()>>,
    /// Why the table stops, once it does.
    closing: Closing,
    /// The effects being carried out (kept to keep its room).
    batch: Vec<Effect<G>>,
    /// What the core counted (kept to keep its room).
    counts: Vec<Count>,
    /// The table as the thinking pool knows it: told the version after every change, so that a
    /// decision asked on an old one is dropped unthought.
    asker: Asker,
}

impl<G: Game> Table<G> {
    /// A new table (see [`TableCore::new`]); `None` when the game has no computer for the level.
    pub fn new(
        id: TableId,
        kind: TableKind,
        length: MatchLength,
        level: Level,
        creator: TokenHash,
        config: TableConfig,
    ) -> Option<Table<G>> {
        let keeps = config.store.is_some();
        let core = TableCore::new(
            id,
            kind,
            length,
            level,
            creator,
            config.policy.clone(),
            keeps,
            clock_now(),
            super::entropy(),
        )?;
        Some(Table::around(core, config))
    }

    /// Offers the coach's hints at this friends table (see [`TableCore::offering_hints`]).
    pub fn offering_hints(mut self, among_friends: bool) -> Table<G> {
        self.core = self.core.offering_hints(among_friends);
        self
    }

    /// Guides the first deal of this computer table (see [`TableCore::guided`]).
    pub fn guided(mut self, guided: bool) -> Table<G> {
        self.core = self.core.guided(guided);
        self
    }

    /// A table rebuilt from its snapshot (see [`TableCore::rebuild`]).
    pub fn rebuild(
        id: TableId,
        snapshot: Snapshot,
        config: TableConfig,
    ) -> Result<Table<G>, String> {
        let keeps = config.store.is_some();
        let policy = config.policy.clone();
        let core = TableCore::rebuild(id, snapshot, policy, keeps, clock_now(), super::entropy())?;
        Ok(Table::around(core, config))
    }

    fn around(core: TableCore<G>, config: TableConfig) -> Table<G> {
        Table {
            core,
            outs: HashMap::new(),
            presenter: Presenter::new(),
            store: config.store,
            on_closed: config.on_closed,
            joins: HashMap::new(),
            // A table stopped for any other reason (the process stopping) keeps its record.
            closing: Closing::Asleep,
            batch: Vec::new(),
            counts: Vec::new(),
            asker: Asker::new(),
        }
    }

    pub fn id(&self) -> &TableId {
        self.core.id()
    }

    pub fn snapshot(&self) -> Snapshot {
        self.core.snapshot()
    }

    /// Carries out what the core asked for, and what that leads it to ask in turn.
    fn carry_out(&mut self, ctx: &mut Context<Self>) {
        let mut batch = std::mem::take(&mut self.batch);
        loop {
            self.core.move_effects(&mut batch);
            self.core.move_counts(&mut self.counts);
            for count in self.counts.drain(..) {
                add_to_metrics::<G>(count);
            }
            if batch.is_empty() {
                break;
            }
            for effect in batch.drain(..) {
                self.carry_out_one(effect, ctx);
            }
        }
        self.batch = batch;
        self.asker.moved_to(self.core.version());
    }

    fn carry_out_one(&mut self, effect: Effect<G>, ctx: &mut Context<Self>) {
        match effect {
            Effect::Show(showing) => {
                let (core, outs) = (&mut self.core, &self.outs);
                self.presenter
                    .show(&showing, |conn, frame| deliver(core, outs, conn, frame));
            }
            Effect::Send(conn, notice) => {
                let frame = self.presenter.tell(conn, &notice);
                deliver(&mut self.core, &self.outs, conn, frame);
            }
            Effect::Replay(conn, replay) => {
                deliver(&mut self.core, &self.outs, conn, present::replay(&replay));
            }
            Effect::Forget(conn) => self.presenter.forget(conn),
            Effect::Close(conn, why) => {
                self.presenter.forget(conn);
                let (code, reason) = present::hangup(why);
                if let Some(out) = self.outs.remove(&conn) {
                    out.do_send(Outbound::Close(code, reason.into()));
                }
            }
            Effect::Store(change) => {
                let Some(store) = &self.store else {
                    return;
                };
                let kept = store.keep(self.core.id(), change, self.core.keep_for());
                ctx.wait(kept.into_actor(self).map(|answer, table, ctx| {
                    table.core.stored(answer, Instant::now());
                    table.carry_out(ctx);
                }));
            }
            Effect::HandOver(whole) => {
                let Some(store) = &self.store else {
                    return;
                };
                let handed = store.hand_over(self.core.id(), whole, self.core.keep_for());
                ctx.wait(handed.into_actor(self).map(|answer, table, ctx| {
                    table.core.handed_over(answer);
                    table.carry_out(ctx);
                }));
            }
            Effect::Wake(after, timer) => {
                ctx.run_later(after, move |table, ctx| {
                    table.core.timer(timer, Instant::now());
                    table.carry_out(ctx);
                });
            }
            Effect::Think {
                seat,
                version,
                search,
                seed,
                play_after,
            } => {
                let table = ctx.address();
                let play_at = Instant::now() + play_after;
                // The pool compares the decision's version with the table's before thinking it.
                self.asker.moved_to(self.core.version());
                let level = self.core.level().unwrap_or_default().as_str();
                let budget = self.core.strong_budget();
                let decision = Decision::new(
                    &self.asker,
                    version,
                    G::NAME,
                    level,
                    budget,
                    move |allowed| {
                        let mut rng = BotRng::seed_from_u64(seed);
                        let action = search(&mut rng, allowed);
                        table.do_send(Thought {
                            seat,
                            version,
                            action,
                            play_at,
                        });
                    },
                )
                .shown_at(play_at);
                thinking::pool().ask(decision);
            }
            Effect::Study { study, judge, seed } => {
                let table = ctx.address();
                let kind = match study {
                    Study::Hint { .. } => "hint",
                    Study::Point { .. } => "analysis",
                };
                let budget = self.core.strong_budget();
                let decision = Decision::study(&self.asker, G::NAME, budget, move |_| {
                    let mut rng = BotRng::seed_from_u64(seed);
                    let judgement = judge(&mut rng);
                    metrics()
                        .coach_studies
                        .with_label_values(&[G::NAME, kind])
                        .inc();
                    table.do_send(Studied { study, judgement });
                });
                thinking::pool().ask(decision);
            }
            Effect::Seated(seat) => {
                if let Some(seated) = self.joins.remove(&seat) {
                    let _ = seated.send(());
                }
            }
            Effect::Stop(closing) => {
                self.closing = closing;
                ctx.stop();
            }
        }
    }
}

/// Puts a frame in a socket's queue, if the socket is still here; a socket whose queue is full is
/// reported back to the core.
fn deliver<G: Game>(
    core: &mut TableCore<G>,
    outs: &HashMap<ConnId, SocketOut>,
    conn: ConnId,
    frame: Frame,
) {
    let Some(out) = outs.get(&conn) else {
        return;
    };
    match out.try_send(Outbound::Frame(frame)) {
        Ok(()) => metrics().frames_out.inc(),
        // The socket is going; its `Detach` follows, and the seats hear of it then.
        Err(NotQueued::Closed) => {}
        Err(NotQueued::Full) => core.socket_too_slow(conn, Instant::now()),
    }
}

/// Adds what the core counted to the process's metrics.
fn add_to_metrics<G: Game>(count: Count) {
    let meters = metrics();
    match count {
        Count::Resync => meters.resyncs.inc(),
        Count::Reconnect => meters.reconnects.inc(),
        Count::Refused(code) => meters
            .actions_refused
            .with_label_values(&[G::NAME, code.as_str()])
            .inc(),
        Count::Accepted => meters.game(G::NAME).accepted.inc(),
        Count::MatchFinished => meters.matches_finished.with_label_values(&[G::NAME]).inc(),
        Count::SocketTooSlow => meters.outbound_overflows.inc(),
        Count::Paused => meters.tables_paused.inc(),
        Count::Closed(gone) => {
            let why = match gone {
                Gone::Expired => "expired",
                Gone::Ended => "ended",
            };
            meters.tables_expired.with_label_values(&[why]).inc();
        }
        Count::Answered { arrived } => meters
            .game(G::NAME)
            .seconds
            .observe(arrived.elapsed().as_secs_f64()),
        Count::ChoseInPlace { began } => meters
            .computer_think_seconds
            .with_label_values(&[G::NAME])
            .observe(began.elapsed().as_secs_f64()),
    }
}

/// The shell's clock now, for the core to tell moments as Unix times.
fn clock_now() -> Clock {
    let unix_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    Clock {
        at: Instant::now(),
        unix_ms,
    }
}

/// A computer's choice, made away from the table on its `version`, to be played no sooner than
/// `play_at`.
struct Thought<A> {
    seat: Seat,
    version: u64,
    action: A,
    play_at: Instant,
}

impl<A: 'static> Message for Thought<A> {
    type Result = ();
}

/// A study of the coach's, judged on the thinking pool.
struct Studied<A> {
    study: Study,
    judgement: Judgement<A>,
}

impl<A: 'static> Message for Studied<A> {
    type Result = ();
}

impl<G: Game> Handler<Studied<G::Action>> for Table<G> {
    type Result = ();

    fn handle(&mut self, studied: Studied<G::Action>, ctx: &mut Context<Self>) {
        self.core.studied(studied.study, studied.judgement);
        self.carry_out(ctx);
    }
}

impl<G: Game> Actor for Table<G> {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.set_mailbox_capacity(256);
        metrics()
            .tables_active
            .with_label_values(&[G::NAME, self.core.kind().as_str()])
            .inc();
        ctx.run_interval(self.core.tick_every(), |table, ctx| {
            table.core.tick(Instant::now());
            table.carry_out(ctx);
        });
        self.core.start();
        self.carry_out(ctx);
    }

    fn stopped(&mut self, _ctx: &mut Context<Self>) {
        self.asker.gone();
        metrics()
            .tables_active
            .with_label_values(&[G::NAME, self.core.kind().as_str()])
            .dec();
        if let Some((code, reason)) = present::closing(self.closing) {
            for out in self.outs.values() {
                out.do_send(Outbound::Close(code, reason.into()));
            }
        }
        (self.on_closed)(self.core.id(), self.closing);
    }
}

mod handlers;
