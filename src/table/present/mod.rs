//! The presenter: writes what the table core shows each socket (typed views and notices, see
//! `core::views`) as the outbox's frames, in the format of `docs/protocol.md`. The actor owns one per
//! table, hands it the core's effects in order and puts the frames it writes in the sockets' queues;
//! it is the one place where the table's output becomes JSON.
//!
//! It keeps, per socket, what that socket was last sent ([`shown`]), so a view carries only what
//! changed: the slow parts (`table`, `seats`, `match`, `deal`, `shuffle`) and the head (`game`, `kind`,
//! `level`, `status`, `seat`, `watching`, `outcome`) are left out when the socket has them as they
//! are, and the deal view carries only its top-level fields that changed ([`fields`]). A socket's
//! first view, the answer to `resync` and the view after a stale version are whole, and so is every
//! replay. After a `seats` frame, which may be dropped when frames pile up, the socket's next view
//! carries the seats and the head again. The core says when a socket is gone, and its memory goes.
//!
//! Each distinct thing is written once however many sockets it goes to: a slow part once per change
//! ([`parts`]), a viewer's deal view once per change, a frame once for all the sockets that are to be
//! sent the same bytes (a seat's tabs, the watchers), a notice once for every socket that hears it.
//!
//! **Why not JSON Merge Patch.** RFC 7396 (the `json-patch` crate's `merge`) would lay a view over the
//! last one as a page does, but not exactly: a merge patch deletes a member whose value is null and
//! merges a nested object member by member. A view's fields are null for real (`view` before the
//! first deal, `outcome` during a deal, `level` at a friends table, `seat` and `table` for a watcher,
//! a game's `battle` between attacks): as a merge patch, a field that became null would vanish from
//! the page's view instead of reading null, and a nested object that changed (a battle, the hints)
//! would keep members its new value no longer has. The site's delta lays each changed field over the
//! old one whole, one level deep, with null a value like any other; the pages apply it, and the wire
//! stays as it is. JSON Patch (RFC 6902) could say the same with `replace` operations, but in another
//! format than the one the pages and the tests read, so the field delta stays.

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use serde::Serialize;
use serde_json::value::RawValue;

use super::core::{Closing, Gone, Hangup, Notice, Replay, ReplayStep, Seen, Showing};
use super::frames::{Ack, Head};
use super::ConnId;
use crate::outbox::Frame;
use chaikhana_rules::game::Game;

mod fields;
mod notice;
mod parts;
mod shown;
#[cfg(test)]
mod tests;

use fields::{FieldSet, ViewFields};
use parts::{Part, Parts, Written, ALL};
use shown::Shown;

/// About the length of a view frame's JSON, so that its buffer is allocated once.
const VIEW_SIZE_HINT: usize = 2048;

/// A table's presenter: what each of its sockets was last sent, and the slow parts as last written.
#[derive(Default)]
pub struct Presenter {
    shown: HashMap<ConnId, Shown>,
    written: Written,
    /// The last notice written, and its frame: a notice every socket hears is written once.
    last_notice: Option<(Arc<Notice>, Frame)>,
}

impl Presenter {
    pub fn new() -> Presenter {
        Presenter::default()
    }

    /// Writes each socket `showing` names its view, leaving out what it was last sent (unless the
    /// view goes whole), and hands each frame to `send`. Sockets that are to be sent the same bytes
    /// share one frame.
    pub fn show<G: Game>(&mut self, showing: &Showing<G>, mut send: impl FnMut(ConnId, Frame)) {
        let Showing {
            version,
            seen,
            to,
            ack,
            whole,
        } = showing;
        // Each viewer's parts and deal view, written once for all its sockets.
        let mut parts: Vec<Option<Parts>> = seen.iter().map(|_| None).collect();
        let mut views: Vec<Option<Option<Arc<ViewFields>>>> = seen.iter().map(|_| None).collect();
        let mut made: Vec<((usize, u8, bool, FieldSet), Frame)> = Vec::new();
        for &(conn, at) in to {
            let Some(seen) = &seen[at] else {
                continue;
            };
            let parts = parts[at].get_or_insert_with(|| self.written.parts(at, seen));
            let view = views[at].get_or_insert_with(|| seen.view.as_deref().map(ViewFields::new));
            let shown = self.shown.entry(conn).or_default();
            if *whole {
                *shown = Shown::default();
            }
            let news = shown.news(parts);
            let head_news = shown.head_news(&seen.head);
            let fields = shown.view_news(view.as_ref());
            let draft = Draft {
                version: *version,
                seen,
                parts: (parts, news),
                head: head_news.then_some(&seen.head),
                view: (view.as_deref(), fields),
            };
            let frame = match ack.as_ref().filter(|(answered, _)| *answered == conn) {
                Some((_, id)) => draft.frame(Some(Ack { id: id.as_deref() })),
                None => {
                    let key = (at, news, head_news, fields);
                    match made.iter().find(|(made, _)| *made == key) {
                        Some((_, frame)) => frame.clone(),
                        None => {
                            let frame = draft.frame(None);
                            made.push((key, frame.clone()));
                            frame
                        }
                    }
                }
            };
            send(conn, frame);
        }
    }

    /// The frame of a notice to `conn`. A `seats` frame may be dropped when frames pile up, so the
    /// socket's next view carries the seats and the head again.
    pub fn tell(&mut self, conn: ConnId, notice: &Arc<Notice>) -> Frame {
        let seats = matches!(**notice, Notice::Seats { .. });
        if seats {
            if let Some(shown) = self.shown.get_mut(&conn) {
                shown.forget(Part::Seats);
                shown.forget_head();
            }
        }
        if let Some((last, frame)) = &self.last_notice {
            if Arc::ptr_eq(last, notice) {
                return frame.clone();
            }
        }
        let frame = Frame::json(&notice::message(notice), 128);
        let frame = if seats { frame.superseding() } else { frame };
        self.last_notice = Some((Arc::clone(notice), frame.clone()));
        frame
    }

    /// The socket is gone: what it was shown is forgotten.
    pub fn forget(&mut self, conn: ConnId) {
        self.shown.remove(&conn);
    }
}

/// The WebSocket close code and reason of a socket the table closes (`docs/protocol.md`).
pub fn hangup(why: Hangup) -> (u16, &'static str) {
    match why {
        Hangup::TooSlow => (1008, "too slow: frames were piling up"),
        Hangup::Gone(Gone::Ended) => (4410, "match-ended"),
        Hangup::Gone(Gone::Expired) => (4411, "table-expired"),
    }
}

/// The close code and reason every socket still open hears as the table stops, if it closes them:
/// not when it is handed over (the sockets stay for the next owner).
pub fn closing(closing: Closing) -> Option<(u16, &'static str)> {
    match closing {
        Closing::HandedOver => None,
        Closing::Lost | Closing::Asleep => Some((1012, "the table has moved; reconnecting")),
        Closing::Closed(gone) => Some(hangup(Hangup::Gone(gone))),
    }
}

/// The frame answering a `replay`: every part of the step's view, its deal view whole, and where the
/// step stands. Nothing of it is kept: it is not a view the socket's next one builds on.
pub fn replay<G: Game>(replay: &Replay<G>) -> Frame {
    let Replay {
        version,
        seen,
        step,
    } = replay;
    let parts = Written::default().parts(0, seen);
    let frame = ReplayFrame {
        frame: view_frame(
            "replay",
            *version,
            seen,
            (&parts, ALL),
            Some(&seen.head),
            None,
        ),
        replay: step,
    };
    let view = seen
        .view
        .as_deref()
        .map(|view| serde_json::to_vec(view).expect("views always serialize"));
    with_field(&frame, "view", view.as_deref().unwrap_or(b"null"))
}

/// One socket's view frame, about to be written: the parts `news` names, the head when given, and the
/// fields of the deal view that the field set names.
struct Draft<'a, G: Game> {
    version: u64,
    seen: &'a Seen<G>,
    parts: (&'a Parts, u8),
    head: Option<&'a Head>,
    view: (Option<&'a ViewFields>, FieldSet),
}

impl<G: Game> Draft<'_, G> {
    fn frame(&self, ack: Option<Ack<'_>>) -> Frame {
        let frame = view_frame("view", self.version, self.seen, self.parts, self.head, ack);
        let (view, fields) = self.view;
        let view = view.map(|v| v.only(fields));
        with_field(&frame, "view", view.as_deref().unwrap_or(b"null"))
    }
}

/// The frame's fields but the deal view.
fn view_frame<'a, G: Game>(
    kind: &'static str,
    version: u64,
    seen: &'a Seen<G>,
    (parts, news): (&'a Parts, u8),
    head: Option<&'a Head>,
    ack: Option<Ack<'a>>,
) -> ViewFrame<'a, G> {
    ViewFrame {
        frame: kind,
        version,
        table: parts.get(Part::Table, news),
        head,
        seats: parts.get(Part::Seats, news),
        matchup: parts.get(Part::Match, news),
        actions: &seen.actions,
        deal: parts.get(Part::Deal, news),
        shuffle: parts.get(Part::Shuffle, news),
        ack,
    }
}

/// A frame holding the JSON object `value` with one more field, `name`, whose value is the JSON text
/// `json` as it is. `json` must be JSON this server wrote: it is not read again to be checked, as a
/// `RawValue` in `value` would be.
fn with_field(value: &impl Serialize, name: &str, json: &[u8]) -> Frame {
    let mut buf = Vec::with_capacity(VIEW_SIZE_HINT);
    serde_json::to_writer(&mut buf, value).expect("server frames always serialize");
    assert_eq!(buf.pop(), Some(b'}'), "a frame is a JSON object");
    if buf.len() > 1 {
        buf.push(b',');
    }
    for piece in [b"\"", name.as_bytes(), b"\":", json, b"}"] {
        buf.extend_from_slice(piece);
    }
    Frame::json_bytes(Bytes::from(buf))
}

/// One socket's view frame. Its head and slow parts are left out when the socket was last sent them
/// as they are; its `view`, the seat's view of the deal in play (or the one just ended; null before
/// the first), is written apart and added to the frame's JSON ([`with_field`]).
#[derive(Serialize)]
struct ViewFrame<'a, G: Game> {
    #[serde(rename = "type")]
    frame: &'static str,
    version: u64,
    /// The table's id, its seat link's: for a seat only (a watcher must not find the seat link).
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<&'a RawValue>,
    #[serde(flatten)]
    head: Option<&'a Head>,
    /// Every seat's `SeatInfo`.
    #[serde(skip_serializing_if = "Option::is_none")]
    seats: Option<&'a RawValue>,
    /// The `MatchInfo`.
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    matchup: Option<&'a RawValue>,
    /// Every action this seat may take now (empty when it is not its turn).
    actions: &'a [G::Action],
    /// The deal's `SealShown`: its commitment, and once it has ended its order and salt (see
    /// `table::seal`).
    #[serde(skip_serializing_if = "Option::is_none")]
    deal: Option<&'a RawValue>,
    /// The coming deal's `ShuffleShown`, for a seat to add its number to (null for a watcher).
    #[serde(skip_serializing_if = "Option::is_none")]
    shuffle: Option<&'a RawValue>,
    /// The action this view answers: present only in the view sent to the socket whose action made
    /// this version, so that its page hears "accepted" and the new table in one frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    ack: Option<Ack<'a>>,
}

/// A `replay` frame: a view frame of the step with where it stands.
#[derive(Serialize)]
#[serde(bound = "ViewFrame<'a, G>: Serialize")]
struct ReplayFrame<'a, G: Game> {
    #[serde(flatten)]
    frame: ViewFrame<'a, G>,
    replay: &'a ReplayStep<G::Action>,
}
