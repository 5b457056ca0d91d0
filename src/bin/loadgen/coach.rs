//! Analyses queued on the coach: computer tables (standard level, the shortest match) whose person
//! plays one deal to its end during the set-up, then, once play starts everywhere, asks the coach to
//! analyse it (`{"type":"analyse"}`: the last deal that ended), every table at once; each is timed
//! from its `analyse` frame until its `analysis` frame. The report is in `coach_report.rs`.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use awc::ws::{Frame, Message};
use futures_util::{SinkExt, StreamExt};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::json;

use crate::coach_report::AnalysesTally;
use crate::load::{base, post, Shared};
use crate::report::Tally;
use crate::seat::{self, Seat, Socket};

/// Analyses to queue beside the load.
#[derive(Clone, Debug)]
pub struct Analyses {
    /// How many tables, each with one deal to analyse.
    pub tables: usize,
    pub game: String,
    /// How long one analysis may take before it counts as an error.
    pub timeout: Duration,
}

/// The shortest match of `game`, as `POST /api/tables` takes it (docs/protocol.md), from its
/// catalog entry: the sooner a deal ends, the sooner it can be analysed; one deal is all it needs.
pub fn shortest_length(game: &str) -> serde_json::Value {
    chaikhana::catalog::find(game).map_or(serde_json::Value::Null, |g| g.shortest_length())
}

/// Opens a computer table of `game` at the standard level and plays its person's moves until the
/// first deal ends: the socket of a seat with a deal to analyse.
pub async fn prepare(
    client: &awc::Client,
    url: &str,
    game: &str,
    seed: u64,
) -> Result<Socket, String> {
    let mut body = json!({ "game": game, "opponents": "computer", "level": "standard" });
    let length = shortest_length(game);
    if !length.is_null() {
        body["length"] = length;
    }
    let opened = post(
        client,
        &format!("{}/api/tables", base(url)),
        body.to_string(),
    )
    .await?;
    let table = opened["table"].as_str().unwrap_or_default();
    let token = opened["token"].as_str().unwrap_or_default();
    let socket_url = format!("{}/ws/{table}", base(url).replacen("http", "ws", 1));
    let socket = seat::connect(client, &socket_url, Some(token)).await?;
    let seat = Seat {
        socket,
        rng: ChaCha8Rng::seed_from_u64(seed),
        // Moves made to reach a deal's end are not the load measured: nothing is tallied.
        tally: Rc::new(RefCell::new(Tally::default())),
        computers: false,
    };
    seat.play_one_deal().await
}

/// Opens this worker's share of the tables to analyse and plays each to its deal's end; each then
/// waits, answering pings, for play to start, and asks for its analysis at once.
pub async fn prepare_all(
    t: usize,
    shared: &Arc<Shared>,
    asked: &Analyses,
    client: &awc::Client,
    analyses: &Rc<RefCell<AnalysesTally>>,
) -> Vec<tokio::task::JoinHandle<Socket>> {
    let options = &shared.options;
    let started = Instant::now();
    let mut prepared = futures_util::stream::iter((t..asked.tables).step_by(shared.threads))
        .map(|table| {
            let seed = options.seed ^ (1 << 41) ^ (table as u64);
            prepare(client, &options.url, &asked.game, seed)
        })
        .buffer_unordered(asked.tables.max(1));
    let mut waiting = Vec::new();
    while let Some(result) = prepared.next().await {
        match result {
            Ok(socket) => {
                analyses.borrow_mut().prepared += 1;
                let shared = Arc::clone(shared);
                let tally = analyses.clone();
                let timeout = asked.timeout;
                waiting.push(actix_rt::spawn(async move {
                    analyse(socket, &shared.phases.go, timeout, tally).await
                }));
            }
            Err(problem) => analyses.borrow_mut().problem(problem),
        }
    }
    analyses.borrow_mut().prepare = started.elapsed();
    waiting
}

/// The fields of the coach's frames read here.
#[derive(Deserialize)]
struct CoachFrame<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(default)]
    judged: Option<u64>,
    #[serde(default)]
    code: Option<&'a str>,
}

/// Holds a prepared seat's socket (answering pings) until `go`, then asks for the analysis of its
/// deal and waits for it; tallies the time it took, or the error. Gives the socket back to be closed
/// with the others.
pub async fn analyse(
    mut socket: Socket,
    go: &AtomicBool,
    timeout: Duration,
    tally: Rc<RefCell<AnalysesTally>>,
) -> Socket {
    let started = loop {
        if go.load(std::sync::atomic::Ordering::Acquire) {
            break Instant::now();
        }
        match tokio::time::timeout(Duration::from_millis(1), socket.next()).await {
            Err(_) => {}
            Ok(Some(Ok(Frame::Ping(bytes)))) => {
                let _ = socket.send(Message::Pong(bytes)).await;
            }
            Ok(Some(Ok(Frame::Close(_)))) | Ok(Some(Err(_))) | Ok(None) => {
                tally
                    .borrow_mut()
                    .problem("the server closed a socket waiting to ask for its analysis".into());
                return socket;
            }
            Ok(Some(Ok(_))) => {}
        }
    };
    tally.borrow_mut().asked += 1;
    let ask = r#"{"type":"analyse"}"#;
    if socket.send(Message::Text(ask.into())).await.is_err() {
        tally
            .borrow_mut()
            .problem("an analyse frame was not sent".into());
        return socket;
    }
    let deadline = started + timeout;
    loop {
        let frame = match tokio::time::timeout_at(deadline.into(), socket.next()).await {
            Err(_) => {
                tally.borrow_mut().unfinished += 1;
                return socket;
            }
            Ok(Some(Ok(frame))) => frame,
            Ok(_) => {
                tally
                    .borrow_mut()
                    .problem("the server closed a socket waiting for its analysis".into());
                return socket;
            }
        };
        let bytes = match frame {
            Frame::Text(bytes) => bytes,
            Frame::Ping(bytes) => {
                let _ = socket.send(Message::Pong(bytes)).await;
                continue;
            }
            _ => continue,
        };
        let Ok(coach) = serde_json::from_slice::<CoachFrame>(&bytes) else {
            tally
                .borrow_mut()
                .problem("a frame that is not understood".into());
            continue;
        };
        match coach.kind {
            "analysis" => {
                tally
                    .borrow_mut()
                    .finished(started.elapsed(), coach.judged.unwrap_or(0));
                return socket;
            }
            "analysing" => tally.borrow_mut().progress += 1,
            "error" => {
                let code = coach.code.unwrap_or_default();
                tally
                    .borrow_mut()
                    .problem(format!("the server refused an analyse: {code}"));
                return socket;
            }
            _ => {}
        }
    }
}
