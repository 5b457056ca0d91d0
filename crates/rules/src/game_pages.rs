//! What a game shows of itself on the site: its name, its tile on the home page and its own files
//! (landing page, rules page, board module, board style, board words, board hooks).
//!
//! The files live in the game's folder (`crates/rules/src/games/{game}/web/`) and come in with
//! `include_str!`, so a game, even one built outside this crate, brings its pages along with its
//! catalog entry and nothing under the server's `src/web/` names it. The server serves them at the
//! usual addresses: the templates at `/{game}` and `/{game}/rules` (in the shared layout), the other
//! files under `/static/`.
//!
//! These types are here, beside the games, rather than in the server's catalog, so that a game's
//! folder needs nothing of the server.

/// A game's presentation, held by its catalog entry (the server's `catalog::Registered::pages`).
#[derive(Debug)]
pub struct GamePages {
    /// Its name as the pages write it: "Pishe Pasha".
    pub title: &'static str,
    /// Its tile on the home page.
    pub tile: Tile,
    /// The landing page's template (`/{game}`), which extends `layout.html`.
    pub landing: WebFile,
    /// The rules page's template (`/{game}/rules`), which extends `rules-layout.html`.
    pub rules: WebFile,
    /// The game's other pages, if any: each its address and its template (Panjpar's Persian pages
    /// among them).
    pub more: &'static [(&'static str, WebFile)],
    /// What the game's pages fetch that the game works out (Ganjifa's staged deal), if any: each its
    /// name and the function that writes it as JSON. The server calls each once, keeps its text and
    /// serves it at `/api/{game}/{name}`.
    pub worked_out: &'static [(&'static str, WriteJson)],
    /// The files served under `/static/`: at least the board module `{game}.js` (loaded by the
    /// table page, exporting `createBoard` and `hooks`) and its style `{game}.css`.
    pub files: &'static [WebFile],
    /// The computer levels' ratings in this game as measured: the text of the file that
    /// `chaikhana simulate GAME --ratings --out FILE` wrote ([`MeasuredRatings`]), checked in beside
    /// the game's `pages.rs` as `ratings.json`; `None` for a game not rated. The landing page shows
    /// them beside each level ([`GamePages::ratings`]), and docs/games.md's table is pinned to them.
    pub ratings: Option<&'static str>,
}

/// A computer level's rating in a game, measured by self-play (`chaikhana simulate GAME --ratings`,
/// Bradley–Terry on the Elo scale with the standard computer at 1500), and half its 95% interval,
/// both rounded to a point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelRating {
    /// The level's name on the wire: "gentle", "standard", "clever" or "strong".
    pub level: String,
    pub rating: i32,
    pub margin: i32,
}

/// What `chaikhana simulate GAME --ratings --out FILE` writes: how the levels were rated and what
/// came of it. The one source of the ratings the site shows and docs/games.md lists.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeasuredRatings {
    /// The game's name in URLs: "pishe-pasha".
    pub game: String,
    /// The command that measured them, as it was typed after `chaikhana`.
    pub command: String,
    /// The strong computer's budget a decision: "200 ms of CPU" or "40 sampled deals".
    pub budget: String,
    /// Each level, gentlest first.
    pub levels: Vec<MeasuredLevel>,
    /// Each pair of levels that played.
    pub pairs: Vec<MeasuredPair>,
    /// How long the run took, from its start to its fit.
    pub wall_seconds: f64,
    /// The CPU time its players used (every thread's).
    pub cpu_seconds: f64,
}

/// One level's rating in a [`MeasuredRatings`]: Elo scale, the standard computer at 1500, with its
/// 95% interval (relative to the standard computer's, which has none).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeasuredLevel {
    pub level: String,
    pub rating: f64,
    pub low: f64,
    pub high: f64,
    /// The games (deals) it played, against every other level.
    pub games: u64,
}

/// One pair of levels in a [`MeasuredRatings`]: the games they played and the first's share of the
/// points.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeasuredPair {
    pub first: String,
    pub second: String,
    pub games: u64,
    pub first_share: f64,
}

impl MeasuredRatings {
    /// The file's text read back, or why it cannot be.
    pub fn read(text: &str) -> Result<MeasuredRatings, String> {
        serde_json::from_str(text).map_err(|e| format!("the ratings file cannot be read: {e}"))
    }

    /// The file's text: pretty JSON, ending with a newline.
    pub fn to_text(&self) -> String {
        serde_json::to_string_pretty(self).expect("ratings always serialize") + "\n"
    }

    /// Each level's rating and half its interval, rounded, as the pages show them.
    pub fn shown(&self) -> Vec<LevelRating> {
        self.levels
            .iter()
            .map(|level| LevelRating {
                level: level.level.clone(),
                rating: level.rating.round() as i32,
                margin: ((level.high - level.low) / 2.0).round() as i32,
            })
            .collect()
    }
}

/// The words and cards of a game's tile on the home page.
#[derive(Debug)]
pub struct Tile {
    /// One or two sentences saying what the game is.
    pub about: &'static str,
    /// The example cards drawn on the tile.
    pub cards: TileCards,
    /// What the example cards show, for those who do not see them.
    pub shows: &'static str,
    /// The same tile in Persian, on the Persian home page (`/fa`), when the game has Persian pages
    /// (`/fa/{game}`).
    pub persian: Option<PersianTile>,
}

/// A game's home tile in Persian: its name as Persian players write it, and the tile's words.
#[derive(Debug)]
pub struct PersianTile {
    pub name: &'static str,
    pub about: &'static str,
    pub shows: &'static str,
}

/// Example cards, as the page draws them.
#[derive(Debug)]
pub enum TileCards {
    /// French cards (cards.js), codes such as "6S 6H QC".
    French(&'static str),
    /// Round Ganjifa cards (gcards.js), codes such as "MSU WTA".
    Round(&'static str),
}

/// The file `web/{name}` beside the game's `pages.rs` (the path is read from the file that invokes
/// the macro), as a [`WebFile`] called `name`: `web_file!("panjpar.js")`.
#[macro_export]
macro_rules! web_file {
    ($name:literal) => {
        $crate::game_pages::WebFile {
            name: $name,
            text: include_str!(concat!("web/", $name)),
        }
    };
}

/// A function that writes what a game works out for its pages, as JSON.
pub type WriteJson = fn() -> String;

/// One file of a game's pages: its name (as served, and as templates name it) and its text.
#[derive(Debug, Clone, Copy)]
pub struct WebFile {
    pub name: &'static str,
    pub text: &'static str,
}

impl GamePages {
    /// Every page of the game: its address and its template, the landing page and rules first.
    pub fn pages(&self, game: &str) -> Vec<(String, &WebFile)> {
        let more = self
            .more
            .iter()
            .map(|(path, file)| (path.to_string(), file));
        [
            (format!("/{game}"), &self.landing),
            (format!("/{game}/rules"), &self.rules),
        ]
        .into_iter()
        .chain(more)
        .collect()
    }

    /// The game's template called `name`.
    pub fn template(&self, name: &str) -> Option<&WebFile> {
        let more = self.more.iter().map(|(_, file)| file);
        [&self.landing, &self.rules]
            .into_iter()
            .chain(more)
            .find(|file| file.name == name)
    }

    /// The computer levels' ratings as the landing page shows them, from the measured file (none
    /// when the game has no file, or a file that cannot be read, which a test rules out).
    pub fn ratings(&self) -> Vec<LevelRating> {
        let measured = self.ratings.map(MeasuredRatings::read);
        match measured {
            Some(Ok(measured)) => measured.shown(),
            Some(Err(message)) => {
                tracing::error!("{}: {message}", self.title);
                Vec::new()
            }
            None => Vec::new(),
        }
    }

    /// The file served as `/static/{name}`, if it is one of the game's.
    pub fn static_file(&self, name: &str) -> Option<&WebFile> {
        self.files.iter().find(|file| file.name == name)
    }
}
