//! What the server sends a browser, and the bounded queue it waits in. A frame's JSON is written once,
//! by whoever makes it (a table's presenter, for a view), and the same bytes go to every socket that
//! needs them.
//! A table fills a socket's queue without waiting and without waking anything but that socket's
//! writer; the writer (`server::connection`) hands the frames to the WebSocket library.
//!
//! The queue is ours rather than a channel's because of one rule of the site's: a frame that tells a
//! whole state (who is connected) replaces the older ones of its kind once frames pile up.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};

use futures_util::task::AtomicWaker;
use serde::Serialize;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::frame::{CloseFrame, Utf8Bytes};
use tokio_tungstenite::tungstenite::Message;

/// A close frame's reason is at most this many bytes (RFC 6455, 5.5: 125 less the code).
const MAX_CLOSE_REASON: usize = 123;

/// One message from the server to a browser.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    message: Message,
    kind: Kind,
}

/// Whether a frame still waiting in a queue is worth writing once a newer one of its kind is queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Every such frame is written (views, answers, errors, the handshake between seats).
    Each,
    /// When such frames pile up (half the queue), only the newest is written: it tells a whole state,
    /// as who is connected (`seats`) does.
    Latest,
}

impl Frame {
    fn of(message: Message) -> Frame {
        Frame {
            message,
            kind: Kind::Each,
        }
    }

    /// A text frame holding `value` as JSON; `size_hint` is the expected length, so that the buffer is
    /// allocated once.
    pub fn json(value: &impl Serialize, size_hint: usize) -> Frame {
        let mut buf = Vec::with_capacity(size_hint);
        serde_json::to_writer(&mut buf, value).expect("server frames always serialize");
        let text = Utf8Bytes::try_from(buf).expect("serde_json writes UTF-8");
        Frame::of(Message::Text(text))
    }

    /// A text frame holding JSON written elsewhere (a table's), its bytes shared, not copied.
    pub fn json_bytes(json: bytes::Bytes) -> Frame {
        let text = Utf8Bytes::try_from(json).expect("serde_json writes UTF-8");
        Frame::of(Message::Text(text))
    }

    /// A text frame holding `text`.
    pub fn text(text: &str) -> Frame {
        Frame::of(Message::text(text))
    }

    /// A close frame with this code and reason (cut to what a control frame may carry).
    pub fn close(code: u16, reason: &str) -> Frame {
        let mut end = reason.len().min(MAX_CLOSE_REASON);
        while !reason.is_char_boundary(end) {
            end -= 1;
        }
        Frame::of(Message::Close(Some(CloseFrame {
            code: CloseCode::from(code),
            reason: reason[..end].into(),
        })))
    }

    pub fn ping() -> Frame {
        Frame::of(Message::Ping(Default::default()))
    }

    /// The same frame, which replaces an older one of its kind still waiting in a socket's queue.
    pub fn superseding(self) -> Frame {
        Frame {
            kind: Kind::Latest,
            ..self
        }
    }

    /// The text a text frame carries.
    pub fn text_payload(&self) -> Option<&str> {
        match &self.message {
            Message::Text(text) => Some(text.as_str()),
            _ => None,
        }
    }

    pub fn is_close(&self) -> bool {
        matches!(self.message, Message::Close(_))
    }

    /// The message for the WebSocket library (a text frame's bytes are shared, not copied).
    pub fn into_message(self) -> Message {
        self.message
    }
}

/// Why a frame was not queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotQueued {
    /// The socket has this many frames waiting already: its reader is too slow.
    Full,
    /// The socket has closed, or a close frame is already queued.
    Closed,
}

/// The frames waiting for one socket.
struct Queue {
    frames: VecDeque<Frame>,
    /// No frame is taken any more: the connection went, or a close frame is queued.
    closed: bool,
    /// The connection's writer has gone (the peer went, or stopped reading for too long).
    gone: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    capacity: usize,
    /// The connection's writer, waiting for frames.
    writer: AtomicWaker,
    /// The connection's reader, told when the writer has gone.
    reader: AtomicWaker,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The way into one socket's queue: the table holds a clone for its views, the session one for its own
/// answers.
#[derive(Clone)]
pub struct Outbox(Arc<Shared>);

impl Outbox {
    /// Queues a frame without waiting. A close frame is queued even past the capacity, and is the last
    /// one queued.
    pub fn send(&self, frame: Frame) -> Result<(), NotQueued> {
        let mut queue = self.0.lock();
        if queue.closed {
            return Err(NotQueued::Closed);
        }
        if frame.kind == Kind::Latest && queue.frames.len() >= self.0.capacity / 2 {
            // A crowd leaving a table sends its other sockets one `seats` frame each: once they pile
            // up, only the newest says anything. (A reader keeping up sees every change.)
            queue.frames.retain(|older| older.kind != Kind::Latest);
        }
        if queue.frames.len() >= self.0.capacity && !frame.is_close() {
            return Err(NotQueued::Full);
        }
        queue.closed = frame.is_close();
        queue.frames.push_back(frame);
        drop(queue);
        self.0.writer.wake();
        Ok(())
    }

    /// Takes no more frames: the connection writes those queued, then ends.
    pub fn end(&self) {
        self.0.lock().closed = true;
        self.0.writer.wake();
    }

    /// Whether the socket takes no more frames.
    pub fn is_closed(&self) -> bool {
        self.0.lock().closed
    }

    /// Ready once the connection's writer has gone.
    pub fn poll_gone(&self, cx: &mut Context<'_>) -> Poll<()> {
        self.0.reader.register(cx.waker());
        if self.0.lock().gone {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

/// The connection's end of the queue, which ends once a close frame has been taken. Dropping it tells
/// the reader and frees whatever was still waiting.
pub struct Outgoing(Arc<Shared>);

impl Outgoing {
    /// Moves up to `most` waiting frames into `into`; ready once there is one, or once the queue has
    /// ended (then `false`).
    pub fn poll_frames(
        &self,
        cx: &mut Context<'_>,
        into: &mut Vec<Frame>,
        most: usize,
    ) -> Poll<bool> {
        self.0.writer.register(cx.waker());
        let mut queue = self.0.lock();
        if queue.frames.is_empty() {
            return if queue.closed {
                Poll::Ready(false)
            } else {
                Poll::Pending
            };
        }
        let count = queue.frames.len().min(most);
        into.extend(queue.frames.drain(..count));
        Poll::Ready(true)
    }
}

impl Drop for Outgoing {
    fn drop(&mut self) {
        let mut queue = self.0.lock();
        queue.closed = true;
        queue.gone = true;
        queue.frames = VecDeque::new();
        drop(queue);
        self.0.reader.wake();
    }
}

/// A socket's queue of at most `capacity` frames.
pub fn queue(capacity: usize) -> (Outbox, Outgoing) {
    let shared = Arc::new(Shared {
        queue: Mutex::new(Queue {
            frames: VecDeque::new(),
            closed: false,
            gone: false,
        }),
        capacity,
        writer: AtomicWaker::new(),
        reader: AtomicWaker::new(),
    });
    (Outbox(shared.clone()), Outgoing(shared))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_frame_holds_what_serde_json_writes_and_a_close_reason_is_cut_to_fit() {
        let value = serde_json::json!({"type": "view", "version": 3, "text": "é\"\n"});
        let frame = Frame::json(&value, 0);
        assert_eq!(
            frame.text_payload(),
            Some(serde_json::to_string(&value).unwrap().as_str())
        );
        let close = Frame::close(1008, &"é".repeat(100));
        assert!(close.is_close());
        match close.into_message() {
            Message::Close(Some(frame)) => {
                assert_eq!(u16::from(frame.code), 1008);
                assert!(frame.reason.len() <= MAX_CLOSE_REASON);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(Frame::ping().text_payload(), None);
    }

    #[test]
    fn json_written_elsewhere_is_sent_as_it_is() {
        let frame = Frame::json_bytes(bytes::Bytes::from_static(br#"{"type":"seats"}"#));
        assert_eq!(frame.text_payload(), Some(r#"{"type":"seats"}"#));
        assert!(!frame.is_close());
    }

    #[actix_rt::test]
    async fn a_queue_holds_its_capacity_keeps_the_newest_seats_and_ends_after_a_close() {
        let (outbox, outgoing) = queue(3);
        let seats = |n: u64| Frame::json(&n, 0).superseding();
        outbox.send(Frame::text("a")).unwrap();
        outbox.send(seats(1)).unwrap();
        outbox.send(seats(2)).unwrap();
        outbox.send(Frame::text("b")).unwrap();
        assert_eq!(outbox.send(Frame::text("c")), Err(NotQueued::Full));
        // Past the capacity, a close is still queued, and nothing after it.
        outbox.send(Frame::close(1000, "bye")).unwrap();
        assert_eq!(outbox.send(Frame::text("d")), Err(NotQueued::Closed));
        let mut written = Vec::new();
        while std::future::poll_fn(|cx| outgoing.poll_frames(cx, &mut written, 2)).await {}
        let texts: Vec<Option<&str>> = written.iter().map(Frame::text_payload).collect();
        assert_eq!(texts, vec![Some("a"), Some("2"), Some("b"), None]);
        assert!(written[3].is_close());
    }

    #[actix_rt::test]
    async fn a_queue_whose_connection_went_takes_nothing_and_says_so() {
        let (outbox, outgoing) = queue(8);
        assert!(!outbox.is_closed());
        outbox.send(Frame::text("waiting")).unwrap();
        drop(outgoing);
        assert!(outbox.is_closed());
        assert_eq!(outbox.send(Frame::text("late")), Err(NotQueued::Closed));
        std::future::poll_fn(|cx| outbox.poll_gone(cx)).await;
    }
}
