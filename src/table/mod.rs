//! Tables: one actix actor per table owns its match, seats, tokens, computer players and timers.
//!
//! Everything outside a table (HTTP handlers, WebSocket sessions, the router) talks to it through a
//! [`TableHandle`]: a set of type-erased recipients, so nothing outside knows which game it plays.

mod actor;
mod frames;
mod messages;
mod seats;

pub use actor::{Table, TableConfig};
pub use messages::*;
pub use seats::{SeatTicket, TableKind};

use base64::Engine;
use rand::RngCore;
use serde::Serialize;

/// A secret of 128 random bits, written URL-safe (22 characters).
fn random_secret() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Whether `text` could be a secret this server made (22 URL-safe characters); cheap to check first.
pub fn looks_like_secret(text: &str) -> bool {
    text.len() == 22
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A table's id: 128 random bits; the link is `/t/{id}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct TableId(String);

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
#[derive(Clone, PartialEq, Eq, Serialize)]
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

    /// Compares without stopping at the first difference.
    pub fn matches(&self, other: &Token) -> bool {
        let (a, b) = (self.0.as_bytes(), other.0.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
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
        assert!(t.matches(&Token::from_client(t.as_str())));
        assert!(!t.matches(&Token::random()));
        assert_eq!(format!("{t:?}"), "Token(..)");
    }
}
