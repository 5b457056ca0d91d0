//! The slow parts of a view (`table`, `seats`, `match`, `deal`, `shuffle`) as JSON, each written once
//! per change and shared by every socket it goes to.
//!
//! Writing a part is most of the cost of a view, and a part changes far less often than the deal in
//! play (once a deal or less). So each is kept with the value it was written from, and written again
//! only when the core shows another value: a move's views copy an `Arc`, not a part.

use std::sync::{Arc, LazyLock};

use serde::Serialize;
use serde_json::value::{to_raw_value, RawValue};

use crate::protocol::SeatInfo;
use crate::table::core::{DealShown, Seen};
use crate::table::frames::{MatchInfo, ShuffleShown};
use crate::table::TableId;
use chaikhana_rules::game::Game;
use chaikhana_rules::matches::Match;

/// The slow parts of a view, each an index into [`Parts`] (and into what a socket was shown of them).
#[derive(Clone, Copy)]
pub(super) enum Part {
    Table,
    Seats,
    Match,
    Deal,
    Shuffle,
}

/// How many slow parts a view has.
pub(super) const PARTS: usize = 5;

/// Every part, as a bit set of [`Part`]s.
pub(super) const ALL: u8 = (1 << PARTS) - 1;

/// The slow parts of a view as one viewer sees them now, as JSON, in the order of [`Part`].
pub(super) struct Parts(pub(super) [Arc<RawValue>; PARTS]);

impl Parts {
    /// The part, if `news` says the socket is to be sent it.
    pub(super) fn get(&self, part: Part, news: u8) -> Option<&RawValue> {
        (news & (1 << part as usize) != 0).then(|| &*self.0[part as usize])
    }
}

/// What a watcher is sent in place of a seat's own parts, and anyone in place of a seal before the
/// first deal.
static NULL: LazyLock<Arc<RawValue>> = LazyLock::new(|| raw(RawValue::NULL));

pub(super) fn raw(value: &(impl Serialize + ?Sized)) -> Arc<RawValue> {
    Arc::from(to_raw_value(value).expect("server frames always serialize"))
}

/// One part's JSON, with the value it was written from.
struct Kept<K>(Option<(K, Arc<RawValue>)>);

impl<K: PartialEq + Clone> Kept<K> {
    /// The part's JSON: the kept one while it was written from `now`, else the one `write` makes,
    /// kept with `now`. Nothing is written while the part stays the same.
    fn json(&mut self, now: &K, write: impl FnOnce(&K) -> Arc<RawValue>) -> Arc<RawValue> {
        if let Some((was, json)) = &self.0 {
            if was == now {
                return Arc::clone(json);
            }
        }
        let json = write(now);
        self.0 = Some((now.clone(), Arc::clone(&json)));
        json
    }
}

impl<K> Default for Kept<K> {
    fn default() -> Self {
        Kept(None)
    }
}

/// The slow parts last written at a table, each with what it was written from.
#[derive(Default)]
pub(super) struct Written {
    /// The table's id, which never changes: written once.
    table: Kept<TableId>,
    seats: Kept<Arc<Vec<SeatInfo>>>,
    matchup: Kept<Arc<Match>>,
    shuffle: Kept<Arc<ShuffleShown>>,
    /// Each viewer's deal seal (by seat, the watchers' last): each is shown its own reveal.
    deal: Vec<Kept<DealShown>>,
}

impl Written {
    /// The slow parts of what the viewer `at` (its index: by seat, the watchers' last) is shown.
    pub(super) fn parts<G: Game>(&mut self, at: usize, seen: &Seen<G>) -> Parts {
        let null = || Arc::clone(&NULL);
        let table = match &seen.table {
            Some(id) => self.table.json(id, raw),
            None => null(),
        };
        let seats = self.seats.json(&seen.seats, |seats| raw(&***seats));
        let matchup = self.matchup.json(&seen.matchup, |score| {
            raw(&MatchInfo {
                score,
                winners: score.winners(),
            })
        });
        if self.deal.len() <= at {
            self.deal.resize_with(at + 1, Kept::default);
        }
        let deal = match &seen.deal {
            Some(deal) => self.deal[at].json(deal, |deal| raw(&deal.shown())),
            None => null(),
        };
        let shuffle = match &seen.shuffle {
            Some(shuffle) => self.shuffle.json(shuffle, |shuffle| raw(&**shuffle)),
            None => null(),
        };
        Parts([table, seats, matchup, deal, shuffle])
    }
}
