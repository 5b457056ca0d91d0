//! The unit tests' search of a serialized view for card codes (the integration tests have their own
//! in `tests/it/support/leaks.rs`, since they cannot see this crate's tests' code).

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
