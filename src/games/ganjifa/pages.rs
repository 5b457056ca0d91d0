//! Ganjifa's pages: its name, its home tile and its files in `web/` (landing page, rules page, board
//! module, board style, board words and the hooks the shared modules call) and its staged deal (a
//! page and its script), served from its catalog entry.

use crate::game_pages::{GamePages, Tile, TileCards, WebFile};

pub static PAGES: GamePages = GamePages {
    title: "Ganjifa",
    tile: Tile {
        about: "Three players, 96 round painted cards in eight suits, and a ladder that decides every lead. Win more than your third of the pack.",
        cards: TileCards::Round("MSU WTA 10CH 1BA"),
        shows: "Four of the round cards: a Mir, a Wazir and two number cards",
        persian: None,
    },
    landing: WebFile {
        name: "ganjifa.html",
        text: include_str!("web/ganjifa.html"),
    },
    rules: WebFile {
        name: "ganjifa-rules.html",
        text: include_str!("web/ganjifa-rules.html"),
    },
    more: &[(
        "/ganjifa/staged",
        WebFile {
            name: "ganjifa-staged.html",
            text: include_str!("web/ganjifa-staged.html"),
        },
    )],
    files: &[
        WebFile {
            name: "ganjifa.js",
            text: include_str!("web/ganjifa.js"),
        },
        WebFile {
            name: "ganjifa.css",
            text: include_str!("web/ganjifa.css"),
        },
        WebFile {
            name: "ganjifa-words.js",
            text: include_str!("web/ganjifa-words.js"),
        },
        WebFile {
            name: "ganjifa-hooks.js",
            text: include_str!("web/ganjifa-hooks.js"),
        },
        WebFile {
            name: "staged.js",
            text: include_str!("web/staged.js"),
        },
    ],
};
