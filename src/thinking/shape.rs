//! How a thinking pool is made, from the settings.

use std::time::Duration;

use crate::settings::Settings;

/// How a pool is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// How many threads think at once (at least one).
    pub threads: usize,
    /// The nice value each thread takes (0 leaves the priority as it is; 19 is the lowest).
    pub nice: i32,
    /// The least of its budget a decision is given, however long the queue.
    pub floor: Duration,
    /// Decisions that wait longer than this saturate the pool.
    pub saturated_after: Duration,
    /// A study that has waited this long goes ahead of the moves, at most one every this long.
    pub study_wait: Duration,
}

impl Shape {
    /// The number of threads the setting `threads` means: itself, or with 0 the cores less one, at
    /// least one.
    pub fn threads_for(threads: usize) -> usize {
        if threads > 0 {
            return threads;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        cores.saturating_sub(1).max(1)
    }
}

impl Shape {
    /// The pool the settings ask for: its threads (the cores less one when 0), its nice value (kept to
    /// 0..=19: a thread may lower its priority, not raise it), the floor of a shortened budget, when
    /// it is saturated and how long a study waits for the moves.
    pub fn from_settings(settings: &Settings) -> Shape {
        Shape {
            threads: Shape::threads_for(settings.thinking_threads),
            nice: settings.thinking_nice.clamp(0, 19),
            floor: Duration::from_millis(settings.thinking_floor_ms),
            saturated_after: Duration::from_millis(settings.thinking_saturated_ms),
            study_wait: Duration::from_millis(settings.coach_wait_ms),
        }
    }
}

impl Default for Shape {
    /// The shape config/default.toml gives.
    fn default() -> Shape {
        Shape::from_settings(&Settings::defaults())
    }
}
