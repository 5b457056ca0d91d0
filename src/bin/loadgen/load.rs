//! The load run: plays many friends tables over HTTP and real WebSockets as fast as the server answers
//! (perhaps beside computer tables, whose person answers at once and is tallied apart), or holds many
//! idle connections, or times a bare echo server; reports throughput, round trips, errors
//! and, for a local server, its memory and CPU.
//!
//! Worker threads each run their own actix runtime and their share of the tables. A run has phases:
//! every worker sets up (tables opened, sockets connected), the server is sampled, play starts at once
//! everywhere, every worker finishes its last round trip, the server is sampled again, and only then
//! are the sockets closed.

use std::cell::RefCell;
use std::net::{IpAddr, Ipv4Addr};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_service::ServiceExt;
use futures_util::StreamExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use crate::coach::{self, Analyses};
use crate::coach_report::{AnalysesReport, AnalysesTally};
use crate::report::{IdleReport, ProcSample, Report, Tally};
use crate::seat::{self, Seat};

/// Connections made from one source address before the next (past the ~28,000 ephemeral ports).
const PER_SOURCE_ADDRESS: usize = 20_000;
/// Tables (or idle connections) set up at once by each worker.
const SETUP_AT_ONCE: usize = 32;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The server's base URL, `http://host:port`.
    pub url: String,
    /// `panjpar`, `pishe-pasha`, `ganjifa`, or `echo` for a `chaikhana-loadgen echo` server.
    pub game: String,
    pub tables: usize,
    pub duration: Duration,
    /// The local server's process id, to read its memory and CPU from /proc.
    pub server_pid: Option<u32>,
    /// Hold this many idle connections instead of playing.
    pub idle: Option<usize>,
    pub threads: usize,
    pub seed: u64,
    /// Computer tables played beside the friends tables, reported apart.
    pub computers: Option<Computers>,
    /// Deals played to their end during the set-up, whose analyses are all asked when play starts.
    pub analyses: Option<Analyses>,
}

/// Computer tables, each with one person who answers at once: their computers play all the time.
#[derive(Clone, Debug)]
pub struct Computers {
    pub tables: usize,
    pub game: String,
    /// `standard` or `strong`.
    pub level: String,
}

pub enum Outcome {
    Play(Report),
    Idle(IdleReport),
}

/// The seats of a friends table of `game` (echo: one connection per "table").
pub fn seats_of(game: &str) -> Result<usize, String> {
    if game == "echo" {
        return Ok(1);
    }
    chaikhana::catalog::find(game)
        .map(|game| game.seats())
        .map_err(|_| {
            let names: Vec<&str> = chaikhana::catalog::names().chain(["echo"]).collect();
            format!("there is no game \"{game}\": {}", names.join(", "))
        })
}

/// Where the workers are: each counter is how many have reached that point.
#[derive(Default)]
pub struct Phases {
    ready: AtomicUsize,
    pub go: AtomicBool,
    done: AtomicUsize,
    release: AtomicBool,
}

pub struct Shared {
    pub options: Options,
    seats: usize,
    pub threads: usize,
    pub phases: Phases,
}

/// Runs the load and reports; the report says how many errors there were (none is the aim).
pub fn run(options: &Options) -> Result<Outcome, String> {
    let seats = seats_of(&options.game)?;
    if let Some(asked) = &options.analyses {
        if asked.game == "echo" || seats_of(&asked.game).is_err() {
            return Err(format!("there is no game \"{}\" to analyse", asked.game));
        }
    }
    if options.idle.is_some() && options.game == "echo" {
        return Err("--idle holds game seats: give a game, not echo".into());
    }
    let sample = |pid: Option<u32>| pid.and_then(|pid| ProcSample::read(pid).ok());
    if let Some(pid) = options.server_pid {
        ProcSample::read(pid)?;
    }
    chaikhana::settings::raise_open_file_limit();
    let threads = options.threads.max(1);
    let shared = Arc::new(Shared {
        options: options.clone(),
        seats,
        threads,
        phases: Phases::default(),
    });
    let idle_before = sample(options.server_pid);
    let workers: Vec<_> = (0..threads)
        .map(|t| {
            let shared = shared.clone();
            std::thread::spawn(move || actix_rt::System::new().block_on(worker(t, shared)))
        })
        .collect();
    let phases = &shared.phases;
    wait_until(|| phases.ready.load(Ordering::Acquire) == threads);
    let (server, elapsed) = if options.idle.is_some() {
        std::thread::sleep(options.duration);
        let server = idle_before.zip(sample(options.server_pid));
        phases.go.store(true, Ordering::Release);
        (server, Duration::ZERO)
    } else {
        let before = sample(options.server_pid);
        let started = Instant::now();
        phases.go.store(true, Ordering::Release);
        wait_until(|| phases.done.load(Ordering::Acquire) == threads);
        let elapsed = started.elapsed();
        let server = before.zip(sample(options.server_pid));
        phases.release.store(true, Ordering::Release);
        (server, elapsed)
    };
    let mut tally = Tally::default();
    let mut at_computers = Tally::default();
    let mut analyses = AnalysesTally::default();
    for worker in workers {
        match worker.join() {
            Ok((part, computers, analysed)) => {
                tally.merge(part);
                at_computers.merge(computers);
                analyses.merge(analysed);
            }
            Err(_) => tally.problem("a worker thread panicked".into()),
        }
    }
    Ok(match options.idle {
        Some(_) => Outcome::Idle(IdleReport::new(tally, server)),
        None => {
            let mut report = Report::new(tally, elapsed, server);
            if options.computers.is_some() {
                report.beside(at_computers, elapsed);
            }
            if let Some(asked) = &options.analyses {
                report.analyses = Some(Box::new(AnalysesReport::new(&asked.game, analyses)));
            }
            Outcome::Play(report)
        }
    })
}

fn wait_until(reached: impl Fn() -> bool) {
    while !reached() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

async fn wait_for(flag: &AtomicBool) {
    while !flag.load(Ordering::Acquire) {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

/// One worker's tally of the friends tables, of the computer tables beside them and of its analyses.
async fn worker(t: usize, shared: Arc<Shared>) -> (Tally, Tally, AnalysesTally) {
    let tally = Rc::new(RefCell::new(Tally::default()));
    let computers = Rc::new(RefCell::new(Tally::default()));
    let analyses = Rc::new(RefCell::new(AnalysesTally::default()));
    if shared.options.idle.is_some() {
        idle(t, shared.clone(), &tally).await;
    } else {
        play(t, &shared, &tally, &computers, &analyses).await;
    }
    (take(tally), take(computers), take(analyses))
}

fn take<T: Default>(tally: Rc<RefCell<T>>) -> T {
    Rc::try_unwrap(tally)
        .map(RefCell::into_inner)
        .unwrap_or_default()
}

fn client(source: Option<IpAddr>) -> awc::Client {
    // TCP_NODELAY, as browsers set it on their WebSockets: a seat that sends its number for the coming
    // shuffle and then its move would otherwise have the move held back by Nagle's algorithm until the
    // server's delayed acknowledgement of the first frame, 40 ms later.
    let tcp = actix_tls::connect::Connector::default().service().map(
        |connection: actix_tls::connect::Connection<awc::http::Uri, tokio::net::TcpStream>| {
            let _ = connection.io_ref().set_nodelay(true);
            connection
        },
    );
    let mut builder = awc::Client::builder()
        .connector(awc::Connector::new().connector(tcp).limit(0))
        .timeout(Duration::from_secs(30));
    if let Some(ip) = source {
        builder = builder.local_address(ip);
    }
    builder.finish()
}

pub fn base(url: &str) -> &str {
    url.trim_end_matches('/')
}

async fn play(
    t: usize,
    shared: &Arc<Shared>,
    tally: &Rc<RefCell<Tally>>,
    at_computers: &Rc<RefCell<Tally>>,
    analyses: &Rc<RefCell<AnalysesTally>>,
) {
    let options = &shared.options;
    let client = client(None);
    let mine: Vec<usize> = (t..options.tables).step_by(shared.threads).collect();
    let mut seats: Vec<Seat> = Vec::new();
    // First the deals to analyse, which take the longest to set up (their computers play at the
    // server's move delay): the other tables' sockets, opened after, are not left unread meanwhile.
    let mut analysing = Vec::new();
    if let Some(asked) = &options.analyses {
        analysing = coach::prepare_all(t, shared, asked, &client, analyses).await;
    }
    if let Some(computers) = &options.computers {
        let theirs: Vec<usize> = (t..computers.tables).step_by(shared.threads).collect();
        let mut opened = futures_util::stream::iter(theirs)
            .map(|table| {
                let client = &client;
                async move {
                    let token = computer_ticket(client, options, computers).await?;
                    let url = socket_url(options, &token.0);
                    let socket = seat::connect(client, &url, Some(&token.1)).await?;
                    Ok::<_, String>((table, socket))
                }
            })
            .buffer_unordered(SETUP_AT_ONCE);
        while let Some(result) = opened.next().await {
            match result {
                Ok((table, socket)) => {
                    at_computers.borrow_mut().connections += 1;
                    let seed = options.seed ^ (1 << 40) ^ (table as u64);
                    seats.push(Seat {
                        socket,
                        rng: ChaCha8Rng::seed_from_u64(seed),
                        tally: at_computers.clone(),
                        computers: true,
                    });
                }
                Err(problem) => at_computers.borrow_mut().problem(problem),
            }
        }
    }
    let mut echoes = Vec::new();
    let mut opened = futures_util::stream::iter(mine)
        .map(|table| {
            let client = &client;
            async move {
                if options.game == "echo" {
                    let url = format!("{}/ws", base(&options.url).replacen("http", "ws", 1));
                    return seat::connect(client, &url, None)
                        .await
                        .map(|s| (table, vec![s]));
                }
                let (id, tokens) = tickets(client, options, shared.seats).await?;
                let mut sockets = Vec::new();
                for token in tokens {
                    let url = socket_url(options, &id);
                    sockets.push(seat::connect(client, &url, Some(&token)).await?);
                }
                Ok((table, sockets))
            }
        })
        .buffer_unordered(SETUP_AT_ONCE);
    while let Some(result) = opened.next().await {
        match result {
            Ok((table, sockets)) => {
                tally.borrow_mut().connections += sockets.len() as u64;
                for (i, socket) in sockets.into_iter().enumerate() {
                    if options.game == "echo" {
                        echoes.push(socket);
                        continue;
                    }
                    let seed = options.seed ^ ((table as u64) << 8 | i as u64);
                    seats.push(Seat {
                        socket,
                        rng: ChaCha8Rng::seed_from_u64(seed),
                        tally: tally.clone(),
                        computers: false,
                    });
                }
            }
            Err(problem) => tally.borrow_mut().problem(problem),
        }
    }
    drop(opened);
    shared.phases.ready.fetch_add(1, Ordering::AcqRel);
    wait_for(&shared.phases.go).await;
    let deadline = Instant::now() + options.duration;
    let mut running = Vec::new();
    for seat in seats {
        running.push(actix_rt::spawn(seat.play(deadline)));
    }
    let mut sockets = Vec::new();
    for handle in running.into_iter().chain(analysing) {
        if let Ok(socket) = handle.await {
            sockets.push(socket);
        }
    }
    let echoing: Vec<_> = echoes
        .into_iter()
        .map(|socket| actix_rt::spawn(seat::echo(socket, tally.clone(), deadline)))
        .collect();
    for handle in echoing {
        let _ = handle.await;
    }
    shared.phases.done.fetch_add(1, Ordering::AcqRel);
    wait_for(&shared.phases.release).await;
    for mut socket in sockets {
        seat::close(&mut socket).await;
    }
}

async fn idle(t: usize, shared: Arc<Shared>, tally: &Rc<RefCell<Tally>>) {
    let options = &shared.options;
    let seats = shared.seats;
    let wanted = options.idle.unwrap_or(0);
    let tables = wanted.div_ceil(shared.seats);
    let loopback = url_is_loopback(&options.url);
    let http = client(None);
    let clients: RefCell<Vec<Option<awc::Client>>> = RefCell::new(Vec::new());
    let source = |index: usize| -> awc::Client {
        let slot = index / PER_SOURCE_ADDRESS;
        let mut clients = clients.borrow_mut();
        if clients.len() <= slot {
            clients.resize(slot + 1, None);
        }
        clients[slot]
            .get_or_insert_with(|| {
                let last = u8::try_from(2 + slot).unwrap_or(u8::MAX);
                client(loopback.then_some(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))))
            })
            .clone()
    };
    let mut held = Vec::new();
    let mut opened = futures_util::stream::iter((t..tables).step_by(shared.threads))
        .map(|table| {
            let http = &http;
            let source = &source;
            async move {
                let (id, tokens) = tickets(http, options, seats).await?;
                let mut sockets = Vec::new();
                for (i, token) in tokens.iter().enumerate() {
                    let index = table * seats + i;
                    if index >= wanted {
                        break;
                    }
                    let client = source(index);
                    let url = socket_url(options, &id);
                    sockets.push(seat::connect(&client, &url, Some(token)).await?);
                }
                Ok::<_, String>(sockets)
            }
        })
        .buffer_unordered(SETUP_AT_ONCE);
    while let Some(result) = opened.next().await {
        match result {
            Ok(sockets) => {
                tally.borrow_mut().connections += sockets.len() as u64;
                for socket in sockets {
                    let shared = shared.clone();
                    let stop = async move { wait_for(&shared.phases.go).await };
                    held.push(actix_rt::spawn(seat::hold(socket, tally.clone(), stop)));
                }
            }
            Err(problem) => tally.borrow_mut().problem(problem),
        }
    }
    drop(opened);
    shared.phases.ready.fetch_add(1, Ordering::AcqRel);
    for handle in held {
        let _ = handle.await;
    }
}

fn url_is_loopback(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    rest.starts_with("127.") || rest.starts_with("localhost")
}

fn socket_url(options: &Options, table: &str) -> String {
    format!(
        "{}/ws/{table}",
        base(&options.url).replacen("http", "ws", 1)
    )
}

/// Opens a computer table: its id and its person's seat token.
async fn computer_ticket(
    client: &awc::Client,
    options: &Options,
    computers: &Computers,
) -> Result<(String, String), String> {
    let body = json!({
        "game": computers.game,
        "opponents": "computer",
        "level": computers.level,
    })
    .to_string();
    let url = format!("{}/api/tables", base(&options.url));
    let opened = post(client, &url, body).await?;
    Ok((
        opened["table"].as_str().unwrap_or_default().to_string(),
        opened["token"].as_str().unwrap_or_default().to_string(),
    ))
}

/// Opens a friends table and takes its other seats: the table id and every seat's token.
async fn tickets(
    client: &awc::Client,
    options: &Options,
    seats: usize,
) -> Result<(String, Vec<String>), String> {
    let body = json!({ "game": options.game, "opponents": "friends" }).to_string();
    let url = format!("{}/api/tables", base(&options.url));
    let opened = post(client, &url, body).await?;
    let table = opened["table"].as_str().unwrap_or_default().to_string();
    let mut tokens = vec![opened["token"].as_str().unwrap_or_default().to_string()];
    for _ in 1..seats {
        let url = format!("{}/api/tables/{table}/join", base(&options.url));
        let joined = post(client, &url, String::new()).await?;
        tokens.push(joined["token"].as_str().unwrap_or_default().to_string());
    }
    Ok((table, tokens))
}

pub async fn post(client: &awc::Client, url: &str, body: String) -> Result<Value, String> {
    let mut response = client
        .post(url)
        .insert_header(("content-type", "application/json"))
        .send_body(body)
        .await
        .map_err(|e| format!("POST {url} failed: {e}"))?;
    let bytes = response
        .body()
        .await
        .map_err(|e| format!("POST {url}: no body: {e}"))?;
    if response.status().as_u16() != 201 {
        return Err(format!(
            "POST {url} answered {}: {}",
            response.status(),
            String::from_utf8_lossy(&bytes)
        ));
    }
    serde_json::from_slice(&bytes).map_err(|e| format!("POST {url}: not JSON: {e}"))
}
