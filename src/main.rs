//! The composition root: the command line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use chaikhana::games;
use chaikhana::settings::Settings;
use chaikhana::sim::SimConfig;

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
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(cli.config.as_deref()),
        Command::Simulate {
            game,
            deals,
            seed,
            bots,
            json,
            trace,
        } => {
            let config = SimConfig {
                deals,
                seed,
                bots,
                trace,
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
