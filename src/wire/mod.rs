//! The WebSocket on the wire. A frame for a browser is encoded once, by whoever makes it (a table, for
//! a view), and the socket's connection writes those bytes as they are. Between them sits a bounded
//! queue that a table fills without waiting and without waking any task but the connection itself.
//! Frames from the browser are decoded here as well.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};

use actix_http::ws::{CloseCode, CloseReason, OpCode, Parser};
use bytes::{Bytes, BytesMut};
use futures_util::task::AtomicWaker;
use serde::Serialize;

pub mod json;
mod tcp;

pub use tcp::{serve, Incoming};

/// A control frame carries at most this many bytes (RFC 6455, 5.5).
const MAX_CONTROL_PAYLOAD: usize = 125;
/// Room left in front of a text frame's payload for the longest header (opcode, 127, 8-byte length).
const HEADER_ROOM: usize = 10;

/// One frame from the server to a browser, header included, ready to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame(Bytes, Kind);

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
    /// A text frame holding `value` as JSON, serialized straight into the frame's buffer; `size_hint`
    /// is the payload's expected length, so that the buffer is allocated once.
    pub fn json(value: &impl Serialize, size_hint: usize) -> Frame {
        let mut buf = Vec::with_capacity(HEADER_ROOM + size_hint);
        buf.resize(HEADER_ROOM, 0);
        json::write(&mut buf, value).expect("server frames always serialize");
        Frame::text_in(buf)
    }

    /// A text frame holding `text`.
    pub fn text(text: &str) -> Frame {
        let mut buf = Vec::with_capacity(HEADER_ROOM + text.len());
        buf.resize(HEADER_ROOM, 0);
        buf.extend_from_slice(text.as_bytes());
        Frame::text_in(buf)
    }

    /// Writes the header in front of the payload that follows `HEADER_ROOM` bytes of `buf`.
    fn text_in(mut buf: Vec<u8>) -> Frame {
        let len = buf.len() - HEADER_ROOM;
        let fin_text = 0x80 | u8::from(OpCode::Text);
        let start = if len <= MAX_CONTROL_PAYLOAD {
            buf[HEADER_ROOM - 2] = fin_text;
            buf[HEADER_ROOM - 1] = len as u8;
            HEADER_ROOM - 2
        } else if let Ok(short) = u16::try_from(len) {
            buf[HEADER_ROOM - 4] = fin_text;
            buf[HEADER_ROOM - 3] = 126;
            buf[HEADER_ROOM - 2..HEADER_ROOM].copy_from_slice(&short.to_be_bytes());
            HEADER_ROOM - 4
        } else {
            buf[0] = fin_text;
            buf[1] = 127;
            buf[2..HEADER_ROOM].copy_from_slice(&(len as u64).to_be_bytes());
            0
        };
        Frame(Bytes::from(buf).slice(start..), Kind::Each)
    }

    /// A close frame with this code and reason (cut to what a control frame may carry).
    pub fn close(code: u16, reason: &str) -> Frame {
        let mut end = reason.len().min(MAX_CONTROL_PAYLOAD - 2);
        while !reason.is_char_boundary(end) {
            end -= 1;
        }
        let reason = CloseReason {
            code: CloseCode::from(code),
            description: Some(reason[..end].to_string()),
        };
        let mut buf = BytesMut::with_capacity(4 + MAX_CONTROL_PAYLOAD);
        Parser::write_close(&mut buf, Some(reason), false);
        Frame(buf.freeze(), Kind::Each)
    }

    pub fn ping() -> Frame {
        Frame::control(OpCode::Ping, b"")
    }

    /// The answer to a ping, echoing (at most a control frame's worth of) its payload.
    pub fn pong(payload: &[u8]) -> Frame {
        Frame::control(
            OpCode::Pong,
            &payload[..payload.len().min(MAX_CONTROL_PAYLOAD)],
        )
    }

    fn control(op: OpCode, payload: &[u8]) -> Frame {
        let mut buf = BytesMut::with_capacity(2 + payload.len());
        Parser::write_message(&mut buf, payload, op, true, false);
        Frame(buf.freeze(), Kind::Each)
    }

    /// The same frame, which replaces an older one of its kind still waiting in a socket's queue.
    pub fn superseding(self) -> Frame {
        Frame(self.0, Kind::Latest)
    }

    /// The text a text frame carries.
    pub fn text_payload(&self) -> Option<&str> {
        let (&first, rest) = self.0.split_first()?;
        if first != 0x80 | u8::from(OpCode::Text) {
            return None;
        }
        let body = match rest.first()? {
            126 => rest.get(3..)?,
            127 => rest.get(9..)?,
            _ => rest.get(1..)?,
        };
        std::str::from_utf8(body).ok()
    }

    pub fn is_close(&self) -> bool {
        self.0.first() == Some(&(0x80 | u8::from(OpCode::Close)))
    }

    /// The frame's length on the wire.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
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
}

struct Shared {
    queue: Mutex<Queue>,
    capacity: usize,
    /// The connection, waiting for frames.
    writer: AtomicWaker,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The way into one socket's queue: the table holds a clone for its views, the session one for its own
/// answers.
#[derive(Clone)]
pub struct Outlet(Arc<Shared>);

impl Outlet {
    /// Queues a frame without waiting. A close frame is queued even past the capacity, and is the last
    /// one queued.
    pub fn send(&self, frame: Frame) -> Result<(), NotQueued> {
        let mut queue = self.0.lock();
        if queue.closed {
            return Err(NotQueued::Closed);
        }
        if frame.1 == Kind::Latest && queue.frames.len() >= self.0.capacity / 2 {
            // A crowd leaving a table sends its other sockets one `seats` frame each: once they pile
            // up, only the newest says anything. (A reader keeping up sees every change.)
            queue.frames.retain(|older| older.1 != Kind::Latest);
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
}

/// The connection's end of the queue, which ends once a close frame has been written.
pub struct Drain(Arc<Shared>);

impl Drain {
    /// Moves up to `most` waiting frames into `into`; ready once there is one, or once the queue has
    /// ended (then `false`).
    pub fn poll_frames(
        &self,
        cx: &mut Context<'_>,
        into: &mut Vec<Bytes>,
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
        into.extend(queue.frames.drain(..count).map(|frame| frame.0));
        Poll::Ready(true)
    }
}

impl Drop for Drain {
    fn drop(&mut self) {
        let mut queue = self.0.lock();
        queue.closed = true;
        queue.frames.clear();
    }
}

/// A socket's queue of at most `capacity` frames.
pub fn queue(capacity: usize) -> (Outlet, Drain) {
    let shared = Arc::new(Shared {
        queue: Mutex::new(Queue {
            frames: VecDeque::new(),
            closed: false,
        }),
        capacity,
        writer: AtomicWaker::new(),
    });
    (Outlet(shared.clone()), Drain(shared))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_frame_carries_its_length_in_the_shortest_header() {
        for len in [0, 1, 125, 126, 65_535, 65_536] {
            let text = "x".repeat(len);
            let frame = Frame::text(&text);
            let header = match len {
                0..=125 => 2,
                126..=65_535 => 4,
                _ => 10,
            };
            assert_eq!(frame.len(), header + len, "{len}");
            assert_eq!(frame.text_payload(), Some(text.as_str()));
            // What actix's own encoder writes for the same message.
            let mut theirs = BytesMut::new();
            Parser::write_message(&mut theirs, text.as_bytes(), OpCode::Text, true, false);
            assert_eq!(frame.0, theirs.freeze(), "{len}");
        }
        let json = Frame::json(&serde_json::json!({"type": "ack", "version": 3}), 0);
        assert_eq!(json.text_payload(), Some(r#"{"type":"ack","version":3}"#));
        assert!(Frame::close(1008, &"é".repeat(100)).is_close());
        assert_eq!(Frame::ping().text_payload(), None);
    }

    #[actix_rt::test]
    async fn a_queue_holds_its_capacity_keeps_the_newest_seats_and_ends_after_a_close() {
        let (outlet, drain) = queue(3);
        let seats = |n: u64| Frame::json(&n, 0).superseding();
        outlet.send(Frame::text("a")).unwrap();
        outlet.send(seats(1)).unwrap();
        outlet.send(seats(2)).unwrap();
        outlet.send(Frame::text("b")).unwrap();
        assert_eq!(outlet.send(Frame::text("c")), Err(NotQueued::Full));
        // Past the capacity, a close is still queued, and nothing after it.
        outlet.send(Frame::close(1000, "bye")).unwrap();
        assert_eq!(outlet.send(Frame::text("d")), Err(NotQueued::Closed));
        let mut written = Vec::new();
        while std::future::poll_fn(|cx| drain.poll_frames(cx, &mut written, 2)).await {}
        let frames: Vec<Frame> = written.into_iter().map(|b| Frame(b, Kind::Each)).collect();
        let texts: Vec<Option<&str>> = frames.iter().map(Frame::text_payload).collect();
        assert_eq!(texts, vec![Some("a"), Some("2"), Some("b"), None]);
        assert!(frames[3].is_close());
    }

    #[test]
    fn a_queue_whose_connection_went_takes_nothing() {
        let (outlet, drain) = queue(8);
        assert!(!outlet.is_closed());
        drop(drain);
        assert!(outlet.is_closed());
        assert_eq!(outlet.send(Frame::text("late")), Err(NotQueued::Closed));
    }
}
