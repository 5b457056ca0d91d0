//! The view frames a table sends, and what each socket was last sent of their slow parts and deal
//! view.
//!
//! A view's `table`, `seats`, `match`, `deal` and `shuffle`, and its [`Head`] (the game, the kind of
//! table, the status, the seat, how many watch, the outcome), change far less often than the deal in
//! play, and are the same from one move to the next. So a view carries each of them only when it
//! differs from what that socket was last sent, and a page keeps the others from its last view
//! (`docs/protocol.md`). A view sent to one socket alone (its first, the answer to `resync`, the one
//! after a stale version) carries them all. Who is connected and how many watch also travel in
//! `seats` frames, which can be dropped when frames pile up, so after one every socket's next view
//! carries `seats` and the head again.
//!
//! Each slow part is compared as the JSON it is written to, the head as its values: nothing else has
//! to track when a part changes. Writing a part is most of the cost of a view, so each is kept
//! ([`Written`]) with the values it was written from, and written again only when those differ. The
//! deal view itself is sent the same way, field by field ([`super::view_fields`]).

use std::sync::{Arc, LazyLock};

use serde::Serialize;
use serde_json::value::{to_raw_value, RawValue};

use super::view_fields::{FieldSet, ViewFields};
use super::{Effect, Frame, TableCore, VIEW_SIZE_HINT};
use crate::cards::Seat;
use crate::game::Game;
use crate::matches::Match;
use crate::protocol::SeatInfo;
use crate::table::frames::{Ack, Head, MatchInfo, ShuffleShown, ViewFrame};
use crate::table::ConnId;
use crate::table::RevealTo;

/// The slow parts of a view, each an index into [`Parts`] and [`Shown`].
#[derive(Clone, Copy)]
pub(super) enum Part {
    Table,
    Seats,
    Match,
    Deal,
    Shuffle,
}

const PARTS: usize = 5;

/// The slow parts of a view as one viewer sees them now, as JSON, in the order of [`Part`].
pub(super) struct Parts([Arc<RawValue>; PARTS]);

impl Parts {
    /// The part, if `news` says the socket is to be sent it.
    fn get(&self, part: Part, news: u8) -> Option<&RawValue> {
        (news & (1 << part as usize) != 0).then(|| &*self.0[part as usize])
    }
}

/// What one socket was last sent of each slow part and of the head (none: nothing yet, or to be sent
/// again), and of the deal view.
#[derive(Default)]
pub(super) struct Shown {
    parts: [Option<Arc<RawValue>>; PARTS],
    head: Option<Head>,
    view: Option<Arc<ViewFields>>,
}

impl Shown {
    /// The parts this socket has not been sent as they are now, a bit per [`Part`]; they are taken as
    /// sent.
    fn news(&mut self, parts: &Parts) -> u8 {
        let mut news = 0;
        for (i, (shown, now)) in self.parts.iter_mut().zip(&parts.0).enumerate() {
            if shown.as_ref().is_none_or(|was| was.get() != now.get()) {
                *shown = Some(Arc::clone(now));
                news |= 1 << i;
            }
        }
        news
    }

    /// The part is to be sent again with the socket's next view.
    pub(super) fn forget(&mut self, part: Part) {
        self.parts[part as usize] = None;
    }

    /// Whether the socket has not been sent the head as it is now; it is taken as sent.
    fn head_news(&mut self, now: &Head) -> bool {
        if self.head.as_ref() == Some(now) {
            return false;
        }
        self.head = Some(now.clone());
        true
    }

    /// The head is to be sent again with the socket's next view.
    pub(super) fn forget_head(&mut self) {
        self.head = None;
    }

    /// The fields of the deal view `now` (none: no deal yet) this socket has not been sent as they
    /// are; the view is taken as sent.
    fn view_news(&mut self, now: Option<&Arc<ViewFields>>) -> FieldSet {
        let news = now.map_or(0, |view| view.news(self.view.as_deref()));
        self.view = now.cloned();
        news
    }
}

/// The parts every viewer sees alike.
struct Common {
    table: Arc<RawValue>,
    seats: Arc<RawValue>,
    matchup: Arc<RawValue>,
    shuffle: Arc<RawValue>,
}

/// What one viewer is shown now: the slow parts, the head and the deal view (none before the first).
struct Seen {
    parts: Parts,
    head: Head,
    view: Option<Arc<ViewFields>>,
}

/// What a watcher is sent in place of a seat's own parts.
static NULL: LazyLock<Arc<RawValue>> = LazyLock::new(|| raw(RawValue::NULL));

pub(super) fn raw(value: &(impl Serialize + ?Sized)) -> Arc<RawValue> {
    Arc::from(to_raw_value(value).expect("server frames always serialize"))
}

/// One part's JSON, with what it was written from.
struct Kept<K>(Option<(K, Arc<RawValue>)>);

impl<K> Kept<K> {
    /// The part's JSON: the kept one while `same` says it was written from what is now, else the one
    /// `write` makes, kept with what `write` made it from. Nothing is copied while the part stays the
    /// same.
    fn json(
        &mut self,
        same: impl FnOnce(&K) -> bool,
        write: impl FnOnce() -> (K, Arc<RawValue>),
    ) -> Arc<RawValue> {
        if let Some((was, json)) = &self.0 {
            if same(was) {
                return Arc::clone(json);
            }
        }
        let (from, json) = write();
        self.0 = Some((from, Arc::clone(&json)));
        json
    }
}

impl<K> Default for Kept<K> {
    fn default() -> Self {
        Kept(None)
    }
}

/// The slow parts last written at a table, each with what it was written from.
pub(super) struct Written {
    /// The table's id, which never changes: written once.
    table: Option<Arc<RawValue>>,
    seats: Kept<Vec<SeatInfo>>,
    matchup: Kept<Match>,
    /// The coming deal's commitment, and which seats have added their number.
    shuffle: Kept<(String, Vec<bool>)>,
    /// Each viewer's (by seat, the watchers' last) from the deal's commitment and whether it ended.
    deal: Vec<Kept<(String, bool)>>,
}

impl Written {
    /// Nothing written yet, for a table of `seats` seats.
    pub(super) fn new(seats: usize) -> Written {
        Written {
            table: None,
            seats: Kept::default(),
            matchup: Kept::default(),
            shuffle: Kept::default(),
            deal: (0..=seats).map(|_| Kept::default()).collect(),
        }
    }
}

impl<G: Game> TableCore<G> {
    fn common_parts(&mut self) -> Common {
        let seats = self.seat_infos();
        let commitment = self.shuffle.commitment();
        let contributed = self.shuffle.contributed();
        let written = &mut self.written;
        Common {
            table: Arc::clone(written.table.get_or_insert_with(|| raw(&self.id))),
            seats: written
                .seats
                .json(|was| *was == seats, || (seats.clone(), raw(&seats))),
            matchup: written.matchup.json(
                |was| *was == self.matchup,
                || {
                    let json = raw(&MatchInfo {
                        score: &self.matchup,
                        winners: self.matchup.winners(),
                    });
                    (self.matchup.clone(), json)
                },
            ),
            shuffle: written.shuffle.json(
                |(was, by)| was == commitment && *by == contributed,
                || {
                    let json = raw(&ShuffleShown {
                        commitment,
                        contributed: &contributed,
                    });
                    ((commitment.to_string(), contributed.clone()), json)
                },
            ),
        }
    }

    /// The slow parts as `seat` (none: a watcher) sees them. A watcher is not told the table's id (its
    /// seat link) nor the coming shuffle, and once a deal has ended each viewer is shown its own reveal.
    fn parts(&mut self, seat: Option<Seat>, common: &Common) -> Parts {
        let deal = match &self.seal {
            None => Arc::clone(&NULL),
            Some(seal) => {
                let ended = self.state.as_ref().and_then(G::outcome).is_some();
                let commitment = seal.commitment();
                let state = &self.state;
                self.written.deal[seat.map_or(G::SEATS, Seat::index)].json(
                    |(was, ended_then)| was == commitment && *ended_then == ended,
                    || {
                        let seen = state.as_ref().filter(|_| ended).and_then(|state| {
                            let concealed = G::concealed_at_end(state);
                            (!concealed.is_empty()).then(|| G::seen_at_end(state, seat))
                        });
                        let json = raw(&seal.shown(ended.then_some(RevealTo {
                            viewer: seat,
                            seen: seen.as_deref(),
                        })));
                        ((commitment.to_string(), ended), json)
                    },
                )
            }
        };
        let seated = |part: &Arc<RawValue>| match seat {
            Some(_) => Arc::clone(part),
            None => Arc::clone(&NULL),
        };
        Parts([
            seated(&common.table),
            Arc::clone(&common.seats),
            Arc::clone(&common.matchup),
            deal,
            seated(&common.shuffle),
        ])
    }

    /// The head of `seat`'s (none: a watcher's) view now.
    fn head(&self, seat: Option<Seat>) -> Head {
        Head {
            game: G::NAME,
            kind: self.kind,
            level: self.level,
            status: self.status(),
            seat,
            watching: self.sockets.watching(),
            outcome: self.state.as_ref().and_then(G::outcome),
        }
    }

    /// The deal view `seat` (none: a watcher) is shown now, if a deal has been dealt.
    fn deal_view(&self, seat: Option<Seat>) -> Option<Arc<ViewFields>> {
        self.state
            .as_ref()
            .map(|s| ViewFields::new(&G::view(s, seat)))
    }

    /// The view frame for `seat` (none: a watcher's) now, with the slow parts `news` names, the head
    /// when given, and the fields of the deal view `view` that `fields` names, answering the socket's
    /// action when `ack` is given.
    fn view_frame(
        &self,
        seat: Option<Seat>,
        (parts, news): (&Parts, u8),
        head: Option<&Head>,
        (view, fields): (Option<&ViewFields>, FieldSet),
        ack: Option<Ack>,
    ) -> Frame {
        let frame = ViewFrame::<G> {
            frame: "view",
            version: self.version,
            table: parts.get(Part::Table, news),
            head,
            seats: parts.get(Part::Seats, news),
            matchup: parts.get(Part::Match, news),
            actions: match (&self.state, self.status(), seat) {
                (Some(state), super::Status::Playing, Some(seat)) => G::legal_actions(state, seat),
                _ => Vec::new(),
            },
            deal: parts.get(Part::Deal, news),
            shuffle: parts.get(Part::Shuffle, news),
            ack,
        };
        let view = view.map(|v| v.only(fields));
        Frame::json_with_field(
            &frame,
            VIEW_SIZE_HINT,
            "view",
            view.as_deref().unwrap_or(b"null"),
        )
    }

    /// The whole view for `seat` (none: a watcher's), and what it shows of the slow parts and the
    /// deal view.
    pub(super) fn whole_view(&mut self, seat: Option<Seat>) -> (Frame, Shown) {
        let common = self.common_parts();
        let parts = self.parts(seat, &common);
        let head = self.head(seat);
        let view = self.deal_view(seat);
        let mut shown = Shown::default();
        let news = shown.news(&parts);
        shown.head_news(&head);
        let fields = shown.view_news(view.as_ref());
        let view = (view.as_deref(), fields);
        let frame = self.view_frame(seat, (&parts, news), Some(&head), view, None);
        (frame, shown)
    }

    /// Sends one socket its whole view: on connecting, on `resync`, after a stale version.
    pub(super) fn send_whole_view(&mut self, conn: ConnId, seat: Option<Seat>) {
        let (frame, shown) = self.whole_view(seat);
        self.shown.insert(conn, shown);
        self.send(conn, frame);
    }

    /// Sends every socket its seat's view, and every watcher what everyone may see.
    pub(super) fn broadcast(&mut self) {
        self.broadcast_answering(None);
    }

    /// [`Self::broadcast`], the socket `answering` names being told in its own view that its action
    /// (with that id) made this change. Sockets that see the same share one frame.
    pub(super) fn broadcast_answering(&mut self, answering: Option<(ConnId, Option<&str>)>) {
        let common = self.common_parts();
        // What each viewer is shown, by seat; the watchers' last.
        let mut seen: Vec<Option<Seen>> = (0..=G::SEATS).map(|_| None).collect();
        let mut made: Vec<((usize, u8, bool, FieldSet), Frame)> = Vec::new();
        let viewers: Vec<(ConnId, Option<Seat>)> = self.sockets.viewers().collect();
        for (conn, seat) in viewers {
            let at = seat.map_or(G::SEATS, Seat::index);
            let Seen { parts, head, view } = seen[at].get_or_insert_with(|| Seen {
                parts: self.parts(seat, &common),
                head: self.head(seat),
                view: self.deal_view(seat),
            });
            let shown = self.shown.entry(conn).or_default();
            let news = shown.news(parts);
            let head_news = shown.head_news(head);
            let fields = shown.view_news(view.as_ref());
            let key = (at, news, head_news, fields);
            let parts = (&*parts, news);
            let head = head_news.then_some(&*head);
            let view = (view.as_deref(), fields);
            let frame = match answering {
                Some((answered, id)) if answered == conn => {
                    self.view_frame(seat, parts, head, view, Some(Ack { id }))
                }
                _ => match made.iter().find(|(made, _)| *made == key) {
                    Some((_, frame)) => frame.clone(),
                    None => {
                        let frame = self.view_frame(seat, parts, head, view, None);
                        made.push((key, frame.clone()));
                        frame
                    }
                },
            };
            self.effects.push(Effect::Send(conn, frame));
        }
    }
}
