//! One deal of a match as a table records it: how it was set up, what deals it again, and each action
//! accepted in it. The table core keeps these, snapshots store them, and replays read them; nothing
//! here knows of actors or sockets.
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use serde::{Deserialize, Serialize};

use chaikhana_rules::cards::Seat;
use chaikhana_rules::coach::Analysis;

/// One deal of a match. A table keeps its actions as its game's own (`A` is the game's action); a
/// snapshot read without knowing the game, or a record for someone outside the table, holds them as
/// JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealRecord<A = serde_json::Value> {
    pub setup: chaikhana_rules::game::DealSetup,
    /// The seed of a deal dealt before fair deals (from a ChaCha generator); 0 for a fair deal.
    #[serde(default)]
    pub seed: u64,
    /// A fair deal's secret and numbers (see `table::seal`): what deals it again. Never in a frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair: Option<super::FairRecord>,
    /// The table's version once the deal was dealt.
    pub dealt_at: u64,
    /// Each accepted action: the seat, the action, and the version it made.
    pub actions: Vec<(Seat, A, u64)>,
    /// What the coach said of this deal. Each seat's part is its own: never in a frame to another.
    #[serde(default, skip_serializing_if = "Coaching::is_empty")]
    pub coaching: Coaching,
}

/// What the coach said of one deal: the hints each seat took in it (where, so that a replay counts
/// them as they stood at each step), and each seat's analysis once it has been made (made once, then
/// kept with the deal).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Coaching {
    /// Each hint taken: the seat, and how many of the deal's actions had been played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<(Seat, usize)>,
    /// Each seat's analysis, by seat (empty: none yet).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub analyses: Vec<Option<Analysis>>,
}

impl Coaching {
    fn is_empty(&self) -> bool {
        self.hints.is_empty() && self.analyses.is_empty()
    }

    /// The hints each of `seats` seats had taken before the deal's action `step` (none: all of them).
    pub fn hints_taken(&self, seats: usize, before: Option<usize>) -> Vec<u32> {
        let mut taken = vec![0; seats];
        let counted = self
            .hints
            .iter()
            .filter(|(_, at)| before.is_none_or(|step| *at < step));
        for (seat, _) in counted {
            if let Some(n) = taken.get_mut(seat.index()) {
                *n += 1;
            }
        }
        taken
    }

    /// `seat` took a hint after `step` of the deal's actions.
    pub fn took_hint(&mut self, seat: Seat, step: usize) {
        self.hints.push((seat, step));
    }

    /// `seat`'s analysis, if it has been made.
    pub fn analysis(&self, seat: Seat) -> Option<&Analysis> {
        self.analyses.get(seat.index()).and_then(Option::as_ref)
    }

    /// Keeps `seat`'s analysis.
    pub fn keep(&mut self, seat: Seat, analysis: Analysis) {
        if self.analyses.len() <= seat.index() {
            self.analyses.resize(seat.index() + 1, None);
        }
        self.analyses[seat.index()] = Some(analysis);
    }
}

impl<A> DealRecord<A> {
    /// The same deal with each action changed by `action`.
    fn with_actions<B, E>(
        self,
        mut action: impl FnMut(A) -> Result<B, E>,
    ) -> Result<DealRecord<B>, E> {
        let actions = self
            .actions
            .into_iter()
            .map(|(seat, a, made)| Ok((seat, action(a)?, made)))
            .collect::<Result<_, E>>()?;
        Ok(DealRecord {
            setup: self.setup,
            seed: self.seed,
            fair: self.fair,
            dealt_at: self.dealt_at,
            actions,
            coaching: self.coaching,
        })
    }
}

impl<A> DealRecord<A> {
    /// The deal as it was dealt: its state, its order and, for a fair deal, its seal (a deal stored
    /// before fair deals is dealt again from its seed and has none).
    pub fn dealt<G: chaikhana_rules::game::Game>(
        &self,
    ) -> (
        G::State,
        chaikhana_rules::game::DealOrder,
        Option<super::DealSeal>,
    ) {
        match &self.fair {
            Some(fair) => {
                let (state, order, seal) = super::deal_fair::<G>(&self.setup, fair);
                (state, order, Some(seal))
            }
            None => {
                let mut rng = chaikhana_rules::cards::deal_rng(self.seed);
                let (state, order) = G::deal_in_order(&self.setup, &mut rng);
                (state, order, None)
            }
        }
    }
}

impl<A: Serialize + Clone> DealRecord<A> {
    /// The deal with its actions written as JSON, for a record that leaves the table.
    pub fn written(&self) -> DealRecord {
        self.clone()
            .with_actions(serde_json::to_value)
            .expect("actions always serialize")
    }
}

impl DealRecord {
    /// The deal with its actions read as `G`'s, once, when a table is rebuilt from its snapshot.
    pub fn read<G: chaikhana_rules::game::Game>(self) -> Result<DealRecord<G::Action>, String> {
        self.with_actions(|json| {
            serde_json::from_value(json)
                .map_err(|e| format!("a recorded action cannot be read: {e}"))
        })
    }
}
