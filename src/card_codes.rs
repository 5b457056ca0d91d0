//! The tests' search of a serialized view for card codes: the unit tests' checks of views and the
//! integration tests' checks of frames (`tests/it/support/leaks.rs`) look for hidden cards the same way.

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
