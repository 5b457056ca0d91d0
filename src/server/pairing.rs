//! The lobby's routes: "Play a person now" (enter a queue, stand in it, leave it) and the open tables
//! (their list, and the host's "still here" and "close"). A formation the lobby hands back is seated
//! here: a friends table opened and joined through the router, as a link's visitors would.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::{json, Value};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::door::route;
use super::http::{over_quota, refusal, refused, retry_after};
use super::AppState;
use crate::catalog;
use crate::lobby::{
    random_id, seat_token, ticket_name, Asked, Entering, Formation, Listing, Lobby, Place, Standing,
};
use crate::metrics::metrics;
use crate::routing::Router;
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
    let ticket = random_id();
    let entering = Entering {
        game: game.name(),
        length,
        needed: game.seats(),
        browser: asked.browser,
        key: seat_token(&ticket).hash(),
    };
    let name = ticket_name(&ticket);
    let lobby = state.router.lobby();
    let asked = lobby.enter(&name, &entering, unix_ms()).await;
    match settle(&state, &name, asked).await {
        Ok(standing) => {
            let mut answer = standing_json(&state, standing, &ticket);
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
    let name = ticket_name(&asked.ticket);
    let found = state.router.lobby().ask(&name, unix_ms()).await;
    match settle(&state, &name, found).await {
        Ok(Standing::Gone) => refusal(
            RefusalCode::NotWaiting,
            "This wait has ended: it was left, or its page was away too long.",
        ),
        Ok(standing) => HttpResponse::Ok().json(standing_json(&state, standing, &asked.ticket)),
        Err(r) => refused(r),
    }
}

async fn leave(state: web::Data<AppState>, bytes: web::Bytes) -> HttpResponse {
    let asked: Ticket = match body(&bytes, r#"{"ticket": "…"}"#) {
        Ok(asked) => asked,
        Err(answer) => return *answer,
    };
    match state
        .router
        .lobby()
        .leave(&ticket_name(&asked.ticket))
        .await
    {
        Ok(left) => {
            if left {
                metrics().pairing_leaves.with_label_values(&["left"]).inc();
            }
            HttpResponse::Ok().json(json!({ "left": left }))
        }
        Err(r) => refused(r),
    }
}

/// Counts what an ask found, seats the formation it made (if any), and answers where the ticket
/// named `name` stands after that.
async fn settle(
    state: &AppState,
    name: &str,
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
    // Seated in a task of its own, so that a request dropped half way (its client gone) still seats
    // the others, or puts them back to waiting at once.
    let seating = actix_rt::spawn(seat(state.router.clone(), formed));
    seating.await.map_err(|_| TableRefusal::unavailable())??;
    Ok(state.router.lobby().ask(name, unix_ms()).await?.standing)
}

/// Seats a formation, counting it, or puts its tickets back to waiting when it could not be.
async fn seat(router: Arc<dyn Router>, formed: Formation) -> Result<(), TableRefusal> {
    let m = metrics();
    match seat_formation(router.as_ref(), &formed).await {
        Ok(true) => {
            let now = unix_ms();
            m.pairs_made.with_label_values(&[&formed.game]).inc();
            let waits = m.pairing_wait_seconds.with_label_values(&[&formed.game]);
            for since in &formed.since {
                waits.observe(now.saturating_sub(*since) as f64 / 1000.0);
            }
            Ok(())
        }
        // Someone of the formation left meanwhile: the others wait on, and the table made for them
        // is never joined (it goes as unjoined friends tables go).
        Ok(false) => router.lobby().unform(&formed).await,
        Err(r) => {
            tracing::warn!(game = %formed.game, "a pairing's table could not be made: {}", r.message);
            router.lobby().unform(&formed).await
        }
    }
}

/// Opens a friends table for a formation and seats its tickets there, the longest waiting first:
/// `Ok(false)` when one of them left before they could all be given their places.
async fn seat_formation(router: &dyn Router, formed: &Formation) -> Result<bool, TableRefusal> {
    let order = OpenTable {
        game: formed.game.clone(),
        kind: TableKind::Friends,
        level: Level::Standard,
        length: formed.length,
        hints: false,
        guided: false,
        creator: formed.keys[0].clone(),
    };
    let id = router.open(order).await?;
    let table = router.find(&id).await?;
    let mut places = vec![Place {
        table: id.to_string(),
        seat: 0,
    }];
    for key in &formed.keys[1..] {
        let join = Join {
            key: key.clone(),
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
        });
    }
    router.lobby().seat(formed, &places).await
}

/// Where `ticket` stands, as its page reads it: seated, with the seat's token worked out from it.
fn standing_json(state: &AppState, standing: Standing, ticket: &str) -> Value {
    match standing {
        Standing::Waiting { waiting, since } => {
            let (waited, after) = (
                unix_ms().saturating_sub(since),
                state.settings.pairing_offer_computer_secs * 1000,
            );
            json!({
                "state": "waiting",
                "waiting": waiting,
                "waited_ms": waited,
                "offer_computer_after_ms": after,
                "offer_computer": waited >= after,
            })
        }
        Standing::Forming => json!({ "state": "forming" }),
        Standing::Seated(place) => json!({
            "state": "seated",
            "table": place.table,
            "seat": place.seat,
            "token": seat_token(ticket),
            "link": format!("/t/{}", place.table),
        }),
        Standing::Gone => json!({ "state": "gone" }),
    }
}

/// Lists a friends table the host just opened as open (`host` its seat token), under the name the
/// host gave if any (already cleaned), for the client address `by`: `false` when that address already
/// has as many listed as it may.
pub async fn list_open(
    state: &AppState,
    table: &TableId,
    game: &'static str,
    length: chaikhana_rules::game::MatchLength,
    name: Option<String>,
    host: &Token,
    by: &str,
) -> Result<bool, TableRefusal> {
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
    let listed = state.router.lobby().list(&listing, &host.hash(), by).await;
    state.open_lists.changed();
    listed
}

/// Each game's open list as this node last read it, and when: every page asks every few seconds, and
/// the lobby is read at most once a second for all of them. A change made through this node (a table
/// listed, a seat taken, a listing closed) is read afresh at once; one made through another node is
/// seen within the second.
#[derive(Default)]
pub struct Lists(Mutex<HashMap<&'static str, (u64, Vec<Listing>)>>);

/// How long a list read is answered from (ms).
const LIST_KEPT_MS: u64 = 1_000;

impl Lists {
    async fn of(
        &self,
        lobby: &dyn Lobby,
        game: &'static str,
        now: u64,
    ) -> Result<Vec<Listing>, TableRefusal> {
        let lists = || self.0.lock().unwrap_or_else(|e| e.into_inner());
        let kept = lists().get(game).cloned();
        if let Some((_, listed)) = kept.filter(|(at, _)| now.saturating_sub(*at) < LIST_KEPT_MS) {
            return Ok(listed);
        }
        let listed = lobby.listed(game, now).await?;
        lists().insert(game, (now, listed.clone()));
        Ok(listed)
    }

    /// The lists changed: the next ask reads them afresh.
    pub fn changed(&self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

async fn open_tables(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let Ok(game) = catalog::find(&path) else {
        return refusal(RefusalCode::NoSuchTable, "There is no such game.");
    };
    let now = unix_ms();
    let lobby = state.router.lobby();
    match state.open_lists.of(lobby.as_ref(), game.name(), now).await {
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
        Ok(true) => {
            if asked.close {
                state.open_lists.changed();
            }
            HttpResponse::Ok().json(json!({ "listed": !asked.close }))
        }
        Ok(false) => refusal(
            RefusalCode::NotListed,
            "This table is not on the open list, or that token is not its host's.",
        ),
        Err(r) => refused(r),
    }
}
