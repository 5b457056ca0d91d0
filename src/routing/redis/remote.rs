//! The socket's end of a socket whose table lives on another node: on the socket's node a
//! [`RemoteTable`] stands in for the table. It answers the messages a table answers by asking the
//! owner through Redis, and finds the table again (re-attaching its sockets) when the owner goes. The
//! owner's end is in `guests`.

use std::collections::HashMap;
use std::sync::Arc;

use actix::{
    Actor, ActorContext, ActorFutureExt, AsyncContext, Context, Handler, ResponseActFuture,
    ResponseFuture, WrapFuture,
};

use super::between_nodes::{Answer, Place, ToTables};
use super::node::{Node, Route};
use super::stand_ins::{Proxy, Relocate};
use crate::catalog;
use crate::table::{
    Attach, CheckToken, ConnId, Detach, FromSeat, Inspect, Join, Outbound, RefusalCode, SocketOut,
    TableHandle, TableId, TableRecord, TableRefusal, TokenHash, Watch,
};
use chaikhana_rules::cards::Seat;

pub struct RemoteTable {
    id: TableId,
    node: Arc<Node>,
    route: Route,
    /// This node's sockets at the table, with where they sit (to attach them again).
    sockets: HashMap<ConnId, Place>,
    relocating: bool,
}

impl RemoteTable {
    pub fn new(id: TableId, node: Arc<Node>, route: Route) -> RemoteTable {
        RemoteTable {
            id,
            node,
            route,
            sockets: HashMap::new(),
            relocating: false,
        }
    }

    /// Asks the table, finding it again once if its owner is gone (and then attaching this node's other
    /// sockets there too).
    fn request(&self, ask: Request) -> ResponseActFuture<Self, Result<Granted, TableRefusal>> {
        let (node, id, route) = (self.node.clone(), self.id.clone(), self.route.clone());
        Box::pin(request(node, id, route, ask).into_actor(self).map(
            |(route, moved, answer), table, ctx| {
                table.found(route);
                if moved {
                    table.attach_again(ctx);
                }
                answer
            },
        ))
    }

    /// The table is where `route` says.
    fn found(&mut self, route: Route) {
        let owner = match &route {
            Route::Here(_) => self.node.id.as_str(),
            Route::There(owner) => owner.as_str(),
        };
        self.node.stand_ins.found_on(&self.id, owner);
        self.route = route;
    }

    /// Attaches this node's sockets to the table where it is now; a socket that cannot be attached
    /// is closed so that its browser reconnects.
    fn attach_again(&mut self, ctx: &mut Context<Self>) {
        let (node, id, route) = (self.node.clone(), self.id.clone(), self.route.clone());
        for (conn, place) in self.sockets.clone() {
            let attach = request(
                node.clone(),
                id.clone(),
                route.clone(),
                Request::Attach(conn, place),
            );
            let node = node.clone();
            ctx.spawn(attach.into_actor(self).map(move |(_, _, attached), _, _| {
                if attached.is_err() {
                    close(&node, conn);
                }
            }));
        }
    }
}

impl Actor for RemoteTable {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.set_mailbox_capacity(256);
    }
}

/// What a stand-in asks of a table.
#[derive(Clone)]
enum Request {
    Join(TokenHash, bool),
    CheckToken(TokenHash),
    Attach(ConnId, Place),
}

/// What a table granted: a seat, or a place among its watchers (with how many watch).
#[derive(Clone, Copy, Debug)]
enum Granted {
    Seat(Seat),
    Watching(usize),
}

impl Granted {
    fn seat(granted: Result<Granted, TableRefusal>) -> Result<Seat, TableRefusal> {
        match granted? {
            Granted::Seat(seat) => Ok(seat),
            Granted::Watching(_) => Err(TableRefusal::unavailable()),
        }
    }

    fn watching(granted: Result<Granted, TableRefusal>) -> Result<usize, TableRefusal> {
        match granted? {
            Granted::Watching(watching) => Ok(watching),
            Granted::Seat(_) => Err(TableRefusal::unavailable()),
        }
    }
}

/// Answers where the table was found, whether that changed, and the table's answer.
async fn request(
    node: Arc<Node>,
    id: TableId,
    mut route: Route,
    ask: Request,
) -> (Route, bool, Result<Granted, TableRefusal>) {
    for first in [true, false] {
        let answer = match &route {
            Route::Here(handle) => match ask.clone() {
                Request::Join(key, agrees_to_hints) => seat(
                    handle
                        .join
                        .send(Join {
                            key,
                            agrees_to_hints,
                        })
                        .await,
                ),
                Request::CheckToken(key) => seat(handle.check_token.send(CheckToken(key)).await),
                Request::Attach(conn, place) => match (node.stand_ins.socket(conn), place) {
                    (Some(out), Place::Seat(key)) => {
                        seat(handle.attach.send(Attach { key, conn, out }).await)
                    }
                    (Some(out), Place::Watcher) => handle
                        .watch
                        .send(Watch { conn, out })
                        .await
                        .unwrap_or_else(|_| Err(TableRefusal::unavailable()))
                        .map(Granted::Watching),
                    (None, _) => Err(TableRefusal::not_found()),
                },
            },
            Route::There(owner) => {
                let table = id.clone();
                let asked = node
                    .ask(owner, |ask_| match ask.clone() {
                        Request::Join(key, agrees_to_hints) => ToTables::Join {
                            ask: ask_,
                            table,
                            key,
                            agrees_to_hints,
                        },
                        Request::CheckToken(key) => ToTables::CheckToken {
                            ask: ask_,
                            table,
                            key,
                        },
                        Request::Attach(conn, Place::Seat(key)) => ToTables::Attach {
                            ask: ask_,
                            table,
                            conn,
                            key,
                        },
                        Request::Attach(conn, Place::Watcher) => ToTables::Watch {
                            ask: ask_,
                            table,
                            conn,
                        },
                    })
                    .await;
                match asked {
                    Ok(Answer::Seat { seat }) => Ok(Granted::Seat(seat)),
                    Ok(Answer::Watching { watching }) => Ok(Granted::Watching(watching)),
                    Ok(Answer::Refused { refusal }) => Err(refusal),
                    Ok(_) => Err(TableRefusal::unavailable()),
                    Err(refusal) => Err(refusal),
                }
            }
        };
        match answer {
            Err(TableRefusal {
                code: RefusalCode::Unavailable,
                ..
            }) if first => match node.route(&id).await {
                Ok(found) => route = found,
                Err(refusal) => return (route, false, Err(refusal)),
            },
            answer => return (route, !first, answer),
        }
    }
    (route, true, Err(TableRefusal::unavailable()))
}

fn seat(
    answer: Result<Result<Seat, TableRefusal>, actix::MailboxError>,
) -> Result<Granted, TableRefusal> {
    answer
        .unwrap_or_else(|_| Err(TableRefusal::unavailable()))
        .map(Granted::Seat)
}

impl Handler<Join> for RemoteTable {
    type Result = ResponseActFuture<Self, Result<Seat, TableRefusal>>;

    fn handle(&mut self, join: Join, _: &mut Context<Self>) -> Self::Result {
        Box::pin(
            self.request(Request::Join(join.key, join.agrees_to_hints))
                .map(|g, _, _| Granted::seat(g)),
        )
    }
}

impl Handler<CheckToken> for RemoteTable {
    type Result = ResponseActFuture<Self, Result<Seat, TableRefusal>>;

    fn handle(&mut self, CheckToken(key): CheckToken, _: &mut Context<Self>) -> Self::Result {
        Box::pin(
            self.request(Request::CheckToken(key))
                .map(|g, _, _| Granted::seat(g)),
        )
    }
}

impl Handler<Attach> for RemoteTable {
    type Result = ResponseActFuture<Self, Result<Seat, TableRefusal>>;

    fn handle(&mut self, attach: Attach, _: &mut Context<Self>) -> Self::Result {
        let Attach { key, conn, out } = attach;
        Box::pin(
            self.attach(conn, out, Place::Seat(key))
                .map(|g, _, _| Granted::seat(g)),
        )
    }
}

impl Handler<Watch> for RemoteTable {
    type Result = ResponseActFuture<Self, Result<usize, TableRefusal>>;

    fn handle(&mut self, Watch { conn, out }: Watch, _: &mut Context<Self>) -> Self::Result {
        Box::pin(
            self.attach(conn, out, Place::Watcher)
                .map(|g, _, _| Granted::watching(g)),
        )
    }
}

impl RemoteTable {
    /// Attaches a socket of this node where it sits, keeping it to attach again if the table moves.
    fn attach(
        &mut self,
        conn: ConnId,
        out: SocketOut,
        place: Place,
    ) -> ResponseActFuture<Self, Result<Granted, TableRefusal>> {
        self.node.stand_ins.add_socket(conn, out);
        let asked = self.request(Request::Attach(conn, place.clone()));
        Box::pin(asked.map(move |answer, table, _| {
            match &answer {
                Ok(_) => {
                    table.sockets.insert(conn, place);
                }
                Err(_) => {
                    table.node.stand_ins.remove_socket(conn);
                }
            }
            answer
        }))
    }
}

impl Handler<FromSeat> for RemoteTable {
    type Result = ();

    fn handle(&mut self, FromSeat { conn, msg }: FromSeat, ctx: &mut Context<Self>) {
        match &self.route {
            Route::Here(handle) => {
                let _ = handle.from_seat.try_send(FromSeat { conn, msg });
            }
            Route::There(owner) => {
                let message = ToTables::FromSeat {
                    from: self.node.id.clone(),
                    table: self.id.clone(),
                    conn,
                    msg,
                };
                let me = ctx.address();
                self.node
                    .tell_owner(owner, &message, move || me.do_send(Relocate));
            }
        }
    }
}

impl Handler<Detach> for RemoteTable {
    type Result = ();

    fn handle(&mut self, Detach { conn }: Detach, ctx: &mut Context<Self>) {
        self.sockets.remove(&conn);
        self.node.stand_ins.remove_socket(conn);
        match &self.route {
            Route::Here(handle) => handle.detach.do_send(Detach { conn }),
            Route::There(owner) => {
                let message = ToTables::Detach {
                    from: self.node.id.clone(),
                    table: self.id.clone(),
                    conn,
                };
                self.node.tell_owner(owner, &message, || {});
            }
        }
        if self.sockets.is_empty() {
            self.node.stand_ins.forget_proxy(&self.id);
            ctx.stop();
        }
    }
}

impl Handler<Inspect> for RemoteTable {
    type Result = ResponseFuture<TableRecord>;

    fn handle(&mut self, _: Inspect, _: &mut Context<Self>) -> Self::Result {
        let (node, id) = (self.node.clone(), self.id.clone());
        Box::pin(async move {
            let snapshot = node.snapshot(&id).await.ok().flatten();
            let game = snapshot
                .as_ref()
                .and_then(|s| catalog::names().find(|n| *n == s.game))
                .unwrap_or_default();
            TableRecord {
                game,
                version: snapshot.as_ref().map_or(0, |s| s.version),
                deals: snapshot.map(|s| s.deals).unwrap_or_default(),
            }
        })
    }
}

impl Handler<Relocate> for RemoteTable {
    type Result = ();

    fn handle(&mut self, _: Relocate, ctx: &mut Context<Self>) {
        if self.relocating {
            return;
        }
        self.relocating = true;
        let (node, id) = (self.node.clone(), self.id.clone());
        let moved = async move { node.route(&id).await.ok() };
        ctx.wait(moved.into_actor(self).map(|route, table, ctx| {
            table.relocating = false;
            match route {
                Some(route) => {
                    table.found(route);
                    table.attach_again(ctx);
                }
                None => {
                    for conn in table.sockets.keys() {
                        close(&table.node, *conn);
                    }
                    table.sockets.clear();
                    table.node.stand_ins.forget_proxy(&table.id);
                    ctx.stop();
                }
            }
        }));
    }
}

/// Closes one of this node's sockets so that its browser reconnects.
fn close(node: &Node, conn: ConnId) {
    if let Some(out) = node.stand_ins.socket(conn) {
        out.do_send(Outbound::Close(
            1012,
            "the table moved; reconnecting".into(),
        ));
    }
}

/// Where the stand-in for a table living elsewhere is made.
impl Node {
    /// The table, wherever it lives: a handle to it here, or to this node's stand-in for it.
    pub async fn find(self: Arc<Self>, id: TableId) -> Result<TableHandle, TableRefusal> {
        if let Some(handle) = self.tables.get(&id) {
            return Ok(handle);
        }
        if let Some(handle) = self.stand_ins.proxy(&id) {
            return Ok(handle);
        }
        match self.route(&id).await? {
            Route::Here(handle) => Ok(handle),
            Route::There(owner) => {
                let game = self.game_of(&id).await?;
                Ok(self.stand_ins.proxy_or_make(&id, || {
                    let route = Route::There(owner.clone());
                    let addr = RemoteTable::new(id.clone(), self.clone(), route).start();
                    Proxy {
                        handle: TableHandle::new(id.clone(), game, &addr),
                        relocate: addr.recipient(),
                        owner,
                    }
                }))
            }
        }
    }
}
