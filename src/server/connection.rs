//! A table's WebSocket once its upgrade has been answered, served by tokio-tungstenite on the bare TCP
//! stream (the HTTP dispatcher has let go of the connection and of its buffers). The library does the
//! framing, masking, reassembly of fragmented messages, UTF-8 checks, answers to pings and the close
//! handshake; what is ours is the limits around it:
//!
//! - a frame or message that declares more than `max_message` bytes is refused by the library as soon
//!   as its header is read, before any of its payload is kept, and the socket closes with 1009;
//! - the library reads into a buffer of `READ_BUFFER` bytes, grown only for a frame within the limit;
//! - every byte the browser sends is counted against an allowance (`governor`), and past it the
//!   socket is read no faster: the pieces of a fragmented message, which the library joins before the
//!   session sees them, cost what they weigh;
//! - a writer whose frames make no progress for `write_timeout` (the browser stopped reading) gives
//!   up, and the socket and everything it held are freed; the table never waits for it.
//!
//! Why not actix-ws, actix's own WebSocket crate: it reads every byte the HTTP dispatcher hands it into
//! a buffer of its own, and actix-http's frame parser compares a frame's declared length with the limit
//! only once the whole frame has arrived, so a frame declaring terabytes is buffered until then. It also
//! keeps each socket inside the dispatcher, with its two buffers: measured side by side, 20.9 KB an idle
//! socket against 9.5 KB here (README, "The socket tier on maintained libraries").

use std::future::Future;
use std::io;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::BytesMut;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, Stream, StreamExt};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Sleep;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::WebSocketStream;

use crate::metrics::metrics;
use crate::outbox::{queue, Frame, Outbox, Outgoing};

/// The library's read buffer: a move is a few hundred bytes; a longer frame grows it to its length.
const READ_BUFFER: usize = 1024;
/// Bytes read from the stream at once, at most (so that the allowance is charged in small steps).
const READ_STEP: usize = 2048;
/// Frames handed to the library before one flush: a burst goes out in one write.
const WRITE_BATCH: usize = 16;
/// The kernel's send buffer for a socket (it doubles what it is given). Frames are small and a socket
/// holds at most its queue's worth: a larger buffer would only let a browser that stopped reading pin
/// megabytes of the kernel's memory (which the container's limit counts) before its writes stall.
const KERNEL_SEND_BUFFER: usize = 32 * 1024;
/// How long a connection whose session has ended is still read, for the browser's close to arrive.
const LINGER: Duration = Duration::from_secs(2);

/// The limits of one socket.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The longest frame or message read, in bytes.
    pub max_message: usize,
    /// Bytes the browser may send per second, on average and at once.
    pub bytes_per_second: u32,
    pub bytes_burst: u32,
    /// How long a write may make no progress.
    pub write_timeout: Duration,
    /// Frames queued for the socket, at most.
    pub queue: usize,
}

type Socket = WebSocketStream<Allowance>;

/// Serves a WebSocket on `io`, whose upgrade has been answered (`read` holds what the browser sent
/// after its request): the way into the socket's queue, written by a task on this thread, and the
/// browser's messages.
pub async fn serve(io: TcpStream, read: BytesMut, limits: Limits) -> (Outbox, Incoming) {
    let config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(64 * 1024)
        .max_write_buffer_size(128 * 1024 + limits.max_message)
        .max_frame_size(Some(limits.max_message))
        .max_message_size(Some(limits.max_message));
    if let Err(e) = socket2::SockRef::from(&io).set_send_buffer_size(KERNEL_SEND_BUFFER) {
        tracing::debug!(%e, "the socket's send buffer keeps its size");
    }
    let io = Allowance::new(io, limits.bytes_per_second, limits.bytes_burst);
    let socket =
        WebSocketStream::from_partially_read(io, read.to_vec(), Role::Server, Some(config)).await;
    let (sink, messages) = socket.split();
    let (outbox, outgoing) = queue(limits.queue);
    actix_rt::spawn(write_out(sink, outgoing, limits.write_timeout));
    let incoming = Incoming {
        messages: Some(messages),
        outbox: outbox.clone(),
    };
    (outbox, incoming)
}

/// Writes the queued frames as they come, several to a flush, until the queue ends (after a close
/// frame), the browser goes, or a flush makes no progress for `stall`; then the write half is dropped,
/// and with it whatever was still queued.
async fn write_out(mut sink: SplitSink<Socket, Message>, outgoing: Outgoing, stall: Duration) {
    let mut frames: Vec<Frame> = Vec::new();
    loop {
        let open =
            std::future::poll_fn(|cx| outgoing.poll_frames(cx, &mut frames, WRITE_BATCH)).await;
        let batch = async {
            for frame in frames.drain(..) {
                sink.feed(frame.into_message()).await?;
            }
            sink.flush().await
        };
        match tokio::time::timeout(stall, batch).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => break,
            Err(_) => {
                metrics().outbound_overflows.inc();
                tracing::debug!("a socket's writes made no progress; it is dropped");
                break;
            }
        }
        if !open {
            break;
        }
        // An idle socket does not keep the longer list a burst needed.
        if frames.capacity() > 4 {
            frames = Vec::new();
        }
    }
}

/// The browser's messages, until it goes or the socket's writer has given up on it.
pub struct Incoming {
    /// `None` only once dropped.
    messages: Option<SplitStream<Socket>>,
    outbox: Outbox,
}

impl Stream for Incoming {
    type Item = Result<Message, WsError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.outbox.poll_gone(cx).is_ready() {
            return Poll::Ready(None);
        }
        match this.messages.as_mut() {
            Some(messages) => messages.poll_next_unpin(cx),
            None => Poll::Ready(None),
        }
    }
}

impl Drop for Incoming {
    /// The session has ended, and its close frame may be on the way while the browser is still
    /// sending (its own close, say). Reading on for a moment lets the close handshake finish, where
    /// closing the stream with bytes unread would reset it and the browser could miss the close.
    fn drop(&mut self) {
        let Some(mut messages) = self.messages.take() else {
            return;
        };
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        actix_rt::spawn(async move {
            let _ = tokio::time::timeout(LINGER, async {
                while let Some(Ok(_)) = messages.next().await {}
            })
            .await;
        });
    }
}

/// The TCP stream, read no faster than the browser's allowance of bytes. What a read brings is charged
/// after it; a read past the allowance waits, before the next one, until the allowance has grown back.
pub struct Allowance {
    io: TcpStream,
    limiter: DefaultDirectRateLimiter,
    /// Bytes read and not yet charged (more than the allowance had room for).
    owed: u32,
    /// Waiting for the allowance to grow back.
    wait: Option<Pin<Box<Sleep>>>,
}

impl Allowance {
    fn new(io: TcpStream, per_second: u32, burst: u32) -> Allowance {
        let per_second = NonZeroU32::new(per_second.max(1)).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(burst.max(READ_STEP as u32)).unwrap_or(NonZeroU32::MIN);
        Allowance {
            io,
            limiter: RateLimiter::direct(Quota::per_second(per_second).allow_burst(burst)),
            owed: 0,
            wait: None,
        }
    }

    /// Ready once what was owed is charged.
    fn poll_paid(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            if let Some(wait) = self.wait.as_mut() {
                std::task::ready!(wait.as_mut().poll(cx));
                self.wait = None;
            }
            let Some(owed) = NonZeroU32::new(self.owed) else {
                return Poll::Ready(());
            };
            match self.limiter.check_n(owed) {
                Ok(Ok(())) => self.owed = 0,
                Ok(Err(not_until)) => {
                    let after = not_until.wait_time_from(DefaultClock::default().now());
                    self.wait = Some(Box::pin(tokio::time::sleep(after)));
                }
                // Never more than the burst is owed at once (a read takes at most READ_STEP bytes).
                Err(_) => self.owed = 0,
            }
        }
    }
}

impl AsyncRead for Allowance {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        std::task::ready!(this.poll_paid(cx));
        // The library hands over room it has already zeroed, so this costs nothing.
        let room = buf.remaining().min(READ_STEP);
        let mut part = ReadBuf::new(buf.initialize_unfilled_to(room));
        std::task::ready!(Pin::new(&mut this.io).poll_read(cx, &mut part))?;
        let got = part.filled().len();
        buf.advance(got);
        this.owed = got as u32;
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Allowance {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}
