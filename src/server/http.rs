//! HTTP routes: open a table, join one, the table's page (the WebSocket upgrade is `socket`'s).

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::{json, Value};

use super::door::route;
use super::pages;
use super::AppState;
use crate::catalog;
use crate::table::OpenTable;
use crate::table::{Join, Level, RefusalCode, TableId, TableKind, TableRefusal, Token};

/// The site's routes, each with the most it takes of a body; `with_operations` adds `operations`
/// (when they have no listener of their own).
pub fn routes(cfg: &mut web::ServiceConfig, with_operations: bool) {
    // A new table's options are a few dozen bytes.
    cfg.service(route("/api/tables", web::post().to(create_table), 1024))
        .service(route(
            "/api/tables/mine",
            web::post().to(super::mine::your_games),
            super::mine::BODY_LIMIT,
        ))
        // A join's body is at most its agreement to the hints, `{"hints": true}`.
        .service(route(
            "/api/tables/{id}/join",
            web::post().to(join_table),
            64,
        ))
        .service(route("/t/{id}", web::get().to(table_page), 0))
        .service(route("/ws/{id}", web::get().to(not_a_socket), 0));
    if with_operations {
        operations(cfg);
    }
    super::pairing::routes(cfg);
    pages::routes(cfg);
}

/// What operators and load balancers use: metrics, liveness and readiness (`door::OPERATIONS`).
pub fn operations(cfg: &mut web::ServiceConfig) {
    let [metrics, health, ready] = super::door::OPERATIONS;
    cfg.service(route(metrics, web::get().to(metrics_text), 0))
        .service(route(health, web::get().to(healthz), 0))
        .service(route(ready, web::get().to(readyz), 0));
}

/// Every metric, in the Prometheus text format.
async fn metrics_text() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(crate::metrics::metrics().render())
}

/// The process is alive.
async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "alive": true }))
}

/// The query of `GET /readyz`: `?for=computer` asks whether the process takes a new strong computer
/// table.
#[derive(Deserialize)]
struct ReadyFor {
    #[serde(rename = "for", default)]
    what: Option<String>,
}

/// The process takes new tables and sockets: not while it drains. It also says whether it takes new
/// strong computer tables (`computer_tables`): not while its thinking pool is saturated. Asked
/// `?for=computer`, that is the answer's status too (503 when saturated), for a balancer that places
/// computer tables.
async fn readyz(state: web::Data<AppState>, query: web::Query<ReadyFor>) -> HttpResponse {
    if state.registry.draining() {
        return refusal(RefusalCode::Draining, "This server is shutting down.");
    }
    if !state.router.store_open() {
        return refused(TableRefusal::store_closed());
    }
    let load = crate::thinking::pool().load();
    if query.what.as_deref() == Some("computer") && load.saturated {
        return refused(TableRefusal::computers_busy());
    }
    HttpResponse::Ok().json(json!({
        "ready": true,
        "tables": state.router.open_tables(),
        "computer_tables": !load.saturated,
        "thinking": {
            "threads": load.threads,
            "waiting": load.waiting,
            "thinking": load.thinking,
            "oldest_wait_ms": load.oldest_wait.as_millis() as u64,
        },
    }))
}

/// The HTTP status of an answer that refuses with `code`.
pub(super) fn status(code: RefusalCode) -> StatusCode {
    match code {
        RefusalCode::BadRequest
        | RefusalCode::NotAWebsocket
        | RefusalCode::NoAddress
        | RefusalCode::Binary => StatusCode::BAD_REQUEST,
        RefusalCode::WrongToken | RefusalCode::WrongOrigin | RefusalCode::TokenInUrl => {
            StatusCode::FORBIDDEN
        }
        RefusalCode::NoSuchTable | RefusalCode::NotWaiting | RefusalCode::NotListed => {
            StatusCode::NOT_FOUND
        }
        RefusalCode::MatchEnded | RefusalCode::TableExpired | RefusalCode::RecordLost => {
            StatusCode::GONE
        }
        RefusalCode::SeatGivenAway => StatusCode::FORBIDDEN,
        RefusalCode::TableFull | RefusalCode::MatchOver => StatusCode::CONFLICT,
        RefusalCode::HintsToAgree => StatusCode::PRECONDITION_REQUIRED,
        RefusalCode::TooManySocketsForSeat
        | RefusalCode::TooManyWatchers
        | RefusalCode::TooManyTables
        | RefusalCode::TooManySocketsFromAddress
        | RefusalCode::TooManyConnectionsFromAddress
        | RefusalCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        RefusalCode::Busy
        | RefusalCode::Unavailable
        | RefusalCode::Draining
        | RefusalCode::ServerFull => StatusCode::SERVICE_UNAVAILABLE,
        RefusalCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        // These are said only in a socket's error frames, about a request the socket made of its
        // table; as an HTTP answer, such a request would be a conflict with the table's state.
        RefusalCode::StaleVersion
        | RefusalCode::WrongMoment
        | RefusalCode::BadAction
        | RefusalCode::BadLevel
        | RefusalCode::BadName
        | RefusalCode::PhrasesFriendsOnly
        | RefusalCode::VoiceFriendsOnly
        | RefusalCode::VoiceMoved
        | RefusalCode::VoiceOff
        | RefusalCode::PeerVoiceOff
        | RefusalCode::BadSignal
        | RefusalCode::WatchersCannotAct
        | RefusalCode::DealInPlay
        | RefusalCode::NoSuchDeal
        | RefusalCode::NoSuchStep
        | RefusalCode::NoHints
        | RefusalCode::NotYourTurn
        | RefusalCode::NotYourDecisions
        | RefusalCode::BadRecord
        | RefusalCode::ContributionRefused => StatusCode::CONFLICT,
    }
}

/// An answer refusing with `code`, its status chosen by [`status`].
pub(super) fn refusal(code: RefusalCode, message: &str) -> HttpResponse {
    HttpResponse::build(status(code)).json(json!({ "code": code, "message": message }))
}

pub(super) fn refused(r: TableRefusal) -> HttpResponse {
    let answer = refusal(r.code, &r.message);
    match r.code {
        RefusalCode::Busy | RefusalCode::Unavailable => retry_after(answer, 5),
        _ => answer,
    }
}

/// The body of `POST /api/tables`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTable {
    game: String,
    opponents: String,
    #[serde(default)]
    length: Option<Value>,
    /// At a computer table, how well the computers play: "gentle", "standard" (the default), "clever"
    /// or "strong".
    #[serde(default)]
    level: Option<String>,
    /// At a friends table, whether the host offers the coach's hints to every player (each agrees
    /// before taking a seat).
    #[serde(default)]
    hints: bool,
    /// At a friends table, whether it is listed on its game's page for anyone to take a free seat.
    #[serde(default)]
    open: bool,
    /// The name an open table is listed under (the host's), if any.
    #[serde(default)]
    name: Option<String>,
    /// At a computer table, whether its first deal is a guided one: the computers wait for the
    /// guide's first words before they move (`guide-shown`).
    #[serde(default)]
    guided: bool,
}

async fn create_table(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    if state.registry.draining() {
        return refusal(
            RefusalCode::Draining,
            "This server is shutting down; try again in a moment.",
        );
    }
    if let Err(wait) = over_quota(&state, &req, &state.quota) {
        let message = format!(
            "This address has opened {} tables in the last minute; try again in {wait} s.",
            state.settings.tables_per_minute
        );
        return retry_after(refusal(RefusalCode::TooManyTables, &message), wait);
    }
    let request: NewTable = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => {
            let message = format!(
                "Send JSON like {{\"game\": \"panjpar\", \"opponents\": \"computer\", \"length\": 3}}: {e}."
            );
            return refusal(RefusalCode::BadRequest, &message);
        }
    };
    let kind = match request.opponents.as_str() {
        "computer" => TableKind::Computer,
        "friends" => TableKind::Friends,
        other => {
            let message = format!("\"opponents\" is \"computer\" or \"friends\", not \"{other}\".");
            return refusal(RefusalCode::BadRequest, &message);
        }
    };
    let level = match (kind, request.level.as_deref()) {
        (_, None) => Level::Standard,
        (TableKind::Computer, Some(name)) => match Level::parse(name) {
            Ok(level) => level,
            Err(message) => return refusal(RefusalCode::BadRequest, &message),
        },
        (TableKind::Friends, Some(_)) => {
            let message = "A level is chosen only at a table against the computer.";
            return refusal(RefusalCode::BadRequest, message);
        }
    };
    if request.hints && kind == TableKind::Computer {
        let message = "Hints are chosen only among friends: a table against the computer always \
                       offers them.";
        return refusal(RefusalCode::BadRequest, message);
    }
    if request.guided && kind == TableKind::Friends {
        let message = "A guided deal is played against the computer.";
        return refusal(RefusalCode::BadRequest, message);
    }
    if (request.open || request.name.is_some()) && kind == TableKind::Computer {
        let message = "Only a table for friends is listed for others to join.";
        return refusal(RefusalCode::BadRequest, message);
    }
    let listed_as = match request.name.as_deref().map(crate::table::clean_name) {
        Some(Err(message)) => return refusal(RefusalCode::BadName, &message),
        Some(Ok(name)) => name,
        None => None,
    };
    let (game, length) = match catalog::find(&request.game).and_then(|game| {
        game.match_length(request.length.as_ref())
            .map(|length| (game.name(), length))
    }) {
        Ok(found) => found,
        Err(message) => return refusal(RefusalCode::BadRequest, &message),
    };
    let token = Token::random();
    let open = request.open;
    let request = OpenTable {
        game: game.to_string(),
        kind,
        level,
        length,
        hints: request.hints,
        guided: request.guided,
        creator: token.hash(),
    };
    match state.router.open(request).await {
        Ok(id) => {
            tracing::info!(table = %id, %game, ?kind, ?level, "opened a table");
            let by = address_of(&state, &req);
            let listed = open && {
                let listing =
                    super::pairing::list_open(&state, &id, game, length, listed_as, &token, &by);
                listing.await == Ok(true)
            };
            let mut answer = json!({
                "table": id,
                "seat": 0,
                "token": token,
                "link": id.link(),
                "listed": listed,
            });
            if open && !listed {
                answer["not_listed"] = json!(format!(
                    "The table is open to whoever has its link, but not listed: an address may \
                     have {} tables listed at once.",
                    crate::lobby::LISTED_PER_ADDRESS
                ));
            }
            HttpResponse::Created().json(answer)
        }
        Err(r) => refused(r),
    }
}

pub(super) async fn find_table(
    state: &AppState,
    id: &str,
) -> Result<crate::table::TableHandle, TableRefusal> {
    let id = TableId::parse(id).ok_or_else(TableRefusal::not_found)?;
    state.router.find(&id).await
}

/// The body of `POST /api/tables/{id}/join`: none, or the agreement to the hints a table offers.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Joining {
    #[serde(default)]
    hints: bool,
}

async fn join_table(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    if let Err(wait) = over_quota(&state, &req, &state.joins_quota) {
        let message = format!(
            "This address has taken {} seats in the last minute; try again in {wait} s.",
            state.settings.joins_per_minute
        );
        return retry_after(refusal(RefusalCode::RateLimited, &message), wait);
    }
    let joining = if body.is_empty() {
        Joining::default()
    } else {
        match serde_json::from_slice::<Joining>(&body) {
            Ok(joining) => joining,
            Err(e) => {
                let message =
                    format!("Send no body, or {{\"hints\": true}} to agree to hints: {e}.");
                return refusal(RefusalCode::BadRequest, &message);
            }
        }
    };
    let table = match find_table(&state, &path).await {
        Ok(table) => table,
        Err(r) => return refused(r),
    };
    let token = Token::random();
    let join = Join {
        key: token.hash(),
        agrees_to_hints: joining.hints,
    };
    match table.join.send(join).await {
        Ok(Ok(seat)) => {
            // An open table leaves its game's list once its seats are all taken.
            if let Err(r) = state.router.lobby().took_seat(table.id.as_str()).await {
                tracing::warn!(table = %table.id, "the open list missed a seat taken: {}", r.message);
            }
            state.open_lists.changed();
            HttpResponse::Created().json(json!({
            "seat": seat,
            "token": token,
            "link": table.id.link(),
            }))
        }
        // Whoever holds the link of a table whose seats are all taken may watch it instead.
        Ok(Err(r)) if matches!(r.code, RefusalCode::TableFull | RefusalCode::MatchOver) => {
            match state.router.watch_key().await {
                Ok(key) => HttpResponse::Conflict().json(json!({
                    "code": r.code,
                    "message": r.message,
                    "watch": key.link(&table.id),
                })),
                Err(_) => refused(r),
            }
        }
        Ok(Err(r)) => refused(r),
        Err(_) => refused(TableRefusal::unavailable()),
    }
}

async fn table_page(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    match find_table(&state, &path).await {
        Ok(table) => pages::table_page(table.game),
        Err(TableRefusal {
            code: RefusalCode::NoSuchTable,
            ..
        }) => pages::not_found(),
        Err(TableRefusal { code, .. })
            if matches!(
                code,
                RefusalCode::TableExpired | RefusalCode::MatchEnded | RefusalCode::RecordLost
            ) =>
        {
            let reason = match code {
                RefusalCode::TableExpired => "expired",
                RefusalCode::MatchEnded => "ended",
                _ => "lost",
            };
            pages::gone_page(reason, "")
        }
        // The table is waking or recovering: the page itself waits for it and plays on.
        Err(TableRefusal {
            code: RefusalCode::Unavailable,
            ..
        }) => {
            let mut page = pages::table_page("card");
            *page.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
            page
        }
        Err(r) => refused(r),
    }
}

/// `/ws/{id}` without the upgrade headers (those requests go to `socket::upgrade`).
async fn not_a_socket() -> HttpResponse {
    refusal(
        RefusalCode::NotAWebsocket,
        "This address takes WebSocket connections only.",
    )
}

/// The client address a request is counted under, as text (empty when the connection has none).
pub(super) fn address_of(state: &AppState, req: &HttpRequest) -> String {
    req.peer_addr()
        .map(|peer| {
            state
                .client_address
                .key(peer.ip(), req.headers())
                .to_string()
        })
        .unwrap_or_default()
}

/// Counts a request of the client's against `quota`: `Err(seconds)` to wait when its minute's are
/// used up.
pub(super) fn over_quota(
    state: &AppState,
    req: &HttpRequest,
    quota: &super::guard::MinuteQuota,
) -> Result<(), u64> {
    match req.peer_addr() {
        Some(peer) => quota.take(state.client_address.key(peer.ip(), req.headers())),
        None => Ok(()),
    }
}

/// `answer` (a 429), saying when to try again.
pub(super) fn retry_after(mut answer: HttpResponse, wait: u64) -> HttpResponse {
    if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&wait.to_string()) {
        answer
            .headers_mut()
            .insert(actix_web::http::header::RETRY_AFTER, value);
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_that_reaches_http_is_answered_with_its_status() {
        let answers = [
            (RefusalCode::BadRequest, 400),
            (RefusalCode::NotAWebsocket, 400),
            (RefusalCode::NoAddress, 400),
            (RefusalCode::WrongToken, 403),
            (RefusalCode::WrongOrigin, 403),
            (RefusalCode::TokenInUrl, 403),
            (RefusalCode::NoSuchTable, 404),
            (RefusalCode::TableFull, 409),
            (RefusalCode::MatchOver, 409),
            (RefusalCode::TooManySocketsForSeat, 429),
            (RefusalCode::TooManyWatchers, 429),
            (RefusalCode::TooManyTables, 429),
            (RefusalCode::TooManySocketsFromAddress, 429),
            (RefusalCode::TooManyConnectionsFromAddress, 429),
            (RefusalCode::TooLarge, 413),
            (RefusalCode::Busy, 503),
            (RefusalCode::Unavailable, 503),
            (RefusalCode::Draining, 503),
            (RefusalCode::ServerFull, 503),
        ];
        for (code, answer) in answers {
            assert_eq!(status(code).as_u16(), answer, "{code:?}");
        }
    }
}
