//! How long a strong computer may think: the [`Budget`] of one decision, in CPU time of the thread
//! that thinks, and the [`Allowance`] the thinking pool gives a decision under load. They belong to the
//! contract, since a game's `bot` takes a budget and every part that starts a computer passes one.

use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// How much thinking one decision gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// At most this much CPU time of the thread that thinks ([`CpuTime`]): a machine busy with other
    /// work makes the decision take longer, never think less.
    Time(Duration),
    /// Exactly this many sampled deals, each played out once per candidate: the same seed then gives
    /// the same choices, however busy the machine is.
    Samples(u32),
}

impl Budget {
    /// The budget of a decision given `allowance`: a time budget cut to its share, never under the
    /// allowance's floor (nor over the whole budget); a budget in samples stays whole, so that the same
    /// seed still gives the same choice.
    pub fn allowed(self, allowance: Allowance) -> Budget {
        match self {
            Budget::Time(limit) if allowance.share < 1.0 => Budget::Time(
                limit
                    .mul_f64(allowance.share)
                    .max(allowance.floor)
                    .min(limit),
            ),
            budget => budget,
        }
    }
}

/// How much of its budget the thinking pool lets one decision spend: all of it while the queue is
/// short, a share of it, never under a floor, while it is long (see the thinking pool, `crate::thinking`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Allowance {
    share: f64,
    floor: Duration,
}

impl Allowance {
    /// The whole budget.
    pub const WHOLE: Allowance = Allowance {
        share: 1.0,
        floor: Duration::ZERO,
    };

    /// `share` of the budget (kept between 0 and 1), and never less than `floor`.
    pub fn share(share: f64, floor: Duration) -> Allowance {
        let share = if share.is_nan() {
            1.0
        } else {
            share.clamp(0.0, 1.0)
        };
        Allowance { share, floor }
    }

    /// Whether the decision is given less than its whole budget.
    pub fn shortens(&self) -> bool {
        self.share < 1.0
    }
}

/// A moment of the CPU time of the thread that reads it (Linux's `CLOCK_THREAD_CPUTIME_ID`): the time
/// that thread has run on a core, not the time it has waited for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct CpuTime(Duration);

impl CpuTime {
    /// The CPU time of this thread now.
    pub fn now() -> CpuTime {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime only writes the timespec it is given.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0 {
            CpuTime(Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
        } else {
            // No clock of the thread's time (never on Linux): wall time, which at least ends.
            static SINCE: LazyLock<Instant> = LazyLock::new(Instant::now);
            CpuTime(SINCE.elapsed())
        }
    }

    /// The CPU time this thread has used since this moment (it must be read on the same thread).
    pub fn elapsed(self) -> Duration {
        CpuTime::now().0.saturating_sub(self.0)
    }
}

/// The budget when nothing else is set: 200 ms a decision.
pub const DEFAULT_BUDGET: Budget = Budget::Time(Duration::from_millis(200));
