//! The messages a table handles and sends, and the handle that carries them to any game's table.

use std::sync::Arc;

use actix::{Actor, Addr, Handler, Message, Recipient};
use serde::Serialize;

use super::seats::SeatTicket;
use super::{TableId, Token};
use crate::cards::Seat;
use crate::protocol::ClientMsg;

/// Identifies one WebSocket connection while it lives.
pub type ConnId = u64;

/// Why a table said no, with the HTTP status that fits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableRefusal {
    #[serde(skip)]
    pub status: u16,
    pub code: &'static str,
    pub message: String,
}

impl TableRefusal {
    pub fn full() -> TableRefusal {
        TableRefusal {
            status: 409,
            code: "table-full",
            message: "Every seat at this table is taken.".into(),
        }
    }

    pub fn wrong_token() -> TableRefusal {
        TableRefusal {
            status: 403,
            code: "wrong-token",
            message: "That seat token is not one of this table's.".into(),
        }
    }

    pub fn not_found() -> TableRefusal {
        TableRefusal {
            status: 404,
            code: "no-such-table",
            message: "There is no table at that link: it may have closed.".into(),
        }
    }

    pub fn busy() -> TableRefusal {
        TableRefusal {
            status: 503,
            code: "busy",
            message: "The table is busy; try again in a moment.".into(),
        }
    }
}

/// Take a free seat of a friends table.
#[derive(Message)]
#[rtype(result = "Result<SeatTicket, TableRefusal>")]
pub struct Join;

/// Which seat does this token hold?
#[derive(Message)]
#[rtype(result = "Result<Seat, TableRefusal>")]
pub struct CheckToken(pub Token);

/// A socket for a seat: the table sends it every frame for that seat from now on.
#[derive(Message)]
#[rtype(result = "Result<Seat, TableRefusal>")]
pub struct Attach {
    pub token: Token,
    pub conn: ConnId,
    pub out: Recipient<Outbound>,
}

/// A parsed frame from a seat's socket.
#[derive(Message)]
#[rtype(result = "()")]
pub struct FromSeat {
    pub conn: ConnId,
    pub msg: ClientMsg,
}

/// A socket has gone.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Detach {
    pub conn: ConnId,
}

/// The table's record: its game, kind, and every deal's setup, seed and actions with the versions they
/// made. Enough to rebuild it exactly; it holds no token.
#[derive(Message)]
#[rtype(result = "TableRecord")]
pub struct Inspect;

#[derive(Clone, Debug, Serialize)]
pub struct TableRecord {
    pub game: &'static str,
    pub version: u64,
    pub deals: Vec<DealRecord>,
}

#[derive(Clone, Debug, Serialize)]
pub struct DealRecord {
    pub setup: crate::game::DealSetup,
    pub seed: u64,
    /// The table's version once the deal was dealt.
    pub dealt_at: u64,
    /// Each accepted action: the seat, the action as JSON, and the version it made.
    pub actions: Vec<(Seat, serde_json::Value, u64)>,
}

/// A frame for a socket.
#[derive(Message, Clone, Debug)]
#[rtype(result = "()")]
pub enum Outbound {
    Text(Arc<str>),
    /// Close with this WebSocket close code and reason.
    Close(u16, &'static str),
}

/// Everything needed to talk to a table, whatever its game.
#[derive(Clone)]
pub struct TableHandle {
    pub id: TableId,
    pub game: &'static str,
    pub join: Recipient<Join>,
    pub check_token: Recipient<CheckToken>,
    pub attach: Recipient<Attach>,
    pub from_seat: Recipient<FromSeat>,
    pub detach: Recipient<Detach>,
    pub inspect: Recipient<Inspect>,
}

impl TableHandle {
    pub fn new<A>(id: TableId, game: &'static str, addr: &Addr<A>) -> TableHandle
    where
        A: Actor<Context = actix::Context<A>>
            + Handler<Join>
            + Handler<CheckToken>
            + Handler<Attach>
            + Handler<FromSeat>
            + Handler<Detach>
            + Handler<Inspect>,
    {
        TableHandle {
            id,
            game,
            join: addr.clone().recipient(),
            check_token: addr.clone().recipient(),
            attach: addr.clone().recipient(),
            from_seat: addr.clone().recipient(),
            detach: addr.clone().recipient(),
            inspect: addr.clone().recipient(),
        }
    }
}
