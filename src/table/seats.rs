//! Who sits at a table: people with their tokens and connections, or computer players.
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{Token, TokenHash};
use crate::protocol::{SeatInfo, Who};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::{Bot, BotKind, Budget, Game};

/// Against the computer, or among friends through a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TableKind {
    Computer,
    Friends,
}

impl TableKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TableKind::Computer => "computer",
            TableKind::Friends => "friends",
        }
    }
}

/// How well the computers play at a computer table, from the gentlest to the strongest. The names
/// are those of the wire, of snapshots and of the metrics; "standard" and "strong" are the two the
/// site always had, and keep their computers (a table stored at "strong" comes back with the strong
/// computer at the table's whole budget).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The standard computer, playing a random legal move about half the time.
    Gentle,
    /// The seeds' simple computer.
    #[default]
    Standard,
    /// The strong computer at a few sampled deals a decision.
    Clever,
    /// The strong computer at the table's whole budget.
    Strong,
}

impl Level {
    /// Every level, gentlest first.
    pub const ALL: [Level; 4] = [Level::Gentle, Level::Standard, Level::Clever, Level::Strong];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Gentle => "gentle",
            Level::Standard => "standard",
            Level::Clever => "clever",
            Level::Strong => "strong",
        }
    }

    /// The computer player that plays at this level (every game has them all).
    pub fn bot(self) -> BotKind {
        match self {
            Level::Gentle => BotKind::Gentle,
            Level::Standard => BotKind::Computer,
            Level::Clever => BotKind::Clever,
            Level::Strong => BotKind::Strong,
        }
    }

    /// A computer player of this level for `seat` in the game `G`; the strong computer thinks within
    /// `budget` per decision.
    pub fn computer<G: Game>(self, seat: Seat, budget: Budget) -> Option<Box<dyn Bot<G>>> {
        chaikhana_rules::game::computer::<G>(self.bot(), seat, budget)
    }

    /// The level its computer player `bot` plays at (reading a snapshot), if it is a level's.
    pub fn of_bot(bot: BotKind) -> Option<Level> {
        Level::ALL.into_iter().find(|level| level.bot() == bot)
    }

    /// The level called `name`, or a sentence saying which levels there are.
    pub fn parse(name: &str) -> Result<Level, String> {
        match Level::ALL.into_iter().find(|level| level.as_str() == name) {
            Some(level) => Ok(level),
            None => Err(format!(
                "\"level\" is \"gentle\", \"standard\", \"clever\" or \"strong\", not \"{name}\"."
            )),
        }
    }
}

/// A seat taken: which one, and the token that acts for it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatTicket {
    pub seat: Seat,
    pub token: Token,
}

/// Who is in a seat.
pub enum Occupant<G: Game> {
    Free,
    Person {
        /// The hash of the seat's token (the token itself is given to its player and not kept).
        key: TokenHash,
        /// When its last socket went, while it has none (`None` while one is open; how many are is
        /// the table's `Sockets`' to count).
        gone_since: Option<Instant>,
        /// Whether a socket has ever attached to this seat (a later one is a reconnect).
        attached_before: bool,
    },
    Computer(Box<dyn Bot<G>>),
}

impl<G: Game> Occupant<G> {
    /// A person's seat, held by the token with this hash, with no socket yet at `now`.
    pub fn person(key: TokenHash, now: Instant) -> Occupant<G> {
        Occupant::Person {
            key,
            gone_since: Some(now),
            attached_before: false,
        }
    }

    /// Since when a person's seat has had no socket, while it has none.
    pub fn away_since(&self) -> Option<Instant> {
        match self {
            Occupant::Person { gone_since, .. } => *gone_since,
            _ => None,
        }
    }

    pub fn holds(&self, key: &TokenHash) -> bool {
        matches!(self, Occupant::Person { key: mine, .. } if mine.matches(key))
    }

    /// The seat as everyone sees it; `voice` says whether it has voice on, `ready` whether it asked
    /// for the next deal, `name` what its person is called.
    pub fn info(&self, seat: Seat, voice: bool, ready: bool, name: Option<String>) -> SeatInfo {
        let (who, connected, arrived) = match self {
            Occupant::Free => (Who::Free, false, false),
            Occupant::Person {
                gone_since,
                attached_before,
                ..
            } => (Who::Person, gone_since.is_none(), *attached_before),
            Occupant::Computer(_) => (Who::Computer, true, true),
        };
        SeatInfo {
            seat,
            who,
            connected,
            voice,
            ready,
            name,
            away_since: None,
            arrived,
            offerable: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_named_alike_on_the_wire_in_serde_and_in_parse() {
        for level in Level::ALL {
            assert_eq!(Level::parse(level.as_str()), Ok(level));
            let json = serde_json::to_string(&level).unwrap();
            assert_eq!(json, format!("\"{}\"", level.as_str()));
            assert_eq!(Level::of_bot(level.bot()), Some(level));
        }
        let names = Level::ALL.map(Level::as_str);
        assert_eq!(names, ["gentle", "standard", "clever", "strong"]);
        assert_eq!(Level::of_bot(BotKind::Strong), Some(Level::Strong));
        assert_eq!(Level::of_bot(BotKind::Random), None);
        let refused = Level::parse("grandmaster").unwrap_err();
        assert_eq!(
            refused,
            "\"level\" is \"gentle\", \"standard\", \"clever\" or \"strong\", not \"grandmaster\"."
        );
    }
}
