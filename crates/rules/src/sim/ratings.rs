//! Ratings of the computer levels by self-play (`chaikhana simulate GAME --ratings`): every pair of
//! levels plays the same seeded deals, each deal twice with the seats swapped, on all cores; the
//! results are fitted to Bradley–Terry ratings on the Elo scale, the standard computer at 1500, with
//! 95% intervals from the Fisher information ([`super::fit`]).
//!
//! Deal `k` of a pairing is dealt from `deal_seed(seed, k)` with `DealSetup { index: k, first: seat 1
//! }`. It is played twice: the first level in seat 1 and the second in every other seat, then the
//! other way round. A deal is one game between the two levels, scored for the first by comparing each
//! of its seats with each of the other level's: above it (won the deal where the other did not, or,
//! neither or both having won, more points) 1, level with it 1/2, below it 0, and the mean of these
//! is the deal's score. In a two-seat game that is a won deal 1, a drawn one 1/2, a lost one 0.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::fit::{fit, Pairing, Rating};
use super::{deal_seed, play_deal, SimConfig};
use crate::cards::Seat;
use crate::game::{BotKind, Budget, CpuTime, DealOutcome, DealSetup, Game};
use crate::game_pages::{MeasuredLevel, MeasuredPair, MeasuredRatings};

/// What to rate, and how long to play.
#[derive(Clone, Debug)]
pub struct RatingConfig {
    /// The levels, gentlest first: each its name and its computer player.
    pub levels: Vec<(&'static str, BotKind)>,
    /// The level held at 1500.
    pub anchor: &'static str,
    /// The deals each pair of levels plays (each played twice, seats swapped: this many games).
    pub deals: u64,
    /// The deals of a pair in which a level thinks for a time budget (the strong computer), which is
    /// slow: fewer, if set.
    pub slow_deals: Option<u64>,
    pub seed: u64,
    /// How long the strong computer thinks per decision.
    pub budget: Budget,
    /// How many threads play (at least one).
    pub threads: usize,
}

/// The ratings of a run.
#[derive(Clone, Debug)]
pub struct RatingReport {
    pub game: &'static str,
    pub seed: u64,
    /// Per level, in the order asked: its name, its rating and how many games it played.
    pub levels: Vec<(&'static str, Rating, u64)>,
    /// Per pair of levels: the two names, the games, and the first's share of the points.
    pub pairs: Vec<(&'static str, &'static str, u64, f64)>,
    /// The strong computer's budget a decision.
    pub budget: Budget,
    /// Wall time from the first game to the fit.
    pub seconds: f64,
    /// The CPU time the players used, every thread's.
    pub cpu_seconds: f64,
}

/// One game to play: which pair, which deal, and whether the first level sits alone in seat 1.
#[derive(Clone, Copy)]
struct Job {
    pair: usize,
    deal: u64,
    first_in_seat_one: bool,
}

/// Plays every pair of levels and fits their ratings.
pub fn rate<G: Game>(config: &RatingConfig) -> Result<RatingReport, String> {
    let known = crate::game::bot_kinds::<G>();
    if let Some((name, _)) = config.levels.iter().find(|(_, k)| !known.contains(k)) {
        return Err(format!("{} has no computer of the level {name}", G::NAME));
    }
    let anchor = config
        .levels
        .iter()
        .position(|(name, _)| *name == config.anchor)
        .ok_or_else(|| format!("there is no level {} to anchor", config.anchor))?;
    let count = config.levels.len();
    let pairs: Vec<(usize, usize)> = (0..count)
        .flat_map(|a| (a + 1..count).map(move |b| (a, b)))
        .collect();
    let slow = |(a, b): (usize, usize)| {
        let thinks = |i: usize| config.levels[i].1 == BotKind::Strong;
        matches!(config.budget, Budget::Time(_)) && (thinks(a) || thinks(b))
    };
    let deals_of = |pair| match config.slow_deals {
        Some(deals) if slow(pair) => deals,
        _ => config.deals,
    };
    // The slow pairs first, so no thread is left with a long one at the end.
    let mut jobs = Vec::new();
    for (index, &pair) in pairs.iter().enumerate() {
        for deal in 0..deals_of(pair) {
            for first_in_seat_one in [true, false] {
                let job = Job {
                    pair: index,
                    deal,
                    first_in_seat_one,
                };
                jobs.push((!slow(pair), job));
            }
        }
    }
    jobs.sort_by_key(|(fast, job)| (*fast, job.deal, job.pair));
    let jobs: Vec<Job> = jobs.into_iter().map(|(_, job)| job).collect();

    let sim = SimConfig {
        deals: 0,
        seed: config.seed,
        bots: Vec::new(),
        trace: None,
        budget: config.budget,
    };
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![(0u64, 0.0f64); pairs.len()]);
    let failure = Mutex::new(None);
    // Each thread takes the next game until none is left (or one has failed).
    let play_jobs = || loop {
        let at = next.fetch_add(1, Ordering::Relaxed);
        let Some(job) = jobs.get(at) else { break };
        let (a, b) = pairs[job.pair];
        let first = |seat: Seat| (seat.index() == 0) == job.first_in_seat_one;
        let kinds: Vec<BotKind> = Seat::all(G::SEATS)
            .map(|seat| config.levels[if first(seat) { a } else { b }].1)
            .collect();
        let seed = deal_seed(config.seed, job.deal);
        let setup = DealSetup {
            index: job.deal as u32,
            first: Seat::new(0),
        };
        match play_deal::<G>(&sim, &kinds, job.deal, seed, setup, None) {
            Ok(outcome) => {
                let score = score_of_first::<G>(&outcome, first);
                let mut results = results.lock().unwrap_or_else(|e| e.into_inner());
                results[job.pair].0 += 1;
                results[job.pair].1 += score;
                if (at + 1).is_multiple_of(200) {
                    eprintln!("{} of {} games played", at + 1, jobs.len());
                }
            }
            Err(message) => {
                *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(message);
                next.store(jobs.len(), Ordering::Relaxed);
            }
        }
    };
    let cpu = Mutex::new(0.0f64);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                let thread_started = CpuTime::now();
                play_jobs();
                *cpu.lock().unwrap_or_else(|e| e.into_inner()) +=
                    thread_started.elapsed().as_secs_f64();
            });
        }
    });
    if let Some(message) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(message);
    }
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let pairings: Vec<Pairing> = pairs
        .iter()
        .zip(&results)
        .map(|(&(first, second), &(games, points))| Pairing {
            first,
            second,
            games: games as f64,
            points,
        })
        .collect();
    let ratings = fit(count, &pairings, anchor, 1500.0);
    let games_of = |level: usize| {
        let mine = pairs.iter().zip(&results);
        let mine = mine.filter(|((a, b), _)| *a == level || *b == level);
        mine.map(|(_, (games, _))| games).sum()
    };
    Ok(RatingReport {
        game: G::NAME,
        seed: config.seed,
        levels: (0..count)
            .map(|i| (config.levels[i].0, ratings[i], games_of(i)))
            .collect(),
        pairs: pairs
            .iter()
            .zip(&results)
            .map(|(&(a, b), &(games, points))| {
                let share = if games == 0 {
                    0.5
                } else {
                    points / games as f64
                };
                (config.levels[a].0, config.levels[b].0, games, share)
            })
            .collect(),
        budget: config.budget,
        seconds: started.elapsed().as_secs_f64(),
        cpu_seconds: cpu.into_inner().unwrap_or_else(|e| e.into_inner()),
    })
}

/// The first level's score in a deal: the mean over each of its seats against each of the other
/// level's of 1 (above), 1/2 (level) or 0 (below).
fn score_of_first<G: Game>(outcome: &DealOutcome, first: impl Fn(Seat) -> bool) -> f64 {
    let rank = |seat: Seat| {
        let won = outcome.winners.contains(&seat);
        (won, outcome.points.get(seat.index()).copied().unwrap_or(0))
    };
    let (mut total, mut count) = (0.0, 0u32);
    for mine in Seat::all(G::SEATS).filter(|&s| first(s)) {
        for theirs in Seat::all(G::SEATS).filter(|&s| !first(s)) {
            total += match rank(mine).cmp(&rank(theirs)) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            count += 1;
        }
    }
    if count == 0 {
        0.5
    } else {
        total / f64::from(count)
    }
}

impl RatingReport {
    /// The table for a person: each level's rating with its 95% interval and games, then each pair.
    pub fn to_text(&self) -> String {
        let mut text = format!(
            "{}: ratings of the computer levels (seed {}, Bradley-Terry on the Elo scale, {} = 1500, 95% intervals from the Fisher information)\n",
            self.game,
            self.seed,
            self.levels
                .iter()
                .find(|(_, r, _)| r.margin() == 0.0)
                .map_or("the anchor", |(name, _, _)| name),
        );
        text += &format!(
            "{:<10} {:>7}  {:<13} {:>6}\n",
            "level", "rating", "95% interval", "games"
        );
        for (name, rating, games) in &self.levels {
            text += &format!(
                "{name:<10} {:>7.0}  {:<13} {games:>6}\n",
                rating.rating,
                format!("{:.0}-{:.0}", rating.low, rating.high),
            );
        }
        text += "pairs (the first level's share of the points):\n";
        for (a, b, games, share) in &self.pairs {
            text += &format!("  {a} v {b}: {:.1}% of {games} games\n", 100.0 * share);
        }
        text += &format!(
            "{:.0} s wall, {:.0} s of CPU\n",
            self.seconds, self.cpu_seconds
        );
        text
    }

    /// The report as the ratings file keeps it, with the `command` that measured it.
    pub fn measured(&self, command: String) -> MeasuredRatings {
        MeasuredRatings {
            game: self.game.to_string(),
            command,
            budget: match self.budget {
                Budget::Time(time) => format!("{} ms of CPU", time.as_millis()),
                Budget::Samples(samples) => format!("{samples} sampled deals"),
            },
            levels: self
                .levels
                .iter()
                .map(|(level, rating, games)| MeasuredLevel {
                    level: level.to_string(),
                    rating: rating.rating,
                    low: rating.low,
                    high: rating.high,
                    games: *games,
                })
                .collect(),
            pairs: self
                .pairs
                .iter()
                .map(|(first, second, games, first_share)| MeasuredPair {
                    first: first.to_string(),
                    second: second.to_string(),
                    games: *games,
                    first_share: *first_share,
                })
                .collect(),
            wall_seconds: self.seconds,
            cpu_seconds: self.cpu_seconds,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::panjpar::Panjpar;

    #[test]
    fn the_gentle_computer_rates_below_the_standard_one() {
        let config = RatingConfig {
            levels: vec![("gentle", BotKind::Gentle), ("standard", BotKind::Computer)],
            anchor: "standard",
            deals: 100,
            slow_deals: None,
            seed: 1,
            budget: Budget::Samples(1),
            threads: 2,
        };
        let report = rate::<Panjpar>(&config).unwrap();
        let (_, gentle, games) = report.levels[0];
        let (_, standard, _) = report.levels[1];
        assert_eq!(games, 200);
        assert_eq!(standard.rating, 1500.0);
        assert!(gentle.high < standard.rating, "{}", report.to_text());
        assert!(report.to_text().contains("gentle"));
    }

    #[test]
    fn a_deal_scores_each_seat_against_each_of_the_other_level() {
        let outcome = DealOutcome {
            points: vec![5, -2, -3],
            winners: vec![Seat::new(0)],
        };
        let three = |first: fn(Seat) -> bool| {
            score_of_first::<crate::games::ganjifa::Ganjifa>(&outcome, first)
        };
        assert_eq!(three(|s| s.index() == 0), 1.0);
        // Seat 2 (-2) is above seat 3 (-3) and below seat 1.
        assert_eq!(three(|s| s.index() == 1), 0.5);
        assert_eq!(three(|s| s.index() == 2), 0.0);
        let drawn = DealOutcome {
            points: vec![0, 0],
            winners: vec![],
        };
        assert_eq!(score_of_first::<Panjpar>(&drawn, |s| s.index() == 0), 0.5);
    }
}
