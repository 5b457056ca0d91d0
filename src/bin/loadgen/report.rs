//! What a load run measured: the client's own tally, the server's memory and CPU read from /proc, and
//! the report printed as text or as one JSON object.

use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

use crate::coach_report::AnalysesReport;

/// What one worker thread counted.
#[derive(Debug, Default)]
pub struct Tally {
    /// Round trips completed (an action answered by the view with the new version; in echo mode a
    /// frame answered by its echo).
    pub actions: u64,
    /// Each round trip in microseconds.
    pub round_trips_us: Vec<u32>,
    /// At computer tables: each computer's move as it reached the person, in microseconds from the
    /// view before it (the view of the person's own move, or of the computer move before).
    pub computer_moves_us: Vec<u32>,
    /// Frames refused, sockets closed early, stalls and failed setups.
    pub errors: u64,
    /// Of the errors, those with the code `rate-limited`.
    pub rate_limited: u64,
    /// WebSockets opened.
    pub connections: u64,
    /// The first thing that went wrong, to say it.
    pub first_problem: Option<String>,
}

impl Tally {
    pub fn problem(&mut self, what: String) {
        self.errors += 1;
        if self.first_problem.is_none() {
            self.first_problem = Some(what);
        }
    }

    pub fn merge(&mut self, other: Tally) {
        self.actions += other.actions;
        self.round_trips_us.extend(other.round_trips_us);
        self.computer_moves_us.extend(other.computer_moves_us);
        self.errors += other.errors;
        self.rate_limited += other.rate_limited;
        self.connections += other.connections;
        if self.first_problem.is_none() {
            self.first_problem = other.first_problem;
        }
    }
}

/// The server process's resident memory and CPU time at one moment.
#[derive(Clone, Copy, Debug)]
pub struct ProcSample {
    pub rss_bytes: u64,
    pub cpu_us: u64,
}

impl ProcSample {
    /// Reads /proc/PID/status (VmRSS) and /proc/PID/stat (utime + stime).
    pub fn read(pid: u32) -> Result<ProcSample, String> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .map_err(|e| format!("cannot read /proc/{pid}/status: {e}"))?;
        let rss_kib = status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or_else(|| format!("/proc/{pid}/status has no VmRSS"))?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map_err(|e| format!("cannot read /proc/{pid}/stat: {e}"))?;
        // The command name may hold spaces: the fields after it start at the state (field 3).
        let after_name = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest)
            .ok_or_else(|| format!("/proc/{pid}/stat is not understood"))?;
        let fields: Vec<&str> = after_name.split_whitespace().collect();
        let ticks = |field: usize| -> Result<u64, String> {
            fields
                .get(field - 3)
                .and_then(|f| f.parse::<u64>().ok())
                .ok_or_else(|| format!("/proc/{pid}/stat has no field {field}"))
        };
        let cpu_ticks = ticks(14)? + ticks(15)?;
        Ok(ProcSample {
            rss_bytes: rss_kib * 1024,
            cpu_us: cpu_ticks * 1_000_000 / clock_ticks_per_second(),
        })
    }
}

fn clock_ticks_per_second() -> u64 {
    // SAFETY: sysconf only reads a system constant.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    u64::try_from(ticks).ok().filter(|t| *t > 0).unwrap_or(100)
}

/// The report of a play (or echo) run; its JSON is exactly these eight fields, and with computer
/// tables beside the friends tables, the `computer_tables` object.
#[derive(Debug, Serialize)]
pub struct Report {
    pub actions_per_second: f64,
    pub p50_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub max_ms: Option<f64>,
    pub errors: u64,
    pub connections: u64,
    pub server_rss_bytes: Option<u64>,
    pub server_cpu_us_per_action: Option<f64>,
    /// The computer tables beside the friends tables, when there were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer_tables: Option<Beside>,
    /// The analyses queued on the coach, when there were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analyses: Option<Box<AnalysesReport>>,
    #[serde(skip)]
    pub actions: u64,
    #[serde(skip)]
    pub rate_limited: u64,
    #[serde(skip)]
    pub first_problem: Option<String>,
}

impl Report {
    pub fn new(
        mut tally: Tally,
        elapsed: Duration,
        server: Option<(ProcSample, ProcSample)>,
    ) -> Report {
        tally.round_trips_us.sort_unstable();
        let trips = &tally.round_trips_us;
        let rank = |q: f64| -> Option<f64> {
            let last = trips.len().checked_sub(1)?;
            let at = ((last as f64) * q).round() as usize;
            Some(f64::from(trips[at.min(last)]) / 1000.0)
        };
        let seconds = elapsed.as_secs_f64().max(1e-9);
        Report {
            actions_per_second: tally.actions as f64 / seconds,
            p50_ms: rank(0.50),
            p99_ms: rank(0.99),
            max_ms: rank(1.0),
            errors: tally.errors,
            connections: tally.connections,
            server_rss_bytes: server.map(|(_, after)| after.rss_bytes),
            server_cpu_us_per_action: server.filter(|_| tally.actions > 0).map(
                |(before, after)| {
                    after.cpu_us.saturating_sub(before.cpu_us) as f64 / tally.actions as f64
                },
            ),
            computer_tables: None,
            analyses: None,
            actions: tally.actions,
            rate_limited: tally.rate_limited,
            first_problem: tally.first_problem,
        }
    }

    /// Adds what the persons at the computer tables counted over the same run.
    pub fn beside(&mut self, mut tally: Tally, elapsed: Duration) {
        tally.round_trips_us.sort_unstable();
        tally.computer_moves_us.sort_unstable();
        let rank_of = |trips: &[u32], q: f64| {
            trips.len().checked_sub(1).map(|last| {
                let at = ((last as f64) * q).round() as usize;
                f64::from(trips[at.min(last)]) / 1000.0
            })
        };
        let (trips, moves) = (&tally.round_trips_us, &tally.computer_moves_us);
        let rank = |q: f64| rank_of(trips, q);
        self.computer_tables = Some(Beside {
            connections: tally.connections,
            person_actions_per_second: tally.actions as f64 / elapsed.as_secs_f64().max(1e-9),
            person_p50_ms: rank(0.5),
            person_p99_ms: rank(0.99),
            computer_moves: moves.len() as u64,
            computer_move_p50_ms: rank_of(moves, 0.5),
            computer_move_p99_ms: rank_of(moves, 0.99),
            errors: tally.errors,
            first_problem: tally.first_problem,
        });
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report always serializes")
    }

    pub fn to_text(&self, title: &str) -> String {
        let ms = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.3} ms"));
        let mut text = format!("chaikhana-loadgen: {title}\n");
        let _ = writeln!(
            text,
            "round trips: {} ({:.0} per second)",
            self.actions, self.actions_per_second
        );
        let _ = writeln!(
            text,
            "round trip: p50 {}, p99 {}, max {}",
            ms(self.p50_ms),
            ms(self.p99_ms),
            ms(self.max_ms)
        );
        let _ = writeln!(
            text,
            "errors: {} (rate-limited: {})",
            self.errors, self.rate_limited
        );
        let _ = writeln!(text, "connections: {}", self.connections);
        if let Some(rss) = self.server_rss_bytes {
            let _ = writeln!(text, "server resident memory: {:.1} MiB", mib(rss));
        }
        if let Some(cpu) = self.server_cpu_us_per_action {
            let _ = writeln!(text, "server CPU: {cpu:.2} µs per round trip");
        }
        if let Some(beside) = &self.computer_tables {
            let _ = writeln!(
                text,
                "computer tables: {} persons, {:.1} of their moves per second (p50 {}, p99 {}), \
                 errors {}{}",
                beside.connections,
                beside.person_actions_per_second,
                ms(beside.person_p50_ms),
                ms(beside.person_p99_ms),
                beside.errors,
                beside
                    .first_problem
                    .as_ref()
                    .map_or(String::new(), |p| format!(" (first: {p})"))
            );
            let _ = writeln!(
                text,
                "computers' moves as the persons saw them: {} (p50 {}, p99 {})",
                beside.computer_moves,
                ms(beside.computer_move_p50_ms),
                ms(beside.computer_move_p99_ms)
            );
        }
        if let Some(analyses) = &self.analyses {
            text.push_str(&analyses.to_text());
        }
        text
    }
}

/// What the persons at the computer tables beside the friends tables counted: their own moves (the
/// computers' are the server's to count) and their round trips. A person waits for the computers,
/// however long they take: a wait of over 5 s counts as an error here and nowhere else.
#[derive(Debug, Serialize)]
pub struct Beside {
    pub connections: u64,
    pub person_actions_per_second: f64,
    pub person_p50_ms: Option<f64>,
    pub person_p99_ms: Option<f64>,
    /// The computers' moves as they reached the persons: each from the view before it.
    pub computer_moves: u64,
    pub computer_move_p50_ms: Option<f64>,
    pub computer_move_p99_ms: Option<f64>,
    pub errors: u64,
    pub first_problem: Option<String>,
}

/// The report of an idle run: connections held open and what each costs the server.
#[derive(Debug, Serialize)]
pub struct IdleReport {
    pub connections: u64,
    pub errors: u64,
    pub server_rss_bytes: Option<u64>,
    pub server_bytes_per_connection: Option<f64>,
    #[serde(skip)]
    pub first_problem: Option<String>,
}

impl IdleReport {
    pub fn new(tally: Tally, server: Option<(ProcSample, ProcSample)>) -> IdleReport {
        IdleReport {
            connections: tally.connections,
            errors: tally.errors,
            server_rss_bytes: server.map(|(_, after)| after.rss_bytes),
            server_bytes_per_connection: server.filter(|_| tally.connections > 0).map(
                |(before, after)| {
                    after.rss_bytes.saturating_sub(before.rss_bytes) as f64
                        / tally.connections as f64
                },
            ),
            first_problem: tally.first_problem,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report always serializes")
    }

    pub fn to_text(&self, title: &str) -> String {
        let mut text = format!("chaikhana-loadgen: {title}\n");
        let _ = writeln!(text, "connections held open: {}", self.connections);
        let _ = writeln!(text, "errors: {}", self.errors);
        if let Some(rss) = self.server_rss_bytes {
            let _ = writeln!(text, "server resident memory: {:.1} MiB", mib(rss));
        }
        if let Some(each) = self.server_bytes_per_connection {
            let _ = writeln!(
                text,
                "server memory per connection: {each:.0} bytes ({:.2} KiB)",
                each / 1024.0
            );
        }
        text
    }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_come_from_the_sorted_round_trips() {
        let tally = Tally {
            actions: 100,
            round_trips_us: (1..=100).rev().map(|i| i * 1000).collect(),
            ..Tally::default()
        };
        let report = Report::new(tally, Duration::from_secs(2), None);
        assert_eq!(report.actions_per_second, 50.0);
        assert_eq!(report.p50_ms, Some(51.0));
        assert_eq!(report.p99_ms, Some(99.0));
        assert_eq!(report.max_ms, Some(100.0));
        assert_eq!(report.server_cpu_us_per_action, None);
    }

    #[test]
    fn the_computer_tables_are_reported_apart_and_only_when_there_were() {
        let mut report = Report::new(Tally::default(), Duration::from_secs(2), None);
        assert!(!report.to_json().contains("computer_tables"));
        let persons = Tally {
            actions: 10,
            round_trips_us: vec![3000, 1000, 2000],
            computer_moves_us: vec![801_000, 800_500, 950_000, 800_900],
            connections: 3,
            ..Tally::default()
        };
        report.beside(persons, Duration::from_secs(2));
        let beside = report.computer_tables.as_ref().unwrap();
        assert_eq!(beside.person_actions_per_second, 5.0);
        assert_eq!(beside.person_p50_ms, Some(2.0));
        assert_eq!(beside.person_p99_ms, Some(3.0));
        assert_eq!(beside.computer_moves, 4);
        assert_eq!(beside.computer_move_p50_ms, Some(801.0));
        assert_eq!(beside.computer_move_p99_ms, Some(950.0));
        assert!(report.to_text("t").contains(
            "computers' moves as the persons saw them: 4 (p50 801.000 ms, p99 950.000 ms)"
        ));
        assert!(report.to_text("t").contains("computer tables: 3 persons"));
        assert!(report.to_json().contains("\"computer_tables\":{"));
    }

    #[test]
    fn this_process_can_be_read_from_proc() {
        let sample = ProcSample::read(std::process::id()).unwrap();
        assert!(sample.rss_bytes > 0);
        assert!(ProcSample::read(u32::MAX).is_err());
    }
}
