//! The WebSocket session: one actix actor per socket, fed by the actix-ws stream. It checks each frame's
//! size, parses it, checks its rate (voice frames against an allowance of their own), and forwards it to
//! its table; it writes the table's frames back in order.
//! It holds no game logic.

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::{
    Actor, ActorContext, ActorFutureExt, AsyncContext, Context, Handler, StreamHandler, WrapFuture,
};
use actix_ws::{CloseCode, CloseReason, Message, ProtocolError as WsError};

use super::registry::SessionRegistry;
use crate::metrics::metrics;
use crate::protocol::{ClientMsg, ServerMsg};
use crate::settings::Settings;
use crate::table::{Attach, ConnId, Detach, FromSeat, Outbound, TableHandle, Token};

/// Rate-limited frames in a row before the socket is closed.
const STRIKES_BEFORE_CLOSE: u32 = 10;
/// Frames a session queues for its socket before the table drops it as too slow.
const OUTBOUND_QUEUE: usize = 64;

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

pub struct WsSession {
    conn: ConnId,
    token: Token,
    table: TableHandle,
    out: actix_ws::Session,
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
        out: actix_ws::Session,
        settings: Arc<Settings>,
        registry: Arc<SessionRegistry>,
    ) -> WsSession {
        let bucket = RateBucket::new(settings.rate_per_second, settings.rate_burst);
        let voice_bucket =
            RateBucket::new(settings.voice_rate_per_second, settings.voice_rate_burst);
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

    /// Writes a frame; the next message waits until it is handed to the socket, so frames keep their
    /// order and a slow reader backs up into this actor's bounded mailbox.
    fn write(&mut self, text: String, ctx: &mut Context<Self>) {
        let mut out = self.out.clone();
        ctx.wait(
            async move { out.text(text).await }
                .into_actor(self)
                .map(|sent, _, ctx| {
                    if sent.is_err() {
                        ctx.stop();
                    }
                }),
        );
    }

    fn error(&mut self, code: &str, message: &str, ctx: &mut Context<Self>) {
        let text = ServerMsg::Error {
            code,
            message,
            id: None,
        }
        .to_text();
        self.write(text, ctx);
    }

    fn close(&mut self, code: u16, reason: &str, ctx: &mut Context<Self>) {
        if self.closed_because == "client" {
            self.closed_because = match code {
                1000 => "client",
                1001 => "going-away",
                1002 => "protocol-error",
                1008 => "policy",
                _ => "server",
            };
        }
        let out = self.out.clone();
        let reason = CloseReason {
            code: CloseCode::from(code),
            description: Some(reason.to_string()),
        };
        ctx.wait(
            async move { out.close(Some(reason)).await }
                .into_actor(self)
                .map(|_, _, ctx| ctx.stop()),
        );
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
                metrics().router_frames.with_label_values(&["in"]).inc();
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
            out: ctx.address().recipient(),
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
            let mut out = session.out.clone();
            ctx.spawn(async move { out.ping(b"").await }.into_actor(session).map(
                |sent, _, ctx| {
                    if sent.is_err() {
                        ctx.stop();
                    }
                },
            ));
        });
    }

    fn stopped(&mut self, _: &mut Context<Self>) {
        metrics().connections_open.dec();
        metrics()
            .connections_closed
            .with_label_values(&[self.closed_because])
            .inc();
        self.table.detach.do_send(Detach { conn: self.conn });
        self.registry.remove(self.conn);
    }
}

impl StreamHandler<Result<Message, WsError>> for WsSession {
    fn handle(&mut self, item: Result<Message, WsError>, ctx: &mut Context<Self>) {
        self.last_heard = Instant::now();
        match item {
            Ok(Message::Text(text)) => self.heard_text(&text, ctx),
            Ok(Message::Binary(_)) | Ok(Message::Continuation(_)) => self.error(
                "binary",
                "Only text frames holding JSON are understood.",
                ctx,
            ),
            Ok(Message::Ping(bytes)) => {
                let mut out = self.out.clone();
                ctx.wait(
                    async move { out.pong(&bytes).await }
                        .into_actor(self)
                        .map(|_, _, _| ()),
                );
            }
            Ok(Message::Pong(_)) | Ok(Message::Nop) => {}
            Ok(Message::Close(_)) => self.close(1000, "goodbye", ctx),
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
            Outbound::Text(text) => {
                metrics().router_frames.with_label_values(&["out"]).inc();
                self.write(text.to_string(), ctx)
            }
            Outbound::Close(code, reason) => self.close(code, &reason, ctx),
        }
    }
}
