//! The WebSocket session: one actix actor per socket, fed by the socket's messages
//! (`connection::Incoming`). Every message counts against the socket's allowance (voice frames against
//! one of their own); a text one is checked for size, parsed and forwarded to its table. The table
//! queues its frames for the socket itself (`outbox::Outbox`); the session queues its own answers
//! (errors, pings, the close) the same way. It holds no game logic.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Instant;

use actix::{
    Actor, ActorContext, ActorFutureExt, AsyncContext, Context, Handler, MailboxError, Recipient,
    StreamHandler, WrapFuture,
};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use tokio_tungstenite::tungstenite::error::{CapacityError, Error as WsError};
use tokio_tungstenite::tungstenite::Message;

use super::caps::Admitted;
use super::registry::SessionRegistry;
use crate::metrics::metrics;
use crate::outbox::{Frame, NotQueued, Outbox};
use crate::protocol::{ClientMsg, Hello, ServerMsg};
use crate::settings::Settings;
use crate::table::{
    looks_like_secret, Attach, ConnId, Detach, FromSeat, Outbound, RefusalCode, SocketOut,
    TableHandle, TableRefusal, Token, Watch,
};

/// Refused frames in a row (past the allowance, binary, oversized) before the socket is closed.
const STRIKES_BEFORE_CLOSE: u32 = 10;
/// Frames queued for a socket before it is dropped as too slow.
pub const OUTBOUND_QUEUE: usize = 64;

/// A socket's allowance of frames: `rate` a second on average, `burst` at once.
fn frame_allowance(rate: u32, burst: u32) -> DefaultDirectRateLimiter {
    let rate = NonZeroU32::new(rate).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new(burst).unwrap_or(rate);
    RateLimiter::direct(Quota::per_second(rate).allow_burst(burst))
}

/// What a session needs of its table (the rest of the handle is dropped: a session lives long and
/// there can be tens of thousands of them).
struct TableLink {
    from_seat: Recipient<FromSeat>,
    attach: Recipient<Attach>,
    watch: Recipient<Watch>,
    detach: Recipient<Detach>,
}

/// Who the socket is at its table: a seat, once its first frame gives the seat's token, or a watcher
/// (through the watch link).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    Seat,
    Watcher,
}

pub struct WsSession {
    conn: ConnId,
    entry: Entry,
    table: TableLink,
    out: Outbox,
    settings: Arc<Settings>,
    registry: Arc<SessionRegistry>,
    /// The socket's place under the process's and its address's caps, given back when it ends.
    _admitted: Admitted,
    last_heard: Instant,
    /// Every frame the browser sends counts against this allowance, voice frames aside.
    allowance: DefaultDirectRateLimiter,
    /// Voice frames (mostly ICE candidates, which come in bursts) have an allowance of their own.
    voice_allowance: DefaultDirectRateLimiter,
    strikes: u32,
    /// Whether the socket is at its table: a seat's, once its hello was taken; a watcher's at once.
    attached: bool,
    /// The code the server closed the socket with, for the metrics (`None`: the client went).
    closed_with: Option<u16>,
}

/// Why a socket closed, as the metrics label it, from the code the server closed it with, if any.
fn why_closed(code: Option<u16>) -> &'static str {
    match code {
        None | Some(1000) => "client",
        Some(1001) => "going-away",
        Some(1002 | 1007) => "protocol-error",
        Some(1008) => "policy",
        Some(1009) => "too-large",
        Some(_) => "server",
    }
}

impl WsSession {
    pub fn new(
        conn: ConnId,
        entry: Entry,
        table: TableHandle,
        out: Outbox,
        settings: Arc<Settings>,
        registry: Arc<SessionRegistry>,
        admitted: Admitted,
    ) -> WsSession {
        let allowance = frame_allowance(settings.rate_per_second, settings.rate_burst);
        let voice_allowance =
            frame_allowance(settings.voice_rate_per_second, settings.voice_rate_burst);
        let table = TableLink {
            from_seat: table.from_seat,
            attach: table.attach,
            watch: table.watch,
            detach: table.detach,
        };
        WsSession {
            conn,
            entry,
            table,
            out,
            settings,
            registry,
            _admitted: admitted,
            last_heard: Instant::now(),
            allowance,
            voice_allowance,
            strikes: 0,
            attached: false,
            closed_with: None,
        }
    }

    /// Queues a frame for the socket; a socket that has gone stops the session, and one whose reader
    /// lets frames pile up is closed.
    fn write(&mut self, frame: Frame, ctx: &mut Context<Self>) {
        match self.out.send(frame) {
            Ok(()) => {}
            Err(NotQueued::Full) => {
                metrics().outbound_overflows.inc();
                self.close(1008, "too slow: frames were piling up", ctx);
            }
            Err(NotQueued::Closed) => ctx.stop(),
        }
    }

    fn error(&mut self, code: &str, message: &str, ctx: &mut Context<Self>) {
        let error = ServerMsg::Error {
            code,
            message,
            id: None,
        };
        let frame = Frame::json(&error, 128);
        self.write(frame, ctx);
    }

    fn close(&mut self, code: u16, reason: &str, ctx: &mut Context<Self>) {
        tracing::debug!(conn = self.conn, code, reason, "closing the socket");
        if why_closed(self.closed_with) == "client" {
            self.closed_with = Some(code);
        }
        let _ = self.out.send(Frame::close(code, reason));
        ctx.stop();
    }

    /// Counts a frame against its allowance: whether it may be heard. One past the allowance is
    /// refused, and counts as a strike.
    fn allowed(&mut self, voice: bool, ctx: &mut Context<Self>) -> bool {
        let allowance = if voice {
            &self.voice_allowance
        } else {
            &self.allowance
        };
        if allowance.check().is_ok() {
            return true;
        }
        metrics().rate_limited.inc();
        self.strike(
            RefusalCode::RateLimited,
            "Too many frames at once: slow down.",
            ctx,
        );
        false
    }

    /// Answers a frame no page of this site sends (one past the allowance, a binary or oversized
    /// one) with an error; ten such frames in a row close the socket.
    fn strike(&mut self, code: RefusalCode, message: &str, ctx: &mut Context<Self>) {
        self.strikes += 1;
        if self.strikes >= STRIKES_BEFORE_CLOSE {
            self.close(1008, "too many frames refused", ctx);
        } else {
            self.error(code.as_str(), message, ctx);
        }
    }

    fn heard_text(&mut self, text: &str, ctx: &mut Context<Self>) {
        if text.len() > self.settings.max_frame_bytes {
            if self.allowed(false, ctx) {
                let message = format!(
                    "Frames are at most {} bytes; that one had {}.",
                    self.settings.max_frame_bytes,
                    text.len()
                );
                self.strike(RefusalCode::TooLarge, &message, ctx);
            }
            return;
        }
        if !self.attached {
            if self.allowed(false, ctx) {
                self.hello(text, ctx);
            }
            return;
        }
        let parsed = ClientMsg::parse(text);
        let voice = matches!(&parsed, Ok(msg) if msg.is_voice());
        if !self.allowed(voice, ctx) {
            return;
        }
        self.strikes = 0;
        match parsed {
            Ok(msg) => {
                let frame = FromSeat {
                    conn: self.conn,
                    msg,
                };
                metrics().frames_in.inc();
                if self.table.from_seat.try_send(frame).is_err() {
                    let busy = TableRefusal::busy();
                    self.error(busy.code.as_str(), &busy.message, ctx);
                }
            }
            Err(e) => self.error(e.code.as_str(), &e.message, ctx),
        }
    }

    /// A seat's socket's first frame: the seat's token, which attaches the socket to its seat. Any
    /// other frame, or a token that holds no seat here, closes the socket with the reason said first.
    fn hello(&mut self, text: &str, ctx: &mut Context<Self>) {
        let token = match Hello::parse(text) {
            Ok(token) if looks_like_secret(&token) => Token::from_client(&token),
            Ok(_) => {
                let refusal = TableRefusal::wrong_token();
                return self.refuse(refusal.code.as_str(), &refusal.message, ctx);
            }
            Err(e) => return self.refuse(e.code.as_str(), &e.message, ctx),
        };
        let sent = self.table.attach.send(Attach {
            key: token.hash(),
            conn: self.conn,
            out: self.socket_out(ctx),
        });
        self.attach(
            async move { sent.await.map(|answer| answer.map(|_| ())) },
            ctx,
        );
    }

    /// Waits, hearing nothing else meanwhile, for the table to take the socket; one it refuses is
    /// told why and closed.
    fn attach(
        &mut self,
        answer: impl std::future::Future<Output = Result<Result<(), TableRefusal>, MailboxError>>
            + 'static,
        ctx: &mut Context<Self>,
    ) {
        ctx.wait(
            answer
                .into_actor(self)
                .map(|answer, session, ctx| match answer {
                    Ok(Ok(())) => session.attached = true,
                    Ok(Err(refusal)) => {
                        session.refuse(refusal.code.as_str(), &refusal.message, ctx)
                    }
                    // The table stopped meanwhile (it fell asleep, or moved): the page comes back and
                    // wakes it.
                    Err(_) => session.close(1012, "the table has moved; reconnecting", ctx),
                }),
        );
    }

    /// How the table reaches this socket.
    fn socket_out(&self, ctx: &mut Context<Self>) -> SocketOut {
        SocketOut::Local {
            frames: self.out.clone(),
            session: ctx.address().recipient(),
        }
    }

    /// Says why the socket cannot be at its table, and closes it.
    fn refuse(&mut self, code: &str, message: &str, ctx: &mut Context<Self>) {
        self.error(code, message, ctx);
        self.close(1008, message, ctx);
    }

    /// The browser broke the protocol, or went.
    fn failed(&mut self, error: WsError, ctx: &mut Context<Self>) {
        tracing::debug!(conn = self.conn, %error, "socket error");
        match error {
            WsError::Capacity(CapacityError::MessageTooLong { .. }) => {
                let reason = format!(
                    "messages are at most {} bytes",
                    self.settings.max_message_bytes()
                );
                self.close(1009, &reason, ctx)
            }
            WsError::Capacity(_) => self.close(1009, "message too big", ctx),
            WsError::Utf8(_) => self.close(1007, "text frames must be UTF-8", ctx),
            WsError::Protocol(_) => self.close(1002, "protocol error", ctx),
            _ => ctx.stop(),
        }
    }
}

impl Actor for WsSession {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.set_mailbox_capacity(OUTBOUND_QUEUE);
        metrics().connections_open.inc();
        metrics().connections_opened.inc();
        self.registry.add(self.conn, ctx.address().recipient());
        match self.entry {
            Entry::Watcher => {
                let sent = self.table.watch.send(Watch {
                    conn: self.conn,
                    out: self.socket_out(ctx),
                });
                self.attach(
                    async move { sent.await.map(|answer| answer.map(|_| ())) },
                    ctx,
                );
            }
            Entry::Seat => {
                let wait = self.settings.hello_timeout();
                ctx.run_later(wait, |session, ctx| {
                    if !session.attached {
                        session.close(1008, "no hello came in time", ctx);
                    }
                });
            }
        }
        let every = self.settings.ping_interval();
        let silence = self.settings.silence_timeout();
        ctx.run_interval(every, move |session, ctx| {
            if session.last_heard.elapsed() > silence {
                session.close(1001, "silent for too long", ctx);
                return;
            }
            session.write(Frame::ping(), ctx);
        });
    }

    fn stopped(&mut self, _: &mut Context<Self>) {
        self.out.end();
        metrics().connections_open.dec();
        metrics()
            .connections_closed
            .with_label_values(&[why_closed(self.closed_with)])
            .inc();
        self.table.detach.do_send(Detach { conn: self.conn });
        self.registry.remove(self.conn);
    }
}

impl StreamHandler<Result<Message, WsError>> for WsSession {
    fn handle(&mut self, item: Result<Message, WsError>, ctx: &mut Context<Self>) {
        self.last_heard = Instant::now();
        match item {
            Ok(Message::Text(text)) => self.heard_text(text.as_str(), ctx),
            Ok(Message::Binary(_)) => {
                if self.allowed(false, ctx) {
                    self.strike(
                        RefusalCode::Binary,
                        "Only text frames holding JSON are understood.",
                        ctx,
                    );
                }
            }
            // The library answers pings itself; they count all the same, as do pongs.
            Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_)) => {
                self.allowed(false, ctx);
            }
            // The library has answered the close with the browser's own code.
            Ok(Message::Close(_)) => ctx.stop(),
            Err(error) => self.failed(error, ctx),
        }
    }

    fn finished(&mut self, ctx: &mut Context<Self>) {
        ctx.stop();
    }
}

impl Handler<Outbound> for WsSession {
    type Result = ();

    fn handle(&mut self, msg: Outbound, ctx: &mut Context<Self>) {
        match msg {
            Outbound::Frame(frame) => {
                metrics().frames_out.inc();
                self.write(frame, ctx)
            }
            Outbound::Close(code, reason) => self.close(code, &reason, ctx),
        }
    }
}
