//! Voice at a friends table: which seats have it on, and the relay of the WebRTC handshake between
//! them. The table never touches audio and never reads a handshake; voice never changes the game or its
//! version. A seat's voice belongs to the socket that switched it on, so the handshake reaches one
//! browser, and it goes off when that socket goes.

use super::{Notice, TableCore};
use crate::protocol::SignalKind;
use crate::table::seats::TableKind;
use crate::table::{ConnId, RefusalCode};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;

/// The refusal of voice at a computer table.
const FRIENDS_ONLY: (RefusalCode, &str) = (
    RefusalCode::VoiceFriendsOnly,
    "Voice is for tables of friends; this table plays the computer.",
);

/// For each seat, the socket whose browser has voice on, if any.
pub(super) struct VoiceRoom {
    holders: Vec<Option<ConnId>>,
}

impl VoiceRoom {
    pub(super) fn new(seats: usize) -> VoiceRoom {
        VoiceRoom {
            holders: vec![None; seats],
        }
    }

    pub(super) fn is_on(&self, seat: Seat) -> bool {
        self.holder(seat).is_some()
    }

    fn holder(&self, seat: Seat) -> Option<ConnId> {
        self.holders.get(seat.index()).copied().flatten()
    }

    /// The seat whose voice this socket holds.
    fn seat_held_by(&self, conn: ConnId) -> Option<Seat> {
        self.holders
            .iter()
            .position(|h| *h == Some(conn))
            .map(Seat::new)
    }
}

impl<G: Game> TableCore<G> {
    /// A seat switches its voice on or off.
    pub(super) fn switch_voice(&mut self, conn: ConnId, seat: Seat, on: bool) {
        if self.kind == TableKind::Computer {
            let (code, message) = FRIENDS_ONLY;
            self.send_refusal(conn, code, message, None);
            return;
        }
        let before = self.voice.holder(seat);
        match (on, before) {
            (true, Some(holder)) if holder == conn => {}
            (true, Some(holder)) => {
                // Another tab of the same seat takes the voice: the first tab is told, and the others
                // see the seat go off and on again, so they connect to the new tab afresh.
                self.send_refusal(
                    holder,
                    RefusalCode::VoiceMoved,
                    "Voice moved to another tab or window of your seat.",
                    None,
                );
                self.voice.holders[seat.index()] = None;
                self.broadcast_seats();
                self.voice.holders[seat.index()] = Some(conn);
                self.broadcast_seats();
            }
            (true, None) => {
                self.voice.holders[seat.index()] = Some(conn);
                self.broadcast_seats();
            }
            (false, Some(holder)) if holder == conn => {
                self.voice.holders[seat.index()] = None;
                self.broadcast_seats();
            }
            (false, _) => {}
        }
    }

    /// A socket has gone: the voice it held goes off for everyone. True if it held one.
    pub(super) fn voice_socket_gone(&mut self, conn: ConnId) -> bool {
        match self.voice.seat_held_by(conn) {
            Some(seat) => {
                self.voice.holders[seat.index()] = None;
                true
            }
            None => false,
        }
    }

    /// Relays one piece of a handshake from `seat` to the seat `to`, both with voice on.
    pub(super) fn relay_signal(
        &mut self,
        conn: ConnId,
        seat: Seat,
        to: Seat,
        kind: SignalKind,
        data: serde_json::Value,
    ) {
        let refusal = if self.kind == TableKind::Computer {
            Some(FRIENDS_ONLY)
        } else if to.index() >= G::SEATS || to == seat {
            Some((
                RefusalCode::BadSignal,
                "A signal goes to another seat of this table.",
            ))
        } else if self.voice.holder(seat) != Some(conn) {
            Some((
                RefusalCode::VoiceOff,
                "Switch your voice on before connecting to another seat.",
            ))
        } else if !self.voice.is_on(to) {
            Some((RefusalCode::PeerVoiceOff, "That seat has its voice off."))
        } else {
            None
        };
        if let Some((code, message)) = refusal {
            self.send_refusal(conn, code, message, None);
            return;
        }
        let Some(target) = self.voice.holder(to) else {
            return;
        };
        self.send(
            target,
            Notice::Signal {
                from: seat,
                kind,
                data,
            },
        );
    }
}
