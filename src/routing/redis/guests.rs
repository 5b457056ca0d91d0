//! The owner's end of a socket whose table lives here and whose browser is on another node: a
//! [`RemoteSocket`] stands in for the socket. The table sends it frames as to any socket, and it
//! publishes them to the socket's node. (The socket's end is `remote`.)

use std::sync::Arc;

use actix::{Actor, ActorContext, Context, Handler};

use super::between_nodes::{Answer, Note, Place, ToSockets};
use super::node::Node;
use super::requests::{seat_answer, watching_answer};
use super::stand_ins::Guest;
use crate::metrics::metrics;
use crate::table::{Attach, ConnId, Outbound, SocketOut, TableHandle, Watch};

/// A socket of another node, as its table here sees it.
pub struct RemoteSocket {
    node: Arc<Node>,
    to: String,
    conn: ConnId,
}

impl RemoteSocket {
    pub fn new(node: Arc<Node>, to: String, conn: ConnId) -> RemoteSocket {
        RemoteSocket { node, to, conn }
    }
}

impl Actor for RemoteSocket {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.set_mailbox_capacity(256);
    }
}

impl Handler<Outbound> for RemoteSocket {
    type Result = ();

    fn handle(&mut self, frame: Outbound, ctx: &mut Context<Self>) {
        let conn = self.conn;
        let message = match frame {
            Outbound::Frame(frame) => {
                let Some(text) = frame.text_payload() else {
                    // Only text frames are relayed; control frames belong to the socket's own node.
                    return;
                };
                metrics().frames_out.inc();
                self.node.relay_frame(&self.to, conn, text);
                return;
            }
            Outbound::Close(code, reason) => {
                ctx.stop();
                ToSockets::Note(Note::Close {
                    conn,
                    code,
                    reason: reason.into_owned(),
                })
            }
        };
        self.node.tell_sockets(&self.to, &message);
    }
}

/// Where another node's socket at a table here is made.
impl Node {
    /// Attaches the socket `conn` of the node `from` to the table here, at a seat or watching,
    /// through a [`RemoteSocket`]; it stays a guest only if the table takes it.
    pub(super) async fn attach_guest(
        self: &Arc<Self>,
        from: &str,
        handle: TableHandle,
        conn: ConnId,
        place: Place,
    ) -> Answer {
        let local = self.stand_ins.guest_id();
        let relay = RemoteSocket::new(self.clone(), from.to_string(), conn).start();
        let relay = relay.recipient();
        let guest = Guest {
            table: handle.id.clone(),
            conn: local,
            relay: relay.clone(),
        };
        self.stand_ins.add_guest(from, conn, guest);
        let out = SocketOut::Relay(relay);
        let answer = match place {
            Place::Seat(key) => {
                let attach = Attach {
                    key,
                    conn: local,
                    out,
                };
                seat_answer(handle.attach.send(attach).await)
            }
            Place::Watcher => watching_answer(handle.watch.send(Watch { conn: local, out }).await),
        };
        if !matches!(answer, Answer::Seat { .. } | Answer::Watching { .. }) {
            self.stand_ins.remove_guest(from, conn);
        }
        answer
    }
}
