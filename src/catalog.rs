//! The catalog: every game, registered once. The server's pages and table requests, the metrics,
//! snapshots read back from Redis, `simulate` and the load generator all find a game here, so adding
//! a game is its folder under `src/games/` plus one line in [`GAMES`].
//!
//! An entry is the game's rules core seen through an object-safe trait ([`Registered`]), so the list
//! can hold games of different types and the code that uses it stays free of per-game `match`es.

use std::marker::PhantomData;
use std::sync::{PoisonError, RwLock};

use actix::Actor;
use serde_json::Value;

use crate::table::{
    Clock, FairCost, Listing, OpenTable, Snapshot, Table, TableConfig, TableCore, TableHandle,
    TableId, TablePolicy, TableRefusal, TokenHash,
};
use chaikhana_rules::game::Game;
pub use chaikhana_rules::game_pages::{
    GamePages, LevelRating, MeasuredLevel, MeasuredPair, MeasuredRatings, Tile, TileCards, WebFile,
};
use chaikhana_rules::matches::MatchLength;
use chaikhana_rules::sim::ratings::{RatingConfig, RatingReport};
use chaikhana_rules::sim::{simulate, SimConfig, SimReport};

/// Hands the site's games to the macro `$then`, as `(folder under src/games, rules core type)` pairs in the
/// order the site lists them: the one list of the games built into the crate. [`GAMES`] is made from
/// it, and so is every per-game test suite (`chaikhana::every_game!(suite)`), so a game added here is
/// served and tested with nothing else to list.
#[macro_export]
macro_rules! every_game {
    ($then:ident) => {
        $then! {
            (panjpar, ::chaikhana_rules::games::panjpar::Panjpar),
            (pishe_pasha, ::chaikhana_rules::games::pishe_pasha::PishePasha),
            (ganjifa, ::chaikhana_rules::games::ganjifa::Ganjifa),
        }
    };
}

/// The catalog's entries of the games `every_game!` hands it.
macro_rules! entries {
    ($(($module:ident, $game:ty)),* $(,)?) => {
        &[$(&Entry::<$game>::new(&chaikhana_rules::games::$module::PAGES)),*]
    };
}

/// Every game built into the site, in the order the site lists them.
pub static GAMES: &[&dyn Registered] = every_game!(entries);

/// Games registered while the process runs, after [`GAMES`]: a game built outside this crate (the
/// integration tests' own small game) joins the site through [`register`] before the server starts.
static REGISTERED: RwLock<Vec<&'static dyn Registered>> = RwLock::new(Vec::new());

/// Adds `game` to the catalog, after the games already there; a second registration of a name is
/// refused, so a name always finds one game. Register before starting a server: its routes, pages
/// and metrics are laid out from the catalog as it starts.
pub fn register(game: &'static dyn Registered) -> Result<(), String> {
    let mut registered = REGISTERED.write().unwrap_or_else(PoisonError::into_inner);
    if all_of(&registered).any(|known| known.name() == game.name()) {
        return Err(format!(
            "A game called \"{}\" is already in the catalog.",
            game.name()
        ));
    }
    registered.push(game);
    Ok(())
}

/// Every game of the catalog, in the order the site lists them.
pub fn games() -> Vec<&'static dyn Registered> {
    let registered = REGISTERED.read().unwrap_or_else(PoisonError::into_inner);
    all_of(&registered).collect()
}

fn all_of<'a>(
    registered: &'a [&'static dyn Registered],
) -> impl Iterator<Item = &'static dyn Registered> + 'a {
    GAMES.iter().chain(registered).copied()
}

/// A game as the rest of the site uses it, whatever its rules core's types.
pub trait Registered: Send + Sync {
    /// Its name in URLs, snapshots, metrics and on the command line.
    fn name(&self) -> &'static str;

    /// How many seats its table has.
    fn seats(&self) -> usize;

    /// Its name, home tile and files as the site shows them.
    fn pages(&self) -> &'static GamePages;

    /// The match a table request's `length` asks for (absent: the game's usual match).
    fn match_length(&self, asked: Option<&Value>) -> Result<MatchLength, String>;

    /// The shortest match a table request may ask for, as its `length` ([`Game::shortest_length`]).
    fn shortest_length(&self) -> Value;

    /// Self-play between computers.
    fn simulate(&self, config: &SimConfig) -> Result<SimReport, String>;

    /// The ratings of the computer levels by self-play (`simulate --ratings`).
    fn rate(&self, config: &RatingConfig) -> Result<RatingReport, String>;

    /// The mean cost of `deals` fair deals: commit, deal and reveals (`chaikhana fair-cost`).
    fn fair_cost(&self, deals: u32) -> FairCost;

    /// Opens the table `request` asks for, with its creator in seat 1 (holding the token with hash
    /// `request.creator`), and starts its actor; answers its handle and its first snapshot. The
    /// request's `level` says how well the computers play at a computer table; its `game` is this one.
    fn open(
        &self,
        request: &OpenTable,
        config: TableConfig,
    ) -> Result<(TableHandle, Snapshot), String>;

    /// The "Your games" listing of the table stored as `snapshot` (last changed at `touched`, Unix
    /// ms) for the seat holding the token of hash `key`; the table is rebuilt for it, under `policy`,
    /// without an actor.
    fn listing(
        &self,
        id: TableId,
        snapshot: Snapshot,
        key: &TokenHash,
        touched: u64,
        policy: TablePolicy,
    ) -> Result<Listing, TableRefusal>;

    /// Rebuilds a table from its snapshot (on the node taking it over) and starts its actor.
    fn rebuild(
        &self,
        id: TableId,
        snapshot: Snapshot,
        config: TableConfig,
    ) -> Result<TableHandle, String>;
}

/// The game called `name`.
pub fn find(name: &str) -> Result<&'static dyn Registered, String> {
    games()
        .into_iter()
        .find(|game| game.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = names().collect();
            format!(
                "There is no game called \"{name}\"; the games are {}.",
                names.join(", ")
            )
        })
}

/// Every game's name.
pub fn names() -> impl Iterator<Item = &'static str> {
    games().into_iter().map(|game| game.name())
}

/// The entry of the rules core `G` with its pages: `&Entry::<G>::new(&game::PAGES)` is the game's
/// line in [`GAMES`].
pub struct Entry<G> {
    pages: &'static GamePages,
    game: PhantomData<fn() -> G>,
}

impl<G> Entry<G> {
    pub const fn new(pages: &'static GamePages) -> Entry<G> {
        Entry {
            pages,
            game: PhantomData,
        }
    }
}

impl<G: Game> Registered for Entry<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn seats(&self) -> usize {
        G::SEATS
    }

    fn pages(&self) -> &'static GamePages {
        self.pages
    }

    fn match_length(&self, asked: Option<&Value>) -> Result<MatchLength, String> {
        let Some(asked) = asked else {
            return Ok(G::Length::default().into());
        };
        // The game's own words say which lengths there are; serde's would name Rust types.
        serde_json::from_value::<G::Length>(asked.clone())
            .map(Into::into)
            .map_err(|_| G::LENGTHS.to_string())
    }

    fn shortest_length(&self) -> Value {
        G::shortest_length()
    }

    fn simulate(&self, config: &SimConfig) -> Result<SimReport, String> {
        simulate::<G>(config)
    }

    fn rate(&self, config: &RatingConfig) -> Result<RatingReport, String> {
        chaikhana_rules::sim::ratings::rate::<G>(config)
    }

    fn fair_cost(&self, deals: u32) -> FairCost {
        crate::table::fair_cost::<G>(deals)
    }

    fn open(
        &self,
        request: &OpenTable,
        config: TableConfig,
    ) -> Result<(TableHandle, Snapshot), String> {
        let (kind, level, length) = (request.kind, request.level, request.length);
        let id = TableId::random();
        let table = Table::<G>::new(id, kind, length, level, request.creator.clone(), config)
            .ok_or_else(|| format!("{} has no computer player", G::NAME))?
            .offering_hints(request.hints)
            .guided(request.guided);
        let snapshot = table.snapshot();
        Ok((start(table), snapshot))
    }

    fn rebuild(
        &self,
        id: TableId,
        snapshot: Snapshot,
        config: TableConfig,
    ) -> Result<TableHandle, String> {
        Ok(start(Table::<G>::rebuild(id, snapshot, config)?))
    }

    fn listing(
        &self,
        id: TableId,
        snapshot: Snapshot,
        key: &TokenHash,
        touched: u64,
        policy: TablePolicy,
    ) -> Result<Listing, TableRefusal> {
        let clock = Clock {
            at: std::time::Instant::now(),
            unix_ms: touched,
        };
        let table =
            TableCore::<G>::rebuild(id, snapshot, policy, false, clock, crate::table::entropy())
                .map_err(|e| {
                    tracing::error!("a stored table cannot be rebuilt to be listed: {e}");
                    TableRefusal::unavailable()
                })?;
        table.listing(key, touched)
    }
}

fn start<G: Game>(table: Table<G>) -> TableHandle {
    let id = table.id().clone();
    let addr = table.start();
    // A table is started on an arbiter's thread (an HTTP worker's, or a node's own), and its
    // sockets follow it there.
    TableHandle::new(id, G::NAME, &addr).at_home(addr.recipient(), actix::Arbiter::try_current())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaikhana_rules::game::Budget;

    /// What the site keeps per game comes from the catalog: a game registered there has its metrics,
    /// its pages, its board and its self-play, with nothing else to edit.
    #[test]
    fn every_per_game_list_follows_the_catalog() {
        let pages = crate::server::pages::pages();
        for game in GAMES {
            let name = game.name();
            assert_eq!(find(name).map(|g| g.name()), Ok(name));
            assert!((2..=3).contains(&game.seats()), "{name}");
            assert_eq!(crate::metrics::metrics().game(name).game, name);
            let own = game.pages();
            assert!(
                !own.title.is_empty() && !own.tile.about.is_empty(),
                "{name}"
            );
            for (path, file) in [
                (format!("/{name}"), own.landing.name),
                (format!("/{name}/rules"), own.rules.name),
            ] {
                assert!(pages.contains(&(path, file.to_string())), "{name}: {file}");
                let page = crate::server::pages::render(file).unwrap();
                assert!(page.contains(own.title), "{name}: {file}");
            }
            let board = own.static_file(&format!("{name}.js"));
            assert!(
                board.is_some_and(|board| board.text.contains("hooks")),
                "{name}"
            );
            assert!(own.static_file(&format!("{name}.css")).is_some(), "{name}");
            assert!(game.match_length(None).is_ok(), "{name}");
            let wrong = game.match_length(Some(&Value::from("forever")));
            assert!(wrong.is_err_and(|words| !words.is_empty()), "{name}");
            let config = SimConfig {
                deals: 1,
                seed: 7,
                bots: vec!["computer".to_string(); game.seats()],
                trace: None,
                budget: Budget::Samples(1),
            };
            let report = game.simulate(&config).unwrap();
            assert_eq!((report.game, report.deals), (name, 1));
        }
        let mut names: Vec<&str> = names().collect();
        names.dedup();
        assert_eq!(names.len(), GAMES.len(), "one entry per game");
        assert!(find("chess").is_err_and(|words| words.contains("panjpar")));
    }

    /// Each game's landing page shows the ratings of its checked-in ratings file, and docs/games.md's
    /// table of them (under "Computer levels and their ratings") says the same, with the command
    /// that measured them: one measured file is the source of both.
    #[test]
    fn every_game_shows_the_ratings_of_its_measured_file() {
        let docs = include_str!("../docs/games.md");
        for game in GAMES {
            let name = game.name();
            let own = game.pages();
            let file = own.ratings.map(MeasuredRatings::read);
            let file = file.unwrap_or_else(|| panic!("{name} has no ratings file"));
            let measured = file.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(measured.game, name);
            let levels: Vec<&str> = measured.levels.iter().map(|l| l.level.as_str()).collect();
            assert_eq!(levels, ["gentle", "standard", "clever", "strong"], "{name}");

            let page = crate::server::pages::render(own.landing.name).unwrap();
            for shown in own.ratings() {
                let words = if shown.level == "standard" {
                    format!("(rating {}, the reference)", shown.rating)
                } else {
                    format!("(rating {} ± {})", shown.rating, shown.margin)
                };
                assert!(page.contains(&words), "{name}: {words} not on its page");
            }

            let table = format!("| {} | rating | 95% interval | games |", own.title);
            let at = docs.find(&table);
            let at = at.unwrap_or_else(|| panic!("docs/games.md has no table {table}"));
            let rows: Vec<&str> = docs[at..].lines().skip(2).take(levels.len()).collect();
            for (row, level) in rows.iter().zip(&measured.levels) {
                let interval = if level.level == "standard" {
                    "(the reference)".to_string()
                } else {
                    format!("{:.0}–{:.0}", level.low, level.high)
                };
                let expected = format!(
                    "| {} | {:.0} | {interval} | {} |",
                    level.level,
                    level.rating,
                    thousands(level.games)
                );
                assert_eq!(
                    *row, expected,
                    "{name}: docs/games.md against its ratings file"
                );
            }
            let command = format!("chaikhana {}", measured.command);
            assert!(
                docs.contains(&command),
                "docs/games.md does not give the command {command}"
            );
        }
    }

    /// `n` with a comma between thousands, as the docs write counts: 4,080.
    fn thousands(n: u64) -> String {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(digit);
        }
        out
    }

    #[test]
    fn each_game_reads_its_own_lengths() {
        let asked = |game: &str, length: Value| find(game).unwrap().match_length(Some(&length));
        assert_eq!(
            asked("panjpar", Value::from(5)),
            Ok(MatchLength::DealsWon(5))
        );
        assert_eq!(
            asked("pishe-pasha", Value::from("one-deal")),
            Ok(MatchLength::Deals(1))
        );
        assert_eq!(
            asked("pishe-pasha", Value::from(100)),
            Ok(MatchLength::Points(100))
        );
        assert_eq!(asked("ganjifa", Value::from(6)), Ok(MatchLength::Deals(6)));
        assert!(asked("panjpar", Value::from(2)).is_err());
        assert!(asked("ganjifa", Value::from(4)).is_err());
        let defaults: Vec<MatchLength> = GAMES
            .iter()
            .map(|game| game.match_length(None).unwrap())
            .collect();
        assert_eq!(
            defaults,
            [
                MatchLength::DealsWon(3),
                MatchLength::Points(50),
                MatchLength::Deals(3)
            ]
        );
        let shortest: Vec<MatchLength> = GAMES
            .iter()
            .map(|game| game.match_length(Some(&game.shortest_length())).unwrap())
            .collect();
        assert_eq!(
            shortest,
            [
                MatchLength::DealsWon(1),
                MatchLength::Deals(1),
                MatchLength::Deals(3)
            ]
        );
    }
}
