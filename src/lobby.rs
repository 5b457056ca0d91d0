//! Where strangers meet: the quick pairing's queues (one per game and match length) and the list of
//! open tables. The lobby only keeps who waits and what is listed; the tables it leads to are friends
//! tables, opened and joined through the router like any other (`server::pairing`).
//!
//! A visitor's page enters a queue and gets a ticket (a secret, as a seat token is), then stands in
//! the queue by asking with it every half second. A ticket not asked about for `gone_after` has left:
//! it is never paired. When enough live tickets wait in one queue, the oldest of them are taken out
//! together as a *formation*; the node that took them opens the table, seats them, and gives each ticket
//! its place (table, seat) in one step that succeeds only if every one of them is still there. A
//! formation not seated within [`FORMING_LIMIT`] (its node died, say) goes back to waiting, its waits
//! unchanged; its table, if one was opened, is never joined and goes as unjoined friends tables go.
//!
//! Alone, the lobby is in this process ([`Hall`]); with Redis it is in Redis (`routing::redis`), so
//! that visitors on different nodes meet and a node's death loses no one. Either way the lobby keeps
//! no secret in clear: a ticket is kept under its [`ticket_name`], a hash, and the seat it will hold
//! under the hash of its [`seat_token`], which only the ticket's holder can work out (as a table
//! keeps only its seats' token hashes).

mod hall;
#[cfg(test)]
mod tests;

pub use hall::Hall;

use std::time::Duration;

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

use crate::table::{TableRefusal, Token, TokenHash};
use chaikhana_rules::game::MatchLength;

/// How long a formation may take to be seated before its tickets wait again.
pub const FORMING_LIMIT: Duration = Duration::from_secs(10);

/// How long a seated ticket's place is kept for its page to read.
pub const PLACE_KEPT: Duration = Duration::from_secs(60);

/// Most entries a queue is read to when it is paired (the oldest first).
pub const QUEUE_READ: usize = 100;

/// Open tables a game's list shows at most (the longest waiting first).
pub const LISTED_AT_MOST: usize = 50;

/// Open tables one client address may have listed at once.
pub const LISTED_PER_ADDRESS: usize = 3;

/// A visitor entering a queue.
#[derive(Clone, Debug)]
pub struct Entering {
    pub game: &'static str,
    pub length: MatchLength,
    /// How many make a table of this game.
    pub needed: usize,
    /// The browser's own random id: one entry per browser, a new one replacing the old.
    pub browser: String,
    /// The hash of the seat token the ticket is to hold ([`seat_token`]).
    pub key: TokenHash,
}

/// Where a ticket stands after it was asked about.
#[derive(Clone, Debug, PartialEq)]
pub enum Standing {
    /// Waiting with `waiting` live tickets in its queue (itself included) since `since` (Unix ms).
    Waiting { waiting: usize, since: u64 },
    /// Taken out with others; being seated.
    Forming,
    /// At a table.
    Seated(Place),
    /// Not in any queue: it left, went unasked too long, or never was.
    Gone,
}

/// Tickets taken out of a queue together, to be seated at one new table: the caller's to seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Formation {
    pub id: String,
    pub game: String,
    pub length: MatchLength,
    /// The tickets, the longest waiting first; each waited since the matching `since` (Unix ms).
    pub tickets: Vec<String>,
    pub since: Vec<u64>,
    /// The hash of each one's seat token.
    pub keys: Vec<TokenHash>,
    /// How many are left waiting in the queue.
    pub left: usize,
}

/// What asking about a ticket found: where it stands, a formation for the caller to seat if the ask
/// made one, the queue it looked at (game and length) and how many tickets it found gone from it
/// (they left by going away).
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    pub standing: Standing,
    pub formed: Option<Formation>,
    pub queue: Option<(String, MatchLength)>,
    pub dropped: usize,
}

impl Asked {
    /// An answer that looked at no queue.
    pub fn only(standing: Standing) -> Asked {
        Asked {
            standing,
            formed: None,
            queue: None,
            dropped: 0,
        }
    }
}

/// A seated ticket's place: the table and the seat (whose token its holder works out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub table: String,
    pub seat: usize,
}

/// An open table as its game's list shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Listing {
    pub table: String,
    pub game: String,
    pub length: MatchLength,
    pub seats: usize,
    /// Seats taken so far.
    pub taken: usize,
    /// The name the host gave, if any (cleaned as a seat's name is).
    pub name: Option<String>,
    /// When the table was listed (Unix ms).
    pub since: u64,
}

/// The queues and the list, wherever they are kept. Times are Unix ms, given by the caller.
pub trait Lobby: Send + Sync + 'static {
    /// Enters a queue under a new `ticket` (the browser's earlier entry, if any, leaves), then pairs it.
    fn enter<'a>(
        &'a self,
        ticket: &'a str,
        entering: &'a Entering,
        now: u64,
    ) -> BoxFuture<'a, Result<Asked, TableRefusal>>;
    /// Where `ticket` stands: it counts as still there, and is paired if it can be.
    fn ask<'a>(&'a self, ticket: &'a str, now: u64) -> BoxFuture<'a, Result<Asked, TableRefusal>>;
    /// Gives each ticket of a formation its place, all or none: `false` (and nothing changed) when
    /// any of them left or went back to waiting.
    fn seat<'a>(
        &'a self,
        formation: &'a Formation,
        places: &'a [Place],
    ) -> BoxFuture<'a, Result<bool, TableRefusal>>;
    /// Puts a formation that could not be seated back to waiting, each ticket with its old wait.
    fn unform<'a>(&'a self, formation: &'a Formation) -> BoxFuture<'a, Result<(), TableRefusal>>;
    /// The ticket leaves its queue: `true` if it was waiting there.
    fn leave<'a>(&'a self, ticket: &'a str) -> BoxFuture<'a, Result<bool, TableRefusal>>;
    /// Lists an open table for the client address `by` (as its quotas name it); only `host` (the hash
    /// of the host's seat token) refreshes or closes it. `false` (nothing listed) when that address
    /// already has [`LISTED_PER_ADDRESS`] listed. A listing lasts while its host says it is there
    /// within the lobby's `fresh` time.
    fn list<'a>(
        &'a self,
        listing: &'a Listing,
        host: &'a TokenHash,
        by: &'a str,
    ) -> BoxFuture<'a, Result<bool, TableRefusal>>;
    /// The host is still there (`close`: false) or closes the listing (`close`: true); `false` when
    /// the table is not listed (any more) or `host` is not its host.
    fn host<'a>(
        &'a self,
        table: &'a str,
        host: &'a TokenHash,
        close: bool,
        now: u64,
    ) -> BoxFuture<'a, Result<bool, TableRefusal>>;
    /// A seat at a listed table was taken: the listing leaves the list once every seat is.
    fn took_seat<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<(), TableRefusal>>;
    /// The game's open tables (their hosts there within the `fresh` time), the longest listed first,
    /// at most [`LISTED_AT_MOST`], found in a bounded read.
    fn listed<'a>(
        &'a self,
        game: &'a str,
        now: u64,
    ) -> BoxFuture<'a, Result<Vec<Listing>, TableRefusal>>;
}

/// How a match length is named in a queue's key: "deals-won-3", "points-50".
pub fn length_key(length: &MatchLength) -> String {
    let (kind, target) = match length {
        MatchLength::DealsWon(n) => ("deals-won", n),
        MatchLength::Points(n) => ("points", n),
        MatchLength::Deals(n) => ("deals", n),
    };
    format!("{kind}-{target}")
}

/// The match length a queue's key names.
pub fn length_of_key(key: &str) -> Option<MatchLength> {
    let (kind, target) = key.rsplit_once('-')?;
    let target = target.parse().ok()?;
    Some(match kind {
        "deals-won" => MatchLength::DealsWon(target),
        "points" => MatchLength::Points(target),
        "deals" => MatchLength::Deals(target),
        _ => return None,
    })
}

/// A new random id (a ticket, a formation): 128 bits, as a seat token's are.
pub fn random_id() -> String {
    Token::random().as_str().to_string()
}

/// The name the lobby keeps a ticket under: a hash of it, so that what the lobby keeps (Redis, for
/// one) never holds the ticket itself.
pub fn ticket_name(ticket: &str) -> String {
    hashed("chaikhana ticket", ticket)
}

/// The seat token a ticket holds once seated: worked out from the ticket by its holder's node, never
/// kept by the lobby (which keeps its hash).
pub fn seat_token(ticket: &str) -> Token {
    Token::from_client(&hashed("chaikhana seat", ticket)[..22])
}

/// `secret`'s SHA-256 under `purpose`, as URL-safe base64.
fn hashed(purpose: &str, secret: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    let digest = sha2::Sha256::new()
        .chain_update(purpose)
        .chain_update([0])
        .chain_update(secret)
        .finalize();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest)
}
