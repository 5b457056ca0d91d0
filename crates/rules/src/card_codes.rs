//! The search of a serialized view for card codes: the unit tests' checks of views and the integration
//! tests' checks of frames (`tests/it/support/leaks.rs`) look for hidden cards the same way, and the
//! coach asks whether a seat saw a card it had not seen (`crate::coach::continuing`).

use std::collections::BTreeSet;
use std::str::FromStr;

use serde_json::Value;

/// Every card code of type `C` (a French card, a Ganjifa card) anywhere in `value`, each given to
/// `found` as it is met.
pub fn codes_in<C: FromStr>(value: &Value, found: &mut impl FnMut(C)) {
    match value {
        Value::String(text) => {
            if let Ok(card) = text.parse::<C>() {
                found(card);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| codes_in(v, found)),
        Value::Object(map) => map.values().for_each(|v| codes_in(v, found)),
        _ => {}
    }
}

/// Whether the serialized view `after` names a card (of either pack: French, Ganjifa) that `before`
/// does not: its seat saw something new.
pub fn shows_a_new_card(before: &Value, after: &Value) -> bool {
    new_in::<crate::cards::Card>(before, after)
        || new_in::<crate::games::ganjifa::pack::GCard>(before, after)
}

fn new_in<C: FromStr + Ord>(before: &Value, after: &Value) -> bool {
    let mut seen = BTreeSet::new();
    codes_in::<C>(before, &mut |card| {
        seen.insert(card);
    });
    let mut new = false;
    codes_in::<C>(after, &mut |card| new |= !seen.contains(&card));
    new
}
