//! `POST /api/tables/mine`: "Your games" on the home page. The browser sends the tables it holds a
//! seat at, each with its seat token (in the body, never in a URL), and hears how each stands: read
//! from the tables' stored records, so that listing a sleeping table does not wake it.
//!
//! Each address is held to `your_games_per_minute`; and the whole node answers one such request at
//! a time (`Listings`), a few more waiting their turn and the rest told to come back in a second
//! (503 `busy`), so that many addresses asking at once take one share of the cores and the store,
//! never the tables' (each record is read on a blocking thread, never one per table at once).

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::{json, Value};

use super::http::{over_quota, refusal, retry_after};
use super::AppState;
use crate::catalog;
use crate::routing;
use crate::table::{RefusalCode, TableId, TableRefusal, Token};

/// One "Your games" answered at a time on this node, and at most `WAITING` more waiting their turn.
#[derive(Default)]
pub struct Listings {
    turn: tokio::sync::Mutex<()>,
    waiting: std::sync::atomic::AtomicUsize,
}

/// How many requests may wait their turn.
const WAITING: usize = 8;

impl Listings {
    /// This request's turn, or `None` when too many are waiting already.
    async fn turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        use std::sync::atomic::Ordering;
        if let Ok(turn) = self.turn.try_lock() {
            return Some(turn);
        }
        if self.waiting.fetch_add(1, Ordering::Relaxed) >= WAITING {
            self.waiting.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        let turn = self.turn.lock().await;
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        Some(turn)
    }
}

/// The most tables one request may ask about.
pub const MAX_TABLES: usize = 50;

/// The most a request's body may hold: room for `MAX_TABLES` ids and tokens (about 90 bytes each as
/// JSON), twice over.
pub const BODY_LIMIT: usize = 2 * MAX_TABLES * 90;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Asked {
    tables: Vec<Ask>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Ask {
    id: String,
    token: String,
}

pub(super) async fn your_games(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    if let Err(wait) = over_quota(&state, &req, &state.games_quota) {
        let message = format!(
            "This address has asked for its games {} times in the last minute; try again in {wait} s.",
            state.settings.your_games_per_minute
        );
        return retry_after(refusal(RefusalCode::RateLimited, &message), wait);
    }
    let asked: Asked = match serde_json::from_slice(&body) {
        Ok(asked) => asked,
        Err(e) => {
            let message = format!(
                "Send JSON like {{\"tables\": [{{\"id\": \"...\", \"token\": \"...\"}}]}}: {e}."
            );
            return refusal(RefusalCode::BadRequest, &message);
        }
    };
    if asked.tables.len() > MAX_TABLES {
        let message = format!("Ask about at most {MAX_TABLES} tables at once.");
        return refusal(RefusalCode::BadRequest, &message);
    }
    let Some(_turn) = state.listings.turn().await else {
        let message = "Many are asking for their games just now; try again in a second.";
        return retry_after(refusal(RefusalCode::Busy, message), 1);
    };
    let mut answers = Vec::with_capacity(asked.tables.len());
    for ask in &asked.tables {
        answers.push(listing(&state, ask).await);
    }
    HttpResponse::Ok().json(json!({ "tables": answers }))
}

/// How one table stands for the seat of `ask.token`, or why it cannot be listed.
async fn listing(state: &AppState, ask: &Ask) -> Value {
    let closed = |reason: &str| json!({ "id": ask.id, "open": false, "reason": reason });
    let Some(id) = TableId::parse(&ask.id) else {
        return closed("unknown");
    };
    let key = Token::from_client(&ask.token).hash();
    let listed = match state.router.stored(&id).await {
        Ok((snapshot, touched)) => catalog::find(&snapshot.game)
            .map_err(|_| TableRefusal::unavailable())
            .and_then(|game| {
                let policy = routing::table_policy(&state.settings);
                game.listing(id, snapshot, &key, touched, policy)
            }),
        Err(refusal) => Err(refusal),
    };
    match listed {
        Ok(listing) => serde_json::to_value(listing).unwrap_or_else(|_| closed("unknown")),
        Err(refusal) => closed(match refusal.code {
            RefusalCode::TableExpired => "expired",
            RefusalCode::MatchEnded => "ended",
            RefusalCode::RecordLost => "lost",
            RefusalCode::SeatGivenAway => "given-away",
            RefusalCode::WrongToken => "wrong-token",
            RefusalCode::NoSuchTable => "unknown",
            _ => "unavailable",
        }),
    }
}
