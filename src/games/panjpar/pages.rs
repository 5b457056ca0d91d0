//! Panjpar's pages: its name, its home tile and its files in `web/` (landing page, rules page, board
//! module, board style, board words and the hooks the shared modules call), served from its catalog
//! entry.

use crate::game_pages::{GamePages, LevelRating, Tile, TileCards};
use crate::web_file;

pub static PAGES: GamePages = GamePages {
    title: "Panjpar",
    tile: Tile {
        about: "Five cards in hand, a trump called by guessing its colour, and attacks of single cards, pairs and two pairs. Empty your hand first once the pile is gone.",
        cards: TileCards::French("6S 6H QC"),
        shows: "An attack: a pair of sixes and the queen of clubs",
        persian: Some("به فارسی"),
    },
    landing: web_file!("panjpar.html"),
    rules: web_file!("panjpar-rules.html"),
    more: &[],
    files: &[
        web_file!("panjpar.js"),
        web_file!("panjpar.css"),
        web_file!("panjpar-words.js"),
        web_file!("panjpar-hooks.js"),
        web_file!("panjpar-guide.js"),
        web_file!("panjpar-zones.js"),
    ],
    ratings: &RATINGS,
};

/// The computer levels' ratings in this game, shown on its landing page (rating and half its 95%
/// interval, Elo scale, the standard computer at 1500), measured with
/// `chaikhana simulate panjpar --ratings --deals 400 --slow-deals 40 --budget-ms 20 --seed 1 --threads 2`
/// (the strong computer at 20 ms of CPU a decision, not the table's 200 ms: see docs/games.md,
/// "Computer levels and their ratings").
const RATINGS: [LevelRating; 4] = [
    LevelRating {
        level: "gentle",
        rating: 1271,
        margin: 25,
    },
    LevelRating {
        level: "standard",
        rating: 1500,
        margin: 0,
    },
    LevelRating {
        level: "clever",
        rating: 1646,
        margin: 23,
    },
    LevelRating {
        level: "strong",
        rating: 1818,
        margin: 65,
    },
];
