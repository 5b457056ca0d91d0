//! What a game shows of itself on the site: its name, its tile on the home page and its own files
//! (landing page, rules page, board module, board style, board words, board hooks).
//!
//! The files live in the game's folder (`src/games/{game}/web/`) and come in with `include_str!`,
//! so a game, even one built outside this crate, brings its pages along with its catalog entry and
//! nothing under `src/web/` names it. The server serves them at the usual addresses: the templates
//! at `/{game}` and `/{game}/rules` (in the shared layout), the other files under `/static/`.
//!
//! These types are here rather than in the catalog, which names the games, so that a game's folder
//! uses them without the two modules importing each other.

/// A game's presentation, held by its catalog entry ([`crate::catalog::Registered::pages`]).
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
    /// The game's other pages, if any: each its address and its template.
    pub more: &'static [(&'static str, WebFile)],
    /// The files served under `/static/`: at least the board module `{game}.js` (loaded by the
    /// table page, exporting `createBoard` and `hooks`) and its style `{game}.css`.
    pub files: &'static [WebFile],
    /// The computer levels' ratings in this game, as the landing page shows them beside each level
    /// (a level not listed is shown without one).
    pub ratings: &'static [LevelRating],
}

/// A computer level's rating in a game, measured by self-play (`chaikhana simulate GAME --ratings`,
/// Bradley–Terry on the Elo scale with the standard computer at 1500), and half its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelRating {
    /// The level's name on the wire: "gentle", "standard", "clever" or "strong".
    pub level: &'static str,
    pub rating: i32,
    pub margin: i32,
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
    /// The link text to the game's Persian page (`/fa/{game}`), when it has one.
    pub persian: Option<&'static str>,
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

    /// The file served as `/static/{name}`, if it is one of the game's.
    pub fn static_file(&self, name: &str) -> Option<&WebFile> {
        self.files.iter().find(|file| file.name == name)
    }
}
