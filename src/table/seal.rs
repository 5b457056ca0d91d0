//! Verifiable deals: a table commits to each deal's shuffled order before anything is played, and shows
//! the order once the deal has ended, so that every seat can check the deal was not changed on the way.
//!
//! The commitment is the lowercase hex SHA-256 of the order's card codes joined by commas, then `|`,
//! then the salt (32 random hex digits drawn for that deal alone):
//!
//! ```
//! use chaikhana::game::{DealOrder, DealtTo};
//! use chaikhana::cards::Seat;
//! use chaikhana::table::commitment;
//! let order = DealOrder::new(&["QS", "2H"], |i| DealtTo::Seat(Seat::new(i)));
//! // The same as `printf 'QS,2H|00' | sha256sum`.
//! assert_eq!(
//!     commitment(&order, "00"),
//!     "c708de6e5bfa55d6fdac40f584040feb21dceb10d93e33d9df82e4ddc8b7dd00"
//! );
//! ```

use rand::RngCore;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::game::DealOrder;

/// The commitment to `order` with `salt`, in lowercase hex.
pub fn commitment(order: &DealOrder, salt: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(order.joined().as_bytes());
    hash.update(b"|");
    hash.update(salt.as_bytes());
    hex(&hash.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One deal's order, its salt and the commitment sent to every seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealSeal {
    commitment: String,
    order: DealOrder,
    salt: String,
}

/// A salt for one deal: 128 bits from the operating system, in hex.
pub fn fresh_salt() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex(&bytes)
}

impl DealSeal {
    /// Seals a deal's order under its salt (from [`fresh_salt`], or a snapshot's record of it).
    pub fn new(order: DealOrder, salt: String) -> DealSeal {
        DealSeal {
            commitment: commitment(&order, &salt),
            order,
            salt,
        }
    }

    /// What a frame carries: the commitment always, the order and salt only once `ended`.
    pub fn shown(&self, ended: bool) -> SealShown<'_> {
        SealShown {
            commitment: &self.commitment,
            reveal: ended.then_some(Reveal {
                order: &self.order,
                salt: &self.salt,
            }),
        }
    }
}

/// The `deal` field of a view frame.
#[derive(Serialize)]
pub struct SealShown<'a> {
    pub commitment: &'a str,
    /// Once the deal has ended: the order, where each card went, and the salt.
    pub reveal: Option<Reveal<'a>>,
}

#[derive(Serialize)]
pub struct Reveal<'a> {
    /// The order's `cards` (as `order`) and `to`.
    #[serde(flatten, serialize_with = "order_and_to")]
    pub order: &'a DealOrder,
    pub salt: &'a str,
}

/// Writes a deal order as the reveal's `order` (the codes) and `to` fields.
fn order_and_to<S: serde::Serializer>(
    order: &&DealOrder,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let codes: Vec<&str> = order.cards().collect();
    let mut map = serializer.serialize_map(Some(2))?;
    map.serialize_entry("order", &codes)?;
    map.serialize_entry("to", &order.to)?;
    map.end()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Seat;
    use crate::game::DealtTo;

    #[test]
    fn the_order_and_salt_are_shown_only_once_the_deal_has_ended() {
        let order = DealOrder::new(&["QS", "2H", "7C"], |i| DealtTo::Seat(Seat::new(i % 2)));
        let seal = DealSeal::new(order.clone(), fresh_salt());
        let playing = serde_json::to_value(seal.shown(false)).unwrap();
        assert_eq!(playing["reveal"], serde_json::Value::Null);
        assert!(!playing.to_string().contains(&seal.salt));
        assert!(!playing.to_string().contains("QS"));
        let ended = serde_json::to_value(seal.shown(true)).unwrap();
        assert_eq!(
            ended["reveal"]["order"],
            serde_json::json!(["QS", "2H", "7C"])
        );
        assert_eq!(ended["reveal"]["to"], serde_json::json!([0, 1, 0]));
        let salt = ended["reveal"]["salt"].as_str().unwrap();
        assert_eq!(salt.len(), 32);
        assert_eq!(ended["commitment"], commitment(&order, salt).as_str());
        assert_eq!(playing["commitment"], ended["commitment"]);
        // A fresh salt per deal: the same order never gives the same commitment twice.
        assert_ne!(
            DealSeal::new(order.clone(), fresh_salt()).commitment,
            seal.commitment
        );
        // Any change to the order changes the commitment.
        let swapped = DealOrder::new(&["2H", "QS", "7C"], |i| DealtTo::Seat(Seat::new(i % 2)));
        assert_ne!(commitment(&swapped, salt), seal.commitment);
    }
}
