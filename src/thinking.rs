//! The thinking pool: the only threads where the computers think, so that a node full of strong
//! computers still serves every socket and table at once.
//!
//! - **Bounded**: a fixed number of OS threads (the setting `thinking_threads`; by default the cores
//!   less one, at least one), made at start and never more. Nothing else runs on them, and nothing of
//!   the computers' searches runs anywhere else.
//! - **Below the tables**: each thread lowers its own scheduling priority (`thinking_nice`, nice 10 by
//!   default), so that when the cores are wanted the socket and table threads win them.
//! - **Fair**: a table has at most one decision being thought at a time; its next one waits behind it.
//!   Across tables, decisions are taken in the order they were asked (first come, first served).
//! - **Fresh**: a decision asked on a version the table has left by the time its turn comes is dropped
//!   unthought (the table also ignores a choice made on an old version).
//! - **Honest under load**: while more decisions wait than there are threads, each is given a share of
//!   its budget (threads / waiting, so that the queue drains in about one whole budget), never less
//!   than the floor `thinking_floor_ms`; such a decision is counted in
//!   `chaikhana_thinking_shortened_total`. Budgets are CPU time of the thinking thread
//!   ([`chaikhana_rules::game::Budget`]), so a busy machine makes a decision slower, never weaker.
//! - **Coaching gives way to moves**: a study (a hint asked by a player, one decision of an analysis,
//!   see `chaikhana_rules::coach`) is taken only where every computer's move waiting would still be shown when
//!   it is due: a computer's move is shown a move delay after its turn began, so a decision asked
//!   with time to spare leaves room for a study first; with no decision waiting, studies go in the
//!   order asked. A study is one decision within the strong computer's budget, holds no table's turn,
//!   is never cut to a share and never saturates the pool. On a pool kept busy by moves with no time
//!   to spare, a study waits `coach_wait_ms` at most: then it goes ahead of the moves, and the pool
//!   takes at most one study so every `coach_wait_ms`, which is the coach's reserved share.
//! - **Knows its capacity**: it is saturated when decisions have waited longer than
//!   `thinking_saturated_ms`; `/readyz` then says that the node takes no new strong computer table,
//!   and `POST /api/tables` refuses one with 503 (with Redis, such a table is placed on a node that
//!   is not saturated, see `crate::routing`).

use std::collections::{HashSet, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::metrics::metrics;
use chaikhana_rules::game::{Allowance, Budget, CpuTime};

/// A table as the pool knows it: a number of its own, and the version the table is at now (updated
/// by the table as it moves on), against which a waiting decision is found stale.
#[derive(Clone, Debug)]
pub struct Asker {
    table: u64,
    version: Arc<AtomicU64>,
}

/// The version of a table that has stopped: every decision it asked for is stale.
const GONE: u64 = u64::MAX;

impl Asker {
    pub fn new() -> Asker {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Asker {
            table: NEXT.fetch_add(1, Ordering::Relaxed),
            version: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The table is now at `version`.
    pub fn moved_to(&self, version: u64) {
        self.version.store(version, Ordering::Release);
    }

    /// The table has stopped: nothing it asked for is wanted any more.
    pub fn gone(&self) {
        self.moved_to(GONE);
    }

    fn at(&self, version: u64) -> bool {
        self.version.load(Ordering::Acquire) == version
    }
}

impl Default for Asker {
    fn default() -> Asker {
        Asker::new()
    }
}

/// One decision to think: the table that asks, the version it was asked on, its game and level (for
/// the metrics), its budget (to tell whether the pool cut it), and the thinking itself, which owns everything it needs and hands its choice back
/// (to the table, by message) before it returns.
pub struct Decision {
    asker: Asker,
    /// The version it was asked on; none for a study, which is stale only once its table stops.
    version: Option<u64>,
    game: &'static str,
    level: &'static str,
    budget: Budget,
    asked: Instant,
    /// When the move it decides is to be shown (none: as soon as it is chosen).
    due: Option<Instant>,
    think: Box<dyn FnOnce(Allowance) + Send>,
}

impl Decision {
    pub fn new(
        asker: &Asker,
        version: u64,
        game: &'static str,
        level: &'static str,
        budget: Budget,
        think: impl FnOnce(Allowance) + Send + 'static,
    ) -> Decision {
        Decision {
            asker: asker.clone(),
            version: Some(version),
            game,
            level,
            budget,
            asked: Instant::now(),
            due: None,
            think: Box::new(think),
        }
    }

    /// The same decision, its move to be shown no sooner than `due` (a computer's move delay): until
    /// then there is time for a study to be thought before it.
    pub fn shown_at(self, due: Instant) -> Decision {
        Decision {
            due: Some(due),
            ..self
        }
    }

    /// How long it is expected to take: its budget of CPU time, or for a budget in sampled deals
    /// (short), the pool's floor.
    fn cost(&self, floor: Duration) -> Duration {
        match self.budget {
            Budget::Time(limit) => limit,
            Budget::Samples(_) => floor,
        }
    }

    /// A study for a player (a hint, or one decision of an analysis) at `asker`'s table: thought only
    /// while no move waits, with its whole `budget`, and dropped only if the table stops first.
    pub fn study(
        asker: &Asker,
        game: &'static str,
        budget: Budget,
        think: impl FnOnce(Allowance) + Send + 'static,
    ) -> Decision {
        Decision {
            asker: asker.clone(),
            version: None,
            game,
            level: STUDY,
            budget,
            asked: Instant::now(),
            due: None,
            think: Box::new(think),
        }
    }

    fn stale(&self) -> bool {
        match self.version {
            Some(version) => !self.asker.at(version),
            None => self.asker.at(GONE),
        }
    }

    fn is_study(&self) -> bool {
        self.version.is_none()
    }
}

/// The level label of a study in the metrics.
pub const STUDY: &str = "coach";

/// How loaded a pool is now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Load {
    pub threads: usize,
    /// Computers' decisions asked and not yet begun.
    pub waiting: usize,
    /// Studies asked and not yet begun.
    pub studies: usize,
    /// Decisions being thought now.
    pub thinking: usize,
    /// How long the oldest waiting decision has waited.
    pub oldest_wait: Duration,
    /// How long the decision begun last had waited.
    pub last_wait: Duration,
    /// Decisions wait longer than the shape's `saturated_after`: no new strong computer table.
    pub saturated: bool,
}

/// A pool of thinking threads (see the module's documentation). Dropping it stops its threads once
/// the decisions they are thinking end; the ones still waiting are dropped.
pub struct Pool {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

struct Shared {
    shape: Shape,
    queue: Mutex<Queue>,
    /// Signalled when a decision is asked, and when the pool stops.
    asked: Condvar,
}

#[derive(Default)]
struct Queue {
    /// Computers' decisions not yet begun, oldest first.
    waiting: VecDeque<Decision>,
    /// Studies not yet begun, oldest first: taken only where no decision's move would be shown later.
    studies: VecDeque<Decision>,
    /// The tables whose decision is being thought.
    thinking: HashSet<u64>,
    /// How long the decision begun last had waited, and when it began.
    last_wait: Duration,
    last_begun: Option<Instant>,
    /// When a study last went ahead of the moves because it had waited `study_wait`.
    last_study_ahead: Option<Instant>,
    stopping: bool,
}

impl Queue {
    /// What a thread thinks next, taken out of the queue (stale decisions and studies met on the way
    /// are dropped): the oldest study if it fits in the slack of every waiting decision (see
    /// [`Queue::slack_for`]) or is owed its turn (see [`Queue::study_owed`]), else the oldest waiting
    /// decision whose table has none being thought, else, with no decision waiting, the oldest study.
    fn next(&mut self, shape: &Shape, now: Instant) -> Option<Decision> {
        let before = self.waiting.len();
        self.waiting.retain(|decision| !decision.stale());
        let dropped = before - self.waiting.len();
        if dropped > 0 {
            metrics().thinking_dropped.inc_by(dropped as u64);
        }
        let before = self.studies.len();
        self.studies.retain(|study| !study.stale());
        metrics()
            .coach_queue
            .sub((before - self.studies.len()) as i64);
        let study_fits = self
            .studies
            .front()
            .is_some_and(|study| self.slack_for(study.cost(shape.floor), shape, now));
        let owed = !study_fits && self.study_owed(shape, now);
        if owed {
            self.last_study_ahead = Some(now);
        }
        if !study_fits && !owed && !self.waiting.is_empty() {
            let thinking = &self.thinking;
            let index = self
                .waiting
                .iter()
                .position(|decision| !thinking.contains(&decision.asker.table))?;
            return self.waiting.remove(index);
        }
        let study = self.studies.pop_front()?;
        metrics().coach_queue.dec();
        Some(study)
    }

    /// Whether the oldest study has waited `study_wait` and no other went ahead of the moves within
    /// the last `study_wait`: the coach's reserved share of a pool the moves keep busy.
    fn study_owed(&self, shape: &Shape, now: Instant) -> bool {
        let waited = |since: Instant| now.saturating_duration_since(since) >= shape.study_wait;
        self.studies.front().is_some_and(|s| waited(s.asked))
            && self.last_study_ahead.is_none_or(waited)
    }

    /// Whether a study that costs `cost` can be thought now and every waiting decision still be
    /// thought before its move is due to be shown: each waits for the study (counted twice, since a
    /// budget of CPU time takes longer on a busy machine) and for the decisions ahead of it, shared
    /// among the threads. A decision with no time to spare (one to be played at once) leaves none.
    fn slack_for(&self, cost: Duration, shape: &Shape, now: Instant) -> bool {
        let threads = shape.threads.max(1) as u32;
        let mut ready = now + cost * 2;
        self.waiting.iter().all(|decision| {
            ready += decision.cost(shape.floor) / threads;
            decision.due.is_some_and(|due| ready <= due)
        })
    }
}

impl Pool {
    /// Starts a pool of `shape.threads` threads (at least one).
    pub fn new(shape: Shape) -> Pool {
        let shape = Shape {
            threads: shape.threads.max(1),
            ..shape
        };
        let shared = Arc::new(Shared {
            shape,
            queue: Mutex::new(Queue::default()),
            asked: Condvar::new(),
        });
        let threads = (0..shape.threads)
            .map(|i| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("chaikhana-think-{i}"))
                    .spawn(move || shared.work())
                    .expect("a thinking thread starts")
            })
            .collect();
        metrics().thinking_threads.add(shape.threads as i64);
        Pool { shared, threads }
    }

    pub fn shape(&self) -> Shape {
        self.shared.shape
    }

    /// Queues a decision; its thinking runs on one of the pool's threads, after every decision asked
    /// before it (and after its own table's previous one), unless it is stale by then.
    pub fn ask(&self, decision: Decision) {
        let mut queue = self.shared.lock();
        if queue.stopping {
            return;
        }
        if decision.is_study() {
            queue.studies.push_back(decision);
            metrics().coach_queue.inc();
        } else {
            queue.waiting.push_back(decision);
            metrics().thinking_queue.inc();
        }
        drop(queue);
        self.shared.asked.notify_one();
    }

    /// How loaded the pool is now.
    pub fn load(&self) -> Load {
        let queue = self.shared.lock();
        let oldest_wait = queue
            .waiting
            .front()
            .map_or(Duration::ZERO, |d| d.asked.elapsed());
        let limit = self.shared.shape.saturated_after;
        // The decision begun last counts while it is recent: the queue's head may have just been
        // taken by a thread, and the next one asked a moment ago.
        let lately = queue.last_begun.is_some_and(|at| at.elapsed() <= limit);
        Load {
            threads: self.shared.shape.threads,
            waiting: queue.waiting.len(),
            studies: queue.studies.len(),
            thinking: queue.thinking.len(),
            oldest_wait,
            last_wait: queue.last_wait,
            saturated: oldest_wait > limit
                || (!queue.waiting.is_empty() && lately && queue.last_wait > limit),
        }
    }

    /// Whether decisions wait longer than they should: the node takes no new strong computer table.
    pub fn saturated(&self) -> bool {
        self.load().saturated
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let waiting = {
            let mut queue = self.shared.lock();
            queue.stopping = true;
            metrics().coach_queue.sub(queue.studies.len() as i64);
            queue.studies.clear();
            std::mem::take(&mut queue.waiting)
        };
        metrics().thinking_queue.sub(waiting.len() as i64);
        drop(waiting);
        self.shared.asked.notify_all();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
        metrics()
            .thinking_threads
            .sub(self.shared.shape.threads as i64);
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // A panic never happens while the queue is held; were it to, the queue is still whole.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A thinking thread's life: take the next decision, think it, and again, until the pool stops.
    fn work(&self) {
        lower_priority(self.shape.nice);
        loop {
            let (decision, allowance) = {
                let mut queue = self.lock();
                let decision = loop {
                    if queue.stopping {
                        return;
                    }
                    let before = queue.waiting.len();
                    let next = queue.next(&self.shape, Instant::now());
                    let gone = before - queue.waiting.len();
                    metrics().thinking_queue.sub(gone as i64);
                    if let Some(decision) = next {
                        break decision;
                    }
                    queue = self.asked.wait(queue).unwrap_or_else(|e| e.into_inner());
                };
                if decision.is_study() {
                    (decision, Allowance::WHOLE)
                } else {
                    queue.thinking.insert(decision.asker.table);
                    let wait = decision.asked.elapsed();
                    queue.last_wait = wait;
                    queue.last_begun = Some(Instant::now());
                    metrics().thinking_wait_seconds.observe(wait.as_secs_f64());
                    let allowance = self.allowance(queue.waiting.len());
                    (decision, allowance)
                }
            };
            let (table, study) = (decision.asker.table, decision.is_study());
            self.think(decision, allowance);
            if !study {
                self.lock().thinking.remove(&table);
            }
            // This thread looks for the next decision itself; another may have been waiting only
            // for this table's turn to end, and an idle thread may take it sooner.
            self.asked.notify_one();
        }
    }

    /// The share of its budget a decision gets while `waiting` others wait: all of it while there
    /// are no more than threads, then threads / waiting (at least the floor), so that the queue
    /// thought at that pace takes about one whole budget.
    fn allowance(&self, waiting: usize) -> Allowance {
        let threads = self.shape.threads;
        if waiting <= threads {
            return Allowance::WHOLE;
        }
        Allowance::share(threads as f64 / waiting as f64, self.shape.floor)
    }

    fn think(&self, decision: Decision, allowance: Allowance) {
        let Decision {
            game,
            level,
            budget,
            think,
            ..
        } = decision;
        // Counted only when the search really gets less: a budget in samples, or a share that the
        // floor brings back to the whole budget, is not cut.
        if budget.allowed(allowance) != budget {
            metrics()
                .thinking_shortened
                .with_label_values(&[game, level])
                .inc();
        }
        let started = Instant::now();
        let cpu = CpuTime::now();
        // A search that panics loses its decision (the table is woken again by its next event), not
        // the thread.
        if std::panic::catch_unwind(AssertUnwindSafe(|| think(allowance))).is_err() {
            tracing::error!(game, level, "a computer's search panicked");
        }
        metrics()
            .thinking_cpu_seconds
            .with_label_values(&[game, level])
            .observe(cpu.elapsed().as_secs_f64());
        metrics()
            .computer_think_seconds
            .with_label_values(&[game])
            .observe(started.elapsed().as_secs_f64());
    }
}

static POOL: OnceLock<Pool> = OnceLock::new();

/// Starts the process's pool with `shape`, unless it has started already (then that one stays).
pub fn start(shape: Shape) -> &'static Pool {
    let pool = POOL.get_or_init(|| Pool::new(shape));
    if pool.shape() != shape {
        tracing::warn!(
            "the thinking pool had started with {:?}; {shape:?} is not used",
            pool.shape()
        );
    }
    pool
}

/// The process's pool (started with the default shape when [`start`] was not called first).
pub fn pool() -> &'static Pool {
    POOL.get_or_init(|| Pool::new(Shape::default()))
}

mod priority;
mod shape;
use priority::lower_priority;
pub use shape::Shape;

#[cfg(test)]
mod tests;
