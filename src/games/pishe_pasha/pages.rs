//! Pishe Pasha's pages: its name, its home tile and its files in `web/` (landing page, rules page, board
//! module, board style, board words and the hooks the shared modules call), served from its catalog
//! entry.

use crate::game_pages::{GamePages, Tile, TileCards, WebFile};

pub static PAGES: GamePages = GamePages {
    title: "Pishe Pasha",
    tile: Tile {
        about: "A race of patience for two: build the four suits up from the ace, and pass your spare cards onto the other player's pile.",
        cards: TileCards::French("AH 2H 3H 4H"),
        shows: "The hearts built up from the ace",
        persian: None,
    },
    landing: WebFile {
        name: "pishe-pasha.html",
        text: include_str!("web/pishe-pasha.html"),
    },
    rules: WebFile {
        name: "pishe-pasha-rules.html",
        text: include_str!("web/pishe-pasha-rules.html"),
    },
    more: &[],
    files: &[
        WebFile {
            name: "pishe-pasha.js",
            text: include_str!("web/pishe-pasha.js"),
        },
        WebFile {
            name: "pishe-pasha.css",
            text: include_str!("web/pishe-pasha.css"),
        },
        WebFile {
            name: "pishe-pasha-words.js",
            text: include_str!("web/pishe-pasha-words.js"),
        },
        WebFile {
            name: "pishe-pasha-hooks.js",
            text: include_str!("web/pishe-pasha-hooks.js"),
        },
    ],
};
