//! Acknowledged means stored: when the router keeps snapshots, a change is shown to nobody until the
//! store has it, and a table whose store is out of reach pauses instead of playing on.

use std::time::Instant;

use super::super::seats::Occupant;
use super::super::RefusalCode;
use super::{
    Change, Closing, Effect, Notice, StoreAnswer, TableCore, Then, Timer, PAUSED, PAUSE_RETRY,
};
use chaikhana_rules::game::Game;

impl<G: Game> TableCore<G> {
    /// After a change the seats must hear of: when the router keeps snapshots, the change goes to the
    /// store first (the shell takes no other event meanwhile), so that nobody is shown or acknowledged
    /// a version a new owner could not rebuild; `then` runs once it is stored. Only the actions
    /// accepted since the last store are sent when nothing else has changed (see `keeping`).
    pub(super) fn commit(&mut self, then: Then) {
        if !self.keeper.keeps() {
            return self.then(then);
        }
        let Some((change, mark)) = self.change_to_store() else {
            return self.then(then);
        };
        let whole = matches!(change, Change::Whole { .. });
        self.keeper.send(then, mark, whole);
        self.effects.push(Effect::Store(change));
    }

    /// The store's answer to the last [`Effect::Store`].
    pub fn stored(&mut self, answer: StoreAnswer, now: Instant) {
        let Some((then, whole)) = self.keeper.answered(answer == StoreAnswer::Stored) else {
            return;
        };
        match answer {
            StoreAnswer::Stored => {
                let paused = self.keeper.resume();
                self.then(then);
                if let Some(since) = paused {
                    tracing::info!(table = %self.id, after = ?now.duration_since(since), "play resumes");
                    // A computer whose move waited for the pause to end plays it now.
                    self.wake_computer();
                }
            }
            // The snapshot to add to is gone (Redis lost it): store the whole table at once.
            StoreAnswer::Missing if !whole => self.commit(then),
            StoreAnswer::Missing | StoreAnswer::Failed => self.pause(then, now),
            StoreAnswer::Fenced => self.step_down(),
        }
    }

    /// What the table does once its change is stored (or at once, with no store).
    fn then(&mut self, then: Then) {
        match then {
            Then::Nothing => {}
            Then::Show => self.show(),
            Then::Acknowledge { conn, id, arrived } => {
                self.show_answering(Some((conn, id.as_deref())));
                self.count(super::Count::Answered { arrived });
            }
            Then::Seated(seat) => {
                let everyone_seated = !self.seats.iter().any(|s| matches!(s, Occupant::Free));
                if everyone_seated && self.state.is_none() {
                    self.deal_next();
                } else {
                    self.broadcast();
                }
                self.effects.push(Effect::Seated(seat));
            }
            Then::Broadcast => self.broadcast(),
            Then::ShowPledges => self.pledges_closed(),
            Then::Coached(said) => self.tell(said),
        }
    }

    /// The store could not take a change: the table neither shows nor acknowledges it, and takes no
    /// other change (requests are refused as `unavailable`) until it is stored, trying again every
    /// `PAUSE_RETRY`. Nothing is rolled back: the change is kept, and shown once it is safe.
    fn pause(&mut self, then: Then, now: Instant) {
        if self.keeper.pause(then, now) {
            tracing::warn!(table = %self.id, "the table's store is out of reach: play is paused");
            self.count(super::Count::Paused);
            self.send_everyone(Notice::Refused {
                code: RefusalCode::Unavailable.into(),
                message: PAUSED.into(),
                id: None,
            });
        }
        self.effects
            .push(Effect::Wake(PAUSE_RETRY, Timer::PauseRetry));
    }

    /// A paused table's timer: the store may hold part of what was sent, or nothing, so the whole
    /// table goes again.
    pub(super) fn retry_store(&mut self) {
        if let Some(then) = self.keeper.retry() {
            self.commit(then);
        }
    }

    /// Whether the table waits for its store (see `pause`).
    pub(super) fn paused(&self) -> bool {
        self.keeper.paused()
    }

    /// Another owner holds the table: this one stops at once, saying nothing more, and its sockets
    /// find the table again.
    pub fn step_down(&mut self) {
        tracing::warn!(table = %self.id, "another node owns this table now; stopping here");
        self.stop(Closing::Lost);
    }

    /// The router asks for the snapshot to be stored again (the last one may not have reached the
    /// store, or the store lost it). A paused table tries again by itself.
    pub fn save(&mut self) {
        if self.paused() {
            return;
        }
        self.keeper.forget_held();
        self.commit(Then::Nothing);
    }

    /// The node drains: a final snapshot is stored and the table stops, its sockets left for the
    /// next owner. The shell takes no other event meanwhile: an action accepted after the final
    /// snapshot would be lost to the next owner.
    pub fn hand_over(&mut self) {
        if self.keeper.keeps() {
            self.effects.push(Effect::HandOver(self.whole()));
        }
    }

    /// The store's answer to the [`Effect::HandOver`].
    pub fn handed_over(&mut self, answer: StoreAnswer) {
        if self.sleeping && answer != StoreAnswer::Fenced {
            return self.slept(answer == StoreAnswer::Stored);
        }
        self.stop(match answer {
            StoreAnswer::Fenced => Closing::Lost,
            _ => Closing::HandedOver,
        });
    }
}
