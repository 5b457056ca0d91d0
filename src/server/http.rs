//! HTTP routes: open a table, join one, the table's page, and the WebSocket upgrade.

use std::sync::Arc;

use actix::{Actor, AsyncContext};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::{json, Value};

use super::pages;
use super::session::WsSession;
use super::AppState;
use crate::games;
use crate::table::{
    looks_like_secret, CheckToken, Join, TableConfig, TableId, TableKind, TableRefusal, Token,
};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/tables", web::post().to(create_table))
        .route("/api/tables/{id}/join", web::post().to(join_table))
        .route("/t/{id}", web::get().to(table_page))
        .route("/ws/{id}", web::get().to(open_socket))
        .route("/metrics", web::get().to(metrics_text))
        .route("/healthz", web::get().to(healthz))
        .route("/readyz", web::get().to(readyz));
    pages::routes(cfg);
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

/// The process takes new tables and sockets: not while it drains.
async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    if state.registry.draining() {
        return refusal(503, "draining", "This server is shutting down.");
    }
    HttpResponse::Ok().json(json!({ "ready": true, "tables": state.router.open_tables() }))
}

fn refusal(status: u16, code: &str, message: &str) -> HttpResponse {
    HttpResponse::build(StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST))
        .json(json!({ "code": code, "message": message }))
}

fn refused(r: TableRefusal) -> HttpResponse {
    refusal(r.status, r.code, &r.message)
}

/// The body of `POST /api/tables`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTable {
    game: String,
    opponents: String,
    #[serde(default)]
    length: Option<Value>,
}

async fn create_table(state: web::Data<AppState>, body: web::Bytes) -> HttpResponse {
    if state.registry.draining() {
        return refusal(
            503,
            "draining",
            "This server is shutting down; try again in a moment.",
        );
    }
    let request: NewTable = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => {
            let message = format!(
                "Send JSON like {{\"game\": \"panjpar\", \"opponents\": \"computer\", \"length\": 3}}: {e}."
            );
            return refusal(400, "bad-request", &message);
        }
    };
    let kind = match request.opponents.as_str() {
        "computer" => TableKind::Computer,
        "friends" => TableKind::Friends,
        other => {
            let message = format!("\"opponents\" is \"computer\" or \"friends\", not \"{other}\".");
            return refusal(400, "bad-request", &message);
        }
    };
    let length = match games::match_length(&request.game, request.length.as_ref()) {
        Ok(length) => length,
        Err(message) => return refusal(400, "bad-request", &message),
    };
    let router = state.router.clone();
    let config = TableConfig {
        bot_delay: state.settings.bot_delay(),
        seat_hold: state.settings.seat_hold(),
        idle_expiry: state.settings.idle_expiry(),
        on_closed: Arc::new(move |id: &TableId| router.remove(id)),
    };
    match games::open_table(&request.game, kind, length, config) {
        Ok((handle, ticket)) => {
            let id = handle.id.clone();
            state.router.register(handle);
            tracing::info!(table = %id, game = %request.game, ?kind, "opened a table");
            HttpResponse::Created().json(json!({
                "table": id,
                "seat": ticket.seat,
                "token": ticket.token,
                "link": id.link(),
            }))
        }
        Err(message) => refusal(400, "bad-request", &message),
    }
}

fn find_table(state: &AppState, id: &str) -> Result<crate::table::TableHandle, TableRefusal> {
    TableId::parse(id)
        .and_then(|id| state.router.find(&id))
        .ok_or_else(TableRefusal::not_found)
}

async fn join_table(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let table = match find_table(&state, &path) {
        Ok(table) => table,
        Err(r) => return refused(r),
    };
    match table.join.send(Join).await {
        Ok(Ok(ticket)) => HttpResponse::Created().json(json!({
            "seat": ticket.seat,
            "token": ticket.token,
            "link": table.id.link(),
        })),
        Ok(Err(r)) => refused(r),
        Err(_) => refused(TableRefusal::not_found()),
    }
}

async fn table_page(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    match find_table(&state, &path) {
        Ok(table) => pages::table_page(table.game),
        Err(_) => pages::not_found(),
    }
}

#[derive(Deserialize)]
struct SocketQuery {
    token: Option<String>,
}

async fn open_socket(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<SocketQuery>,
    req: HttpRequest,
    body: web::Payload,
) -> HttpResponse {
    if state.registry.draining() {
        return refusal(
            503,
            "draining",
            "This server is shutting down; try again in a moment.",
        );
    }
    let table = match find_table(&state, &path) {
        Ok(table) => table,
        Err(r) => return refused(r),
    };
    let Some(token) = query.token.as_deref().filter(|t| looks_like_secret(t)) else {
        return refused(TableRefusal::wrong_token());
    };
    let token = Token::from_client(token);
    match table.check_token.send(CheckToken(token.clone())).await {
        Ok(Ok(_)) => {}
        Ok(Err(r)) => return refused(r),
        Err(_) => return refused(TableRefusal::not_found()),
    }
    let (response, out, stream) = match actix_ws::handle(&req, body) {
        Ok(parts) => parts,
        Err(e) => return refusal(400, "not-a-websocket", &e.to_string()),
    };
    let stream = stream.max_frame_size(4 * state.settings.max_frame_bytes.max(1024));
    let conn = state.registry.new_conn_id();
    WsSession::create(|ctx| {
        ctx.add_stream(stream);
        WsSession::new(
            conn,
            token,
            table,
            out,
            state.settings.clone(),
            state.registry.clone(),
        )
    });
    response
}
