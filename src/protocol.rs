//! The WebSocket frames: one closed set each way, JSON objects tagged by `type`.
//!
//! Browser to server: first, on a seat's socket, `hello` (the seat's token); then `action` (a game action, made on a view version, with the client's own id for the
//! answer), `resync` (send my view again), `replay` (my view of one step of a finished deal),
//! `next-deal` and `rematch` (asked for by every friend), and
//! `name` and `phrase` (what a seat goes by and its quick phrases). Server to browser: `view` (the
//! seat's whole view with the table, the match and the actions open to it; the view an accepted action
//! made carries `ack`, with the action's id, to the socket that sent it), `replay` (a view frame of one
//! step of a finished deal, with where it stands), `seats` (who is connected, named and ready), `phrase`
//! and `error`. At a friends table the browsers also switch voice on and off (`voice`) and pass each
//! other the WebRTC handshake (`signal`), which the table relays without reading it.
//! `docs/protocol.md` documents every field.

use serde::{Deserialize, Serialize};
use strum::{EnumIter, IntoStaticStr, VariantNames};

use chaikhana_rules::cards::Seat;

mod to_browser;
pub use to_browser::{SeatInfo, ServerMsg, ShuffleShown, Who};

/// A frame from a browser (serialized again only to travel between nodes).
#[derive(Debug, Deserialize, Serialize, VariantNames)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
#[strum(serialize_all = "kebab-case")]
pub enum ClientMsg {
    /// Play a game action, made on the view with this version.
    Action {
        version: u64,
        /// The client's own id for this action, echoed in the answer.
        #[serde(default)]
        id: Option<String>,
        /// The game's action, as that game's README section describes it.
        action: serde_json::Value,
    },
    /// Send me the current view again.
    Resync {},
    /// Send me my view of step `step` (0: as dealt; n: after the deal's first n actions) of the
    /// match's deal `deal` (from 0; none: the last deal that ended), once that deal has ended.
    Replay {
        #[serde(default)]
        deal: Option<usize>,
        step: usize,
    },
    /// Ask the coach for its choice at this seat's turn, on the view with this version (at a table
    /// that offers hints). Answered with a `hint` frame; counted, and shown at the deal's end.
    Hint { version: u64 },
    /// Ask the coach to judge this seat's decisions in the match's deal `deal` (from 0; none: the
    /// last deal that ended), once that deal has ended. Answered with `analysing` frames while it
    /// thinks, then an `analysis` frame; an analysis is made once and kept with the deal.
    Analyse {
        #[serde(default)]
        deal: Option<usize>,
    },
    /// The guided deal's guide has said its first words on this seat's page: at a guided computer
    /// table the computers wait for it before their first move, so that no card moves before the
    /// guide has spoken. Unanswered; heard once, and ignored anywhere else.
    GuideShown {},
    /// Deal the next deal of the match, once a deal has ended.
    NextDeal { version: u64 },
    /// Start a new match at this table with the same seats, once the match has ended; at a computer
    /// table `level` ("gentle", "standard", "clever" or "strong") may change how well the computers
    /// play.
    Rematch {
        version: u64,
        #[serde(default)]
        level: Option<String>,
    },
    /// The name this seat's person goes by at the table (cleaned and checked by `social::clean_name`);
    /// empty for none.
    Name { name: String },
    /// One of the fixed quick phrases, by its id (friends tables only).
    Phrase { id: Phrase },
    /// This seat's pledge for the coming deal's shuffle (see `table::shuffle`): the hash of the number
    /// it will give, answering the table's `commitment` to it.
    Pledge { commitment: String, hash: String },
    /// This seat's random number for the coming deal's shuffle, once the list of pledges is closed:
    /// it must hash to the seat's pledge.
    Contribute { commitment: String, value: String },
    /// Offer the seat `seat`, whose person has been away long enough, to whoever opens the table's
    /// link next (friends tables only). The match score stays with the seat; the old token stops
    /// working, and its holder is told why when they come back.
    OfferSeat { seat: Seat },
    /// End the match while the other seat of a two-seat friends table has been away long enough.
    EndMatch { version: u64 },
    /// Switch this seat's voice on or off (friends tables only).
    Voice { on: bool },
    /// A piece of the WebRTC handshake for another seat with voice on: relayed as it is.
    Signal {
        to: Seat,
        kind: SignalKind,
        data: serde_json::Value,
    },
}

impl ClientMsg {
    /// Whether it is about the game (and its answer would show the table), rather than voice.
    pub fn is_play(&self) -> bool {
        !matches!(
            self,
            ClientMsg::Voice { .. }
                | ClientMsg::Signal { .. }
                | ClientMsg::Name { .. }
                | ClientMsg::Phrase { .. }
                | ClientMsg::GuideShown {}
        )
    }
}

/// An `action` frame, the one a table hears for nearly every change, read straight into its fields.
///
/// serde reads an internally tagged enum such as [`ClientMsg`] by first copying the whole object into
/// a buffer of its own, keys and strings allocated, since the tag may come last; in a profile under
/// load that was most of the cost of reading a frame. This struct takes the same fields as
/// [`ClientMsg::Action`] (the tag a field of its own, unknown fields refused), so it accepts exactly
/// the action frames the enum accepts; anything it refuses is read again by the enum, which says
/// what is wrong.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionFrame {
    #[serde(rename = "type")]
    _type: ActionTag,
    version: u64,
    #[serde(default)]
    id: Option<String>,
    action: serde_json::Value,
}

/// The one `type` an [`ActionFrame`] has.
#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum ActionTag {
    Action,
}

impl From<ActionFrame> for ClientMsg {
    fn from(frame: ActionFrame) -> ClientMsg {
        ClientMsg::Action {
            version: frame.version,
            id: frame.id,
            action: frame.action,
        }
    }
}

/// The quick phrases a seat may send at a friends table: only their ids travel, and each page words
/// them in its own language, so no free text passes between players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phrase {
    Hello,
    GoodLuck,
    WellPlayed,
    GoodGame,
    OneMoment,
    Thanks,
    Oops,
    Smile,
    Tea,
    Clap,
}

/// The three pieces of a WebRTC handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SignalKind {
    Offer,
    Answer,
    Ice,
}

/// The largest handshake payload relayed, in bytes of JSON (under the frame cap, with room for the rest).
pub const MAX_SIGNAL_DATA: usize = 6 * 1024;

/// The longest client id echoed back.
pub const MAX_CLIENT_ID: usize = 64;

impl ClientMsg {
    /// Parses a text frame, or says in a sentence what is wrong with it.
    pub fn parse(text: &str) -> Result<ClientMsg, ProtocolError> {
        let msg = match serde_json::from_str::<ActionFrame>(text) {
            Ok(frame) => frame.into(),
            Err(_) => Self::parse_any(text)?,
        };
        match &msg {
            ClientMsg::Action { id: Some(id), .. } if id.len() > MAX_CLIENT_ID => {
                return Err(ProtocolError::new(
                    ProtocolCode::Malformed,
                    format!("An action id is at most {MAX_CLIENT_ID} bytes."),
                ));
            }
            ClientMsg::Signal { data, .. } if data.to_string().len() > MAX_SIGNAL_DATA => {
                return Err(ProtocolError::new(
                    ProtocolCode::TooLarge,
                    format!("A signal's data is at most {MAX_SIGNAL_DATA} bytes of JSON."),
                ));
            }
            _ => {}
        }
        Ok(msg)
    }

    /// Any message, through the enum's own reading, which words what is wrong with a frame.
    fn parse_any(text: &str) -> Result<ClientMsg, ProtocolError> {
        serde_json::from_str(text).map_err(|e| {
            let object = serde_json::from_str::<serde_json::Value>(text).ok();
            let kind = object
                .as_ref()
                .and_then(|v| Some(v.get("type")?.as_str()?.to_string()));
            let kind = kind.as_deref();
            match kind {
                // Only an unknown `type` is an unknown type; an unknown value of another field is
                // malformed.
                Some(kind) if !Self::VARIANTS.contains(&kind) => ProtocolError::new(
                    ProtocolCode::UnknownType,
                    format!(
                        "That message type is not known; the types are {}.",
                        Self::VARIANTS.join(", ")
                    ),
                ),
                _ => {
                    let field = object.and_then(Self::field_at_fault);
                    let message = match (kind, field) {
                        (Some(kind), Some(field)) => format!(
                            "The field `{field}` of that `{kind}` message is not valid: {e}."
                        ),
                        _ => format!("That frame is not a valid message: {e}."),
                    };
                    ProtocolError::new(ProtocolCode::Malformed, message)
                }
            }
        })
    }

    /// The field of a frame of a known type that the reading stumbled on, when one alone did: serde
    /// says which field is missing or unknown, but of a value of the wrong kind only what it expected.
    /// The fields of a message are read in the frame's order and a missing one is noticed only after
    /// the others were read, so the field at fault is the one whose removal makes the frame valid or
    /// makes the reading miss that very field.
    fn field_at_fault(frame: serde_json::Value) -> Option<String> {
        let serde_json::Value::Object(fields) = frame else {
            return None;
        };
        fields.keys().filter(|k| *k != "type").find_map(|key| {
            let mut without = fields.clone();
            without.remove(key);
            match serde_json::from_value::<ClientMsg>(without.into()) {
                Ok(_) => Some(key.clone()),
                Err(e) if e.to_string() == format!("missing field `{key}`") => Some(key.clone()),
                Err(_) => None,
            }
        })
    }

    /// Voice frames are counted apart from moves, so a burst of ICE candidates does not use up the
    /// moves' allowance.
    pub fn is_voice(&self) -> bool {
        matches!(self, ClientMsg::Voice { .. } | ClientMsg::Signal { .. })
    }
}

/// A seat's socket's first frame, `{"type": "hello", "token": T}`: the seat's token travels in it
/// rather than in the socket's address, which proxies and load balancers write into their logs.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Hello {
    Hello { token: String },
}

impl Hello {
    /// The token of a hello frame, or why the frame is not one.
    pub fn parse(text: &str) -> Result<String, ProtocolError> {
        match serde_json::from_str::<Hello>(text) {
            Ok(Hello::Hello { token }) => Ok(token),
            Err(_) => Err(ProtocolError::new(
                ProtocolCode::HelloExpected,
                "A seat's socket starts with {\"type\": \"hello\", \"token\": ...}, the seat's token.",
            )),
        }
    }
}

/// Why the frame parser refused a frame, written in kebab-case on the wire ("unknown-type").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, IntoStaticStr, EnumIter)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum ProtocolCode {
    /// Not JSON, or not a message of the protocol.
    Malformed,
    /// A field over its size.
    TooLarge,
    /// A `type` the protocol does not have.
    UnknownType,
    /// A seat's socket's first frame was not its hello.
    HelloExpected,
}

impl ProtocolCode {
    /// The code as it is written on the wire (the same words serde writes).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A frame refused before it reached a table: a code and a sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProtocolError {
    pub code: ProtocolCode,
    pub message: String,
}

impl ProtocolError {
    pub fn new(code: ProtocolCode, message: impl Into<String>) -> ProtocolError {
        ProtocolError {
            code,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests;
