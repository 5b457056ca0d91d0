//! Every HTTP request's head and body must arrive within `request_deadline` of its first byte and, after
//! its first second, no slower than `request_min_bytes_per_second`; a connection's first byte must come
//! within `FIRST_BYTE` of its accept; a connection whose request is late is closed and counted
//! (`chaikhana_http_connections_cut_total`, by reason).
//!
//! Why this is ours: actix-http times only the head of a connection's first request
//! (`client_request_timeout`, which stays set, for a connection that sends nothing at all), never a
//! body, nor the head of a later request on a kept-alive connection; actix-web has no limit on how long
//! a handler may wait for its body, and no crate offers one for it. A handler's timeout would not do:
//! it cannot reach a head still arriving, and the connection would stay open after its answer. So the
//! connection's stream is wrapped, below the HTTP parser, where every byte passes: the first byte of a
//! request starts its clock, and the door (`server::door`) stops it once the request has been read to
//! its end. A read that finds the request late fails, and the dispatcher drops the connection.
//!
//! **Writes.** actix-http reads every request a client pipelines, queues each one parsed (a few
//! kilobytes apiece, with no bound on their number) and keeps each answer in its write buffer until
//! the client reads it: a client that pipelines and never reads grows both without end, and neither
//! is reachable from outside the dispatcher. Browsers and load balancers never pipeline: each sends
//! its next request once it has its last answer. So the clock counts the body bytes of the answers
//! made on the connection (the door adds each one's) and the bytes written to the socket: a request
//! that reaches the door while the last answer is not yet all written was pipelined, and the door
//! refuses it and closes the connection, which drops whatever was queued (`pipelined`). A write that
//! makes no progress for the pace's `write_stall` fails, so that the dispatcher drops a connection
//! whose client stopped reading, and all it holds (`not-reading`).

use std::cell::Cell;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Sleep;

/// A request's first second is not held to the least rate: its first packet may come late on a poor
/// line, and a short request is over within it anyway.
const GRACE: Duration = Duration::from_secs(1);

/// The most a read hands the HTTP parser at once: a browser's request head, in one.
const READ_CHUNK: usize = 4096;

/// How long a new connection may stay silent: a browser sends its request as soon as it has
/// connected, and a connection that sends nothing holds a descriptor and a place under the caps.
pub const FIRST_BYTE: Duration = Duration::from_secs(3);

/// How fast a request must come, and its answers be taken.
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    pub deadline: Duration,
    /// 0: no least rate, only the deadline.
    pub min_bytes_per_second: u32,
    /// How long a write may make no progress.
    pub write_stall: Duration,
}

/// Why a request was cut, as the metric's `reason` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Late {
    Deadline,
    TooSlow,
    /// Nothing came within `FIRST_BYTE` of the accept.
    Silent,
    /// The client took none of its answers for `write_stall`.
    NotReading,
}

impl Late {
    pub fn reason(self) -> &'static str {
        match self {
            Late::Deadline => "deadline",
            Late::TooSlow => "too-slow",
            Late::Silent => "silent",
            Late::NotReading => "not-reading",
        }
    }
}

/// The clock of the request a connection is receiving, if any.
pub struct RequestClock {
    pace: Pace,
    /// When the request in hand sent its first byte; `None` between requests.
    started: Cell<Option<Instant>>,
    /// Its bytes so far.
    received: Cell<u64>,
    /// Until the connection's first byte, when it must have come by.
    first_byte_by: Cell<Option<Instant>>,
    /// Body bytes of the answers made on the connection, and bytes written to it (bodies and
    /// heads): once every answer is written, `written` is at least `made`.
    made: Cell<u64>,
    written: Cell<u64>,
    /// An answer closes the connection: it reads nothing more.
    closing: Cell<bool>,
}

impl RequestClock {
    pub fn new(pace: Pace) -> Rc<RequestClock> {
        Rc::new(RequestClock {
            pace,
            started: Cell::new(None),
            received: Cell::new(0),
            first_byte_by: Cell::new(Some(Instant::now() + FIRST_BYTE)),
            made: Cell::new(0),
            written: Cell::new(0),
            closing: Cell::new(false),
        })
    }

    /// An answer with a body of `bytes` was made on the connection.
    pub fn answered(&self, bytes: u64) {
        self.made.set(self.made.get().saturating_add(bytes));
    }

    /// Whether every answer made so far has been written (and the count starts afresh from here);
    /// if not, the request in hand was sent before its client had the last answer.
    pub fn caught_up(&self) -> bool {
        let written = self.written.get();
        if written < self.made.get() {
            return false;
        }
        self.made.set(written);
        true
    }

    /// An answer on the connection closes it: what was read is answered, nothing more is read.
    pub fn close(&self) {
        self.closing.set(true);
    }

    pub fn closing(&self) -> bool {
        self.closing.get()
    }

    fn add_written(&self, bytes: usize) {
        self.written
            .set(self.written.get().saturating_add(bytes as u64));
    }

    /// The request in hand has been read to its end: the clock waits for the next one's first byte.
    pub fn request_read(&self) {
        self.started.set(None);
        self.received.set(0);
    }

    fn heard(&self, bytes: usize, now: Instant) {
        self.first_byte_by.set(None);
        if self.started.get().is_none() {
            self.started.set(Some(now));
        }
        self.received
            .set(self.received.get().saturating_add(bytes as u64));
    }

    /// Whether the request in hand is late at `now`; if not, when it will be unless more comes
    /// (`None` between requests).
    fn check(&self, now: Instant) -> Result<Option<Instant>, Late> {
        let Some(started) = self.started.get() else {
            return match self.first_byte_by.get() {
                Some(by) if now >= by => Err(Late::Silent),
                by => Ok(by),
            };
        };
        let deadline = started + self.pace.deadline;
        if now >= deadline {
            return Err(Late::Deadline);
        }
        if self.pace.min_bytes_per_second == 0 {
            return Ok(Some(deadline));
        }
        // The bytes received pay for this long past the grace.
        let paid = self.received.get() as f64 / f64::from(self.pace.min_bytes_per_second);
        let too_slow_at = started + GRACE + Duration::from_secs_f64(paid.min(1e6));
        if now >= too_slow_at {
            return Err(Late::TooSlow);
        }
        Ok(Some(too_slow_at.min(deadline)))
    }
}

/// A connection's TCP stream, read under its request clock.
pub struct Clocked {
    io: TcpStream,
    clock: Rc<RequestClock>,
    /// Wakes the reader when the request in hand would become late.
    alarm: Option<Pin<Box<Sleep>>>,
    /// Wakes the writer when a write that waits would have stalled too long.
    stall: Option<Pin<Box<Sleep>>>,
    /// A chunk was just handed over: the next read waits for the parser to have taken it.
    chunk_given: bool,
    cut: bool,
}

impl Clocked {
    pub fn new(io: TcpStream, pace: Pace) -> Clocked {
        Clocked {
            io,
            clock: RequestClock::new(pace),
            alarm: None,
            stall: None,
            chunk_given: false,
            cut: false,
        }
    }

    pub fn clock(&self) -> &Rc<RequestClock> {
        &self.clock
    }

    pub fn stream(&self) -> &TcpStream {
        &self.io
    }

    /// The bare stream, for a connection that leaves HTTP (a WebSocket's upgrade).
    pub fn into_stream(self) -> TcpStream {
        self.io
    }

    /// Counts the cut once, and fails the read.
    fn cut(&mut self, late: Late) -> io::Error {
        if !self.cut {
            self.cut = true;
            crate::metrics::metrics()
                .http_connections_cut
                .with_label_values(&[late.reason()])
                .inc();
            tracing::debug!(
                reason = late.reason(),
                "a request came too slowly; its connection is closed"
            );
        }
        io::Error::new(io::ErrorKind::TimedOut, "the request came too slowly")
    }
}

impl AsyncRead for Clocked {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        // A connection whose answer closes it reads as ended: a client that kept sending behind
        // it would otherwise have every request read, queued and refused.
        if this.clock.closing() {
            return Poll::Ready(Ok(()));
        }
        // One chunk at a time: actix-http parses every request in what it has read before it
        // answers one, and queues each (so a pipelining client could have thousands queued); with
        // no more than `READ_CHUNK` handed over before it has parsed it, a queue holds a few
        // dozen at most until the door sees the client pipelining and closes the connection.
        if this.chunk_given {
            this.chunk_given = false;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        loop {
            let next = match this.clock.check(Instant::now()) {
                Ok(next) => next,
                Err(late) => return Poll::Ready(Err(this.cut(late))),
            };
            let mut chunk = [0u8; READ_CHUNK];
            let room = buf.remaining().min(READ_CHUNK);
            let mut limited = ReadBuf::new(&mut chunk[..room]);
            match Pin::new(&mut this.io).poll_read(cx, &mut limited) {
                Poll::Ready(Ok(())) => {
                    let got = limited.filled().len();
                    buf.put_slice(limited.filled());
                    if got > 0 {
                        this.chunk_given = true;
                        this.clock.heard(got, Instant::now());
                    }
                    return Poll::Ready(Ok(()));
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => {}
            }
            let Some(next) = next else {
                this.alarm = None;
                return Poll::Pending;
            };
            let next = tokio::time::Instant::from_std(next);
            match this.alarm.as_mut() {
                Some(alarm) if alarm.deadline() == next => {}
                Some(alarm) => alarm.as_mut().reset(next),
                None => this.alarm = Some(Box::pin(tokio::time::sleep_until(next))),
            }
            if let Some(alarm) = this.alarm.as_mut() {
                if alarm.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
            }
            // The alarm rang: look again.
        }
    }
}

impl Clocked {
    /// A write's outcome, counted; one that waits starts (or keeps) its stall alarm, and fails once
    /// it rang.
    fn wrote(
        &mut self,
        cx: &mut Context<'_>,
        done: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match done {
            Poll::Ready(Ok(n)) => {
                self.stall = None;
                self.clock.add_written(n);
                Poll::Ready(Ok(n))
            }
            Poll::Pending => {
                let stall_for = self.clock.pace.write_stall;
                let alarm = self
                    .stall
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(stall_for)));
                if alarm.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Err(self.cut(Late::NotReading)));
                }
                Poll::Pending
            }
            failed => failed,
        }
    }
}

impl AsyncWrite for Clocked {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let done = Pin::new(&mut this.io).poll_write(cx, buf);
        this.wrote(cx, done)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let done = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.wrote(cx, done)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(deadline: u64, rate: u32) -> Rc<RequestClock> {
        RequestClock::new(Pace {
            deadline: Duration::from_secs(deadline),
            min_bytes_per_second: rate,
            write_stall: Duration::from_secs(10),
        })
    }

    #[test]
    fn a_connection_that_sends_nothing_is_late_after_its_first_byte_deadline() {
        let clock = clock(10, 100);
        let now = Instant::now();
        assert!(matches!(clock.check(now), Ok(Some(_))));
        assert_eq!(clock.check(now + FIRST_BYTE), Err(Late::Silent));
    }

    #[test]
    fn between_requests_nothing_is_late() {
        let clock = clock(10, 100);
        let now = Instant::now();
        clock.heard(1, now);
        clock.request_read();
        assert_eq!(clock.check(now + Duration::from_secs(3600)), Ok(None));
        clock.heard(10, now);
        clock.request_read();
        assert_eq!(clock.check(now + Duration::from_secs(3600)), Ok(None));
    }

    #[test]
    fn a_request_is_late_past_its_deadline_or_below_the_least_rate() {
        let clock = clock(10, 100);
        let start = Instant::now();
        clock.heard(50, start);
        // 50 bytes pay for half a second past the grace.
        let at = |ms| start + Duration::from_millis(ms);
        assert_eq!(clock.check(at(1_000)), Ok(Some(at(1_500))));
        assert_eq!(clock.check(at(1_500)), Err(Late::TooSlow));
        // Enough bytes keep it going, up to the deadline.
        clock.heard(100_000, at(1_400));
        assert_eq!(clock.check(at(9_000)), Ok(Some(at(10_000))));
        assert_eq!(clock.check(at(10_000)), Err(Late::Deadline));
        // Without a least rate, only the deadline.
        let clock = self::clock(2, 0);
        clock.heard(1, start);
        assert_eq!(clock.check(at(1_999)), Ok(Some(at(2_000))));
        assert_eq!(clock.check(at(2_000)), Err(Late::Deadline));
    }
}
