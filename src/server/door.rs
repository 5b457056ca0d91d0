//! The door every plain HTTP request comes through before its route: the caps on HTTP connections,
//! the end of a request's clock (`request_clock`), no seat token in a query, `HEAD` answered as `GET`,
//! and each route's limit on bodies.
//!
//! **Caps.** A connection is counted from the moment it is accepted until it closes or becomes a
//! WebSocket (a socket then counts under the socket caps), under the caps of `http_connections_per_node`
//! and `http_connections_per_address`, keyed by the peer's address, an IPv6 one by its /64
//! (`client_address`). That count is taken where actix-http lets a service see each new connection
//! (`on_connect_ext`), and the place lives in the connection's data, which the dispatcher drops when
//! the connection ends or hands it to the upgrade. A connection past a cap is still read up to its
//! first request's head (which the request clock bounds), so that it can be told why: 429 or 503, and
//! closed; but only a few at a time from one address (`REFUSALS_PER_ADDRESS`): past those, a
//! connection is shut at once, unanswered, so that a flood of connections from one address holds no
//! more descriptors than its cap and its refusals, and the node's health checks still find one free
//! (a refusal's first byte is due three seconds after its accept, like any connection's) (`chaikhana_http_connections_refused_total{cap="shut"}`). Every connection's first byte must
//! come within three seconds of its accept (`request_clock`). A connection from one of the `trusted_proxies` carries the requests of many clients, so it
//! takes no place of its own: each of its requests takes the place of the client it forwards, for as
//! long as the request is read and answered. `/healthz`, `/readyz` and `/metrics` are answered past the
//! caps, so that a node under a flood is not also taken for dead.
//!
//! Why the count is ours, and kept in the connection's data: actix-server's own cap
//! (`max_concurrent_connections`) knows no addresses, and past it a worker stops accepting, so the
//! health checks wait in the kernel's backlog with the flood. A counting acceptor in front of the
//! HTTP service could only drop a refused connection unanswered, or write an HTTP answer of its own;
//! through the connection's data the refusal is answered by the app like any other request (security
//! headers, metrics), and the place is given back by the dispatcher whichever way the connection ends.
//!
//! **Bodies.** Every route says the most it takes (`route`); a request declaring more is answered 413
//! before any of its body is read, and its connection closed; so is one that does not state its
//! length (chunked), on any route. actix-web's `PayloadConfig` is not used for this: it bounds only
//! what a body extractor reads, and a route without one (every page) never consults it.

use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll};

use actix_http::{ConnectionType, Extensions, HttpMessage, Method, Payload};
use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{HttpServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse, Route};
use bytes::Bytes;
use futures_util::Stream;

use super::caps::{Admitted, Caps, Full};
use super::client_address::ClientAddress;
use super::http::refusal;
use super::request_clock::{Clocked, RequestClock};
use super::AppState;
use crate::table::RefusalCode;

/// How many connections past a cap are read at once from one address, to be told why.
pub const REFUSALS_PER_ADDRESS: usize = 4;

/// The routes answered past every cap: what operators and load balancers ask.
pub const OPERATIONS: [&str; 3] = ["/metrics", "/healthz", "/readyz"];

/// A connection's standing at the door, kept in its data.
pub struct Visit {
    /// Its request clock, which also knows when a request on it was answered with the connection's
    /// close: actix-http still serves requests a client pipelined behind that one, so the door
    /// refuses them, and the connection reads no more.
    clock: Rc<RequestClock>,
    place: Place,
}

enum Place {
    /// The connection holds a place under the caps, given back when it is dropped.
    Held { _place: Admitted },
    /// A cap was full when it was accepted: it holds a place among the refusals being answered
    /// (none: it was shut at once).
    Refused {
        full: Full,
        _answering: Option<Admitted>,
    },
    /// It comes from a trusted proxy: each request takes its client's place.
    PerRequest,
}

/// The caps a connection is counted under: the connections', and the refusals' being answered.
pub struct Doorkeeper {
    pub connections: Arc<Caps>,
    pub refusals: Arc<Caps>,
}

impl Doorkeeper {
    pub fn new(connections: Arc<Caps>) -> Doorkeeper {
        Doorkeeper {
            connections,
            // Per address only: past the node's cap, a health check from any other address is
            // still read and answered.
            refusals: Caps::new(usize::MAX, REFUSALS_PER_ADDRESS),
        }
    }
}

/// Counts a new connection under the caps (`on_connect_ext`); one past a cap and past the refusals
/// being answered is shut at once.
pub fn arrive(io: &Clocked, data: &mut Extensions, door: &Doorkeeper, clients: &ClientAddress) {
    // A connection without an address is counted under the node's cap alone, as one address.
    let client = match io.stream().peer_addr() {
        Ok(peer) if clients.trusts(peer.ip().to_canonical()) => None,
        Ok(peer) => Some(clients.key(peer.ip(), &header::HeaderMap::new())),
        Err(_) => Some(std::net::Ipv6Addr::UNSPECIFIED.into()),
    };
    let place = match client.map(|client| (client, door.connections.admit(client))) {
        None => Place::PerRequest,
        Some((_, Ok(admitted))) => Place::Held { _place: admitted },
        Some((client, Err(full))) => match door.refusals.admit(client) {
            Ok(answering) => Place::Refused {
                full,
                _answering: Some(answering),
            },
            Err(_) => {
                crate::metrics::metrics()
                    .http_connections_refused
                    .with_label_values(&["shut"])
                    .inc();
                if let Err(e) =
                    socket2::SockRef::from(io.stream()).shutdown(std::net::Shutdown::Both)
                {
                    tracing::debug!(%e, "a connection past the caps could not be shut");
                }
                Place::Refused {
                    full,
                    _answering: None,
                }
            }
        },
    };
    data.insert(Visit {
        clock: io.clock().clone(),
        place,
    });
}

/// The door, as a middleware (`actix_web::middleware::from_fn`) of the site's app and of the
/// operations' app.
pub async fn at_the_door(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_boxed_body);
    };
    if req.conn_data::<Visit>().is_some_and(|v| v.clock.closing()) {
        let answer = refusal(
            RefusalCode::BadRequest,
            "This connection is closing: a request before this one on it was refused.",
        );
        let answer = closing(&req, answer);
        return Ok(req.into_response(answer));
    }
    let head_only = req.method() == Method::HEAD;
    match enter(&mut req, &state.door.connections, &state.client_address) {
        Err(turned_away) => {
            let answer = closing(&req, turned_away.answer());
            Ok(req.into_response(answer))
        }
        Ok(place) => {
            let clock = req.conn_data::<Visit>().map(|v| v.clock.clone());
            let answer = next.call(req).await;
            // A request from a trusted proxy holds its client's place until it is answered.
            drop(place);
            // The body this answer owes its client (none to a HEAD), for the next request's check
            // that the client had it (`request_clock`).
            if let (Some(clock), Ok(answer), false) = (&clock, &answer, head_only) {
                if let BodySize::Sized(bytes) = answer.response().body().size() {
                    clock.answered(bytes);
                }
            }
            answer.map(ServiceResponse::map_into_boxed_body)
        }
    }
}

/// Why a request is turned away at the door.
enum TurnedAway {
    TokenInQuery,
    /// A body that does not state its length (`Transfer-Encoding`): no route takes one, and the clock
    /// of a request whose body nobody reads would otherwise never stop.
    UnsizedBody,
    /// Sent before its client had the last answer on the connection (`request_clock`).
    Pipelined,
    Full(Full),
}

impl TurnedAway {
    fn answer(self) -> HttpResponse {
        match self {
            TurnedAway::TokenInQuery => token_in_url(),
            TurnedAway::UnsizedBody => refusal(
                RefusalCode::TooLarge,
                "A body must state its length (Content-Length).",
            ),
            TurnedAway::Pipelined => {
                crate::metrics::metrics()
                    .http_connections_cut
                    .with_label_values(&["pipelined"])
                    .inc();
                refusal(
                    RefusalCode::BadRequest,
                    "This server answers one request at a time on a connection: send the next \
                     once the last answer has come.",
                )
            }
            TurnedAway::Full(full) => refused(full),
        }
    }
}

/// Lets `req` in: `Ok` with the place its request holds, if it holds one of its own; `Err` with why
/// it is turned away (its connection then closes).
fn enter(
    req: &mut ServiceRequest,
    caps: &Arc<Caps>,
    clients: &ClientAddress,
) -> Result<Option<Admitted>, TurnedAway> {
    // The answer to HEAD is the answer to GET: actix-http writes its head and leaves its body out.
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
    }
    if super::guard::token_in_query(req.query_string()) {
        return Err(TurnedAway::TokenInQuery);
    }
    if req.headers().contains_key(header::TRANSFER_ENCODING) {
        return Err(TurnedAway::UnsizedBody);
    }
    // The operations' own listener keeps no standing for its connections.
    let Some(visit) = req.conn_data::<Visit>() else {
        return Ok(None);
    };
    if !visit.clock.caught_up() {
        return Err(TurnedAway::Pipelined);
    }
    let clock = visit.clock.clone();
    let standing = match &visit.place {
        Place::Held { .. } => Ok(false),
        Place::Refused { full, .. } => Err(*full),
        Place::PerRequest => Ok(true),
    };
    watch_to_the_end(req, clock);
    if OPERATIONS.contains(&req.path()) {
        return Ok(None);
    }
    let per_request = standing.map_err(TurnedAway::Full)?;
    match req.peer_addr().filter(|_| per_request) {
        Some(peer) => caps
            .admit(clients.key(peer.ip(), req.headers()))
            .map(Some)
            .map_err(TurnedAway::Full),
        None => Ok(None),
    }
}

/// Stops the request's clock once its body has been read to its end (at once when it has none).
fn watch_to_the_end(req: &mut ServiceRequest, clock: Rc<RequestClock>) {
    match req.take_payload() {
        Payload::None => clock.request_read(),
        payload => req.set_payload(Payload::Stream {
            payload: Box::pin(ToTheEnd { payload, clock }),
        }),
    }
}

/// A request's body, which stops its clock when it ends.
struct ToTheEnd {
    payload: Payload,
    clock: Rc<RequestClock>,
}

impl Stream for ToTheEnd {
    type Item = Result<Bytes, actix_http::error::PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        let next = Pin::new(&mut this.payload).poll_next(cx);
        if let Poll::Ready(None) = next {
            this.clock.request_read();
        }
        next
    }
}

/// The answer past a cap, counted.
fn refused(full: Full) -> HttpResponse {
    let cap = match full {
        Full::Address => "address",
        Full::Node => "node",
    };
    crate::metrics::metrics()
        .http_connections_refused
        .with_label_values(&[cap])
        .inc();
    match full {
        Full::Address => refusal(
            RefusalCode::TooManyConnectionsFromAddress,
            "Your address has as many connections open as it may; try again in a moment.",
        ),
        Full::Node => refusal(
            RefusalCode::ServerFull,
            "This server holds as many connections as it can; try again in a moment.",
        ),
    }
}

/// The refusal of a seat token written in an address.
pub fn token_in_url() -> HttpResponse {
    refusal(
        RefusalCode::TokenInUrl,
        "A seat's token goes in a request's body or its socket's first frame ({\"type\": \"hello\", \"token\": ...}), never in an address.",
    )
}

/// `answer`, after which the connection closes (what was not read of the request is never read);
/// a request pipelined behind it is refused (see [`Visit`]).
fn closing(req: &ServiceRequest, mut answer: HttpResponse) -> HttpResponse {
    if let Some(visit) = req.conn_data::<Visit>() {
        visit.clock.close();
    }
    answer.head_mut().set_connection_type(ConnectionType::Close);
    answer
}

/// `route` at `path`, taking a body of at most `body_limit` bytes (0: none). A request that changes
/// something (any but GET and HEAD) sent by a page of another site is refused (`wrong-origin`), as a
/// WebSocket upgrade is: another site's page cannot open tables, join them or enter the pairing
/// queues in its visitors' names.
pub fn route(path: &str, route: Route, body_limit: usize) -> impl HttpServiceFactory {
    web::resource(path).route(route).wrap_fn(move |req, srv| {
        use actix_web::dev::Service;
        use futures_util::future::{ready, Either};
        match body_too_large(&req, body_limit).or_else(|| from_another_site(&req)) {
            Some(answer) => {
                let answer = closing(&req, answer);
                Either::Left(ready(Ok::<_, actix_web::Error>(req.into_response(answer))))
            }
            None => Either::Right(srv.call(req)),
        }
    })
}

/// The refusal of a request that changes something, sent by a page of another site.
fn from_another_site(req: &ServiceRequest) -> Option<HttpResponse> {
    if matches!(
        *req.method(),
        actix_web::http::Method::GET | actix_web::http::Method::HEAD
    ) {
        return None;
    }
    let site = req
        .app_data::<web::Data<super::AppState>>()
        .map(|state| state.settings.site_origin.clone())
        .unwrap_or_default();
    let cross_site = req
        .headers()
        .get("sec-fetch-site")
        .is_some_and(|v| v.as_bytes() == b"cross-site");
    (cross_site || !super::guard::origin_allowed(req.headers(), &site)).then(|| {
        refusal(
            RefusalCode::WrongOrigin,
            "This site's pages alone may send this request.",
        )
    })
}

/// The refusal of a body larger than `limit`, before any of it is read (one of no stated length was
/// turned away at the door).
fn body_too_large(req: &ServiceRequest, limit: usize) -> Option<HttpResponse> {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|length| length.to_str().ok()?.parse::<u64>().ok());
    if declared.unwrap_or(0) <= limit as u64 {
        return None;
    }
    let message = if limit == 0 {
        "This address takes no body.".to_string()
    } else {
        format!("This address takes a body of at most {limit} bytes.")
    };
    Some(refusal(RefusalCode::TooLarge, &message))
}
