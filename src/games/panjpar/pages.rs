//! Panjpar's pages: its name, its home tile and its files in `web/` (landing page, rules page, board
//! module, board style, board words and the hooks the shared modules call), served from its catalog
//! entry.

use crate::game_pages::{GamePages, Tile, TileCards, WebFile};

pub static PAGES: GamePages = GamePages {
    title: "Panjpar",
    tile: Tile {
        about: "Five cards in hand, a trump called by guessing its colour, and attacks of single cards, pairs and two pairs. Empty your hand first once the pile is gone.",
        cards: TileCards::French("6S 6H QC"),
        shows: "An attack: a pair of sixes and the queen of clubs",
        persian: Some("به فارسی"),
    },
    landing: WebFile {
        name: "panjpar.html",
        text: include_str!("web/panjpar.html"),
    },
    rules: WebFile {
        name: "panjpar-rules.html",
        text: include_str!("web/panjpar-rules.html"),
    },
    more: &[],
    files: &[
        WebFile {
            name: "panjpar.js",
            text: include_str!("web/panjpar.js"),
        },
        WebFile {
            name: "panjpar.css",
            text: include_str!("web/panjpar.css"),
        },
        WebFile {
            name: "panjpar-words.js",
            text: include_str!("web/panjpar-words.js"),
        },
        WebFile {
            name: "panjpar-hooks.js",
            text: include_str!("web/panjpar-hooks.js"),
        },
    ],
};
