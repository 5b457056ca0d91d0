//! A fourth game in one folder: High card (`rules.rs`), registered in the catalog as this test
//! binary loads, before any server starts, and run through every game's suites (`each_game`) like the
//! three games of the site. Nothing outside this folder names it.

mod rules;

pub use rules::HighCard;

use chaikhana::catalog::{register, Entry};

/// The catalog's entry for High card.
static ENTRY: Entry<HighCard> = Entry::new();

// Run as the binary loads, so that every server the suites start finds it in the catalog. It only
// takes the catalog's lock and pushes onto its list: nothing that needs `main` to have run.
#[ctor::ctor(unsafe)]
fn register_high_card() {
    register(&ENTRY).expect("High card is registered once");
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
        seat: chaikhana::cards::Seat,
        frame: &serde_json::Value,
    ) -> Option<String> {
        let known: chaikhana::cards::CardSet =
            history.last()?.visible_to(Some(seat)).into_iter().collect();
        let leaked = crate::support::leaks::cards_in_json(frame).minus(known);
        (!leaked.is_empty()).then(|| format!("shown {leaked:?}"))
    }
}
