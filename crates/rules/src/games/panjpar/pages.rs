//! Panjpar's pages: its name, its home tile and its files in `web/` (landing page, rules page, the
//! same two in Persian, board module, board style, board words and the hooks the
//! shared modules call), served from its catalog entry.

use crate::game_pages::{GamePages, PersianTile, Tile, TileCards};
use crate::web_file;

pub static PAGES: GamePages = GamePages {
    title: "Panjpar",
    tile: Tile {
        about: "Five cards in hand, a trump called by guessing its colour, and attacks of single cards, pairs and two pairs. Empty your hand first once the pile is gone.",
        cards: TileCards::French("6S 6H QC"),
        shows: "An attack: a pair of sixes and the queen of clubs",
        persian: Some(PersianTile {
            name: "پنج‌پر",
            about: "پنج کارت در دست، حکمی که با حدس رنگش خوانده می‌شود، و حمله با یک کارت، یک جفت یا دو جفت. وقتی توده تمام شد، هر که زودتر دستش را خالی کند می‌برد.",
            shows: "یک حمله: جفت شش و بی‌بی گشنیز",
        }),
    },
    landing: web_file!("panjpar.html"),
    rules: web_file!("panjpar-rules.html"),
    more: &[
        ("/fa/panjpar", web_file!("fa-panjpar.html")),
        ("/fa/panjpar/rules", web_file!("fa-panjpar-rules.html")),
    ],
    worked_out: &[],
    files: &[
        web_file!("panjpar.js"),
        web_file!("panjpar.css"),
        web_file!("panjpar-words.js"),
        web_file!("panjpar-hooks.js"),
        web_file!("panjpar-guide.js"),
        web_file!("panjpar-zones.js"),
    ],
    ratings: Some(include_str!("ratings.json")),
};
