//! One seat of a table played over a real WebSocket as fast as the server answers: it picks one of
//! the actions its view offers, sends it, and times the round trip to the view with the new version.

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use actix_codec::Framed;
use awc::ws::{Codec, Frame, Message};
use awc::BoxedSocket;
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use chaikhana::table::pledge_of;
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::report::Tally;

pub type Socket = Framed<BoxedSocket, Codec>;

/// How long a seat waits for a frame the game owes it before it counts a stall and asks to resync.
const STALL: Duration = Duration::from_secs(5);

/// The fields of a server frame the load generator reads, borrowed from the frame; the rest is skipped.
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    status: Option<&'a str>,
    #[serde(default, borrow)]
    actions: Vec<&'a RawValue>,
    #[serde(default)]
    code: Option<Cow<'a, str>>,
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default, borrow)]
    shuffle: Option<ShuffleIn<'a>>,
}

/// The coming deal's shuffle, as a view frame or a `shuffle` frame shows it.
#[derive(Deserialize)]
struct ShuffleIn<'a> {
    commitment: &'a str,
    #[serde(default)]
    pledges: Vec<Option<&'a str>>,
    #[serde(default)]
    closed: bool,
    contributed: Vec<bool>,
}

/// This seat's part in the coming deal's shuffle: the commitment it pledged to, its number, and
/// whether it has given it.
#[derive(Default)]
struct Pledged {
    commitment: String,
    number: String,
    given: bool,
}

/// Opens a WebSocket; a seat's (with its `token`) then says its hello, the token in the first frame.
pub async fn connect(
    client: &awc::Client,
    url: &str,
    token: Option<&str>,
) -> Result<Socket, String> {
    let (_, mut socket) = client
        .ws(url)
        .max_frame_size(1 << 20)
        .connect()
        .await
        .map_err(|e| format!("the WebSocket {url} did not open: {e}"))?;
    if let Some(token) = token {
        let hello = serde_json::json!({ "type": "hello", "token": token }).to_string();
        socket
            .send(Message::Text(hello.into()))
            .await
            .map_err(|e| format!("the hello on {url} was not sent: {e}"))?;
    }
    Ok(socket)
}

/// A frame from the server, as a seat reads it (see `Seat::heard`).
enum Heard {
    Text(bytes::Bytes),
    Nothing,
    Closed,
}

/// A seat at play until `deadline`. Every seat asks for the next deal and the rematch, as friends
/// do: the table starts them once all have.
pub struct Seat {
    pub socket: Socket,
    pub rng: ChaCha8Rng,
    pub tally: Rc<RefCell<Tally>>,
    /// At a computer table: also time the computers' moves as they reach this seat.
    pub computers: bool,
}

impl Seat {
    /// Plays until `deadline` and the last frame in flight is answered; gives the socket back, still
    /// open, so that closing it is not counted in the run.
    pub async fn play(mut self, deadline: Instant) -> Socket {
        // The version our frame in flight was made on, and when it left.
        let mut in_flight: Option<(u64, Instant)> = None;
        // The last version this seat answered (0: none yet; versions start at 1).
        let mut answered = 0u64;
        // The shuffle this seat last added its number to: a page adds one to every coming deal.
        let mut pledged = Pledged::default();
        // A view leaves out what this socket was last sent unchanged (docs/protocol.md): the table's
        // status and this socket's seat as last sent.
        let mut status = String::new();
        let mut seat = None;
        // At a computer table, after this seat's move was answered and until its turn comes again:
        // when the last view came (the view of its own move, then of each computer's move).
        let mut others_since: Option<Instant> = None;
        loop {
            let now = Instant::now();
            if in_flight.is_none() && now >= deadline {
                break;
            }
            let limit = match in_flight {
                Some(_) => now + STALL,
                None => deadline.min(now + STALL),
            };
            let frame = match tokio::time::timeout_at(limit.into(), self.socket.next()).await {
                Err(_) if in_flight.is_none() && Instant::now() >= deadline => break,
                Err(_) => {
                    self.tally
                        .borrow_mut()
                        .problem("a seat heard nothing for 5 s: it asked to resync".into());
                    in_flight = None;
                    answered = 0;
                    if self.send(r#"{"type":"resync"}"#.to_string()).await.is_err() {
                        self.socket_lost(deadline);
                        break;
                    }
                    continue;
                }
                Ok(None) | Ok(Some(Err(_))) => {
                    self.socket_lost(deadline);
                    break;
                }
                Ok(Some(Ok(frame))) => frame,
            };
            let bytes = match self.heard(frame).await {
                Heard::Text(bytes) => bytes,
                Heard::Nothing => continue,
                Heard::Closed => {
                    self.socket_lost(deadline);
                    break;
                }
            };
            let incoming: Incoming = match serde_json::from_slice(&bytes) {
                Ok(incoming) => incoming,
                Err(e) => {
                    self.tally
                        .borrow_mut()
                        .problem(format!("a frame that is not understood: {e}"));
                    continue;
                }
            };
            match incoming.kind {
                "shuffle" => {
                    if let Some(text) = self.contribution(&incoming, seat, &mut pledged) {
                        if self.send(text).await.is_err() {
                            self.socket_lost(deadline);
                            break;
                        }
                    }
                }
                "view" => {
                    if let Some(now) = incoming.status {
                        now.clone_into(&mut status);
                    }
                    seat = incoming.seat.or(seat);
                    if let Some(text) = self.contribution(&incoming, seat, &mut pledged) {
                        if self.send(text).await.is_err() {
                            self.socket_lost(deadline);
                            break;
                        }
                    }
                    let version = incoming.version.unwrap_or(0);
                    if let Some(since) = others_since {
                        // A computer's move, from the view before it: its move delay as the seat
                        // sees it. Views between deals (next deal, shuffle) are not moves.
                        if status == "playing" {
                            let micros = since.elapsed().as_micros();
                            self.tally
                                .borrow_mut()
                                .computer_moves_us
                                .push(u32::try_from(micros).unwrap_or(u32::MAX));
                            others_since = Some(Instant::now());
                        } else {
                            others_since = None;
                        }
                    }
                    if let Some((sent_on, at)) = in_flight {
                        if version > sent_on {
                            let mut tally = self.tally.borrow_mut();
                            tally.actions += 1;
                            let micros = at.elapsed().as_micros();
                            tally
                                .round_trips_us
                                .push(u32::try_from(micros).unwrap_or(u32::MAX));
                            in_flight = None;
                            if self.computers && status == "playing" {
                                others_since = Some(Instant::now());
                            }
                        }
                    }
                    if !incoming.actions.is_empty() || Instant::now() >= deadline {
                        others_since = None;
                    }
                    if in_flight.is_some() || version <= answered || Instant::now() >= deadline {
                        continue;
                    }
                    let Some(text) = self.answer(&incoming, &status, version) else {
                        continue;
                    };
                    answered = version;
                    // Only a move is timed: asking for the next deal or a rematch is answered once
                    // every seat has asked, and a seat past the deadline asks for nothing, so one that
                    // asked just before it would wait for a view that never comes and count a stall.
                    if !incoming.actions.is_empty() {
                        in_flight = Some((version, Instant::now()));
                    }
                    if self.send(text).await.is_err() {
                        self.socket_lost(deadline);
                        break;
                    }
                }
                "error" => {
                    let code = incoming.code.unwrap_or_default();
                    let mut tally = self.tally.borrow_mut();
                    if code == "rate-limited" {
                        tally.rate_limited += 1;
                    }
                    tally.problem(format!("the server refused a frame: {code}"));
                    in_flight = None;
                }
                _ => {}
            }
        }
        self.socket
    }

    /// Plays this seat's moves (chosen at random among those offered, as in [`Seat::play`]) until the
    /// first deal ends, for the coach to have a deal to judge; gives the socket back at `deal-over`
    /// (or `match-over`). Waits for the computers however long they take, but no more than `STALL`
    /// per frame, six times over, before giving up.
    pub async fn play_one_deal(mut self) -> Result<Socket, String> {
        let mut answered = 0u64;
        let mut pledged = Pledged::default();
        let mut status = String::new();
        let mut seat = None;
        loop {
            let frame = match tokio::time::timeout(STALL * 6, self.socket.next()).await {
                Err(_) => return Err("a deal to analyse heard nothing for 30 s".into()),
                Ok(None) | Ok(Some(Err(_))) => {
                    return Err("the server closed a socket before its deal ended".into())
                }
                Ok(Some(Ok(frame))) => frame,
            };
            let bytes = match self.heard(frame).await {
                Heard::Text(bytes) => bytes,
                Heard::Nothing => continue,
                Heard::Closed => {
                    return Err("the server closed a socket before its deal ended".into())
                }
            };
            let incoming: Incoming = serde_json::from_slice(&bytes)
                .map_err(|e| format!("a frame that is not understood: {e}"))?;
            match incoming.kind {
                "shuffle" => {
                    if let Some(text) = self.contribution(&incoming, seat, &mut pledged) {
                        self.send(text)
                            .await
                            .map_err(|()| "a socket closed before its deal ended".to_string())?;
                    }
                }
                "view" => {
                    if let Some(now) = incoming.status {
                        now.clone_into(&mut status);
                    }
                    if status == "deal-over" || status == "match-over" {
                        return Ok(self.socket);
                    }
                    seat = incoming.seat.or(seat);
                    if let Some(text) = self.contribution(&incoming, seat, &mut pledged) {
                        self.send(text)
                            .await
                            .map_err(|()| "a socket closed before its deal ended".to_string())?;
                    }
                    let version = incoming.version.unwrap_or(0);
                    if incoming.actions.is_empty() || version <= answered {
                        continue;
                    }
                    let Some(text) = self.answer(&incoming, &status, version) else {
                        continue;
                    };
                    answered = version;
                    self.send(text)
                        .await
                        .map_err(|()| "a socket closed before its deal ended".to_string())?;
                }
                "error" => {
                    // A stale version is followed by the current view, to answer afresh; a number
                    // for a shuffle that was already made is simply not needed.
                    match incoming.code.as_deref().unwrap_or_default() {
                        "stale-version" => answered = 0,
                        "contribution-refused" => {}
                        code => {
                            return Err(format!(
                                "the server refused a frame of a deal to analyse: {code}"
                            ))
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// This seat's next step in the coming deal's shuffle, as a page takes it: a pledge the first
    /// time a frame shows a commitment, then its number once the closed list holds that pledge.
    fn contribution(
        &mut self,
        frame: &Incoming,
        seat: Option<usize>,
        pledged: &mut Pledged,
    ) -> Option<String> {
        let shuffle = frame.shuffle.as_ref()?;
        let seat = seat?;
        if shuffle.contributed.get(seat).copied().unwrap_or(true) {
            return None;
        }
        if shuffle.commitment != pledged.commitment {
            let value: u128 = self.rng.gen();
            *pledged = Pledged {
                commitment: shuffle.commitment.to_string(),
                number: format!("{value:032x}"),
                given: false,
            };
            return Some(format!(
                r#"{{"type":"pledge","commitment":"{}","hash":"{}"}}"#,
                shuffle.commitment,
                pledge_of(&pledged.number)
            ));
        }
        let mine = shuffle.pledges.get(seat).copied().flatten();
        if !shuffle.closed || pledged.given || mine != Some(pledge_of(&pledged.number).as_str()) {
            return None;
        }
        pledged.given = true;
        Some(format!(
            r#"{{"type":"contribute","commitment":"{}","value":"{}"}}"#,
            shuffle.commitment, pledged.number
        ))
    }

    /// The frame this seat sends on a view, the table's status being `status`, if it has something to
    /// do.
    fn answer(&mut self, view: &Incoming, status: &str, version: u64) -> Option<String> {
        if !view.actions.is_empty() {
            let action = view.actions[self.rng.gen_range(0..view.actions.len())].get();
            return Some(format!(
                r#"{{"type":"action","version":{version},"id":"l","action":{action}}}"#
            ));
        }
        match status {
            "deal-over" => Some(format!(r#"{{"type":"next-deal","version":{version}}}"#)),
            "match-over" => Some(format!(r#"{{"type":"rematch","version":{version}}}"#)),
            _ => None,
        }
    }

    async fn send(&mut self, text: String) -> Result<(), ()> {
        self.socket
            .send(Message::Text(text.into()))
            .await
            .map_err(|_| ())
    }

    /// What a frame from the server says to this seat: its text, nothing to read (a ping, answered
    /// here, or a frame of another kind), or that the socket is closing.
    async fn heard(&mut self, frame: Frame) -> Heard {
        match frame {
            Frame::Text(bytes) => Heard::Text(bytes),
            Frame::Ping(bytes) => {
                let _ = self.socket.send(Message::Pong(bytes)).await;
                Heard::Nothing
            }
            Frame::Close(_) => Heard::Closed,
            _ => Heard::Nothing,
        }
    }

    fn socket_lost(&self, deadline: Instant) {
        if Instant::now() < deadline {
            self.tally
                .borrow_mut()
                .problem("the server closed a socket during the run".into());
        }
    }
}

/// Echo mode: one frame in flight, timed from sending it to hearing it back, until `deadline`.
pub async fn echo(mut socket: Socket, tally: Rc<RefCell<Tally>>, deadline: Instant) {
    const FRAME: &str = r#"{"type":"action","version":1,"id":"l","action":{"type":"pick-up"}}"#;
    while Instant::now() < deadline {
        let at = Instant::now();
        if socket.send(Message::Text(FRAME.into())).await.is_err() {
            tally.borrow_mut().problem("the echo socket closed".into());
            return;
        }
        loop {
            match tokio::time::timeout(STALL, socket.next()).await {
                Ok(Some(Ok(Frame::Text(_)))) => break,
                Ok(Some(Ok(Frame::Ping(bytes)))) => {
                    let _ = socket.send(Message::Pong(bytes)).await;
                }
                Ok(Some(Ok(_))) => {}
                _ => {
                    tally.borrow_mut().problem("no echo came back".into());
                    return;
                }
            }
        }
        let mut tally = tally.borrow_mut();
        tally.actions += 1;
        let micros = at.elapsed().as_micros();
        tally
            .round_trips_us
            .push(u32::try_from(micros).unwrap_or(u32::MAX));
    }
    close(&mut socket).await;
}

/// Idle mode: answers pings and reads whatever comes until `stop` resolves; a socket the server
/// closes before that is counted as an error.
pub async fn hold(
    mut socket: Socket,
    tally: Rc<RefCell<Tally>>,
    stop: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(stop);
    loop {
        tokio::select! {
            _ = &mut stop => break,
            frame = socket.next() => match frame {
                Some(Ok(Frame::Ping(bytes))) => {
                    let _ = socket.send(Message::Pong(bytes)).await;
                }
                Some(Ok(Frame::Close(_))) | Some(Err(_)) | None => {
                    tally
                        .borrow_mut()
                        .problem("the server closed an idle socket".into());
                    return;
                }
                Some(Ok(_)) => {}
            },
        }
    }
    close(&mut socket).await;
}

/// Says goodbye with a close frame, then shuts the stream.
pub async fn close(socket: &mut Socket) {
    let _ = socket.send(Message::Close(None)).await;
    let _ = socket.close().await;
}
