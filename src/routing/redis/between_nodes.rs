//! What nodes say to each other through Redis pub/sub: each node listens on one channel for its tables
//! and one for its sockets. Frames for sockets travel as `f` + the connection + a newline + the frame's
//! own text (a view is not encoded twice); everything else is JSON. Several messages for one channel
//! travel together as one bundle (see [`bundle`]).

use serde::{Deserialize, Serialize};

use crate::protocol::ClientMsg;
use crate::table::OpenTable;
use crate::table::{ConnId, TableId, TableRefusal, TokenHash};
use chaikhana_rules::cards::Seat;

/// A request that wants an answer: the asking node and its number for the request.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Ask {
    pub from: String,
    pub req: u64,
}

/// Where a socket sits at a table: in the seat whose token has this hash, or among the watchers.
#[derive(Clone, Debug)]
pub enum Place {
    Seat(TokenHash),
    Watcher,
}

/// To the tables of the node that owns them.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "kebab-case")]
pub enum ToTables {
    /// Open a new table here.
    Open { ask: Ask, order: OpenTable },
    /// Rebuild this table from its snapshot and own it (asked by a node that hosts no tables).
    Adopt { ask: Ask, table: TableId },
    Join {
        ask: Ask,
        table: TableId,
        key: TokenHash,
        /// Whether the person joining agreed to the hints the table may offer.
        #[serde(default)]
        agrees_to_hints: bool,
    },
    CheckToken {
        ask: Ask,
        table: TableId,
        key: TokenHash,
    },
    /// A socket on the asking node for a seat; its frames go to that node's sockets channel.
    Attach {
        ask: Ask,
        table: TableId,
        conn: ConnId,
        key: TokenHash,
    },
    /// A watcher's socket on the asking node; its frames go to that node's sockets channel.
    Watch {
        ask: Ask,
        table: TableId,
        conn: ConnId,
    },
    FromSeat {
        from: String,
        table: TableId,
        conn: ConnId,
        msg: ClientMsg,
    },
    Detach {
        from: String,
        table: TableId,
        conn: ConnId,
    },
}

/// To the sockets (and pending requests) of a node.
#[derive(Debug, PartialEq)]
pub enum ToSockets {
    Frame { conn: ConnId, text: String },
    Note(Note),
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "note", rename_all = "kebab-case")]
pub enum Note {
    Close {
        conn: ConnId,
        code: u16,
        reason: String,
    },
    Answer {
        req: u64,
        answer: Answer,
    },
    /// The table's owner handed it over: find it again and attach its sockets there.
    Moved {
        table: TableId,
    },
}

/// The answer to an [`Ask`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "kebab-case")]
pub enum Answer {
    Opened {
        table: TableId,
    },
    Seat {
        seat: Seat,
    },
    /// A watcher was let in; this many watch now.
    Watching {
        watching: usize,
    },
    Adopted,
    Refused {
        refusal: TableRefusal,
    },
}

impl ToSockets {
    pub fn encode(&self) -> Vec<u8> {
        match self {
            ToSockets::Frame { conn, text } => frame_message(*conn, text),
            ToSockets::Note(note) => serde_json::to_vec(note).expect("notes always serialize"),
        }
    }

    pub fn decode(bytes: &[u8]) -> Option<ToSockets> {
        if bytes.starts_with(b"f") {
            let (conn, text) = frame_in(bytes)?;
            return Some(ToSockets::Frame {
                conn,
                text: text.to_string(),
            });
        }
        serde_json::from_slice(bytes).ok().map(ToSockets::Note)
    }
}

/// A frame for the socket `conn` as it travels: `f`, the connection, a newline, the frame's text.
pub fn frame_message(conn: ConnId, text: &str) -> Vec<u8> {
    let conn = conn.to_string();
    let mut message = Vec::with_capacity(2 + conn.len() + text.len());
    message.push(b'f');
    message.extend_from_slice(conn.as_bytes());
    message.push(b'\n');
    message.extend_from_slice(text.as_bytes());
    message
}

/// The connection and text of a frame message, read in place.
pub fn frame_in(bytes: &[u8]) -> Option<(ConnId, &str)> {
    let rest = bytes.strip_prefix(b"f")?;
    let newline = rest.iter().position(|b| *b == b'\n')?;
    let conn = std::str::from_utf8(&rest[..newline]).ok()?.parse().ok()?;
    let text = std::str::from_utf8(&rest[newline + 1..]).ok()?;
    Some((conn, text))
}

/// Several messages for one channel as one payload: `m`, then each message as its length in decimal,
/// a colon, and its bytes. A lone message goes as it is (no message of its own begins with `m`).
pub fn bundle(mut messages: Vec<Vec<u8>>) -> Vec<u8> {
    if messages.len() == 1 {
        return messages.pop().unwrap_or_default();
    }
    let mut out = Vec::with_capacity(1 + messages.iter().map(|m| m.len() + 8).sum::<usize>());
    out.push(b'm');
    for message in messages {
        out.extend_from_slice(message.len().to_string().as_bytes());
        out.push(b':');
        out.extend_from_slice(&message);
    }
    out
}

/// The messages in a payload, in order: a bundle's, or the payload itself. `None` for a bundle that
/// does not add up.
pub fn unbundle(payload: &[u8]) -> Option<Vec<&[u8]>> {
    let Some(mut rest) = payload.strip_prefix(b"m") else {
        return Some(vec![payload]);
    };
    let mut messages = Vec::new();
    while !rest.is_empty() {
        let colon = rest.iter().take(20).position(|b| *b == b':')?;
        let len: usize = std::str::from_utf8(&rest[..colon]).ok()?.parse().ok()?;
        let end = (colon + 1).checked_add(len)?;
        messages.push(rest.get(colon + 1..end)?);
        rest = &rest[end..];
    }
    Some(messages)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Token;

    #[test]
    fn bundles_carry_their_messages_in_order_and_broken_ones_are_dropped() {
        let one = b"f3\n{\"type\":\"ack\"}".to_vec();
        assert_eq!(bundle(vec![one.clone()]), one);
        assert_eq!(unbundle(&one), Some(vec![&one[..]]));
        let messages = vec![
            one.clone(),
            Vec::new(),
            b"{\"note\":\"moved\"}".to_vec(),
            one,
        ];
        let bundled = bundle(messages.clone());
        let back: Vec<Vec<u8>> = unbundle(&bundled)
            .unwrap()
            .into_iter()
            .map(<[u8]>::to_vec)
            .collect();
        assert_eq!(back, messages);
        assert_eq!(unbundle(&bundled[..bundled.len() - 1]), None);
        assert_eq!(unbundle(b"m5:abc"), None);
        assert_eq!(unbundle(b"mx:abc"), None);
        assert_eq!(unbundle(b"m99999999999999999999999:a"), None);
        assert_eq!(unbundle(b"m18446744073709551615:a"), None);
    }

    #[test]
    fn frames_and_notes_travel_and_junk_is_dropped() {
        for message in [
            ToSockets::Frame {
                conn: 7,
                text: "{\"type\":\"ack\"}\nx".into(),
            },
            ToSockets::Note(Note::Answer {
                req: 3,
                answer: Answer::Refused {
                    refusal: TableRefusal::full(),
                },
            }),
            ToSockets::Note(Note::Moved {
                table: TableId::random(),
            }),
        ] {
            assert_eq!(ToSockets::decode(&message.encode()), Some(message));
        }
        assert_eq!(ToSockets::decode(b"fx\n{}"), None);
        assert_eq!(frame_in(b"f12\nview"), Some((12, "view")));
        assert_eq!(frame_in(&frame_message(5, "{}\n")), Some((5, "{}\n")));
        assert_eq!(ToSockets::decode(b"{\"note\":\"dance\"}"), None);
        let attach = ToTables::Attach {
            ask: Ask {
                from: "n1".into(),
                req: 1,
            },
            table: TableId::random(),
            conn: 4,
            key: Token::random().hash(),
        };
        let text = serde_json::to_string(&attach).unwrap();
        assert!(matches!(
            serde_json::from_str::<ToTables>(&text),
            Ok(ToTables::Attach { conn: 4, .. })
        ));
        let bad_id = text.replacen("\"table\":\"", "\"table\":\"../", 1);
        assert!(serde_json::from_str::<ToTables>(&bad_id).is_err());
    }
}
