//! The composition root: the command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use chaikhana::games;
use chaikhana::sim::SimConfig;

#[derive(Parser)]
#[command(
    name = "chaikhana",
    version,
    about = "Panjpar, Pishe Pasha and Ganjifa: with friends through a link, or against the computer"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
    match cli.command {
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
