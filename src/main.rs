//! The composition root: the command line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use chaikhana::catalog;
use chaikhana::settings::Settings;
use chaikhana::table::Level;
use chaikhana_rules::game::Budget;
use chaikhana_rules::sim::ratings::RatingConfig;
use chaikhana_rules::sim::SimConfig;

/// The profile of the server under load spent a fifth of its time in the C library's malloc and free
/// (every view is built, serialized and copied per seat); mimalloc is cheaper for these small,
/// short-lived allocations across worker threads.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc asks for transparent huge pages for its arenas where the kernel offers them on request
/// (`madvise`, Debian's default): each 2 MiB page then counts in full towards the resident memory
/// of a process that holds many small, long-lived sockets and tables, mostly empty. Without them a
/// socket costs markedly less memory and an action no more CPU (the figures are in
/// tests/perf/README.md, measured with `chaikhana-loadgen run --idle`).
fn no_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE only sets a flag of this process; no memory is touched.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[derive(Parser)]
#[command(
    name = "chaikhana",
    version,
    about = "Panjpar, Pishe Pasha and Ganjifa: with friends through a link, or against the computer"
)]
struct Cli {
    /// A settings file read over config/default.toml (CHAIKHANA_* environment variables still win).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serves the site (the default when no command is given).
    Serve,
    /// Computer players play many seeded deals against each other; prints who won and how fast.
    Simulate {
        /// The game: panjpar, pishe-pasha or ganjifa.
        game: String,
        /// How many deals to play.
        #[arg(long, default_value_t = 10_000)]
        deals: u64,
        /// The run's seed: the same seed gives the same figures.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// One computer player per seat, separated by commas (for example computer,random).
        #[arg(long, value_delimiter = ',', required_unless_present = "ratings")]
        bots: Vec<String>,
        /// Rate the computer levels instead: every pair of levels plays --deals deals (each twice,
        /// seats swapped), and their ratings are fitted, the standard computer at 1500.
        #[arg(long, conflicts_with_all = ["bots", "trace", "json"])]
        ratings: bool,
        /// With --ratings, the deals of each pair that has the strong computer thinking for a time
        /// (the default: --deals).
        #[arg(long, requires = "ratings")]
        slow_deals: Option<u64>,
        /// With --ratings, how many threads play (default: every core).
        #[arg(long, requires = "ratings")]
        threads: Option<usize>,
        /// With --ratings, also write them to this file as JSON, with the command that measured
        /// them: the file a game's pages and docs/games.md read
        /// (crates/rules/src/games/GAME/ratings.json).
        #[arg(long, requires = "ratings")]
        out: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Write one JSON line per decision to this file.
        #[arg(long)]
        trace: Option<PathBuf>,
        /// The strong computer's thinking time per decision, in milliseconds (default: the
        /// strong_budget_ms setting).
        #[arg(long, conflicts_with = "budget_samples")]
        budget_ms: Option<u64>,
        /// Instead of a time, a fixed number of sampled deals per decision of the strong computer:
        /// the same seed then gives the same figures.
        #[arg(long)]
        budget_samples: Option<u32>,
    },
    /// Times what a fair deal costs the table in each game: the commitment, the deal, the reveals.
    FairCost {
        /// How many deals of each game to time.
        #[arg(long, default_value_t = 2_000)]
        deals: u32,
    },
}

fn main() -> ExitCode {
    no_transparent_huge_pages();
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(cli.config.as_deref()),
        Command::FairCost { deals } => {
            for cost in catalog::games().iter().map(|game| game.fair_cost(deals)) {
                println!(
                    "{}: commit {:.1} µs, deal {:.1} µs, every seat's reveal {:.1} µs (mean of {deals} deals)",
                    cost.game,
                    cost.commit.as_secs_f64() * 1e6,
                    cost.deal.as_secs_f64() * 1e6,
                    cost.reveals.as_secs_f64() * 1e6,
                );
            }
            ExitCode::SUCCESS
        }
        Command::Simulate {
            game,
            deals,
            seed,
            bots,
            json,
            trace,
            budget_ms,
            budget_samples,
            ratings,
            slow_deals,
            threads,
            out,
        } => {
            let budget = match (budget_ms, budget_samples) {
                (_, Some(samples)) => Budget::Samples(samples.max(1)),
                (Some(ms), None) => Budget::Time(Duration::from_millis(ms)),
                (None, None) => strong_budget(cli.config.as_deref()),
            };
            if ratings {
                let threads = threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
                let config = RatingConfig {
                    levels: Level::ALL.map(|l| (l.as_str(), l.bot())).to_vec(),
                    anchor: Level::Standard.as_str(),
                    deals,
                    slow_deals,
                    seed,
                    budget,
                    threads,
                };
                let report = catalog::find(&game).and_then(|game| game.rate(&config));
                let report = match (report, out) {
                    (Ok(report), Some(out)) => {
                        let command = rating_command(&game, &config);
                        let text = report.measured(command).to_text();
                        std::fs::write(&out, text)
                            .map(|()| report)
                            .map_err(|e| format!("cannot write {}: {e}", out.display()))
                    }
                    (report, _) => report,
                };
                return simulated(report, |report| report.to_text());
            }
            let config = SimConfig {
                deals,
                seed,
                bots,
                trace,
                budget,
            };
            simulated(
                catalog::find(&game).and_then(|game| game.simulate(&config)),
                |report| {
                    if json {
                        serde_json::to_string(&report).expect("a report always serializes") + "\n"
                    } else {
                        report.to_text()
                    }
                },
            )
        }
    }
}

/// The `simulate --ratings` command that runs `config` for `game`, as typed after `chaikhana`.
fn rating_command(game: &str, config: &RatingConfig) -> String {
    let mut command = format!("simulate {game} --ratings --deals {}", config.deals);
    if let Some(slow) = config.slow_deals {
        command += &format!(" --slow-deals {slow}");
    }
    command += &match config.budget {
        Budget::Time(time) => format!(" --budget-ms {}", time.as_millis()),
        Budget::Samples(samples) => format!(" --budget-samples {samples}"),
    };
    command + &format!(" --seed {} --threads {}", config.seed, config.threads)
}

/// Prints what `simulate` made of a report (`text`), or says why there is none and exits with 2.
fn simulated<R>(report: Result<R, String>, text: impl FnOnce(R) -> String) -> ExitCode {
    match report {
        Ok(report) => {
            print!("{}", text(report));
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("chaikhana simulate: {message}");
            ExitCode::from(2)
        }
    }
}

fn serve(config: Option<&Path>) -> ExitCode {
    let settings = match Settings::load(config) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("chaikhana: {message}");
            return ExitCode::from(2);
        }
    };
    if let Err(message) = chaikhana::routing::check_settings(&settings) {
        eprintln!("chaikhana: the settings are not valid: {message}");
        return ExitCode::from(2);
    }
    init_logging(&settings);
    match actix_rt::System::new().block_on(chaikhana::server::serve(settings)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("the server stopped: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The strong computer's budget from the settings, or the default when they cannot be read.
fn strong_budget(config: Option<&Path>) -> Budget {
    Settings::load(config)
        .map(|s| chaikhana::routing::strong_budget(&s))
        .unwrap_or(chaikhana_rules::game::DEFAULT_BUDGET)
}

fn init_logging(settings: &Settings) {
    let filter = tracing_subscriber::EnvFilter::try_new(&settings.log_filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    if settings.log_format == "json" {
        builder.json().init();
    } else {
        builder.init();
    }
}
