//! What each socket at the table is shown, as typed values: after every change the core says what
//! each seat, and every watcher, may see now ([`Seen`]), and which sockets are to be shown it
//! ([`Showing`]); the other frames it sends are [`Notice`]s. It writes no JSON and keeps nothing of
//! what a socket was sent: the presenter beside the outbox (`table::present`) writes the frames, and
//! leaves out of each socket's view what that socket already has (`docs/protocol.md`).
//!
//! What one viewer sees is worked out once per change for every socket of that viewer (a seat's tabs,
//! the watchers), and what every viewer sees alike (the seats, the match, the coming shuffle) once for
//! all of them, shared behind an `Arc`: the presenter writes each distinct value once.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use super::{Effect, TableCore};
use crate::protocol::{Phrase, SeatInfo, SignalKind};
use crate::table::frames::{Head, ShuffleShown, Status};
use crate::table::seal::SealShown;
use crate::table::{ConnId, DealSeal, ErrorCode, RevealTo, TableId};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::coach::Analysis;
use chaikhana_rules::game::Game;
use chaikhana_rules::matches::Match;

/// What one viewer, a seat or every watcher, is shown now.
pub struct Seen<G: Game> {
    /// The table's id, its seat link's: a seat's only (a watcher must not find the seat link).
    pub table: Option<TableId>,
    /// The game, the kind of table, the status, the seat, how many watch, the deal's outcome.
    pub head: Head,
    /// Every seat, as every seat and watcher sees it.
    pub seats: Arc<Vec<SeatInfo>>,
    /// The match's score.
    pub matchup: Arc<Match>,
    /// The deal's seal, as this viewer sees it (none before the first deal).
    pub deal: Option<DealShown>,
    /// The coming deal's shuffle, for a seat to add its number to (none for a watcher).
    pub shuffle: Option<Arc<ShuffleShown>>,
    /// Every action this seat may take now (empty when it is not its turn, and for a watcher).
    pub actions: Vec<G::Action>,
    /// The game's view of the deal in play, or of the one just ended (none before the first).
    pub view: Option<Arc<G::View>>,
}

/// A deal's seal as one viewer is shown it: its commitment, and once the deal has ended what that
/// viewer may learn of it (see `table::seal`).
#[derive(Clone, Debug)]
pub struct DealShown {
    pub seal: Arc<DealSeal>,
    /// Whether the deal has ended: then its reveal is shown.
    pub ended: bool,
    /// The seat, or none for a watcher.
    pub viewer: Option<Seat>,
    /// Once the deal has ended, the cards the viewer saw in play, or none when the whole deal may be
    /// shown (nothing went face down).
    pub seen: Option<Vec<String>>,
    /// The version of the deal's first view.
    pub dealt_at: Option<u64>,
}

impl DealShown {
    /// The seal as a frame carries it.
    pub fn shown(&self) -> SealShown<'_> {
        SealShown {
            dealt_at: self.dealt_at,
            ..self.seal.shown(self.ended.then_some(RevealTo {
                viewer: self.viewer,
                seen: self.seen.as_deref(),
            }))
        }
    }
}

impl PartialEq for DealShown {
    /// The same deal (by its commitment), shown to the same viewer at the same moment of it.
    fn eq(&self, other: &DealShown) -> bool {
        self.ended == other.ended
            && self.viewer == other.viewer
            && self.seen == other.seen
            && (Arc::ptr_eq(&self.seal, &other.seal)
                || self.seal.commitment() == other.seal.commitment())
    }
}

/// Views for some of the table's sockets at one version: each socket is shown its viewer's.
pub struct Showing<G: Game> {
    pub version: u64,
    /// What each viewer is shown, by seat, the watchers' last; none for a viewer with no socket here.
    pub seen: Vec<Option<Seen<G>>>,
    /// Each socket, and the viewer whose view it is shown (an index into `seen`).
    pub to: Vec<(ConnId, usize)>,
    /// The socket whose action made this version, and the id its page gave the action: only its view
    /// says that the action was accepted.
    pub ack: Option<(ConnId, Option<String>)>,
    /// Whether the view goes whole, to a socket shown nothing yet (its first view, the answer to
    /// `resync`, the view after a stale version): what it was shown before is forgotten.
    pub whole: bool,
}

impl<G: Game> fmt::Debug for Seen<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Seen")
            .field("head", &self.head)
            .field("actions", &self.actions)
            .field("view", &self.view)
            .finish_non_exhaustive()
    }
}

impl<G: Game> fmt::Debug for Showing<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Showing")
            .field("version", &self.version)
            .field("to", &self.to)
            .field("whole", &self.whole)
            .finish_non_exhaustive()
    }
}

/// A frame other than a view: an answer, or news every socket hears.
#[derive(Debug)]
pub enum Notice {
    /// Something was refused; nothing changed.
    Refused {
        code: ErrorCode,
        message: Cow<'static, str>,
        /// The id of the action refused, if it was one and had one.
        id: Option<String>,
    },
    /// Who sits where and who is connected, and how many watch. It tells a whole state: a newer one
    /// replaces an older one still waiting in a socket's queue, so whatever a socket's last view left
    /// out of the seats and the head goes in its next again.
    Seats {
        seats: Vec<SeatInfo>,
        watching: usize,
    },
    /// A quick phrase said by a seat.
    Phrase { seat: Seat, id: Phrase },
    /// A piece of the WebRTC handshake from another seat, as it sent it.
    Signal {
        from: Seat,
        kind: SignalKind,
        data: serde_json::Value,
    },
    /// The coach's choice at a seat's turn.
    Hint {
        version: u64,
        action: serde_json::Value,
        value: f64,
        unit: &'static str,
        why: chaikhana_rules::game::Why,
    },
    /// The coming deal's list of pledges, closed: each seat's page sends the number it pledged.
    Shuffle(ShuffleShown),
    /// An analysis under way: `done` of `of` decisions judged.
    Analysing { deal: usize, done: usize, of: usize },
    /// A seat's analysis of a deal.
    Analysis {
        deal: usize,
        analysis: Arc<Analysis>,
    },
}

/// What every viewer sees alike.
struct Common {
    seats: Arc<Vec<SeatInfo>>,
    matchup: Arc<Match>,
    shuffle: Arc<ShuffleShown>,
}

impl<G: Game> TableCore<G> {
    fn common(&self) -> Common {
        Common {
            seats: Arc::new(self.seat_infos()),
            matchup: Arc::new(self.matchup.clone()),
            shuffle: Arc::new(self.shuffle_shown()),
        }
    }

    /// The coming deal's shuffle as every seat is shown it.
    pub(super) fn shuffle_shown(&self) -> ShuffleShown {
        let coming = self.dealer.coming();
        ShuffleShown {
            deal: coming.deal(),
            commitment: coming.commitment().to_string(),
            pledges: coming.pledges().to_vec(),
            closed: coming.closed(),
            contributed: coming.contributed(),
        }
    }

    /// The head of `seat`'s (none: a watcher's) view now.
    pub(super) fn head(&self, seat: Option<Seat>) -> Head {
        Head {
            game: G::NAME,
            kind: self.kind,
            level: self.level,
            status: self.status(),
            seat,
            watching: self.sockets.watching(),
            outcome: self.state.as_ref().and_then(G::outcome),
            hints_taken: self.hints_taken(),
        }
    }

    /// What `seat` (none: a watcher) is shown now. A watcher is not told the table's id (its seat
    /// link) nor the coming shuffle, and once a deal has ended each viewer is shown its own reveal.
    fn seen(&self, seat: Option<Seat>, common: &Common) -> Seen<G> {
        let ended = self.state.as_ref().and_then(G::outcome).is_some();
        let deal = self.dealer.seal().map(|seal| DealShown {
            seal: Arc::clone(seal),
            ended,
            viewer: seat,
            seen: self.state.as_ref().filter(|_| ended).and_then(|state| {
                let concealed = G::concealed_at_end(state);
                (!concealed.is_empty()).then(|| G::seen_at_end(state, seat))
            }),
            dealt_at: self.record.last().map(|deal| deal.dealt_at),
        });
        Seen {
            table: seat.map(|_| self.id.clone()),
            head: self.head(seat),
            seats: Arc::clone(&common.seats),
            matchup: Arc::clone(&common.matchup),
            deal,
            shuffle: seat.map(|_| Arc::clone(&common.shuffle)),
            actions: match (&self.state, self.status(), seat) {
                (Some(state), Status::Playing, Some(seat)) => G::legal_actions(state, seat),
                _ => Vec::new(),
            },
            view: self.state.as_ref().map(|s| Arc::new(G::view(s, seat))),
        }
    }

    /// The whole view of `seat` (none: a watcher's) for the socket `conn` alone.
    pub(super) fn whole_view(&self, conn: ConnId, seat: Option<Seat>) -> Showing<G> {
        let at = seat.map_or(G::SEATS, Seat::index);
        let mut seen: Vec<Option<Seen<G>>> = (0..=G::SEATS).map(|_| None).collect();
        seen[at] = Some(self.seen(seat, &self.common()));
        Showing {
            version: self.version,
            seen,
            to: vec![(conn, at)],
            ack: None,
            whole: true,
        }
    }

    /// Sends one socket its whole view: on connecting, on `resync`, after a stale version.
    pub(super) fn send_whole_view(&mut self, conn: ConnId, seat: Option<Seat>) {
        let showing = self.whole_view(conn, seat);
        self.effects.push(Effect::Show(showing));
    }

    /// Sends every socket its seat's view, and every watcher what everyone may see.
    pub(super) fn broadcast(&mut self) {
        self.broadcast_answering(None);
    }

    /// [`Self::broadcast`], the socket `answering` names being told in its own view that its action
    /// (with that id) made this change.
    pub(super) fn broadcast_answering(&mut self, answering: Option<(ConnId, Option<&str>)>) {
        let common = self.common();
        let mut seen: Vec<Option<Seen<G>>> = (0..=G::SEATS).map(|_| None).collect();
        let mut to = Vec::new();
        for (conn, seat) in self.sockets.viewers() {
            let at = seat.map_or(G::SEATS, Seat::index);
            if seen[at].is_none() {
                seen[at] = Some(self.seen(seat, &common));
            }
            to.push((conn, at));
        }
        if to.is_empty() {
            return;
        }
        let showing = Showing {
            version: self.version,
            seen,
            to,
            ack: answering.map(|(conn, id)| (conn, id.map(str::to_string))),
            whole: false,
        };
        self.effects.push(Effect::Show(showing));
    }
}
