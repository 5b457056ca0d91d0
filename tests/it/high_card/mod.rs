//! A fourth game in one folder: High card (its rules in `rules.rs`, its pages and board in `web/`),
//! registered in the catalog as this test binary loads, before any server starts, and run through
//! every game's suites (`each_game`) like the three games of the site: its tables, the protocol's
//! refusals, replays, the leak checks, and its pages in Chromium (the catalog-driven page suites, such
//! as `browser_access`, find it too). Nothing outside this folder names it.

mod rules;

pub use rules::HighCard;

use chaikhana::catalog::{register, Entry, GamePages, Tile, TileCards};
use chaikhana_rules::web_file;

/// High card's pages and board, from `web/`, served by the site as any game's are.
static PAGES: GamePages = GamePages {
    title: "High card",
    tile: Tile {
        about: "The site's test game: three cards each, and the higher card takes the round.",
        cards: TileCards::French("AS KH 2C"),
        shows: "An ace, a king and a two",
        persian: None,
    },
    landing: web_file!("high-card.html"),
    rules: web_file!("high-card-rules.html"),
    more: &[],
    worked_out: &[],
    files: &[
        web_file!("high-card.js"),
        web_file!("high-card.css"),
        web_file!("high-card-hooks.js"),
    ],
    ratings: None,
};

/// The catalog's entry for High card.
static ENTRY: Entry<HighCard> = Entry::new(&PAGES);

/// Adds High card to the catalog, once, as a game built outside the crate joins the site. Every
/// test server calls it as it starts (`support::TestServer::start`), before the server lays out its
/// routes, pages and metrics from the catalog; every test that reads the catalog starts one first.
pub fn join_the_catalog() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| register(&ENTRY).expect("High card is registered once"));
}

crate::each_game::suites!((suites, crate::high_card::HighCard));

impl crate::support::leaks::Tested for HighCard {
    fn short() -> serde_json::Value {
        serde_json::Value::from(1)
    }

    fn several() -> (serde_json::Value, usize) {
        (serde_json::Value::from(3), 2)
    }

    /// A seat may know its own hand and every card played; a watcher, the cards played.
    fn leaks(
        history: &[rules::State],
        seat: chaikhana_rules::cards::Seat,
        frame: &serde_json::Value,
    ) -> Option<String> {
        let known: chaikhana_rules::cards::CardSet =
            history.last()?.visible_to(Some(seat)).into_iter().collect();
        let leaked = crate::support::leaks::cards_in_json(frame).minus(known);
        (!leaked.is_empty()).then(|| format!("shown {leaked:?}"))
    }
}
