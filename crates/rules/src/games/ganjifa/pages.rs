//! Ganjifa's pages: its name, its home tile and its files in `web/` (landing page, rules page, the same
//! two in Persian, board module, board style, board words in English and Persian and
//! the hooks the shared modules call) and its staged deal (a page, its script and the deal it plays,
//! worked out once), served from its catalog entry.

use super::staged::{script, STAGED_SEED};
use crate::game_pages::{GamePages, PersianTile, Tile, TileCards};
use crate::web_file;

pub static PAGES: GamePages = GamePages {
    title: "Ganjifa",
    tile: Tile {
        about: "Three players, 96 round painted cards in eight suits, and a ladder that decides every lead. Win more than your third of the pack.",
        cards: TileCards::Round("MSU WTA 10CH 1BA"),
        shows: "Four of the round cards: a Mir, a Wazir and two number cards",
        persian: Some(PersianTile {
            name: "گنجفه",
            about: "سه بازیکن، ۹۶ کارت گرد نقاشی‌شده در هشت خال، و نردبانی که هر شروع را تعیین می‌کند. بیش از یک‌سوم دسته را ببرید.",
            shows: "چهار کارت گرد: یک شاه، یک وزیر و دو کارت عددی",
        }),
    },
    landing: web_file!("ganjifa.html"),
    rules: web_file!("ganjifa-rules.html"),
    more: &[
        ("/ganjifa/staged", web_file!("ganjifa-staged.html")),
        ("/fa/ganjifa", web_file!("fa-ganjifa.html")),
        ("/fa/ganjifa/rules", web_file!("fa-ganjifa-rules.html")),
    ],
    worked_out: &[("staged", staged_script)],
    files: &[
        web_file!("ganjifa.js"),
        web_file!("ganjifa.css"),
        web_file!("ganjifa-words.js"),
        web_file!("ganjifa-fa.js"),
        web_file!("ganjifa-hooks.js"),
        web_file!("ganjifa-guide.js"),
        web_file!("ganjifa-panels.js"),
        web_file!("staged.js"),
    ],
    ratings: Some(include_str!("ratings.json")),
};

/// The staged deal as the page plays it (`/api/ganjifa/staged`): its script of steps, worked out by
/// the rules core and three computer players.
fn staged_script() -> String {
    serde_json::to_string(&script(STAGED_SEED))
        .unwrap_or_else(|e| format!("{{\"steps\":[],\"error\":\"{e}\"}}"))
}
