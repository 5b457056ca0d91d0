//! What the presenter remembers of each socket: what it was last sent of each slow part, of the head
//! and of the deal view, so that its next view leaves out what it has. A socket's memory starts with
//! its whole view (on connecting, on `resync`, after a stale version) and ends when the core says the
//! socket is gone; a socket that attaches again is a new socket, sent its whole view.

use std::sync::Arc;

use serde_json::value::RawValue;

use super::fields::{FieldSet, ViewFields};
use super::parts::{Part, Parts, PARTS};
use crate::table::frames::Head;

/// What one socket was last sent of each slow part and of the head (none: nothing yet, or to be
/// sent again), and of the deal view.
#[derive(Default)]
pub(super) struct Shown {
    parts: [Option<Arc<RawValue>>; PARTS],
    head: Option<Head>,
    view: Option<Arc<ViewFields>>,
}

impl Shown {
    /// The parts this socket has not been sent as they are now, a bit per [`Part`]; they are taken as
    /// sent.
    pub(super) fn news(&mut self, parts: &Parts) -> u8 {
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
    pub(super) fn head_news(&mut self, now: &Head) -> bool {
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
    pub(super) fn view_news(&mut self, now: Option<&Arc<ViewFields>>) -> FieldSet {
        let news = now.map_or(0, |view| view.news(self.view.as_deref()));
        self.view = now.cloned();
        news
    }
}
