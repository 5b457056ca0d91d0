//! The WebSocket session: one actix actor per socket, fed by the socket's decoded frames. It checks each
//! frame's size, parses it, checks its rate (voice frames against an allowance of their own), and
//! forwards it to its table. The table queues its frames for the socket itself (`wire::Outlet`); the
//! session queues its own answers (errors, pongs, pings, the close) the same way.
//! It holds no game logic.

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::{
    Actor, ActorContext, ActorFutureExt, AsyncContext, Context, Handler, Recipient, StreamHandler,
    WrapFuture,
};
use actix_http::ws::{Frame as FromBrowser, ProtocolError as WsError};

use super::registry::SessionRegistry;
use crate::metrics::metrics;
use crate::protocol::{ClientMsg, ServerMsg};
use crate::settings::Settings;
use crate::table::{Attach, ConnId, Detach, FromSeat, Outbound, SocketOut, TableHandle, Token};
use crate::wire::{Frame, NotQueued, Outlet};

/// Rate-limited frames in a row before the socket is closed.
const STRIKES_BEFORE_CLOSE: u32 = 10;
/// Frames queued for a socket before it is dropped as too slow.
pub const OUTBOUND_QUEUE: usize = 64;

/// A token bucket: `rate` frames a second on average, `burst` at once.
struct RateBucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    refilled: Instant,
}

impl RateBucket {
    fn new(rate: u32, burst: u32) -> RateBucket {
        RateBucket {
            tokens: f64::from(burst),
            rate: f64::from(rate),
            burst: f64::from(burst),
            refilled: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let earned = now.duration_since(self.refilled).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + earned).min(self.burst);
        self.refilled = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// What a session needs of its table (the rest of the handle is dropped: a session lives long and
/// there can be tens of thousands of them).
struct SeatLine {
    from_seat: Recipient<FromSeat>,
    attach: Recipient<Attach>,
    detach: Recipient<Detach>,
}

pub struct WsSession {
    conn: ConnId,
    token: Token,
    table: SeatLine,
    out: Outlet,
    settings: Arc<Settings>,
    registry: Arc<SessionRegistry>,
    last_heard: Instant,
    bucket: RateBucket,
    /// Voice frames (mostly ICE candidates, which come in bursts) have an allowance of their own.
    voice_bucket: RateBucket,
    strikes: u32,
    /// Why the socket closed, for the metrics: the client went, unless the server closed it.
    closed_because: &'static str,
}

impl WsSession {
    pub fn new(
        conn: ConnId,
        token: Token,
        table: TableHandle,
        out: Outlet,
        settings: Arc<Settings>,
        registry: Arc<SessionRegistry>,
    ) -> WsSession {
        let bucket = RateBucket::new(settings.rate_per_second, settings.rate_burst);
        let voice_bucket =
            RateBucket::new(settings.voice_rate_per_second, settings.voice_rate_burst);
        let table = SeatLine {
            from_seat: table.from_seat,
            attach: table.attach,
            detach: table.detach,
        };
        WsSession {
            conn,
            token,
            table,
            out,
            settings,
            registry,
            last_heard: Instant::now(),
            bucket,
            voice_bucket,
            strikes: 0,
            closed_because: "client",
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
        let frame = ServerMsg::Error {
            code,
            message,
            id: None,
        }
        .to_frame();
        self.write(frame, ctx);
    }

    fn close(&mut self, code: u16, reason: &str, ctx: &mut Context<Self>) {
        tracing::debug!(conn = self.conn, code, reason, "closing the socket");
        if self.closed_because == "client" {
            self.closed_because = match code {
                1000 => "client",
                1001 => "going-away",
                1002 => "protocol-error",
                1008 => "policy",
                _ => "server",
            };
        }
        let _ = self.out.send(Frame::close(code, reason));
        ctx.stop();
    }

    fn heard_text(&mut self, text: &str, ctx: &mut Context<Self>) {
        if text.len() > self.settings.max_frame_bytes {
            let message = format!(
                "Frames are at most {} bytes; that one had {}.",
                self.settings.max_frame_bytes,
                text.len()
            );
            self.error("too-large", &message, ctx);
            return;
        }
        let parsed = ClientMsg::parse(text);
        let bucket = match &parsed {
            Ok(msg) if msg.is_voice() => &mut self.voice_bucket,
            _ => &mut self.bucket,
        };
        if !bucket.take() {
            metrics().rate_limited.inc();
            self.strikes += 1;
            if self.strikes >= STRIKES_BEFORE_CLOSE {
                self.close(1008, "too many frames", ctx);
            } else {
                self.error("rate-limited", "Too many frames at once: slow down.", ctx);
            }
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
                    self.error("busy", "The table is busy; try again in a moment.", ctx);
                }
            }
            Err(e) => self.error(e.code, &e.message, ctx),
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
        let attach = Attach {
            key: self.token.hash(),
            conn: self.conn,
            out: SocketOut::Local {
                frames: self.out.clone(),
                session: ctx.address().recipient(),
            },
        };
        ctx.wait(
            self.table.attach.send(attach).into_actor(self).map(
                |answer, session, ctx| match answer {
                    Ok(Ok(_)) => {}
                    Ok(Err(refusal)) => session.close(1008, &refusal.message, ctx),
                    Err(_) => session.close(1011, "the table has closed", ctx),
                },
            ),
        );
        let every = Duration::from_secs(self.settings.ping_interval_secs.max(1));
        let silence = Duration::from_secs(self.settings.silence_timeout_secs.max(1));
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
            .with_label_values(&[self.closed_because])
            .inc();
        self.table.detach.do_send(Detach { conn: self.conn });
        self.registry.remove(self.conn);
    }
}

impl StreamHandler<Result<FromBrowser, WsError>> for WsSession {
    fn handle(&mut self, item: Result<FromBrowser, WsError>, ctx: &mut Context<Self>) {
        self.last_heard = Instant::now();
        match item {
            Ok(FromBrowser::Text(bytes)) => match std::str::from_utf8(&bytes) {
                Ok(text) => self.heard_text(text, ctx),
                Err(_) => self.close(1007, "text frames must be UTF-8", ctx),
            },
            Ok(FromBrowser::Binary(_)) | Ok(FromBrowser::Continuation(_)) => self.error(
                "binary",
                "Only text frames holding JSON are understood.",
                ctx,
            ),
            Ok(FromBrowser::Ping(bytes)) => self.write(Frame::pong(&bytes), ctx),
            Ok(FromBrowser::Pong(_)) => {}
            Ok(FromBrowser::Close(_)) => self.close(1000, "goodbye", ctx),
            Err(e) => {
                tracing::debug!(conn = self.conn, %e, "socket protocol error");
                self.close(1002, "protocol error", ctx);
            }
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
