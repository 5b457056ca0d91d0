//! The composition root: the command line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use chaikhana::games;
use chaikhana::games::strong::Budget;
use chaikhana::loadgen::{self, Outcome};
use chaikhana::settings::Settings;
use chaikhana::sim::SimConfig;

/// The profile of the server under load spent a fifth of its time in the C library's malloc and free
/// (every view is built, serialized and copied per seat); mimalloc is cheaper for these small,
/// short-lived allocations across worker threads.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc asks for transparent huge pages for its arenas where the kernel offers them on request
/// (`madvise`, Debian's default): each 2 MiB page then counts in full towards the resident memory
/// of a process that holds many small, long-lived sockets and tables. Measured with 18,000 idle
/// sockets (`loadgen --idle`): 25.8 KB a socket with them, 18.0 KB without, at no measurable cost
/// in CPU per action.
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
        #[arg(long, value_delimiter = ',', required = true)]
        bots: Vec<String>,
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
    /// Plays many friends tables over real WebSockets as fast as the server answers and reports
    /// throughput, round trips and errors. Start the server with high rate limits
    /// (CHAIKHANA_RATE_PER_SECOND, CHAIKHANA_RATE_BURST), or it refuses most frames.
    Loadgen(LoadgenArgs),
    /// A bare WebSocket echo server at /ws: the baseline `loadgen --game echo` measures.
    Echo {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1:9001")]
        listen: String,
    },
}

#[derive(clap::Args)]
struct LoadgenArgs {
    /// The server's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Then the same load again against this server, and both results: for one node (--url) against
    /// across nodes (an `edge` node whose tables live on a `tables` node, through Redis).
    #[arg(long)]
    across: Option<String>,
    /// panjpar, pishe-pasha, ganjifa, or echo (then --url is a `chaikhana echo` server).
    #[arg(long)]
    game: String,
    /// Tables played at once (echo: connections, one frame in flight on each).
    #[arg(long, default_value_t = 100)]
    tables: usize,
    /// Seconds of play (with --idle: seconds to hold the connections once all are open).
    #[arg(long, default_value_t = 10)]
    duration: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The local server's process id: report its resident memory and CPU per action.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Hold this many idle, authenticated connections instead of playing; report memory per
    /// connection (with --server-pid).
    #[arg(long)]
    idle: Option<usize>,
    /// Worker threads of the load generator.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The seed of the seats' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() -> ExitCode {
    no_transparent_huge_pages();
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(cli.config.as_deref()),
        Command::Loadgen(args) => loadgen(args),
        Command::Echo { listen } => echo(&listen),
        Command::Simulate {
            game,
            deals,
            seed,
            bots,
            json,
            trace,
            budget_ms,
            budget_samples,
        } => {
            let budget = match (budget_ms, budget_samples) {
                (_, Some(samples)) => Budget::Samples(samples.max(1)),
                (Some(ms), None) => Budget::Time(Duration::from_millis(ms)),
                (None, None) => strong_budget(cli.config.as_deref()),
            };
            let config = SimConfig {
                deals,
                seed,
                bots,
                trace,
                budget,
            };
            match games::simulate_by_name(&game, &config) {
                Ok(report) if json => {
                    println!(
                        "{}",
                        serde_json::to_string(&report).expect("a report always serializes")
                    );
                    ExitCode::SUCCESS
                }
                Ok(report) => {
                    print!("{}", report.to_text());
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    eprintln!("chaikhana simulate: {message}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

fn loadgen(args: LoadgenArgs) -> ExitCode {
    let Some(across) = args.across.clone() else {
        return loadgen_once(&args, &args.url, "");
    };
    for (url, label) in [(&args.url, ", one node"), (&across, ", across nodes")] {
        let code = loadgen_once(&args, url, label);
        if code != ExitCode::SUCCESS {
            return code;
        }
    }
    ExitCode::SUCCESS
}

/// One load run against `url`; `label` ends the report's title.
fn loadgen_once(args: &LoadgenArgs, url: &str, label: &str) -> ExitCode {
    let options = loadgen::Options {
        url: url.to_string(),
        game: args.game.clone(),
        tables: args.tables,
        duration: Duration::from_secs(args.duration),
        server_pid: args.server_pid,
        idle: args.idle,
        threads: args.threads,
        seed: args.seed,
    };
    let outcome = match loadgen::run(&options) {
        Ok(outcome) => outcome,
        Err(message) => {
            eprintln!("chaikhana loadgen: {message}");
            return ExitCode::from(2);
        }
    };
    let (text, json, problem, rate_limited) = match outcome {
        Outcome::Play(report) => {
            let title = format!(
                "{}, {} tables, {} s, {} threads{label}",
                options.game, options.tables, args.duration, options.threads
            );
            (
                report.to_text(&title),
                report.to_json(),
                report.first_problem,
                report.rate_limited,
            )
        }
        Outcome::Idle(report) => {
            let title = format!(
                "{} idle connections ({}){label}",
                args.idle.unwrap_or(0),
                options.game
            );
            (
                report.to_text(&title),
                report.to_json(),
                report.first_problem,
                0,
            )
        }
    };
    if rate_limited > 0 {
        eprintln!(
            "chaikhana loadgen: the server rate-limited {rate_limited} frames: start it with higher \
             limits, for example CHAIKHANA_RATE_PER_SECOND=1000000 CHAIKHANA_RATE_BURST=1000000"
        );
    }
    if let Some(problem) = problem {
        eprintln!("chaikhana loadgen: first error: {problem}");
    }
    if args.json {
        println!("{json}");
    } else {
        print!("{text}");
    }
    ExitCode::SUCCESS
}

fn echo(listen: &str) -> ExitCode {
    let served = actix_rt::System::new().block_on(async {
        let server = loadgen::echo::start(listen)?;
        println!("echoing WebSocket frames at ws://{}/ws", server.addr);
        server.wait().await
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chaikhana echo: {e}");
            ExitCode::FAILURE
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
        .map(|s| s.strong_budget())
        .unwrap_or(games::strong::DEFAULT_BUDGET)
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
