//! A table as "Your games" on the home page lists it for one of its seats: the game, who sits where,
//! the score, whose turn it is and when it last changed. It is made from the table's stored record
//! (rebuilt without an actor), so listing a sleeping table does not wake it; who is at the table
//! right now is not in the record, so the listing does not say.

use serde::Serialize;

use super::super::TableRefusal;
use super::{Status, TableCore};
use crate::protocol::Who;
use crate::table::TokenHash;
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;
use chaikhana_rules::matches::MatchLength;

/// One table as its seat's "Your games" entry shows it.
#[derive(Serialize)]
pub struct Listing {
    pub id: String,
    pub open: bool,
    pub game: &'static str,
    pub kind: &'static str,
    pub seat: Seat,
    pub seats: Vec<ListedSeat>,
    /// Each seat's score in the match's own unit: deals won, or points.
    pub score: Vec<i64>,
    pub status: Status,
    /// "you" when it is this seat's move, "other" when another seat's, none between deals.
    pub turn: Option<&'static str>,
    /// When the table last changed (Unix ms).
    pub last_move: u64,
    pub version: u64,
}

/// Who sits in a seat, as a listing tells it.
#[derive(Serialize)]
pub struct ListedSeat {
    pub seat: Seat,
    pub who: Who,
    pub name: Option<String>,
}

impl<G: Game> TableCore<G> {
    /// The listing of this table for the seat holding the token of hash `key`, last changed at
    /// `touched` (Unix ms).
    pub fn listing(&self, key: &TokenHash, touched: u64) -> Result<Listing, TableRefusal> {
        let seat = self.check_token(key)?;
        let score = match self.matchup.length {
            MatchLength::DealsWon(_) => self.matchup.deals_won.iter().map(|&w| w as i64).collect(),
            MatchLength::Points(_) | MatchLength::Deals(_) => self.matchup.totals.clone(),
        };
        let status = self.status();
        let to_act = self.state.as_ref().and_then(G::to_act);
        let turn = match (status, to_act) {
            (Status::Playing, Some(s)) if s == seat => Some("you"),
            (Status::Playing, Some(_)) => Some("other"),
            _ => None,
        };
        Ok(Listing {
            id: self.id.as_str().to_string(),
            open: true,
            game: G::NAME,
            kind: self.kind.as_str(),
            seat,
            seats: self
                .seat_infos()
                .into_iter()
                .map(|info| ListedSeat {
                    seat: info.seat,
                    who: info.who,
                    name: info.name,
                })
                .collect(),
            score,
            status,
            turn,
            last_move: touched,
            version: self.version,
        })
    }
}
