//! What the queued analyses measured (see `coach.rs`): how many were asked and finished, how long
//! each took from its `analyse` frame to its `analysis` frame, the decisions judged and the errors;
//! printed as text or as the `analyses` object of the run's JSON.

use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

/// What one worker thread counted of its analyses.
#[derive(Debug, Default)]
pub struct AnalysesTally {
    /// Tables whose deal ended, ready to be analysed.
    pub prepared: u64,
    /// The longest it took a worker to open its tables and play their deals to the end.
    pub prepare: Duration,
    /// `analyse` frames sent.
    pub asked: u64,
    /// Each finished analysis's time, from its `analyse` frame to its `analysis` frame, in µs.
    pub finished_us: Vec<u64>,
    /// Decisions judged, over the finished analyses.
    pub judged: u64,
    /// `analysing` frames heard.
    pub progress: u64,
    /// Analyses that had not come by the timeout (not errors: the coach may simply be slower).
    pub unfinished: u64,
    /// Tables not prepared, analyses refused or lost with their socket.
    pub errors: u64,
    pub first_problem: Option<String>,
}

impl AnalysesTally {
    pub fn problem(&mut self, what: String) {
        self.errors += 1;
        if self.first_problem.is_none() {
            self.first_problem = Some(what);
        }
    }

    pub fn finished(&mut self, took: Duration, judged: u64) {
        self.finished_us
            .push(u64::try_from(took.as_micros()).unwrap_or(u64::MAX));
        self.judged += judged;
    }

    pub fn merge(&mut self, other: AnalysesTally) {
        self.prepared += other.prepared;
        self.prepare = self.prepare.max(other.prepare);
        self.asked += other.asked;
        self.finished_us.extend(other.finished_us);
        self.judged += other.judged;
        self.progress += other.progress;
        self.unfinished += other.unfinished;
        self.errors += other.errors;
        if self.first_problem.is_none() {
            self.first_problem = other.first_problem;
        }
    }
}

/// The analyses' report: times in seconds, null when none finished.
#[derive(Debug, Serialize)]
pub struct AnalysesReport {
    pub game: String,
    pub prepared: u64,
    pub prepare_s: f64,
    pub asked: u64,
    pub finished: u64,
    pub unfinished: u64,
    pub first_s: Option<f64>,
    pub p50_s: Option<f64>,
    pub p99_s: Option<f64>,
    pub last_s: Option<f64>,
    pub judged: u64,
    pub progress_frames: u64,
    pub errors: u64,
    pub first_problem: Option<String>,
}

impl AnalysesReport {
    pub fn new(game: &str, mut tally: AnalysesTally) -> AnalysesReport {
        tally.finished_us.sort_unstable();
        let times = &tally.finished_us;
        let rank = |q: f64| -> Option<f64> {
            let last = times.len().checked_sub(1)?;
            let at = ((last as f64) * q).round() as usize;
            Some(times[at.min(last)] as f64 / 1e6)
        };
        AnalysesReport {
            game: game.to_string(),
            prepared: tally.prepared,
            prepare_s: tally.prepare.as_secs_f64(),
            asked: tally.asked,
            finished: times.len() as u64,
            unfinished: tally.unfinished,
            first_s: rank(0.0),
            p50_s: rank(0.5),
            p99_s: rank(0.99),
            last_s: rank(1.0),
            judged: tally.judged,
            progress_frames: tally.progress,
            errors: tally.errors,
            first_problem: tally.first_problem,
        }
    }

    /// The report's lines, to follow the run's own.
    pub fn to_text(&self) -> String {
        let s = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2} s"));
        let mut text = String::new();
        let _ = writeln!(
            text,
            "analyses: {} {} deals prepared in {:.1} s; {} asked at once, {} finished ({} not by the \
             timeout), {} decisions judged, errors {}{}",
            self.prepared,
            self.game,
            self.prepare_s,
            self.asked,
            self.finished,
            self.unfinished,
            self.judged,
            self.errors,
            self.first_problem
                .as_ref()
                .map_or(String::new(), |p| format!(" (first: {p})"))
        );
        let _ = writeln!(
            text,
            "analysis finished after: first {}, p50 {}, p99 {}, last {}",
            s(self.first_s),
            s(self.p50_s),
            s(self.p99_s),
            s(self.last_s)
        );
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(seconds: &[u64]) -> AnalysesTally {
        let mut tally = AnalysesTally {
            prepared: seconds.len() as u64 + 1,
            prepare: Duration::from_millis(41_300),
            asked: seconds.len() as u64 + 1,
            ..AnalysesTally::default()
        };
        for s in seconds.iter().rev() {
            tally.finished(Duration::from_secs(*s), 20);
        }
        tally.problem("the server refused an analyse: deal-in-play".into());
        tally
    }

    #[test]
    fn times_come_from_the_sorted_analyses_and_tallies_merge() {
        let mut all = tally(&(1..=50).collect::<Vec<_>>());
        all.merge(tally(&(51..=100).collect::<Vec<_>>()));
        let report = AnalysesReport::new("panjpar", all);
        assert_eq!(
            (report.prepared, report.asked, report.finished),
            (102, 102, 100)
        );
        assert_eq!(report.first_s, Some(1.0));
        assert_eq!(report.p50_s, Some(51.0));
        assert_eq!(report.p99_s, Some(99.0));
        assert_eq!(report.last_s, Some(100.0));
        assert_eq!(report.judged, 2000);
        assert_eq!(report.errors, 2);
        assert_eq!(report.unfinished, 0);
        assert_eq!(report.prepare_s, 41.3);
    }

    #[test]
    fn the_text_and_json_say_every_figure() {
        let mut tally = tally(&[2, 4]);
        tally.unfinished = 1;
        let report = AnalysesReport::new("ganjifa", tally);
        let text = report.to_text();
        assert!(text.starts_with(
            "analyses: 3 ganjifa deals prepared in 41.3 s; 3 asked at once, 2 finished (1 not by \
             the timeout), 40 decisions judged, errors 1 (first: the server refused an analyse: \
             deal-in-play)\n"
        ));
        assert!(text.contains("first 2.00 s, p50 4.00 s, p99 4.00 s, last 4.00 s"));
        let json: serde_json::Value = serde_json::to_value(&report).unwrap();
        assert_eq!(json["finished"], 2);
        assert_eq!(json["last_s"], 4.0);
        assert_eq!(json["judged"], 40);
        assert_eq!(json["unfinished"], 1);
    }

    #[test]
    fn none_finished_is_said_without_times() {
        let report = AnalysesReport::new("panjpar", AnalysesTally::default());
        assert_eq!(report.first_s, None);
        assert!(report.to_text().contains("first -, p50 -, p99 -, last -"));
        assert!(serde_json::to_string(&report)
            .unwrap()
            .contains("\"p99_s\":null"));
    }
}
