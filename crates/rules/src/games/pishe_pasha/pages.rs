//! Pishe Pasha's pages: its name, its home tile and its files in `web/` (landing page, rules page, board
//! module, board style, board words and the hooks the shared modules call), served from its catalog
//! entry.

use crate::game_pages::{GamePages, Tile, TileCards};
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
    frames: &[],
    worked_out: &[],
    files: &[
        web_file!("pishe-pasha.js"),
        web_file!("pishe-pasha.css"),
        web_file!("pishe-pasha-words.js"),
        web_file!("pishe-pasha-hooks.js"),
    ],
    ratings: Some(include_str!("ratings.json")),
};
