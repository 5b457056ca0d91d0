//! Watchers: people who came through the table's watch link. A watcher's socket is sent, after every
//! change, the view of no seat (what everyone at the table may see: no hand, no face-down card, no
//! stock), the seats and how many watch, and the seats' quick phrases. It may ask for that view again
//! and replay a finished deal as a watcher saw it; anything else it sends is refused, and it never
//! changes the table. A table takes at most `watchers_per_table` of them.

use super::super::ConnId;
use super::super::{RefusalCode, TableRefusal};
use super::TableCore;
use crate::protocol::ClientMsg;
use chaikhana_rules::game::Game;

/// What a watcher is told when it tries to play, speak or name itself.
const WATCHERS_DO_NOT_ACT: (RefusalCode, &str) = (
    RefusalCode::WatchersCannotAct,
    "You are watching this table: you can follow the play, but not make moves, talk or send phrases.",
);

impl<G: Game> TableCore<G> {
    /// A socket for a watcher: it is sent what everyone may see, and everyone hears how many watch.
    /// Answers how many watch now.
    pub fn watch(&mut self, conn: ConnId) -> Result<usize, TableRefusal> {
        if self.sockets.watching() >= self.policy.watchers_per_table {
            return Err(TableRefusal::too_many_watchers());
        }
        // Its first frame would show a change not yet stored.
        if self.paused() {
            return Err(TableRefusal::unavailable());
        }
        if self.sleeping {
            return Err(TableRefusal::unavailable());
        }
        self.sockets.add_watcher(conn);
        self.send_whole_view(conn, None);
        self.broadcast_seats();
        Ok(self.sockets.watching())
    }

    /// A frame from a watcher's socket.
    pub(super) fn heard_from_watcher(&mut self, conn: ConnId, msg: ClientMsg) {
        match msg {
            ClientMsg::Resync {} => {
                self.count(super::Count::Resync);
                self.send_whole_view(conn, None);
            }
            ClientMsg::Replay { deal, step } => self.send_replay(conn, None, deal, step),
            ClientMsg::Analyse { deal } => self.ask_analysis(conn, None, deal),
            _ => {
                let (code, message) = WATCHERS_DO_NOT_ACT;
                self.send_refusal(conn, code, message, None);
            }
        }
    }
}
