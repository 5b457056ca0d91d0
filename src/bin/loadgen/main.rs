//! `chaikhana-loadgen`: the benchmark tools, a binary apart from the server so that the server neither
//! links them nor their HTTP and WebSocket client (awc). `run` plays many friends tables against a
//! server (perhaps beside computer tables whose person answers at once), or holds idle connections,
//! and reports; `echo` serves the bare WebSocket echo that `run --game echo` times as the baseline;
//! `store-floor` times bare commits of the embedded store's file. How to measure with them:
//! tests/perf/README.md.

mod coach;
mod coach_report;
mod echo;
mod floor;
mod load;
mod report;
mod seat;

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use load::Outcome;

/// The same allocator as the server's, so that the client's own CPU and the echo baseline are measured
/// under the conditions the server runs in.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "chaikhana-loadgen",
    version,
    about = "Load for a chaikhana server over real WebSockets, and the echo server it is compared with"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays many friends tables over real WebSockets as fast as the server answers and reports
    /// throughput, round trips and errors. Start the server with high rate limits
    /// (CHAIKHANA_RATE_PER_SECOND, CHAIKHANA_RATE_BURST), or it refuses most frames.
    Run(Box<RunArgs>),
    /// A bare WebSocket echo server at /ws: the baseline `run --game echo` measures.
    Echo {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1:9001")]
        listen: String,
    },
    /// The embedded store's floor without a server: a bare loop of redb commits of a given size, with
    /// or without fsync, and their CPU.
    StoreFloor(floor::FloorArgs),
}

#[derive(clap::Args)]
struct RunArgs {
    /// The server's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Then the same load again against this server, and both results: for one node (--url) against
    /// across nodes (an `edge` node whose tables live on a `tables` node, through Redis).
    #[arg(long)]
    across: Option<String>,
    /// panjpar, pishe-pasha, ganjifa, or echo (then --url is a `chaikhana-loadgen echo` server).
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
    /// Beside the friends tables, this many computer tables, each with its one person answering at
    /// once, so that their computers play (and think) all the time; reported apart.
    #[arg(long, default_value_t = 0)]
    computer_tables: usize,
    /// The game of the computer tables.
    #[arg(long, default_value = "ganjifa")]
    computer_game: String,
    /// How well the computers play: standard or strong.
    #[arg(long, default_value = "strong")]
    computer_level: String,
    /// This many computer tables (standard level, the shortest match) whose person plays one deal to
    /// its end during the set-up; when play starts, every one asks the coach to analyse its deal at
    /// once, and each is timed until its analysis comes.
    #[arg(long, default_value_t = 0)]
    analyses: usize,
    /// The game of the deals to analyse.
    #[arg(long, default_value = "panjpar")]
    analyse_game: String,
    /// Seconds one analysis may take before it counts as an error.
    #[arg(long, default_value_t = 600)]
    analysis_timeout: u64,
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Run(args) => run(&args),
        Command::Echo { listen } => echo(&listen),
        Command::StoreFloor(args) => match floor::run(&args) {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("chaikhana-loadgen: {message}");
                ExitCode::from(2)
            }
        },
    }
}

fn run(args: &RunArgs) -> ExitCode {
    let Some(across) = &args.across else {
        return run_once(args, &args.url, "");
    };
    for (url, label) in [(&args.url, ", one node"), (across, ", across nodes")] {
        let code = run_once(args, url, label);
        if code != ExitCode::SUCCESS {
            return code;
        }
    }
    ExitCode::SUCCESS
}

/// One load run against `url`; `label` ends the report's title.
fn run_once(args: &RunArgs, url: &str, label: &str) -> ExitCode {
    let options = load::Options {
        url: url.to_string(),
        game: args.game.clone(),
        tables: args.tables,
        duration: Duration::from_secs(args.duration),
        server_pid: args.server_pid,
        idle: args.idle,
        threads: args.threads,
        seed: args.seed,
        computers: (args.computer_tables > 0).then(|| load::Computers {
            tables: args.computer_tables,
            game: args.computer_game.clone(),
            level: args.computer_level.clone(),
        }),
        analyses: (args.analyses > 0).then(|| coach::Analyses {
            tables: args.analyses,
            game: args.analyse_game.clone(),
            timeout: Duration::from_secs(args.analysis_timeout),
        }),
    };
    let outcome = match load::run(&options) {
        Ok(outcome) => outcome,
        Err(message) => {
            eprintln!("chaikhana-loadgen: {message}");
            return ExitCode::from(2);
        }
    };
    let (text, json, problem, rate_limited) = match outcome {
        Outcome::Play(report) => {
            let beside = options.computers.as_ref().map_or(String::new(), |c| {
                format!(
                    ", beside {} {} {} computer tables",
                    c.tables, c.level, c.game
                )
            });
            let analysed = options.analyses.as_ref().map_or(String::new(), |a| {
                format!(", {} {} deals analysed", a.tables, a.game)
            });
            let title = format!(
                "{}, {} tables{beside}{analysed}, {} s, {} threads{label}",
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
            "chaikhana-loadgen: the server rate-limited {rate_limited} frames: start it with higher \
             limits, for example CHAIKHANA_RATE_PER_SECOND=1000000 CHAIKHANA_RATE_BURST=1000000"
        );
    }
    if let Some(problem) = problem {
        eprintln!("chaikhana-loadgen: first error: {problem}");
    }
    if args.json {
        println!("{json}");
    } else {
        print!("{text}");
    }
    ExitCode::SUCCESS
}

fn echo(listen: &str) -> ExitCode {
    no_transparent_huge_pages();
    match actix_rt::System::new().block_on(echo::serve(listen)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chaikhana-loadgen echo: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The server turns transparent huge pages off for itself (see its `main`); the echo server does the
/// same, so that the resident memory `run --server-pid` reads of either is counted the same way.
fn no_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE only sets a flag of this process; no memory is touched.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
