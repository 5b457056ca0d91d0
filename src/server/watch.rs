//! Watch links over HTTP: a seat asks for its table's watch link (`POST /api/tables/{id}/watch` with
//! its token in the body, never in the address; whoever is refused a seat at a full table is given it
//! with the refusal, `http::join_table`), and `/w/{watch}` serves the table's page to a
//! watcher, who then opens `/ws/w/{watch}` (see `socket`).

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::json;

use super::door::route;
use super::http::{find_table, refused};
use super::{pages, AppState};
use crate::table::{looks_like_secret, CheckToken, RefusalCode, TableRefusal, Token};

pub fn routes(cfg: &mut web::ServiceConfig) {
    // A seat's token, in a line of JSON.
    cfg.service(route(
        "/api/tables/{id}/watch",
        web::post().to(watch_link),
        256,
    ))
    .service(route("/w/{watch}", web::get().to(watch_page), 0));
}

/// The body of `POST /api/tables/{id}/watch`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatProof {
    token: String,
}

async fn watch_link(
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let Ok(SeatProof { token }) = serde_json::from_slice(&body) else {
        return super::http::refusal(
            RefusalCode::BadRequest,
            "Send JSON like {\"token\": \"...\"}: the seat's token.",
        );
    };
    if !looks_like_secret(&token) {
        return refused(TableRefusal::wrong_token());
    }
    let table = match find_table(&state, &path).await {
        Ok(table) => table,
        Err(r) => return refused(r),
    };
    let token = Token::from_client(&token);
    match table.check_token.send(CheckToken(token.hash())).await {
        Ok(Ok(_)) => {}
        // A seat that holds every socket it may is still the seat: its token is good.
        Ok(Err(TableRefusal {
            code: RefusalCode::TooManySocketsForSeat,
            ..
        })) => {}
        Ok(Err(r)) => return refused(r),
        Err(_) => return refused(TableRefusal::not_found()),
    }
    match state.router.watch_key().await {
        Ok(key) => HttpResponse::Ok().json(json!({ "watch": key.link(&table.id) })),
        Err(r) => refused(r),
    }
}

async fn watch_page(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let key = match state.router.watch_key().await {
        Ok(key) => key,
        Err(r) => return refused(r),
    };
    let Some(id) = key.table(&path) else {
        return pages::not_found();
    };
    match state.router.find(&id).await {
        Ok(table) => pages::table_page(table.game),
        Err(TableRefusal {
            code: RefusalCode::NoSuchTable,
            ..
        }) => pages::not_found(),
        Err(r) => refused(r),
    }
}
