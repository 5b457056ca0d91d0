//! Pishe Pasha's pages: its name, its home tile and its files in `web/` (landing page, rules page, board
//! module, board style, board words and the hooks the shared modules call), served from its catalog
//! entry.

use crate::game_pages::{GamePages, LevelRating, Tile, TileCards};
use crate::web_file;

pub static PAGES: GamePages = GamePages {
    title: "Pishe Pasha",
    tile: Tile {
        about: "A race of patience for two: build the four suits up from the ace, and pass your spare cards onto the other player's pile.",
        cards: TileCards::French("AH 2H 3H 4H"),
        shows: "The hearts built up from the ace",
        persian: None,
    },
    landing: web_file!("pishe-pasha.html"),
    rules: web_file!("pishe-pasha-rules.html"),
    more: &[],
    files: &[
        web_file!("pishe-pasha.js"),
        web_file!("pishe-pasha.css"),
        web_file!("pishe-pasha-words.js"),
        web_file!("pishe-pasha-hooks.js"),
    ],
    ratings: &RATINGS,
};

/// The computer levels' ratings in this game, shown on its landing page (rating and half its 95%
/// interval, Elo scale, the standard computer at 1500), measured with
/// `chaikhana simulate pishe-pasha --ratings --deals 1000 --slow-deals 40 --budget-ms 20 --seed 1 --threads 2`
/// (the strong computer at 20 ms of CPU a decision, not the table's 200 ms: see docs/games.md,
/// "Computer levels and their ratings").
const RATINGS: [LevelRating; 4] = [
    LevelRating {
        level: "gentle",
        rating: 1217,
        margin: 19,
    },
    LevelRating {
        level: "standard",
        rating: 1500,
        margin: 0,
    },
    LevelRating {
        level: "clever",
        rating: 1846,
        margin: 21,
    },
    LevelRating {
        level: "strong",
        rating: 1842,
        margin: 63,
    },
];
