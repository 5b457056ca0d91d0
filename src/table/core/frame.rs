//! A frame as the core writes it: the JSON text of one message from the server, and whether it tells a
//! whole state that a newer one of its kind replaces. The core writes frames and never touches a
//! socket; the shell hands them to the outbox, which turns them into the WebSocket library's messages
//! (see `table::present`).

use bytes::Bytes;
use serde::Serialize;

use crate::protocol::ServerMsg;

/// One message for a socket, written once: its bytes are shared, not copied, by every socket it goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// UTF-8 JSON, as `serde_json` wrote it.
    json: Bytes,
    latest: bool,
}

impl Frame {
    /// A frame holding `value` as JSON; `size_hint` is the expected length, so that the buffer is
    /// allocated once.
    pub fn json(value: &impl Serialize, size_hint: usize) -> Frame {
        let mut buf = Vec::with_capacity(size_hint);
        serde_json::to_writer(&mut buf, value).expect("server frames always serialize");
        Frame::written(buf)
    }

    /// A frame holding the JSON object `value` with one more field, `name`, whose value is the JSON
    /// text `json` as it is. `json` must be JSON this server wrote: it is not read again to be checked,
    /// as a `RawValue` in `value` would be.
    pub fn json_with_field(
        value: &impl Serialize,
        size_hint: usize,
        name: &str,
        json: &[u8],
    ) -> Frame {
        let mut buf = Vec::with_capacity(size_hint);
        serde_json::to_writer(&mut buf, value).expect("server frames always serialize");
        assert_eq!(buf.pop(), Some(b'}'), "a frame is a JSON object");
        if buf.len() > 1 {
            buf.push(b',');
        }
        for piece in [b"\"", name.as_bytes(), b"\":", json, b"}"] {
            buf.extend_from_slice(piece);
        }
        Frame::written(buf)
    }

    /// A message from the server, as every socket reads it.
    pub fn message(msg: &ServerMsg<'_>) -> Frame {
        Frame::json(msg, 128)
    }

    fn written(buf: Vec<u8>) -> Frame {
        Frame {
            json: Bytes::from(buf),
            latest: false,
        }
    }

    /// The same frame, which replaces an older one of its kind still waiting in a socket's queue.
    pub fn superseding(self) -> Frame {
        Frame {
            latest: true,
            ..self
        }
    }

    /// Whether it replaces older ones of its kind.
    pub fn is_superseding(&self) -> bool {
        self.latest
    }

    /// The frame's JSON text.
    pub fn text_payload(&self) -> Option<&str> {
        std::str::from_utf8(&self.json).ok()
    }

    /// The frame's JSON bytes, shared.
    pub fn into_bytes(self) -> Bytes {
        self.json
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_holds_what_serde_json_writes_and_a_field_written_apart_is_added() {
        let value = serde_json::json!({"type": "view", "version": 3, "text": "é\"\n"});
        let frame = Frame::json(&value, 0);
        assert_eq!(
            frame.text_payload(),
            Some(serde_json::to_string(&value).unwrap().as_str())
        );
        assert!(!frame.is_superseding());
        assert!(frame.superseding().is_superseding());
        let with = |value: serde_json::Value, json: &[u8]| {
            let frame = Frame::json_with_field(&value, 0, "view", json);
            serde_json::from_str::<serde_json::Value>(frame.text_payload().unwrap()).unwrap()
        };
        assert_eq!(
            with(
                serde_json::json!({"type": "view", "version": 3}),
                br#"{"hand":["5C"]}"#
            ),
            serde_json::json!({"type": "view", "version": 3, "view": {"hand": ["5C"]}})
        );
        assert_eq!(
            with(serde_json::json!({}), b"null"),
            serde_json::json!({"view": null})
        );
    }
}
