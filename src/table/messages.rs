//! The messages a table handles and sends, and the handle that carries them to any game's table.

use std::borrow::Cow;

use actix::dev::SendError;
use actix::{Actor, Addr, Handler, Message, Recipient};
use serde::Serialize;

use super::{ConnId, DealRecord, TableId, TableRefusal, TokenHash};
use crate::outbox::{Frame, NotQueued, Outbox};
use crate::protocol::ClientMsg;
use chaikhana_rules::cards::Seat;

/// Take a free seat of a friends table for the token with this hash (made by the node the player
/// asked, so no token travels between nodes); `agrees_to_hints`: the person joining agreed to the
/// coach's hints, at a table that offers them.
#[derive(Message)]
#[rtype(result = "Result<Seat, TableRefusal>")]
pub struct Join {
    pub key: TokenHash,
    pub agrees_to_hints: bool,
}

/// Which seat does the token with this hash hold?
#[derive(Message)]
#[rtype(result = "Result<Seat, TableRefusal>")]
pub struct CheckToken(pub TokenHash);

/// A socket for a seat: the table sends it every frame for that seat from now on.
#[derive(Message)]
#[rtype(result = "Result<Seat, TableRefusal>")]
pub struct Attach {
    /// The hash of the seat's token.
    pub key: TokenHash,
    pub conn: ConnId,
    pub out: SocketOut,
}

/// A socket for a watcher (someone with the table's watch link): the table sends it what everyone
/// may see, and takes from it nothing that acts. Answers how many watch now.
#[derive(Message)]
#[rtype(result = "Result<usize, TableRefusal>")]
pub struct Watch {
    pub conn: ConnId,
    pub out: SocketOut,
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

/// The table's record: its game, kind, and every deal of the match in play (a rematch starts it afresh):
/// setup, seed and actions with the versions they made. Enough to rebuild it exactly; it holds no token.
#[derive(Message)]
#[rtype(result = "TableRecord")]
pub struct Inspect;

#[derive(Clone, Debug, Serialize)]
pub struct TableRecord {
    pub game: &'static str,
    pub version: u64,
    pub deals: Vec<DealRecord>,
}

/// A frame for a socket.
#[derive(Message, Clone, Debug)]
#[rtype(result = "()")]
pub enum Outbound {
    Frame(Frame),
    /// Close with this WebSocket close code and reason.
    Close(u16, Cow<'static, str>),
}

/// Where a table sends one socket's frames.
#[derive(Clone)]
pub enum SocketOut {
    /// A socket of this process: frames go straight into its queue, and a close through its session.
    Local {
        frames: Outbox,
        session: Recipient<Outbound>,
    },
    /// A socket of another process, reached through its stand-in here.
    Relay(Recipient<Outbound>),
}

impl SocketOut {
    /// Sends without waiting; refused when the socket cannot take it (too slow, or gone).
    pub fn try_send(&self, msg: Outbound) -> Result<(), NotQueued> {
        match (self, msg) {
            (SocketOut::Local { frames, .. }, Outbound::Frame(frame)) => frames.send(frame),
            (SocketOut::Local { session, .. } | SocketOut::Relay(session), msg) => {
                session.try_send(msg).map_err(|e| match e {
                    SendError::Full(_) => NotQueued::Full,
                    SendError::Closed(_) => NotQueued::Closed,
                })
            }
        }
    }

    /// Sends, even past a full queue (for a close).
    pub fn do_send(&self, msg: Outbound) {
        match (self, msg) {
            (SocketOut::Local { frames, .. }, Outbound::Frame(frame)) => {
                let _ = frames.send(frame);
            }
            (SocketOut::Local { session, .. } | SocketOut::Relay(session), msg) => {
                session.do_send(msg)
            }
        }
    }
}

/// Everything needed to talk to a table, whatever its game.
#[derive(Clone)]
pub struct TableHandle {
    pub id: TableId,
    pub game: &'static str,
    pub join: Recipient<Join>,
    pub check_token: Recipient<CheckToken>,
    pub attach: Recipient<Attach>,
    pub watch: Recipient<Watch>,
    pub from_seat: Recipient<FromSeat>,
    pub detach: Recipient<Detach>,
    pub inspect: Recipient<Inspect>,
    /// The table actor's own keeping (snapshots, hand-over), for the router of the node that owns it;
    /// `None` on a handle that reaches a table on another node.
    pub keep: Option<Recipient<OwnerOrder>>,
    /// The thread the table actor runs on, for a table in this process: its sockets are served there
    /// (see `server::socket`). `None` on a handle that reaches a table on another node.
    pub home: Option<actix::ArbiterHandle>,
}

impl TableHandle {
    pub fn new<A>(id: TableId, game: &'static str, addr: &Addr<A>) -> TableHandle
    where
        A: Actor<Context = actix::Context<A>>
            + Handler<Join>
            + Handler<CheckToken>
            + Handler<Attach>
            + Handler<Watch>
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
            watch: addr.clone().recipient(),
            from_seat: addr.clone().recipient(),
            detach: addr.clone().recipient(),
            inspect: addr.clone().recipient(),
            keep: None,
            home: None,
        }
    }

    /// The same handle, for the table's own process: able to ask the table to store or hand itself
    /// over, and knowing the thread the table runs on.
    pub fn at_home(
        mut self,
        keep: Recipient<OwnerOrder>,
        home: Option<actix::ArbiterHandle>,
    ) -> TableHandle {
        self.keep = Some(keep);
        self.home = home;
        self
    }
}

/// What the router of the node that owns a table asks of it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
#[rtype(result = "()")]
pub enum OwnerOrder {
    /// Store the snapshot again (the last one may not have reached the store, or the store lost it).
    Save,
    /// Store a final snapshot and stop, leaving the sockets open for the next owner.
    HandOver,
    /// Another node owns the table now: stop, closing this node's sockets so they reconnect.
    Lost,
}
