//! Self-play: computer players play many seeded deals of one game, for figures and for replayable traces.
//!
//! Deal `i` of a run with seed `S` is dealt from `deal_seed(S, i)` with `DealSetup { index: i, first:
//! seat 1 }`, so the rotating role (guesser, dealer) passes round the seats, and the same seed gives the
//! same figures.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use rand::SeedableRng;
use serde::Serialize;

use crate::cards::{deal_rng, Seat};
use crate::game::Budget;
use crate::game::{Bot, BotKind, BotRng, DealSetup, Game};

pub mod fit;
pub mod ratings;

/// A deal that takes more decisions than this has hung: the run stops with an error.
const MAX_DECISIONS_PER_DEAL: usize = 1_000_000;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub deals: u64,
    pub seed: u64,
    /// One bot name per seat.
    pub bots: Vec<String>,
    /// Where to write one JSON line per decision.
    pub trace: Option<PathBuf>,
    /// How long a strong computer thinks per decision.
    pub budget: Budget,
}

/// The figures of a run; serialized, this is the shape `simulate --json` prints for every game.
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    pub game: &'static str,
    pub deals: u64,
    pub seed: u64,
    pub bots: Vec<String>,
    /// Deals won per seat (a tie at the top counts for every seat in it).
    pub wins: Vec<u64>,
    /// Deals nobody won.
    pub draws: u64,
    /// Points scored per seat over all deals.
    pub points: Vec<i64>,
    /// The 95% confidence interval of each seat's share of deals won (Wilson score interval).
    pub ci95: Vec<[f64; 2]>,
    pub deals_per_second: f64,
    /// Each seat's mean points per deal with its 95% confidence interval (normal approximation);
    /// printed in the text report, left out of the JSON shape.
    #[serde(skip)]
    pub points_per_deal: Vec<MeanCi>,
}

/// A mean and its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanCi {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

/// The seed of deal `index` of a run seeded with `seed` (SplitMix64 of the pair).
pub fn deal_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(index.wrapping_add(1).wrapping_mul(0xbf58_476d_1ce4_e5b9));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One line of a trace: a decision, with everything needed to check or replay it.
#[derive(Serialize)]
struct TraceLine<'a, G: Game> {
    deal: u64,
    deal_seed: u64,
    setup: DealSetup,
    seat: Seat,
    state: &'a G::State,
    view: &'a G::View,
    legal: &'a [G::Action],
    action: &'a G::Action,
}

/// Plays the deals and gathers the figures. Fails on an unknown bot name, a bot that picks an action
/// the rules refuse, a deal that never ends, or a trace file that cannot be written.
pub fn simulate<G: Game>(config: &SimConfig) -> Result<SimReport, String> {
    let choices = || {
        let kinds = crate::game::bot_kinds::<G>();
        let names: Vec<&str> = kinds.iter().map(|kind| kind.name()).collect();
        names.join(", ")
    };
    if config.bots.len() != G::SEATS {
        return Err(format!(
            "{} has {} seats: name {} bots, separated by commas (choose from {})",
            G::NAME,
            G::SEATS,
            G::SEATS,
            choices()
        ));
    }
    let mut kinds = Vec::with_capacity(G::SEATS);
    for name in &config.bots {
        match BotKind::of_game::<G>(name) {
            Some(kind) => kinds.push(kind),
            None => {
                return Err(format!(
                    "there is no {} bot called \"{name}\" (choose from {})",
                    G::NAME,
                    choices()
                ))
            }
        }
    }
    let mut trace = match &config.trace {
        Some(path) => {
            Some(BufWriter::new(File::create(path).map_err(|e| {
                format!("cannot write {}: {e}", path.display())
            })?))
        }
        None => None,
    };

    let mut wins = vec![0u64; G::SEATS];
    let mut draws = 0;
    let mut points = vec![0i64; G::SEATS];
    let mut squares = vec![0f64; G::SEATS];
    let started = Instant::now();
    for index in 0..config.deals {
        let seed = deal_seed(config.seed, index);
        let setup = DealSetup {
            index: index as u32,
            first: Seat::new(0),
        };
        let outcome = play_deal::<G>(config, &kinds, index, seed, setup, trace.as_mut())?;
        if outcome.winners.is_empty() {
            draws += 1;
        }
        for seat in outcome.winners {
            wins[seat.index()] += 1;
        }
        for (i, p) in outcome.points.iter().enumerate() {
            points[i] += i64::from(*p);
            squares[i] += f64::from(*p).powi(2);
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    if let Some(out) = trace.as_mut() {
        out.flush()
            .map_err(|e| format!("cannot write the trace: {e}"))?;
    }

    let deals = config.deals;
    Ok(SimReport {
        game: G::NAME,
        deals,
        seed: config.seed,
        bots: config.bots.clone(),
        ci95: wins.iter().map(|&w| wilson_interval(w, deals)).collect(),
        points_per_deal: (0..G::SEATS)
            .map(|i| mean_interval(points[i] as f64, squares[i], deals))
            .collect(),
        wins,
        draws,
        points,
        deals_per_second: if seconds > 0.0 {
            deals as f64 / seconds
        } else {
            0.0
        },
    })
}

fn play_deal<G: Game>(
    config: &SimConfig,
    kinds: &[BotKind],
    index: u64,
    seed: u64,
    setup: DealSetup,
    mut trace: Option<&mut BufWriter<File>>,
) -> Result<crate::game::DealOutcome, String> {
    let mut state = G::deal(&setup, &mut deal_rng(seed));
    let mut rng = BotRng::seed_from_u64(seed ^ 0x5eed_b075);
    let mut bots: Vec<Box<dyn Bot<G>>> = Seat::all(G::SEATS)
        .map(|seat| {
            crate::game::computer::<G>(kinds[seat.index()], seat, config.budget)
                .expect("the game has every kind asked for")
        })
        .collect();
    // The views the observing bots were just shown: the state has not moved since, so the seat to act
    // reuses its own rather than building it again.
    let mut shown = show_observers::<G>(&state, &mut bots);
    let mut decisions = 0;
    while let Some(seat) = G::to_act(&state) {
        decisions += 1;
        if decisions > MAX_DECISIONS_PER_DEAL {
            return Err(format!(
                "deal {index} (seed {seed}) did not end after {MAX_DECISIONS_PER_DEAL} decisions"
            ));
        }
        let legal = G::legal_actions(&state, seat);
        if legal.is_empty() {
            return Err(format!(
                "deal {index} (seed {seed}): {seat} must act but has no legal action"
            ));
        }
        let view = shown[seat.index()]
            .take()
            .unwrap_or_else(|| G::view(&state, Some(seat)));
        let action = bots[seat.index()].choose(&view, &legal, &mut rng);
        if let Some(out) = trace.as_deref_mut() {
            let line = TraceLine::<G> {
                deal: index,
                deal_seed: seed,
                setup,
                seat,
                state: &state,
                view: &view,
                legal: &legal,
                action: &action,
            };
            serde_json::to_writer(&mut *out, &line)
                .map_err(|e| format!("cannot write the trace: {e}"))?;
            out.write_all(b"\n")
                .map_err(|e| format!("cannot write the trace: {e}"))?;
        }
        G::apply(&mut state, seat, &action).map_err(|e| {
            format!(
                "deal {index} (seed {seed}): the {} bot at {seat} chose {action:?}, which the rules refuse: {e}",
                bots[seat.index()].kind().name()
            )
        })?;
        shown = show_observers::<G>(&state, &mut bots);
    }
    G::outcome(&state)
        .ok_or_else(|| format!("deal {index} (seed {seed}) stopped without an outcome"))
}

/// Shows every observing bot its view of `state`; returns those views, by seat.
fn show_observers<G: Game>(state: &G::State, bots: &mut [Box<dyn Bot<G>>]) -> Vec<Option<G::View>> {
    bots.iter_mut()
        .enumerate()
        .map(|(i, bot)| {
            bot.observes().then(|| {
                let view = G::view(state, Some(Seat::new(i)));
                bot.observe(&view);
                view
            })
        })
        .collect()
}

/// The Wilson score interval at 95% for `successes` out of `trials`.
pub fn wilson_interval(successes: u64, trials: u64) -> [f64; 2] {
    if trials == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let n = trials as f64;
    let p = successes as f64 / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    // No success (or no failure) pins that end exactly, whatever the rounding of the formula.
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if successes == trials {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    [low, high]
}

/// The mean of `n` values from their sum and sum of squares, with a 95% normal interval.
pub fn mean_interval(sum: f64, sum_of_squares: f64, n: u64) -> MeanCi {
    if n == 0 {
        return MeanCi {
            mean: 0.0,
            low: 0.0,
            high: 0.0,
        };
    }
    let count = n as f64;
    let mean = sum / count;
    let variance = if n > 1 {
        ((sum_of_squares - count * mean * mean) / (count - 1.0)).max(0.0)
    } else {
        0.0
    };
    let half = 1.959_963_984_540_054 * (variance / count).sqrt();
    MeanCi {
        mean,
        low: mean - half,
        high: mean + half,
    }
}

impl SimReport {
    /// The report for a person: per seat, deals won with the interval, points, and the speed.
    pub fn to_text(&self) -> String {
        let mut text = format!(
            "{}: {} deals, seed {}, bots {}\n",
            self.game,
            self.deals,
            self.seed,
            self.bots.join(",")
        );
        let share = |w: u64| {
            if self.deals == 0 {
                0.0
            } else {
                100.0 * w as f64 / self.deals as f64
            }
        };
        let decided = self.deals - self.draws;
        for (i, bot) in self.bots.iter().enumerate() {
            let [lo, hi] = self.ci95[i];
            let per_deal = self.points_per_deal[i];
            let of_decided = if decided == 0 {
                String::new()
            } else {
                format!(
                    ", {:.1}% of decided deals",
                    100.0 * self.wins[i] as f64 / decided as f64
                )
            };
            text += &format!(
                "seat {} ({bot}): won {} ({:.1}%, 95% CI {:.1}-{:.1}%{of_decided}); points {} ({:+.3} per deal, 95% CI {:+.3} to {:+.3})\n",
                i + 1,
                self.wins[i],
                share(self.wins[i]),
                100.0 * lo,
                100.0 * hi,
                self.points[i],
                per_deal.mean,
                per_deal.low,
                per_deal.high,
            );
        }
        text += &format!("drawn deals: {} ({:.1}%)\n", self.draws, share(self.draws));
        text += &format!("deals per second: {:.0}\n", self.deals_per_second);
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_share() {
        let [lo, hi] = wilson_interval(500, 1000);
        assert!(lo < 0.5 && hi > 0.5);
        assert!((hi - lo - 0.062).abs() < 0.002, "{lo} {hi}");
        assert_eq!(wilson_interval(0, 0), [0.0, 1.0]);
        let [lo, _] = wilson_interval(0, 100);
        assert!(lo.abs() < 1e-12, "{lo}");
    }

    #[test]
    fn mean_interval_of_constant_values_is_a_point() {
        let ci = mean_interval(30.0, 300.0, 3);
        assert_eq!(ci.mean, 10.0);
        assert_eq!(ci.low, 10.0);
        assert_eq!(ci.high, 10.0);
        let spread = mean_interval(0.0, 2.0, 2);
        assert!(spread.low < 0.0 && spread.high > 0.0);
    }

    #[test]
    fn deal_seeds_differ_by_index_and_seed() {
        assert_ne!(deal_seed(1, 0), deal_seed(1, 1));
        assert_ne!(deal_seed(1, 0), deal_seed(2, 0));
        assert_eq!(deal_seed(1, 5), deal_seed(1, 5));
    }
}
