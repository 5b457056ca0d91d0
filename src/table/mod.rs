//! Tables: one actix actor per table owns its match, seats, tokens, computer players and timers. Its
//! decisions are made by a synchronous [`TableCore`] (events in, effects out); the actor only carries
//! the effects out.
//!
//! Everything outside a table (HTTP handlers, WebSocket sessions, the router) talks to it through a
//! [`TableHandle`]: a set of type-erased recipients, so nothing outside knows which game it plays.

mod actor;
pub(crate) mod core;
mod deal_record;
mod fair_cost;
mod frames;
mod messages;
pub mod mix;
mod open;
mod present;
#[cfg(test)]
mod purity;
mod refusal;
mod seal;
mod seats;
mod shuffle;
mod snapshot;
mod watch;

pub use self::core::{
    clean_name, Change, Clock, Closing, ConnId, Count, Effect, Expiry, Gone, Listing, OnClosed,
    StoreAnswer, Study, TableConfig, TableCore, TablePolicy, TableStore, Timer,
};
pub use actor::Table;
pub use deal_record::{Coaching, DealRecord};
pub use fair_cost::{fair_cost, FairCost};
pub use messages::*;
pub use open::OpenTable;
pub use refusal::{ErrorCode, RefusalCode, TableRefusal};
pub use seal::{deal_fair, Committed, DealSeal, FairRecord, RevealTo};
pub use seats::{Level, SeatTicket, TableKind};
pub use shuffle::{pledge_of, Refused as ShuffleRefused, Shuffle};
pub use snapshot::{RecordError, SeatRecord, Snapshot};
pub use watch::WatchKey;

use base64::Engine;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A secret of 128 random bits, written URL-safe (22 characters).
fn random_secret() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// 256 bits from the operating system's generator, to seed a table's own (see `TableCore::new`).
pub fn entropy() -> [u8; 32] {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes
}

/// A moment for a test's table to start at: the core's tests read the clock here, outside the core.
#[cfg(test)]
pub(crate) fn test_moment() -> std::time::Instant {
    std::time::Instant::now()
}

/// Whether `text` could be a secret this server made (22 URL-safe characters); cheap to check first.
pub fn looks_like_secret(text: &str) -> bool {
    text.len() == 22
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A table's id: 128 random bits; the link is `/t/{id}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TableId(#[serde(deserialize_with = "secret_text")] String);

/// Reads a table id, refusing any text without the shape of one.
fn secret_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    if looks_like_secret(&text) {
        Ok(text)
    } else {
        Err(serde::de::Error::custom("not a table id"))
    }
}

impl TableId {
    pub fn random() -> TableId {
        TableId(random_secret())
    }

    /// The id written in a link, if it has the shape of one.
    pub fn parse(text: &str) -> Option<TableId> {
        looks_like_secret(text).then(|| TableId(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The table's page.
    pub fn link(&self) -> String {
        format!("/t/{}", self.0)
    }
}

impl std::fmt::Display for TableId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A seat token: 128 random bits, needed to act for a seat. Never logged.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Token(String);

impl Token {
    pub fn random() -> Token {
        Token(random_secret())
    }

    pub fn from_client(text: &str) -> Token {
        Token(text.to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The token's hash: what a table keeps and compares.
    pub fn hash(&self) -> TokenHash {
        TokenHash(Sha256::digest(self.0.as_bytes()).into())
    }
}

/// The SHA-256 of a seat token. A table keeps only this, snapshots store only this, and nodes pass
/// only this to each other: a token in clear lives in its browser alone.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenHash(#[serde(with = "hash_text")] [u8; 32]);

impl TokenHash {
    /// Compares without stopping at the first difference.
    pub fn matches(&self, other: &TokenHash) -> bool {
        self.0
            .iter()
            .zip(&other.0)
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
    }
}

impl std::fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenHash(..)")
    }
}

/// A hash written as URL-safe base64, in snapshots and between nodes.
mod hash_text {
    use base64::Engine;
    use serde::{Deserialize, Deserializer, Serializer};

    const TEXT: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

    pub fn serialize<S: Serializer>(hash: &[u8; 32], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&TEXT.encode(hash))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
        let text = String::deserialize(d)?;
        let bytes = TEXT.decode(text).map_err(serde::de::Error::custom)?;
        bytes
            .try_into()
            .map_err(|_| serde::de::Error::custom("a token hash has 32 bytes"))
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_are_22_url_safe_characters_and_differ() {
        let a = TableId::random();
        let b = TableId::random();
        assert_ne!(a, b);
        assert!(looks_like_secret(a.as_str()));
        assert_eq!(TableId::parse(a.as_str()), Some(a.clone()));
        assert_eq!(TableId::parse("../etc/passwd"), None);
        assert_eq!(a.link(), format!("/t/{a}"));
        let t = Token::random();
        assert!(t.hash().matches(&Token::from_client(t.as_str()).hash()));
        assert!(!t.hash().matches(&Token::random().hash()));
        assert_eq!(format!("{t:?}"), "Token(..)");
        let text = serde_json::to_string(&t.hash()).unwrap();
        assert!(!text.contains(t.as_str()));
        let back: TokenHash = serde_json::from_str(&text).unwrap();
        assert!(back.matches(&t.hash()));
        assert!(serde_json::from_str::<TokenHash>("\"c2hvcnQ\"").is_err());
    }
}
