//! Every Prometheus metric of the process, in one place, each named `chaikhana_...`, beside the
//! standard `process_...` ones.
//!
//! The rest of the code records through the one [`metrics()`] instance; `GET /metrics` renders it in the
//! Prometheus text format.

use std::sync::{LazyLock, RwLock};

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge,
    IntGaugeVec, Registry, TextEncoder,
};

/// The process's metrics.
pub struct Metrics {
    registry: Registry,
    pub connections_open: IntGauge,
    pub connections_opened: IntCounter,
    pub connections_closed: IntCounterVec,
    pub tables_active: IntGaugeVec,
    pub actions_accepted: IntCounterVec,
    pub actions_refused: IntCounterVec,
    pub action_seconds: HistogramVec,
    pub computer_think_seconds: HistogramVec,
    pub thinking_threads: IntGauge,
    pub thinking_queue: IntGauge,
    pub thinking_wait_seconds: Histogram,
    pub thinking_cpu_seconds: HistogramVec,
    pub thinking_shortened: IntCounterVec,
    pub thinking_dropped: IntCounter,
    pub coach_queue: IntGauge,
    pub coach_studies: IntCounterVec,
    pub matches_finished: IntCounterVec,
    pub pairing_waiting: IntGaugeVec,
    pub pairing_wait_seconds: HistogramVec,
    pub pairs_made: IntCounterVec,
    pub pairing_leaves: IntCounterVec,
    pub reconnects: IntCounter,
    pub resyncs: IntCounter,
    pub rate_limited: IntCounter,
    pub outbound_overflows: IntCounter,
    pub router_frames: IntCounterVec,
    pub redis_publish_seconds: Histogram,
    pub lease_refresh_seconds: Histogram,
    pub redis_errors: IntCounter,
    pub snapshots_written: IntCounter,
    pub tables_recovered: IntCounter,
    pub tables_handed_over: IntCounter,
    pub tables_paused: IntCounter,
    pub tables_lost: IntCounter,
    pub tables_slept: IntCounter,
    pub tables_woken: IntCounter,
    pub tables_expired: IntCounterVec,
    pub tables_asleep: IntGauge,
    pub wake_seconds: Histogram,
    pub store_commits: IntCounter,
    pub store_commit_seconds: Histogram,
    pub store_changes_per_commit: Histogram,
    pub store_errors: IntCounter,
    /// 1 while the embedded store is open, 0 while it is being opened again after an error.
    pub store_open: IntGauge,
    pub store_stalled: IntGauge,
    pub store_reopens: IntCounter,
    pub store_damaged_tables: IntCounter,
    pub http_requests: IntCounterVec,
    pub http_connections_cut: IntCounterVec,
    pub http_connections_refused: IntCounterVec,
    /// `router_frames` by direction, resolved once: they count every frame.
    pub frames_in: IntCounter,
    pub frames_out: IntCounter,
    /// Each game's per-action metrics, resolved once per game.
    games: RwLock<Vec<GameMeters>>,
}

/// The metrics one game records on every action (cheap to clone: each is a handle).
#[derive(Clone)]
pub struct GameMeters {
    pub game: &'static str,
    pub accepted: IntCounter,
    pub seconds: Histogram,
}

mod made;
use made::*;

impl Metrics {
    fn new() -> Metrics {
        let r = Registry::new();
        // The process's own resident memory, CPU seconds, open descriptors and their limit, read from
        // /proc by the prometheus crate (`process_*`, the names every dashboard knows).
        #[cfg(target_os = "linux")]
        r.register(Box::new(
            prometheus::process_collector::ProcessCollector::for_self(),
        ))
        .expect("the process collector registers once");
        let connections_open = gauge(&r, "ws_connections_open", "WebSocket connections open now.");
        let tables_active = gauge_vec(
            &r,
            "tables_active",
            "Tables open now, by game and kind.",
            &["game", "kind"],
        );
        let redis_publish_seconds = histogram(
            &r,
            "redis_publish_seconds",
            "Time to publish one frame through Redis.",
        );
        let lease_refresh_seconds = histogram(
            &r,
            "lease_refresh_seconds",
            "Time to refresh every lease of this node's tables (one round of the refresh script, every call sent at once).",
        );
        let actions_accepted = counter_vec(
            &r,
            "actions_accepted_total",
            "Actions the rules accepted, by game.",
            &["game"],
        );
        let action_seconds = histogram_vec(
            &r,
            "action_seconds",
            "From an action reaching its table to every seat's view being queued.",
            &["game"],
        );
        let router_frames = counter_vec(
            &r,
            "router_frames_total",
            "Frames through the router, by direction (in: to tables, out: to sockets).",
            &["direction"],
        );
        let thinking_shortened = counter_vec(
            &r,
            "thinking_shortened_total",
            "Decisions given less than their whole budget (never under the floor) because the thinking pool's queue was long, by game and level.",
            &["game", "level"],
        );
        let http_connections_cut = counter_vec(
            &r,
            "http_connections_cut_total",
            "HTTP connections closed because a request came too slowly, by reason: deadline (its head and body took longer than request_deadline_secs), too-slow (its bytes came slower than request_min_bytes_per_second) silent (no byte within 3 s of its accept) not-reading (it took none of its answers for write_timeout_secs) or pipelined (a request sent before its client had the last answer: refused with 400).",
            &["reason"],
        );
        let http_connections_refused = counter_vec(
            &r,
            "http_connections_refused_total",
            "HTTP requests refused and their connections closed because a cap on HTTP connections was reached, by cap: address (429), node (503), or shut (past a cap while as many refusals were being answered: shut at its accept, unanswered).",
            &["cap"],
        );
        for reason in ["deadline", "too-slow", "silent", "not-reading", "pipelined"] {
            http_connections_cut.with_label_values(&[reason]);
        }
        for cap in ["address", "node", "shut"] {
            http_connections_refused.with_label_values(&[cap]);
        }
        Metrics {
            connections_open,
            connections_opened: counter(
                &r,
                "ws_connections_opened_total",
                "WebSocket connections opened.",
            ),
            connections_closed: counter_vec(
                &r,
                "ws_connections_closed_total",
                "WebSocket connections closed, by reason.",
                &["reason"],
            ),
            tables_active,
            actions_accepted,
            actions_refused: counter_vec(
                &r,
                "actions_refused_total",
                "Actions and requests refused, by game and error code.",
                &["game", "code"],
            ),
            action_seconds,
            computer_think_seconds: histogram_vec(
                &r,
                "computer_think_seconds",
                "Time a computer player takes to choose a move.",
                &["game"],
            ),
            thinking_threads: gauge(
                &r,
                "thinking_threads",
                "Threads of the thinking pool, where the computers think.",
            ),
            thinking_queue: gauge(
                &r,
                "thinking_queue",
                "Computers' decisions asked of the thinking pool and not yet begun.",
            ),
            thinking_wait_seconds: registered(
                &r,
                Histogram::with_opts(
                    HistogramOpts::from(named(
                        "thinking_wait_seconds",
                        "Time a computer's decision waits in the thinking pool's queue before it is thought.",
                    ))
                    .buckets(WAIT_BUCKETS.to_vec()),
                ),
            ),
            thinking_cpu_seconds: histogram_vec(
                &r,
                "thinking_cpu_seconds",
                "CPU time of the thinking thread spent on one computer's decision, by game and level.",
                &["game", "level"],
            ),
            thinking_shortened,
            thinking_dropped: counter(
                &r,
                "thinking_dropped_total",
                "Decisions dropped unthought because their table had moved on (or stopped) by their turn.",
            ),
            coach_queue: gauge(
                &r,
                "coach_queue",
                "Studies (hints, and the decisions of analyses) asked of the thinking pool and not yet begun: they wait behind every computer's move.",
            ),
            coach_studies: counter_vec(
                &r,
                "coach_studies_total",
                "Studies thought by the coach, by game and kind (hint or analysis: one per decision judged).",
                &["game", "kind"],
            ),
            matches_finished: counter_vec(
                &r,
                "matches_finished_total",
                "Matches played to their end, by game.",
                &["game"],
            ),
            pairing_waiting: gauge_vec(
                &r,
                "pairing_waiting",
                "Visitors waiting to be paired in one queue, as this node last read it.",
                &["game", "length"],
            ),
            pairing_wait_seconds: registered(
                &r,
                HistogramVec::new(
                    HistogramOpts::from(named(
                        "pairing_wait_seconds",
                        "How long each paired visitor waited, from entering the queue to the table made.",
                    ))
                    .buckets(PAIRING_BUCKETS.to_vec()),
                    &["game"],
                ),
            ),
            pairs_made: counter_vec(
                &r,
                "pairs_made_total",
                "Tables made for visitors paired by the quick pairing, by game.",
                &["game"],
            ),
            pairing_leaves: counter_vec(
                &r,
                "pairing_leaves_total",
                "Visitors who left the queue unpaired: by their page (left) or by going silent (gone).",
                &["how"],
            ),
            reconnects: counter(
                &r,
                "reconnects_total",
                "Sockets that resumed a seat after it had gone.",
            ),
            resyncs: counter(
                &r,
                "resyncs_total",
                "Views sent again on a client's resync.",
            ),
            rate_limited: counter(
                &r,
                "rate_limited_total",
                "Frames refused by the rate limit.",
            ),
            outbound_overflows: counter(
                &r,
                "outbound_overflows_total",
                "Sockets dropped because they could not keep up (a full queue, or writes that made no progress).",
            ),
            redis_publish_seconds,
            lease_refresh_seconds,
            redis_errors: counter(&r, "redis_errors_total", "Redis commands that failed."),
            snapshots_written: counter(&r, "snapshots_written_total", "Table snapshots written."),
            tables_recovered: counter(
                &r,
                "tables_recovered_total",
                "Tables rebuilt from a snapshot after their owner died.",
            ),
            tables_handed_over: counter(
                &r,
                "tables_handed_over_total",
                "Tables handed to another node by a draining owner.",
            ),
            tables_paused: counter(
                &r,
                "tables_paused_total",
                "Times a table paused because its store could not take a change.",
            ),
            tables_lost: counter(
                &r,
                "tables_lost_total",
                "Tables this node stopped because another node owns them now.",
            ),
            tables_slept: counter(
                &r,
                "tables_slept_total",
                "Tables that left memory with nobody connected, their record kept in the store.",
            ),
            tables_woken: counter(
                &r,
                "tables_woken_total",
                "Sleeping tables woken from the store by a seat or a watcher.",
            ),
            tables_expired: counter_vec(
                &r,
                "tables_closed_for_good_total",
                "Tables closed for good, by why: expired (no activity for as long as a table lives) or ended (by a player).",
                &["why"],
            ),
            tables_asleep: gauge(
                &r,
                "tables_asleep",
                "Tables kept in this process's embedded store and not in memory.",
            ),
            wake_seconds: registered(
                &r,
                Histogram::with_opts(latency(
                    "wake_seconds",
                    "Time to wake a sleeping table: its record read and the table rebuilt.",
                )),
            ),
            store_commits: counter(
                &r,
                "store_commits_total",
                "Commits of the embedded store (each made durable with fsync; several tables' changes may share one).",
            ),
            store_commit_seconds: registered(
                &r,
                Histogram::with_opts(latency(
                    "store_commit_seconds",
                    "Time of one commit of the embedded store, its fsync included.",
                )),
            ),
            store_changes_per_commit: registered(
                &r,
                Histogram::with_opts(
                    HistogramOpts::from(named(
                        "store_changes_per_commit",
                        "Table changes made durable by one commit of the embedded store.",
                    ))
                    .buckets(vec![1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0]),
                ),
            ),
            store_errors: counter(
                &r,
                "store_errors_total",
                "Reads and commits of the embedded store that failed (its tables pause until a commit succeeds).",
            ),
            store_open: gauge(
                &r,
                "store_open",
                "1 while the embedded store is open; 0 while it is opened again after an I/O error (its tables wait).",
            ),
            store_stalled: gauge(
                &r,
                "store_stalled",
                "1 while a commit of the embedded store has taken longer than 3 s (a frozen or hung disk): its tables pause, new tables are refused and the node is not ready.",
            ),
            store_reopens: counter(
                &r,
                "store_reopens_total",
                "Times the embedded store was opened again after an I/O error.",
            ),
            store_damaged_tables: counter(
                &r,
                "store_damaged_tables_total",
                "Tables whose record in the embedded store was found damaged (each counted once; it stays unavailable).",
            ),
            http_requests: counter_vec(
                &r,
                "http_requests_total",
                "HTTP requests, by route and status.",
                &["route", "status"],
            ),
            http_connections_cut,
            http_connections_refused,
            frames_in: router_frames.with_label_values(&["in"]),
            frames_out: router_frames.with_label_values(&["out"]),
            router_frames,
            games: RwLock::new(Vec::new()),
            registry: r,
        }
    }

    /// Makes a game's series exist from the start, at zero, so that a rate of them is a line on the
    /// dashboard, not a gap: its per-action metrics, and its shortened decisions at each of `levels`.
    /// The server registers every game of the catalog as it starts.
    pub fn register_game(&self, game: &'static str, levels: &[&str]) {
        self.game(game);
        for level in levels {
            self.thinking_shortened.with_label_values(&[game, level]);
        }
        for kind in ["hint", "analysis"] {
            self.coach_studies.with_label_values(&[game, kind]);
        }
        self.pairs_made.with_label_values(&[game]);
        self.pairing_wait_seconds.with_label_values(&[game]);
        for how in ["left", "gone"] {
            self.pairing_leaves.with_label_values(&[how]);
        }
    }

    /// The per-action metrics of the game with this name (resolved on first use if the game was
    /// not registered).
    pub fn game(&self, game: &'static str) -> GameMeters {
        let known = |games: &[GameMeters]| games.iter().find(|m| m.game == game).cloned();
        if let Some(meters) = known(&self.games.read().unwrap_or_else(|e| e.into_inner())) {
            return meters;
        }
        let mut games = self.games.write().unwrap_or_else(|e| e.into_inner());
        if let Some(meters) = known(&games) {
            return meters;
        }
        let meters = GameMeters {
            game,
            accepted: self.actions_accepted.with_label_values(&[game]),
            seconds: self.action_seconds.with_label_values(&[game]),
        };
        games.push(meters.clone());
        meters
    }

    /// Every metric in the Prometheus text format.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        TextEncoder::new()
            .encode(&self.registry.gather(), &mut out)
            .expect("metrics encode as text");
        String::from_utf8(out).expect("the text format is UTF-8")
    }
}

static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    &METRICS
}

#[cfg(test)]
mod tests;
