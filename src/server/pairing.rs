//! The lobby's routes: "Play a person now" (enter a queue, stand in it, leave it) and the open tables
//! (their list, and the host's "still here" and "close"). A formation the lobby hands back is seated
//! here: a friends table opened and joined through the router, as a link's visitors would.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::{json, Value};

use super::door::route;
use super::http::{over_quota, refusal, refused, retry_after};
use super::AppState;
use crate::catalog;
use crate::lobby::{random_id, Asked, Entering, Formation, Listing, Place, Standing};
use crate::metrics::metrics;
use crate::table::{Join, Level, OpenTable, RefusalCode, TableId, TableKind, TableRefusal, Token};

/// The lobby's routes, each with the most it takes of a body.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(route("/api/pairing", web::post().to(enter), 256))
        .service(route("/api/pairing/ask", web::post().to(ask), 128))
        .service(route("/api/pairing/leave", web::post().to(leave), 128))
        .service(route("/api/open-tables/host", web::post().to(host), 256))
        .service(route(
            "/api/open-tables/{game}",
            web::get().to(open_tables),
            0,
        ));
}

/// The time now, in Unix ms.
pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A body read as `T`, or the answer refusing it with `example` of what to send.
fn body<T: serde::de::DeserializeOwned>(
    body: &[u8],
    example: &str,
) -> Result<T, Box<HttpResponse>> {
    serde_json::from_slice(body).map_err(|e| {
        let message = format!("Send JSON like {example}: {e}.");
        Box::new(refusal(RefusalCode::BadRequest, &message))
    })
}

/// The body of `POST /api/pairing`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Enter {
    game: String,
    #[serde(default)]
    length: Option<Value>,
    /// The browser's own random id (kept in its storage): one queue entry per browser.
    browser: String,
}

/// The body naming a ticket.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Ticket {
    ticket: String,
}

async fn enter(state: web::Data<AppState>, req: HttpRequest, bytes: web::Bytes) -> HttpResponse {
    if state.registry.draining() {
        return refusal(
            RefusalCode::Draining,
            "This server is shutting down; try again in a moment.",
        );
    }
    let asked: Enter = match body(
        &bytes,
        r#"{"game": "panjpar", "length": 3, "browser": "…"}"#,
    ) {
        Ok(asked) => asked,
        Err(answer) => return *answer,
    };
    if !(8..=64).contains(&asked.browser.len())
        || !asked
            .browser
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        let message = "\"browser\" is 8 to 64 letters, digits, '-' or '_'.";
        return refusal(RefusalCode::BadRequest, message);
    }
    let game = match catalog::find(&asked.game) {
        Ok(game) => game,
        Err(message) => return refusal(RefusalCode::BadRequest, &message),
    };
    let length = match game.match_length(asked.length.as_ref()) {
        Ok(length) => length,
        Err(message) => return refusal(RefusalCode::BadRequest, &message),
    };
    if let Err(wait) = over_quota(&state, &req, &state.quota) {
        let message = format!(
            "This address has opened or waited for {} tables in the last minute; try again in {wait} s.",
            state.settings.tables_per_minute
        );
        return retry_after(refusal(RefusalCode::TooManyTables, &message), wait);
    }
    let entering = Entering {
        game: game.name(),
        length,
        needed: game.seats(),
        browser: asked.browser,
    };
    let ticket = random_id();
    let lobby = state.router.lobby();
    let asked = lobby.enter(&ticket, &entering, unix_ms()).await;
    match settle(&state, &ticket, asked).await {
        Ok(standing) => {
            let mut answer = standing_json(&state, standing);
            answer["ticket"] = json!(ticket);
            HttpResponse::Created().json(answer)
        }
        Err(r) => refused(r),
    }
}

async fn ask(state: web::Data<AppState>, bytes: web::Bytes) -> HttpResponse {
    let asked: Ticket = match body(&bytes, r#"{"ticket": "…"}"#) {
        Ok(asked) => asked,
        Err(answer) => return *answer,
    };
    let found = state.router.lobby().ask(&asked.ticket, unix_ms()).await;
    match settle(&state, &asked.ticket, found).await {
        Ok(Standing::Gone) => refusal(
            RefusalCode::NotWaiting,
            "This wait has ended: it was left, or its page was away too long.",
        ),
        Ok(standing) => HttpResponse::Ok().json(standing_json(&state, standing)),
        Err(r) => refused(r),
    }
}

async fn leave(state: web::Data<AppState>, bytes: web::Bytes) -> HttpResponse {
    let asked: Ticket = match body(&bytes, r#"{"ticket": "…"}"#) {
        Ok(asked) => asked,
        Err(answer) => return *answer,
    };
    match state.router.lobby().leave(&asked.ticket).await {
        Ok(left) => {
            if left {
                metrics().pairing_leaves.with_label_values(&["left"]).inc();
            }
            HttpResponse::Ok().json(json!({ "left": left }))
        }
        Err(r) => refused(r),
    }
}

/// Counts what an ask found, seats the formation it made (if any), and answers where `ticket`
/// stands after that.
async fn settle(
    state: &AppState,
    ticket: &str,
    asked: Result<Asked, TableRefusal>,
) -> Result<Standing, TableRefusal> {
    let asked = asked?;
    let m = metrics();
    if asked.dropped > 0 {
        m.pairing_leaves
            .with_label_values(&["gone"])
            .inc_by(asked.dropped as u64);
    }
    let Some(formed) = asked.formed else {
        if let (Some((game, length)), Standing::Waiting { waiting, .. }) =
            (&asked.queue, &asked.standing)
        {
            let length = crate::lobby::length_key(length);
            m.pairing_waiting
                .with_label_values(&[game.as_str(), length.as_str()])
                .set(*waiting as i64);
        }
        return Ok(asked.standing);
    };
    let length = crate::lobby::length_key(&formed.length);
    m.pairing_waiting
        .with_label_values(&[formed.game.as_str(), length.as_str()])
        .set(formed.left as i64);
    let lobby = state.router.lobby();
    match seat_formation(state, &formed).await {
        Ok(true) => {
            let now = unix_ms();
            m.pairs_made.with_label_values(&[&formed.game]).inc();
            let waits = m.pairing_wait_seconds.with_label_values(&[&formed.game]);
            for since in &formed.since {
                waits.observe(now.saturating_sub(*since) as f64 / 1000.0);
            }
        }
        // Someone of the formation left meanwhile: the others wait on, and the table made for them
        // is never joined (it goes as unjoined friends tables go).
        Ok(false) => lobby.unform(&formed).await?,
        Err(r) => {
            tracing::warn!(game = %formed.game, "a pairing's table could not be made: {}", r.message);
            lobby.unform(&formed).await?;
        }
    }
    Ok(lobby.ask(ticket, unix_ms()).await?.standing)
}

/// Opens a friends table for a formation and seats its tickets there, the longest waiting first:
/// `Ok(false)` when one of them left before they could all be given their places.
async fn seat_formation(state: &AppState, formed: &Formation) -> Result<bool, TableRefusal> {
    let tokens: Vec<Token> = formed.tickets.iter().map(|_| Token::random()).collect();
    let order = OpenTable {
        game: formed.game.clone(),
        kind: TableKind::Friends,
        level: Level::Standard,
        length: formed.length,
        hints: false,
        creator: tokens[0].hash(),
    };
    let id = state.router.open(order).await?;
    let table = state.router.find(&id).await?;
    let mut places = vec![Place {
        table: id.to_string(),
        seat: 0,
        token: tokens[0].as_str().to_string(),
    }];
    for token in &tokens[1..] {
        let join = Join {
            key: token.hash(),
            agrees_to_hints: false,
        };
        let seat = table
            .join
            .send(join)
            .await
            .map_err(|_| TableRefusal::unavailable())??;
        places.push(Place {
            table: id.to_string(),
            seat: seat.index(),
            token: token.as_str().to_string(),
        });
    }
    state.router.lobby().seat(formed, &places).await
}

/// Where a ticket stands, as its page reads it.
fn standing_json(state: &AppState, standing: Standing) -> Value {
    match standing {
        Standing::Waiting { waiting, since } => json!({
            "state": "waiting",
            "waiting": waiting,
            "waited_ms": unix_ms().saturating_sub(since),
            "offer_computer_after_ms": state.settings.pairing_offer_computer_secs * 1000,
        }),
        Standing::Forming => json!({ "state": "forming" }),
        Standing::Seated(place) => json!({
            "state": "seated",
            "table": place.table,
            "seat": place.seat,
            "token": place.token,
            "link": format!("/t/{}", place.table),
        }),
        Standing::Gone => json!({ "state": "gone" }),
    }
}

/// Lists a friends table the host just opened as open (`host` its seat token), under the name the
/// host gave if any (already cleaned).
pub async fn list_open(
    state: &AppState,
    table: &TableId,
    game: &'static str,
    length: crate::game::MatchLength,
    name: Option<String>,
    host: &Token,
) -> Result<(), TableRefusal> {
    let seats = catalog::find(game).map_or(2, |g| g.seats());
    let listing = Listing {
        table: table.to_string(),
        game: game.to_string(),
        length,
        seats,
        taken: 1,
        name,
        since: unix_ms(),
    };
    state.router.lobby().list(&listing, &host.hash()).await
}

async fn open_tables(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let Ok(game) = catalog::find(&path) else {
        return refusal(RefusalCode::NoSuchTable, "There is no such game.");
    };
    let fresh = state.settings.open_table_fresh_secs * 1000;
    let now = unix_ms();
    match state
        .router
        .lobby()
        .listed(game.name(), now.saturating_sub(fresh))
        .await
    {
        Ok(listed) => {
            let tables: Vec<Value> = listed
                .into_iter()
                .map(|l| {
                    json!({
                        "table": l.table,
                        "length": l.length,
                        "seats": l.seats,
                        "free": l.seats.saturating_sub(l.taken),
                        "name": l.name,
                        "waited_ms": now.saturating_sub(l.since),
                    })
                })
                .collect();
            HttpResponse::Ok()
                .insert_header(("cache-control", "no-store"))
                .json(json!({ "game": game.name(), "tables": tables }))
        }
        Err(r) => refused(r),
    }
}

/// The body of `POST /api/open-tables/host`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Hosting {
    table: String,
    token: String,
    /// `true` takes the table off the list; otherwise the host says they are still there.
    #[serde(default)]
    close: bool,
}

async fn host(state: web::Data<AppState>, bytes: web::Bytes) -> HttpResponse {
    let asked: Hosting = match body(&bytes, r#"{"table": "…", "token": "…", "close": true}"#) {
        Ok(asked) => asked,
        Err(answer) => return *answer,
    };
    let host = Token::from_client(&asked.token).hash();
    let lobby = state.router.lobby();
    match lobby
        .host(&asked.table, &host, asked.close, unix_ms())
        .await
    {
        Ok(true) => HttpResponse::Ok().json(json!({ "listed": !asked.close })),
        Ok(false) => refusal(
            RefusalCode::NotListed,
            "This table is not on the open list, or that token is not its host's.",
        ),
        Err(r) => refused(r),
    }
}
