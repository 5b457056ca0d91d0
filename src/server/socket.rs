//! A table's WebSocket, opened by `GET /ws/{table}` with the upgrade headers (a watcher's by
//! `GET /ws/w/{watch}`, the watch link's id). The HTTP dispatcher hands such a request here with its
//! connection; once the socket is admitted (the server takes sockets, the page is this site's, the
//! table exists, and neither the process nor the client's address holds as many sockets as it may),
//! the upgrade is answered and the session is served on the bare TCP stream (`connection::serve`).
//! A seat's socket then says which seat it is in its first frame (the session checks the token and
//! the seat's own cap of sockets).

use actix::{Actor, AsyncContext};
use actix_codec::Framed;
use actix_http::body::{BodySize, MessageBody};
use actix_http::h1::{Codec, Message, SendResponse};
use actix_http::{header, ws, HttpMessage, Request};
use actix_web::{web, HttpResponse};
use bytes::BytesMut;
use futures_util::SinkExt;
use tokio::net::TcpStream;

use super::caps::{Admitted, Full};
use super::connection::{self, Limits};
use super::http::{find_table, refusal, refused};
use super::request_clock::Clocked;
use super::session::{Entry, WsSession, OUTBOUND_QUEUE};
use super::AppState;
use crate::table::{RefusalCode, TableHandle, TableRefusal};

/// The route the socket's requests are counted under in the metrics.
const ROUTE: &str = "/ws/{id}";

/// Answers an upgrade request, and serves the socket if it is admitted.
pub async fn upgrade(state: web::Data<AppState>, req: Request, mut framed: Framed<Clocked, Codec>) {
    let peer = framed.io_ref().stream().peer_addr();
    let (table, entry, admitted) = match admit(&state, &req, peer).await {
        Ok(admitted) => admitted,
        Err(response) => return refuse(framed, response).await,
    };
    let switch = match ws::handshake(req.head()) {
        Ok(mut switch) => switch.finish().drop_body(),
        Err(e) => return refuse(framed, refusal(RefusalCode::NotAWebsocket, &e.to_string())).await,
    };
    count(101);
    if framed
        .send(Message::Item((switch, BodySize::None)))
        .await
        .is_err()
    {
        return;
    }
    let parts = framed.into_parts();
    // The connection leaves HTTP: its request clock and its place under the HTTP caps go.
    let io = parts.io.into_stream();
    // A socket is served on its table's thread when the table lives in this process: a move then
    // reaches the table and both seats' sockets without waking another thread.
    match table.home.clone() {
        Some(home) => {
            let Ok(io) = io.into_std() else {
                return;
            };
            let read_buf = parts.read_buf;
            // An arbiter that has stopped drops the future, and with it the socket.
            home.spawn(async move {
                if let Ok(io) = TcpStream::from_std(io) {
                    serve(state, table, entry, admitted, io, read_buf).await;
                }
            });
        }
        None => serve(state, table, entry, admitted, io, parts.read_buf).await,
    }
}

/// Serves an upgraded socket on the thread this runs on.
async fn serve(
    state: web::Data<AppState>,
    table: TableHandle,
    entry: Entry,
    admitted: Admitted,
    io: TcpStream,
    read_buf: BytesMut,
) {
    let settings = &state.settings;
    let limits = Limits {
        max_message: settings.max_message_bytes(),
        bytes_per_second: settings.read_bytes_per_second,
        bytes_burst: settings.read_bytes_burst,
        write_timeout: settings.write_timeout(),
        queue: OUTBOUND_QUEUE,
    };
    let (out, incoming) = connection::serve(io, read_buf, limits).await;
    let conn = state.registry.new_conn_id();
    WsSession::create(|ctx| {
        ctx.add_stream(incoming);
        WsSession::new(
            conn,
            entry,
            table,
            out,
            state.settings.clone(),
            state.registry.clone(),
            admitted,
        )
    });
}

/// The table, who the socket is there and its place under the caps, or the response that refuses
/// the socket.
async fn admit(
    state: &AppState,
    req: &Request,
    peer: std::io::Result<std::net::SocketAddr>,
) -> Result<(TableHandle, Entry, Admitted), HttpResponse> {
    let Some(id) = req
        .path()
        .strip_prefix("/ws/")
        .filter(|_| state.settings.role.serves_browsers())
    else {
        return Err(super::pages::not_found());
    };
    if state.registry.draining() {
        return Err(refusal(
            RefusalCode::Draining,
            "This server is shutting down; try again in a moment.",
        ));
    }
    if super::guard::token_in_query(req.uri().query().unwrap_or_default()) {
        return Err(super::door::token_in_url());
    }
    if !super::guard::origin_allowed(req.headers(), &state.settings.site_origin) {
        return Err(refusal(
            RefusalCode::WrongOrigin,
            "This table's socket is only for pages of this site.",
        ));
    }
    let (table, entry) = match id.strip_prefix("w/") {
        Some(watch) => (watched_table(state, watch).await?, Entry::Watcher),
        None => seat_table(state, id).await?,
    };
    let peer =
        peer.map_err(|_| refusal(RefusalCode::NoAddress, "The connection has no address."))?;
    let client = state.client_address.key(peer.ip(), req.headers());
    let admitted = state.sockets.admit(client).map_err(|full| match full {
        Full::Node => refusal(
            RefusalCode::ServerFull,
            "This server holds as many sockets as it can; try again in a moment.",
        ),
        Full::Address => refusal(
            RefusalCode::TooManySocketsFromAddress,
            "Your address has as many sockets open as it may; close some tables first.",
        ),
    })?;
    Ok((table, entry, admitted))
}

/// The table of the watch id `watch`.
async fn watched_table(state: &AppState, watch: &str) -> Result<TableHandle, HttpResponse> {
    let key = state.router.watch_key().await.map_err(refused)?;
    let id = key
        .table(watch)
        .ok_or_else(|| refused(TableRefusal::not_found()))?;
    state.router.find(&id).await.map_err(refused)
}

/// The table `id`, for a seat's socket: the seat's token comes in the socket's first frame (an
/// address carrying one was refused before).
async fn seat_table(state: &AppState, id: &str) -> Result<(TableHandle, Entry), HttpResponse> {
    let table = find_table(state, id).await.map_err(refused)?;
    Ok((table, Entry::Seat))
}

/// Answers the request with `response` (its status, type and body, with the headers every answer
/// carries), and leaves the connection.
async fn refuse(framed: Framed<Clocked, Codec>, response: HttpResponse) {
    let status = response.status();
    count(status.as_u16());
    let kind = response.headers().get(header::CONTENT_TYPE).cloned();
    let body = response.into_body().try_into_bytes().unwrap_or_default();
    let mut answer = actix_http::Response::with_body(status, body);
    answer
        .head_mut()
        .set_connection_type(actix_http::ConnectionType::Close);
    if let Some(kind) = kind {
        answer.headers_mut().insert(header::CONTENT_TYPE, kind);
    }
    for (name, value) in super::guard::SECURITY_HEADERS {
        answer
            .headers_mut()
            .insert(name, header::HeaderValue::from_static(value));
    }
    let _ = SendResponse::new(framed, answer).await;
}

fn count(status: u16) {
    crate::metrics::metrics()
        .http_requests
        .with_label_values(&[ROUTE, status.to_string().as_str()])
        .inc();
}
