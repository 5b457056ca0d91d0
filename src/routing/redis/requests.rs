//! Requests and answers between nodes over Redis pub/sub: a node asks a table's owner (to open,
//! adopt, join, check a token, attach a socket) and hears the answer on its own channel; frames and
//! notes for sockets go to the socket's node. What this node hears is handed to its tables and
//! sockets here.

use std::sync::Arc;

use super::between_nodes::{self, Answer, Ask, Note, Place, ToSockets, ToTables};
use super::bus::Subscriber;
use super::keys;
use super::link::PATIENCE;
use super::node::{Node, Route};
use crate::metrics::metrics;
use crate::outbox::Frame;
use crate::table::{CheckToken, ConnId, Detach, FromSeat, Join, Outbound, TableRefusal};

impl Node {
    /// Asks the node `owner` something and waits for its answer; refused as unavailable when nobody
    /// listens there or no answer comes in time.
    pub async fn ask(
        &self,
        owner: &str,
        make: impl FnOnce(Ask) -> ToTables,
    ) -> Result<Answer, TableRefusal> {
        let (req, told) = self.pending.wait();
        let message = make(Ask {
            from: self.id.clone(),
            req,
        });
        let payload = serde_json::to_vec(&message).expect("requests always serialize");
        let heard = self
            .pipes
            .this_thread()
            .publish_heard(keys::tables_channel(owner), payload)
            .await;
        let answer = match heard {
            Some(redis::Value::Int(n)) if n > 0 => tokio::time::timeout(PATIENCE, told)
                .await
                .ok()
                .and_then(Result::ok),
            _ => None,
        };
        self.pending.forget(req);
        answer.ok_or_else(TableRefusal::unavailable)
    }

    /// Publishes to a table's owner without waiting; `unheard` runs (on the pipe's task) if nobody
    /// listens there.
    pub fn tell_owner(
        &self,
        owner: &str,
        message: &ToTables,
        unheard: impl FnOnce() + Send + 'static,
    ) {
        let payload = serde_json::to_vec(message).expect("requests always serialize");
        self.pipes
            .this_thread()
            .publish_then(keys::tables_channel(owner), payload, move |heard| {
                if matches!(heard, Some(redis::Value::Int(0))) {
                    unheard();
                }
            });
    }

    /// Publishes to another node's sockets.
    pub fn tell_sockets(&self, node: &str, message: &ToSockets) {
        self.pipes
            .this_thread()
            .publish(keys::sockets_channel(node), message.encode());
    }

    /// Publishes a frame's text to one of another node's sockets.
    pub fn relay_frame(&self, node: &str, conn: ConnId, text: &str) {
        self.pipes.this_thread().publish(
            keys::sockets_channel(node),
            between_nodes::frame_message(conn, text),
        );
    }

    /// A request for one of this node's tables.
    pub(super) fn serve(self: Arc<Self>, request: ToTables) {
        match request {
            ToTables::FromSeat {
                from,
                table,
                conn,
                msg,
            } => {
                let guest = self.stand_ins.guest_conn(&from, conn);
                let sent = guest.and_then(|local| {
                    self.tables.with(&table, |handle| {
                        let frame = FromSeat { conn: local, msg };
                        handle.from_seat.try_send(frame).is_ok()
                    })
                });
                match sent {
                    Some(true) => {}
                    Some(false) => {
                        let busy = TableRefusal::busy();
                        let text = crate::protocol::ServerMsg::Error {
                            code: busy.code.as_str(),
                            message: &busy.message,
                            id: None,
                        }
                        .to_text();
                        self.tell_sockets(&from, &ToSockets::Frame { conn, text });
                    }
                    // Handed over while this node drains: the socket's node finds it again.
                    None if self.draining() => self.tell_moved(&from, &table),
                    // The table moved or this node was restarted: the socket reconnects and finds it.
                    None => self.tell_sockets(
                        &from,
                        &ToSockets::Note(Note::Close {
                            conn,
                            code: 1012,
                            reason: "the table moved; reconnecting".into(),
                        }),
                    ),
                }
            }
            ToTables::Detach { from, table, conn } => {
                let guest = self.stand_ins.remove_guest(&from, conn);
                if let (Some(guest), Some(handle)) = (guest, self.tables.get(&table)) {
                    handle.detach.do_send(Detach { conn: guest.conn });
                }
            }
            request => {
                // Answered on one of the node's table threads, where a table it opens will live; a
                // request about a table living on one of them is answered on the table's own.
                let home = match &request {
                    ToTables::Join { table, .. }
                    | ToTables::CheckToken { table, .. }
                    | ToTables::Attach { table, .. }
                    | ToTables::Watch { table, .. } => Some(table),
                    _ => None,
                };
                let turn = self.homes.turn_for(home);
                let arbiter = self.homes.arbiter(turn);
                arbiter.spawn(async move { self.answer(request, turn).await });
            }
        }
    }

    /// Answers a request on the table thread `turn`.
    pub(super) async fn answer(self: Arc<Self>, request: ToTables, turn: usize) {
        let (ask, answer) = match request {
            ToTables::Open { ask, order } => {
                let answer = match self.open_here(order).await {
                    Ok(table) => {
                        self.homes.settle(table.clone(), turn);
                        Answer::Opened { table }
                    }
                    Err(refusal) => Answer::Refused { refusal },
                };
                (ask, answer)
            }
            ToTables::Adopt { ask, table } => {
                let answer = if self.draining() || !self.role.hosts_tables() {
                    Answer::Refused {
                        refusal: TableRefusal::unavailable(),
                    }
                } else {
                    match self.route(&table).await {
                        Ok(route) => {
                            if matches!(route, Route::Here(_)) {
                                self.homes.settle_if_new(table, turn);
                            }
                            Answer::Adopted
                        }
                        Err(refusal) => Answer::Refused { refusal },
                    }
                };
                (ask, answer)
            }
            ToTables::Join {
                ask,
                table,
                key,
                agrees_to_hints,
            } => {
                let join = Join {
                    key,
                    agrees_to_hints,
                };
                let answer = match self.tables.get(&table) {
                    Some(handle) => seat_answer(handle.join.send(join).await),
                    None => refused_here(),
                };
                (ask, answer)
            }
            ToTables::CheckToken { ask, table, key } => {
                let answer = match self.tables.get(&table) {
                    Some(handle) => seat_answer(handle.check_token.send(CheckToken(key)).await),
                    None => refused_here(),
                };
                (ask, answer)
            }
            ToTables::Attach {
                ask,
                table,
                conn,
                key,
            } => {
                let answer = match self.tables.get(&table) {
                    Some(handle) => {
                        self.attach_guest(&ask.from, handle, conn, Place::Seat(key))
                            .await
                    }
                    None => refused_here(),
                };
                (ask, answer)
            }
            ToTables::Watch { ask, table, conn } => {
                let answer = match self.tables.get(&table) {
                    Some(handle) => {
                        self.attach_guest(&ask.from, handle, conn, Place::Watcher)
                            .await
                    }
                    None => refused_here(),
                };
                (ask, answer)
            }
            ToTables::FromSeat { .. } | ToTables::Detach { .. } => return,
        };
        self.tell_sockets(
            &ask.from.clone(),
            &ToSockets::Note(Note::Answer {
                req: ask.req,
                answer,
            }),
        );
    }

    pub(super) fn deliver_frame(&self, conn: ConnId, text: &str) {
        if let Some(out) = self.stand_ins.socket(conn) {
            if out.try_send(Outbound::Frame(Frame::text(text))).is_err() {
                metrics().outbound_overflows.inc();
            }
        }
    }

    /// A frame or note for this node's sockets.
    pub(super) fn deliver(&self, message: ToSockets) {
        match message {
            ToSockets::Frame { conn, text } => self.deliver_frame(conn, &text),
            ToSockets::Note(Note::Close { conn, code, reason }) => {
                if let Some(out) = self.stand_ins.remove_socket(conn) {
                    out.do_send(Outbound::Close(code, reason.into()));
                }
            }
            ToSockets::Note(Note::Answer { req, answer }) => {
                self.pending.answer(req, answer);
            }
            ToSockets::Note(Note::Moved { table }) => {
                tracing::debug!(table = %table, "the table's owner handed it over");
                self.stand_ins.relocate(&table);
            }
        }
    }

    /// A node with sockets here has gone: its sockets leave their tables.
    pub(super) fn drop_guests_of(&self, node: &str) {
        for guest in self.stand_ins.take_guests_of(node) {
            if let Some(handle) = self.tables.get(&guest.table) {
                handle.detach.do_send(Detach { conn: guest.conn });
            }
            drop(guest.relay);
        }
    }
}

pub(super) fn seat_answer(
    answer: Result<Result<chaikhana_rules::cards::Seat, TableRefusal>, actix::MailboxError>,
) -> Answer {
    match answer {
        Ok(Ok(seat)) => Answer::Seat { seat },
        Ok(Err(refusal)) => Answer::Refused { refusal },
        Err(_) => refused_here(),
    }
}

pub(super) fn watching_answer(
    answer: Result<Result<usize, TableRefusal>, actix::MailboxError>,
) -> Answer {
    match answer {
        Ok(Ok(watching)) => Answer::Watching { watching },
        Ok(Err(refusal)) => Answer::Refused { refusal },
        Err(_) => refused_here(),
    }
}

/// The table is not (or no longer) here: the asker finds it again.
fn refused_here() -> Answer {
    Answer::Refused {
        refusal: TableRefusal::unavailable(),
    }
}

impl Subscriber for Node {
    fn message(&self, channel: &str, payload: &[u8]) {
        let Some(node) = self.me.upgrade() else {
            return;
        };
        let Some(messages) = between_nodes::unbundle(payload) else {
            tracing::warn!("an unreadable bundle from another node");
            return;
        };
        let for_tables = channel.ends_with(":tables");
        for payload in messages {
            if for_tables {
                match serde_json::from_slice::<ToTables>(payload) {
                    Ok(request) => node.clone().serve(request),
                    Err(e) => tracing::warn!("an unreadable request from another node: {e}"),
                }
            } else if let Some((conn, text)) = between_nodes::frame_in(payload) {
                self.deliver_frame(conn, text);
            } else if let Some(message) = ToSockets::decode(payload) {
                self.deliver(message);
            }
        }
    }

    fn subscribed(&self, now: bool) {
        if now {
            return;
        }
        // Frames can no longer reach this node: its sockets at tables elsewhere reconnect (and show
        // it), and other nodes' sockets here leave their tables.
        for out in self.stand_ins.cut_off() {
            out.do_send(Outbound::Close(
                1012,
                "lost the link to the table; reconnecting".into(),
            ));
        }
        for node in self.stand_ins.guest_nodes() {
            self.drop_guests_of(&node);
        }
    }
}
