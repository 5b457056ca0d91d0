//! Pishe Pasha's pages: its name, its home tile and its files in `web/` (landing page, rules page, the
//! same two in Persian, board module, board style, board words, guided deal, where its cards travel and the
//! hooks the shared modules call), served from its catalog entry.

use crate::game_pages::{GamePages, PersianTile, Tile, TileCards};
use crate::web_file;

pub static PAGES: GamePages = GamePages {
    title: "Pishe Pasha",
    tile: Tile {
        about: "A race of patience for two: build the four suits up from the ace, and pass your spare cards onto the other player's pile.",
        cards: TileCards::French("AH 2H 3H 4H"),
        shows: "The hearts built up from the ace",
        persian: Some(PersianTile {
            name: "پیشه پاشا",
            about: "مسابقهٔ صبر برای دو نفر: چهار خال را از آس به بالا بچینید و کارت‌های اضافه‌تان را روی تودهٔ حریف بگذارید.",
            shows: "دل‌ها از آس به بالا چیده شده",
        }),
    },
    landing: web_file!("pishe-pasha.html"),
    rules: web_file!("pishe-pasha-rules.html"),
    more: &[
        ("/fa/pishe-pasha", web_file!("fa-pishe-pasha.html")),
        ("/fa/pishe-pasha/rules", web_file!("fa-pishe-pasha-rules.html")),
    ],
    worked_out: &[],
    files: &[
        web_file!("pishe-pasha.js"),
        web_file!("pishe-pasha.css"),
        web_file!("pishe-pasha-words.js"),
        web_file!("pishe-pasha-hooks.js"),
        web_file!("pishe-pasha-guide.js"),
        web_file!("pishe-pasha-travel.js"),
    ],
    ratings: Some(include_str!("ratings.json")),
};
