//! Why a table, the router or the server said no: a [`RefusalCode`] from one closed set, with a
//! sentence for the player. The code is what browsers and tests read (in an HTTP answer's body or a
//! socket's `error` frame); the HTTP status that fits it is chosen only where an HTTP answer is
//! written (`server::http::status`). The games' own rule codes (`RuleError`) and the protocol's
//! (`ProtocolError`) are not in this set: they belong to the game and the frame parser.
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use serde::{Deserialize, Serialize};
use strum::{EnumIter, IntoStaticStr};

use chaikhana_rules::game::RuleCode;

/// A refusal's code, written in kebab-case on the wire ("table-full", "stale-version").
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, IntoStaticStr, EnumIter,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum RefusalCode {
    // Said by a table or the router to a request for a seat, a socket or a table.
    TableFull,
    /// Every seat is taken and the match is over: the link's holder may watch how it ended.
    MatchOver,
    WrongToken,
    TooManySocketsForSeat,
    TooManyWatchers,
    NoSuchTable,
    Busy,
    Unavailable,
    BadRequest,
    /// The table closed for good: a player ended the match, or nothing happened at it for as long as
    /// a table lives, or its record was lost.
    MatchEnded,
    TableExpired,
    RecordLost,
    /// The seat this token held was offered to someone else while its player was away.
    SeatGivenAway,
    /// The table offers the coach's hints to every player, and the one joining has not agreed.
    HintsToAgree,

    // Said by the server before a request reaches a table.
    Draining,
    TooManyTables,
    NotAWebsocket,
    WrongOrigin,
    NoAddress,
    ServerFull,
    TooManySocketsFromAddress,
    TooManyConnectionsFromAddress,
    TokenInUrl,
    RateLimited,
    TooLarge,
    Binary,

    // Said by a table in a socket's `error` frame, about what the socket asked of it.
    StaleVersion,
    WrongMoment,
    BadAction,
    BadLevel,
    BadName,
    PhrasesFriendsOnly,
    VoiceFriendsOnly,
    VoiceMoved,
    VoiceOff,
    PeerVoiceOff,
    BadSignal,
    WatchersCannotAct,
    DealInPlay,
    NoSuchDeal,
    NoSuchStep,
    BadRecord,
    ContributionRefused,
    /// The coach gives no hint here: not a table against the computer, or a game without a coach.
    NoHints,
    /// A hint is asked for a turn that is not the seat's.
    NotYourTurn,
    /// An analysis is asked by a watcher, whose sockets hold no seat's decisions.
    NotYourDecisions,

    // Said by the lobby (quick pairing, open tables).
    /// The ticket is in no queue: it left, its page went silent too long, or it never was.
    NotWaiting,
    /// The table is not on the open list, or the token is not its host's.
    NotListed,
}

impl RefusalCode {
    /// The code as it is written on the wire (the same words serde writes).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// The code of an `error` frame a table sends a socket: the table's own refusal, or the game's
/// rules'. The core keeps it typed; it is written as text only where a frame or a metric is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    Table(RefusalCode),
    Rule(RuleCode),
}

impl ErrorCode {
    /// The code as it is written on the wire and in the metrics.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Table(code) => code.as_str(),
            ErrorCode::Rule(code) => code.as_str(),
        }
    }
}

impl From<RefusalCode> for ErrorCode {
    fn from(code: RefusalCode) -> ErrorCode {
        ErrorCode::Table(code)
    }
}

impl From<RuleCode> for ErrorCode {
    fn from(code: RuleCode) -> ErrorCode {
        ErrorCode::Rule(code)
    }
}

/// Why a table (or the router, or the server) said no: a code and a sentence a player understands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRefusal {
    pub code: RefusalCode,
    pub message: String,
}

impl TableRefusal {
    pub fn new(code: RefusalCode, message: impl Into<String>) -> TableRefusal {
        TableRefusal {
            code,
            message: message.into(),
        }
    }

    pub fn full() -> TableRefusal {
        TableRefusal::new(RefusalCode::TableFull, "Every seat at this table is taken.")
    }

    pub fn match_over() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::MatchOver,
            "The match at this table is over, and every seat was taken.",
        )
    }

    pub fn wrong_token() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::WrongToken,
            "That seat token is not one of this table's.",
        )
    }

    pub fn too_many_sockets() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::TooManySocketsForSeat,
            "This seat has as many sockets open as it may; close another tab first.",
        )
    }

    pub fn too_many_watchers() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::TooManyWatchers,
            "As many people are watching this table as may; try again later.",
        )
    }

    pub fn not_found() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::NoSuchTable,
            "There is no table at that link: it may have closed.",
        )
    }

    pub fn seat_given_away() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::SeatGivenAway,
            "While you were away, the others offered your seat at this table to someone else.",
        )
    }

    pub fn match_ended() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::MatchEnded,
            "This match was ended by the other player while you were away.",
        )
    }

    pub fn table_expired() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::TableExpired,
            "This table has closed: nothing was played at it for as long as a table waits.",
        )
    }

    pub fn record_lost() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::RecordLost,
            "This table's record was lost, so its game cannot go on. We are sorry.",
        )
    }

    pub fn busy() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::Busy,
            "The table is busy; try again in a moment.",
        )
    }

    /// Every node that could hold a new strong computer table is saturated with thinking.
    pub fn computers_busy() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::Busy,
            "The computers are thinking all they can just now; try a strong computer table again in a moment.",
        )
    }

    /// The table cannot be reached for now (its node went, or the shared store is out of reach).
    pub fn unavailable() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::Unavailable,
            "The table cannot be reached just now; trying again shortly.",
        )
    }

    /// The node's table store is being opened again after an error: no table is opened meanwhile.
    pub fn store_closed() -> TableRefusal {
        TableRefusal::new(
            RefusalCode::Unavailable,
            "This server cannot store tables just now (its disk failed or is full); it opens its store \
             again by itself. Try again in a moment.",
        )
    }

    pub fn bad_request(message: String) -> TableRefusal {
        TableRefusal::new(RefusalCode::BadRequest, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_written_as_serde_writes_it_and_read_back() {
        use strum::IntoEnumIterator;
        for code in RefusalCode::iter() {
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
            assert_eq!(serde_json::from_str::<RefusalCode>(&json).unwrap(), code);
        }
        assert_eq!(RefusalCode::NotAWebsocket.as_str(), "not-a-websocket");
        assert_eq!(
            RefusalCode::TooManySocketsForSeat.as_str(),
            "too-many-sockets-for-seat"
        );
    }

    #[test]
    fn a_refusal_travels_as_its_code_and_sentence() {
        let json = serde_json::to_value(TableRefusal::full()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "code": "table-full",
                "message": "Every seat at this table is taken.",
            })
        );
        assert_eq!(
            serde_json::from_value::<TableRefusal>(json).unwrap(),
            TableRefusal::full()
        );
    }
}
