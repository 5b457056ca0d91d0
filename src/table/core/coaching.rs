//! The coach at a table: a hint at a seat's turn, and the analysis of a seat's decisions in a deal
//! that has ended. Both are the game's [`Coach`](chaikhana_rules::game::Coach) judging from the seat's own views
//! only, thought on the thinking pool behind every computer's move ([`Effect::Study`]); the table
//! keeps what they said with the deal's record, so an analysis is made once.
//!
//! - A hint is offered at a table against the computer. It is thought once for a seat's turn (its
//!   version) and counted once: asked again, by any of the seat's sockets, it is answered with the
//!   same words at once. The count is in every viewer's head, and shown with the deal's result. A
//!   hint whose turn passed before it was thought is answered `stale-version`.
//! - An analysis is asked by a seat, of its own decisions, once the deal has ended: a watcher cannot
//!   ask (the seat's decisions were made with cards only it saw), nor can another seat, since each
//!   seat's socket only ever asks for its own. Each decision is one study, so that a move asked
//!   meanwhile waits for one decision at most. The seat's sockets hear how far it has come, then the
//!   analysis; a match that moves on (a rematch clears the record) drops what is still coming.

use std::sync::Arc;

use super::super::{ConnId, RefusalCode, TableKind, TableRefusal};
use super::replay::Looking;
use super::{Effect, Notice, Status, TableCore, Then};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::coach::{agree, continuing, decisions, Analysis, Mark};
use chaikhana_rules::game::{BotRng, Game, Grade, Judgement};

/// What a study is for, handed back with its judgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Study {
    /// A hint for `seat` on `version`.
    Hint { seat: Seat, version: u64 },
    /// Decision `index` of `seat`'s analysis of the deal first dealt at version `dealt_at`.
    Point {
        dealt_at: u64,
        seat: Seat,
        index: usize,
    },
}

/// A study's thinking, packed to run on the pool: it owns what it needs.
pub type Judge<G> = Box<dyn FnOnce(&mut BotRng) -> Judgement<<G as Game>::Action> + Send>;

/// An analysis on its way.
#[derive(Debug)]
struct Pending {
    dealt_at: u64,
    deal: usize,
    seat: Seat,
    /// The replay step of each decision to judge.
    steps: Vec<usize>,
    /// Whether each continues the one before (see `coach::continuing`).
    continues: Vec<bool>,
    /// What each decision was judged, as they come back (a fine one too, until they agree).
    judged: Vec<Option<Mark>>,
    /// The game's unit, as the first judgement names it.
    unit: &'static str,
}

impl Pending {
    fn done(&self) -> usize {
        self.judged.iter().filter(|j| j.is_some()).count()
    }
}

/// The coach's word once kept, waiting for the store before anyone hears it: a hint counted against
/// its seat, or an analysis kept with its deal, is told only once the store holds it, so that what a
/// seat was told is never lost or told differently after a restart.
#[derive(Clone, Debug)]
pub(super) enum Said {
    /// The hint for `seat`'s turn at `version`: to the sockets that asked, and to any asking later.
    Hint {
        seat: Seat,
        version: u64,
        notice: Arc<Notice>,
    },
    /// An analysis of the deal dealt at `dealt_at`: to every socket of `seat`.
    Analysis {
        dealt_at: u64,
        seat: Seat,
        notice: Arc<Notice>,
    },
}

/// A hint asked for `seat`'s turn at `version`: the sockets waiting for it, then what it said (once
/// stored).
#[derive(Debug)]
struct Hint {
    seat: Seat,
    version: u64,
    asked_by: Vec<ConnId>,
    said: Option<Arc<Notice>>,
}

/// The hints and analyses a table is waiting for, and how many times the coach's word was kept.
#[derive(Debug, Default)]
pub(super) struct Studies {
    /// The hints being thought, and those given for the turn in play.
    hints: Vec<Hint>,
    analyses: Vec<Pending>,
    kept: u64,
    /// Whether hints are offered at this friends table: its host offered them when making it, and
    /// every seat agreed before taking its seat.
    pub(super) among_friends: bool,
}

impl Studies {
    /// How many times a hint was counted or an analysis kept: a change to store.
    pub(super) fn kept(&self) -> u64 {
        self.kept
    }
}

const NO_HINTS: &str =
    "Hints are given at tables against the computer, and at friends tables whose \
     players all agreed to them.";
const HINTS_TO_AGREE: &str = "The host offers the coach's hints to every player at this table: a \
     seat is taken by agreeing to them.";
const NO_COACH: &str = "This game has no coach.";
const NOT_YOUR_TURN: &str = "A hint is for your own turn.";
const TURN_PASSED: &str = "The turn that hint was for has passed; ask again at your next turn.";
const WATCHERS_DO_NOT_ANALYSE: &str =
    "A watcher cannot analyse a seat's decisions: each was made with cards only that seat saw.";

impl<G: Game> TableCore<G> {
    /// Whether this table offers the coach's hints.
    pub(super) fn offers_hints(&self) -> bool {
        (self.kind == TableKind::Computer || self.coaching.among_friends) && G::coach().is_some()
    }

    /// Offers hints at this friends table (as its host chose when making it).
    pub fn offering_hints(mut self, among_friends: bool) -> Self {
        self.coaching.among_friends = among_friends && self.kind == TableKind::Friends;
        self
    }

    /// Refused unless a person joining has agreed to the hints this table offers.
    pub(super) fn check_agreement(&self, agreed_hints: bool) -> Result<(), TableRefusal> {
        if self.coaching.among_friends && !agreed_hints {
            return Err(TableRefusal::new(
                RefusalCode::HintsToAgree,
                HINTS_TO_AGREE.to_string(),
            ));
        }
        Ok(())
    }

    /// The hints each seat has taken in the deal, at a table that offers them.
    pub(super) fn hints_taken(&self) -> Option<Vec<u32>> {
        let record = self.record.last();
        self.offers_hints().then(|| {
            record.map_or_else(
                || vec![0; G::SEATS],
                |r| r.coaching.hints_taken(G::SEATS, None),
            )
        })
    }

    /// `seat`'s socket `conn` asks for a hint on `version`.
    pub(super) fn ask_hint(&mut self, conn: ConnId, seat: Seat, version: u64) {
        if let Err(refusal) = self.hint_for(conn, seat, version) {
            self.refuse(conn, seat, refusal, None);
        }
    }

    fn hint_for(&mut self, conn: ConnId, seat: Seat, version: u64) -> Result<(), TableRefusal> {
        let refuse = |code, message: &str| Err(TableRefusal::new(code, message.to_string()));
        if !self.offers_hints() {
            return refuse(RefusalCode::NoHints, NO_HINTS);
        }
        self.check_moment(version, Status::Playing)?;
        let (Some(state), Some(record)) = (self.state.as_ref(), self.record.last()) else {
            return refuse(RefusalCode::NotYourTurn, NOT_YOUR_TURN);
        };
        if G::to_act(state) != Some(seat) {
            return refuse(RefusalCode::NotYourTurn, NOT_YOUR_TURN);
        }
        // A hint given for a turn that has passed is of no more use.
        let now = self.version;
        let hints = &mut self.coaching.hints;
        hints.retain(|hint| hint.said.is_none() || hint.version == now);
        if let Some(hint) = hints
            .iter_mut()
            .find(|hint| (hint.seat, hint.version) == (seat, version))
        {
            match &hint.said {
                Some(said) => self.effects.push(Effect::Send(conn, Arc::clone(said))),
                None if !hint.asked_by.contains(&conn) => hint.asked_by.push(conn),
                None => {}
            }
            return Ok(());
        }
        let legal = G::legal_actions(state, seat);
        let (views, _) = decisions::<G>(record.dealt::<G>().0, &played(record), seat);
        let seen = views.len();
        let judge = self.judge(Arc::new(views), seen, legal, None)?;
        self.coaching.hints.push(Hint {
            seat,
            version,
            asked_by: vec![conn],
            said: None,
        });
        let seed = self.computers.seed();
        self.effects.push(Effect::Study {
            study: Study::Hint { seat, version },
            judge,
            seed,
        });
        Ok(())
    }

    /// The coach's thinking for one decision: with the first `seen` of the seat's `views`, among
    /// `legal`, `made` being the action taken (none for a hint).
    fn judge(
        &self,
        views: Arc<Vec<G::View>>,
        seen: usize,
        legal: Vec<G::Action>,
        made: Option<G::Action>,
    ) -> Result<Judge<G>, TableRefusal> {
        let Some(coach) = G::coach() else {
            return Err(TableRefusal::new(RefusalCode::NoHints, NO_COACH));
        };
        let budget = self.policy.strong_budget;
        Ok(Box::new(move |rng: &mut BotRng| {
            coach.judge(&views[..seen], &legal, made.as_ref(), budget, rng)
        }))
    }

    /// A socket asks for its seat's (none: a watcher's) analysis of deal `deal` (none: the last
    /// that ended).
    pub(super) fn ask_analysis(&mut self, conn: ConnId, seat: Option<Seat>, deal: Option<usize>) {
        let asked = match seat {
            Some(seat) => self.analyse(conn, seat, deal),
            None => Err(TableRefusal::new(
                RefusalCode::NotYourDecisions,
                WATCHERS_DO_NOT_ANALYSE,
            )),
        };
        if let Err(refusal) = asked {
            self.send_refusal(conn, refusal.code, refusal.message, None);
        }
    }

    fn analyse(
        &mut self,
        conn: ConnId,
        seat: Seat,
        deal: Option<usize>,
    ) -> Result<(), TableRefusal> {
        let (deal, record) = self.ended_deal(deal, Looking::Analysis)?;
        if let Some(analysis) = record.coaching.analysis(seat) {
            // Kept but not yet stored (its telling waits for the store): every decision is judged,
            // and the seat's sockets hear the analysis once the store holds it.
            let storing = self.keeper.waiting().any(|then| {
                matches!(then, Then::Coached(Said::Analysis { dealt_at, seat: told, .. })
                    if *dealt_at == record.dealt_at && *told == seat)
            });
            let notice = if storing {
                let (done, of) = (analysis.judged, analysis.judged);
                Notice::Analysing { deal, done, of }
            } else {
                let analysis = Arc::new(analysis.clone());
                Notice::Analysis { deal, analysis }
            };
            self.effects.push(Effect::Send(conn, Arc::new(notice)));
            return Ok(());
        }
        let dealt_at = record.dealt_at;
        let pending = self
            .coaching
            .analyses
            .iter()
            .find(|p| p.dealt_at == dealt_at && p.seat == seat);
        if let Some(pending) = pending {
            let (done, of) = (pending.done(), pending.steps.len());
            let notice = Notice::Analysing { deal, done, of };
            self.effects.push(Effect::Send(conn, Arc::new(notice)));
            return Ok(());
        }
        let (views, points) = decisions::<G>(record.dealt::<G>().0, &played(record), seat);
        let views = Arc::new(views);
        let of = points.len();
        let mut studies = Vec::with_capacity(of);
        for (index, point) in points.iter().enumerate() {
            let judge = self.judge(
                Arc::clone(&views),
                point.seen,
                point.legal.clone(),
                Some(point.made.clone()),
            )?;
            let study = Study::Point {
                dealt_at,
                seat,
                index,
            };
            studies.push((study, judge));
        }
        self.coaching.analyses.push(Pending {
            dealt_at,
            deal,
            seat,
            steps: points.iter().map(|p| p.step).collect(),
            continues: continuing(&views, &points),
            judged: vec![None; of],
            unit: "",
        });
        for (study, judge) in studies {
            let seed = self.computers.seed();
            self.effects.push(Effect::Study { study, judge, seed });
        }
        let notice = Arc::new(Notice::Analysing { deal, done: 0, of });
        self.effects.push(Effect::Send(conn, notice));
        self.finish_analysis(dealt_at, seat);
        Ok(())
    }

    /// A study (see [`Effect::Study`]) came back with its judgement.
    pub fn studied(&mut self, study: Study, judgement: Judgement<G::Action>) {
        match study {
            Study::Hint { seat, version } => self.hinted(seat, version, judgement),
            Study::Point {
                dealt_at,
                seat,
                index,
            } => {
                let Some(pending) = self
                    .coaching
                    .analyses
                    .iter_mut()
                    .find(|p| p.dealt_at == dealt_at && p.seat == seat)
                else {
                    return;
                };
                let Some(slot) = pending.judged.get_mut(index) else {
                    return;
                };
                let step = pending.steps[index];
                pending.unit = judgement.unit;
                *slot = Some(judged(step, judgement));
                let (deal, done, of) = (pending.deal, pending.done(), pending.steps.len());
                if done < of {
                    let notice = Arc::new(Notice::Analysing { deal, done, of });
                    self.send_to_seat(seat, &notice);
                }
                self.finish_analysis(dealt_at, seat);
            }
        }
    }

    fn hinted(&mut self, seat: Seat, version: u64, judgement: Judgement<G::Action>) {
        let hints = &mut self.coaching.hints;
        let Some(at) = hints
            .iter()
            .position(|hint| (hint.seat, hint.version) == (seat, version))
        else {
            return;
        };
        let (passed, record) = (self.version != version, self.record.last_mut());
        let Some(record) = record.filter(|_| !passed) else {
            for conn in hints.swap_remove(at).asked_by {
                let refusal = TableRefusal::new(RefusalCode::StaleVersion, TURN_PASSED);
                self.refuse(conn, seat, refusal, None);
            }
            return;
        };
        let step = record.actions.len();
        record.coaching.took_hint(seat, step);
        self.coaching.kept += 1;
        let action = serde_json::to_value(&judgement.best).unwrap_or_default();
        let notice = Arc::new(Notice::Hint {
            version,
            action,
            value: judgement.best_value,
            unit: judgement.unit,
            why: judgement.why,
        });
        self.commit(Then::Coached(Said::Hint {
            seat,
            version,
            notice,
        }));
    }

    /// The coach's word is stored: tell it (see [`Said`]).
    pub(super) fn tell(&mut self, said: Said) {
        match said {
            Said::Hint {
                seat,
                version,
                notice,
            } => {
                let hints = &mut self.coaching.hints;
                if let Some(hint) = hints
                    .iter_mut()
                    .find(|hint| (hint.seat, hint.version) == (seat, version))
                {
                    hint.said = Some(Arc::clone(&notice));
                    let sends = hint
                        .asked_by
                        .drain(..)
                        .map(|conn| Effect::Send(conn, Arc::clone(&notice)));
                    self.effects.extend(sends);
                }
                self.broadcast();
            }
            Said::Analysis { seat, notice, .. } => self.send_to_seat(seat, &notice),
        }
    }

    /// Keeps `seat`'s analysis of the deal dealt at `dealt_at` once every decision is judged, and
    /// sends it to the seat's sockets.
    fn finish_analysis(&mut self, dealt_at: u64, seat: Seat) {
        let Some(at) =
            self.coaching.analyses.iter().position(|p| {
                p.dealt_at == dealt_at && p.seat == seat && p.done() == p.steps.len()
            })
        else {
            return;
        };
        let pending = self.coaching.analyses.swap_remove(at);
        let mut judged: Vec<Mark> = pending.judged.into_iter().flatten().collect();
        if let Some(coach) = G::coach() {
            agree(&mut judged, &pending.continues, coach.thresholds());
        }
        let analysis = Analysis {
            unit: pending.unit.to_string(),
            judged: pending.steps.len(),
            marks: judged
                .into_iter()
                .filter(|m| m.grade != Grade::Fine)
                .collect(),
        };
        // The match may have moved on (a rematch clears the record): then there is nothing to keep.
        let Some(record) = self
            .record
            .get_mut(pending.deal)
            .filter(|r| r.dealt_at == dealt_at)
        else {
            return;
        };
        record.coaching.keep(seat, analysis.clone());
        self.coaching.kept += 1;
        let notice = Arc::new(Notice::Analysis {
            deal: pending.deal,
            analysis: Arc::new(analysis),
        });
        self.commit(Then::Coached(Said::Analysis {
            dealt_at,
            seat,
            notice,
        }));
    }

    /// Sends `notice` to every socket of `seat`.
    fn send_to_seat(&mut self, seat: Seat, notice: &Arc<Notice>) {
        let conns: Vec<ConnId> = self
            .sockets
            .viewers()
            .filter(|(_, viewer)| *viewer == Some(seat))
            .map(|(conn, _)| conn)
            .collect();
        for conn in conns {
            self.effects.push(Effect::Send(conn, Arc::clone(notice)));
        }
    }
}

/// The deal's actions with who made them.
fn played<A: Clone>(record: &super::super::DealRecord<A>) -> Vec<(Seat, A)> {
    let actions = record.actions.iter();
    actions.map(|(seat, a, _)| (*seat, a.clone())).collect()
}

/// A judged decision as the analysis keeps it (a mark, once it is known to cost something).
fn judged<A: serde::Serialize>(step: usize, judgement: Judgement<A>) -> Mark {
    Mark {
        step,
        grade: judgement.grade,
        best: serde_json::to_value(&judgement.best).unwrap_or_default(),
        made_value: judgement.made_value.unwrap_or(judgement.best_value),
        best_value: judgement.best_value,
        why: judgement.why,
    }
}
