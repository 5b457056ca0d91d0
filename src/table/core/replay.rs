//! Replays of finished deals: a seat asks for one step of a deal of the match that has ended, and
//! the table deals it again from its recorded seed and plays the recorded actions up to that step.
//! The seat is sent its own view at that moment, which is exactly what it was shown while the deal
//! was played (a view is a pure function of the deal's state and the seat), and nothing more; a
//! watcher is sent what everyone could see. The match around it is rebuilt too: the score, the
//! deal's number and, at its last step, its result are those of that moment, not of today. The step
//! goes out typed ([`Replay`]); the presenter writes it.

use std::sync::Arc;

use serde::Serialize;

use super::super::frames::{Head, Status};
use super::super::{ConnId, DealRecord};
use super::super::{DealSeal, RefusalCode, TableRefusal};
use super::views::{DealShown, Seen};
use super::{Effect, TableCore};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;
use chaikhana_rules::matches::Match;

/// A step of a finished deal as a seat (or a watcher) was shown it: a view of that moment (no
/// actions open; the version, the status and the match as they were then; the deal's seal with its
/// reveal; no coming shuffle) and where it stands in its deal.
pub struct Replay<G: Game> {
    /// The version of that moment, as the seat's board knew it.
    pub version: u64,
    pub seen: Seen<G>,
    pub step: ReplayStep<G::Action>,
}

impl<G: Game> std::fmt::Debug for Replay<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replay")
            .field("version", &self.version)
            .field("seen", &self.seen)
            .field("step", &self.step)
            .finish()
    }
}

/// Where a replay stands in its deal, and the deal's moves as the viewer may be told them: the page
/// lists them beside the board, each step one move.
#[derive(Debug, Serialize)]
pub struct ReplayStep<A: Serialize> {
    /// Which deal of the match, from 0.
    deal: usize,
    /// How many deals of the match have ended, each of them replayable (the one in play is not).
    deals: usize,
    /// How many of the deal's actions have been played: 0 is the deal as dealt.
    step: usize,
    /// How many actions the deal had in all.
    steps: usize,
    /// Every action of the deal in order, as told to this viewer: move `k` leads to step `k + 1`.
    moves: Vec<Told<A>>,
}

/// A move of a replayed deal as one viewer may be told of it: who made it, and the action, none where
/// it would name a card this viewer never saw ([`Game::action_told_to`]; the step's view still says
/// what could be seen of it).
#[derive(Debug, Serialize)]
pub struct Told<A: Serialize> {
    by: Seat,
    action: Option<A>,
}

impl<G: Game> TableCore<G> {
    /// Answers a seat's (or a watcher's, `None`) request for step `step` of deal `deal`, or refuses
    /// it with a sentence.
    pub(super) fn send_replay(
        &mut self,
        conn: ConnId,
        seat: Option<Seat>,
        deal: Option<usize>,
        step: usize,
    ) {
        match self.replay(seat, deal, step) {
            Ok(replay) => self.effects.push(Effect::Replay(conn, Box::new(replay))),
            Err(refusal) => self.send_refusal(conn, refusal.code, refusal.message, None),
        }
    }

    pub(super) fn replay(
        &self,
        seat: Option<Seat>,
        deal: Option<usize>,
        step: usize,
    ) -> Result<Replay<G>, TableRefusal> {
        let (deal, record) = self.ended_deal(deal, Looking::Replay)?;
        if step > record.actions.len() {
            return Err(TableRefusal::new(
                RefusalCode::NoSuchStep,
                format!(
                    "That deal has {} steps; there is no step {step}.",
                    record.actions.len()
                ),
            ));
        }
        let Replayed { state, seal, ended } = replayed::<G>(record, step)?;
        // The match as it stood at that step: the deals before this one counted, and this one too
        // once its last action is reached, as the seat was shown then.
        let outcome = (step == record.actions.len())
            .then(|| G::outcome(&ended))
            .flatten();
        let mut then = self.match_before(deal)?;
        if let Some(outcome) = &outcome {
            then.record(outcome);
        }
        let status = match (&outcome, then.winners()) {
            (None, _) => Status::Playing,
            (Some(_), None) => Status::DealOver,
            (Some(_), Some(_)) => Status::MatchOver,
        };
        // The reveal is the one sent at the deal's end: what stayed secret is worked out from the
        // deal as it ended, not as it stood at this step.
        let seen = (!G::concealed_at_end(&ended).is_empty()).then(|| G::seen_at_end(&ended, seat));
        // The deal has ended: its seal and reveal are what every seat was sent at its end.
        let deal_shown = seal.map(|seal| DealShown {
            seal: Arc::new(seal),
            ended: true,
            viewer: seat,
            seen,
            dealt_at: Some(record.dealt_at),
        });
        // The version of that moment as the seat's board knew it.
        let version = match step.checked_sub(1).map(|i| &record.actions[i]) {
            Some((_, _, version)) => *version,
            None => record.dealt_at,
        };
        let moves = record
            .actions
            .iter()
            .map(|(by, action, _)| Told {
                by: *by,
                action: G::action_told_to(action, *by, seat),
            })
            .collect();
        let seen = Seen {
            table: seat.map(|_| self.id.clone()),
            head: Head {
                game: G::NAME,
                kind: self.kind,
                level: self.level(),
                status,
                seat,
                watching: self.sockets.watching(),
                outcome,
                hints_taken: self
                    .offers_hints()
                    .then(|| record.coaching.hints_taken(G::SEATS, Some(step))),
            },
            seats: Arc::new(self.seat_infos()),
            matchup: Arc::new(then),
            deal: deal_shown,
            shuffle: None,
            actions: Vec::new(),
            view: Some(Arc::new(G::view(&state, seat))),
        };
        Ok(Replay {
            version,
            seen,
            step: ReplayStep {
                deal,
                deals: self.last_ended_deal().map_or(0, |last| last + 1),
                step,
                steps: record.actions.len(),
                moves,
            },
        })
    }

    /// The match as it stood when deal `deal` was dealt: the deals before it dealt again from their
    /// records and counted.
    fn match_before(&self, deal: usize) -> Result<Match, TableRefusal> {
        let mut then = Match::starting_with(self.length, G::SEATS, self.matchup.first);
        for record in &self.record[..deal] {
            let ended = replayed::<G>(record, 0)?.ended;
            if let Some(outcome) = G::outcome(&ended) {
                then.record(&outcome);
            }
        }
        Ok(then)
    }

    /// The index of the match's last deal that has ended, if one has.
    pub(super) fn last_ended_deal(&self) -> Option<usize> {
        let in_play = self.state.as_ref().is_some_and(|s| G::outcome(s).is_none());
        // A deal in play is always the record's last.
        let ended = self.record.len().saturating_sub(usize::from(in_play));
        ended.checked_sub(1)
    }

    /// Deal `deal` of this match (none: the last that ended) and its record, if it has ended (the
    /// deal in play cannot be replayed or analysed: a replay would show nothing new, but the rule stays
    /// simple and plain). A refusal says why in the words of what was asked.
    pub(super) fn ended_deal(
        &self,
        deal: Option<usize>,
        looking: Looking,
    ) -> Result<(usize, &DealRecord<G::Action>), TableRefusal> {
        let done = looking.done();
        let Some(deal) = deal.or_else(|| self.last_ended_deal()) else {
            return Err(TableRefusal::new(
                RefusalCode::DealInPlay,
                format!("A deal can be {done} once it has ended; none of this match has yet."),
            ));
        };
        let Some(record) = self.record.get(deal) else {
            return Err(TableRefusal::new(
                RefusalCode::NoSuchDeal,
                format!("There is no such deal in this match to {}.", looking.verb()),
            ));
        };
        let in_play = deal + 1 == self.record.len()
            && self.state.as_ref().is_some_and(|s| G::outcome(s).is_none());
        if in_play {
            return Err(TableRefusal::new(
                RefusalCode::DealInPlay,
                format!("A deal can be {done} once it has ended; this one is still being played."),
            ));
        }
        Ok((deal, record))
    }
}

/// What an ended deal is asked for, in the words a refusal uses.
#[derive(Clone, Copy)]
pub(super) enum Looking {
    Replay,
    Analysis,
}

impl Looking {
    fn verb(self) -> &'static str {
        match self {
            Looking::Replay => "replay",
            Looking::Analysis => "analyse",
        }
    }

    fn done(self) -> &'static str {
        match self {
            Looking::Replay => "replayed",
            Looking::Analysis => "analysed",
        }
    }
}

/// An ended deal dealt again from its record.
struct Replayed<G: Game> {
    /// The deal as it stood at the step asked for.
    state: G::State,
    /// None for a deal stored before fair deals.
    seal: Option<DealSeal>,
    /// The deal as it ended.
    ended: G::State,
}

/// The deal of `record` as it stood after its first `step` actions and as it ended, in one pass, and
/// its seal. A record whose action cannot be read, or is refused by the rules it was once accepted
/// by, is a bad record.
fn replayed<G: Game>(
    record: &DealRecord<G::Action>,
    step: usize,
) -> Result<Replayed<G>, TableRefusal> {
    let bad_record = |message: String| TableRefusal::new(RefusalCode::BadRecord, message);
    let (mut state, _, seal) = record.dealt::<G>();
    let mut at_step = (step == 0).then(|| state.clone());
    for (done, (seat, action, _)) in record.actions.iter().enumerate() {
        G::apply(&mut state, *seat, action).map_err(|e| bad_record(e.message))?;
        if done + 1 == step {
            at_step = Some(state.clone());
        }
    }
    Ok(Replayed {
        state: at_step.unwrap_or_else(|| state.clone()),
        seal,
        ended: state,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{open, play_one};
    use super::*;
    use crate::table::present;
    use crate::table::{TableKind, Token};
    use chaikhana_rules::games::{ganjifa::Ganjifa, panjpar::Panjpar, pishe_pasha::PishePasha};
    use chaikhana_rules::matches::MatchLength;

    /// Every seat's view, then a watcher's.
    fn views<G: Game>(state: &G::State) -> Vec<serde_json::Value> {
        Seat::all(G::SEATS)
            .map(Some)
            .chain([None])
            .map(|s| serde_json::to_value(G::view(state, s)).unwrap())
            .collect()
    }

    /// Plays whole deals with random legal actions, keeping every seat's view after every step, then
    /// asks for each step again: each seat is shown what it was shown then; the deal in play and
    /// steps past the end are refused.
    fn replays_every_step<G: Game>(length: MatchLength, seed: u64) {
        let mut table = open::<G>(
            TableKind::Friends,
            length,
            crate::table::Level::Standard,
            Token::random().hash(),
        );
        let mut rng = chaikhana_rules::cards::deal_rng(seed);
        table.start_deal();
        let mut seen = vec![views::<G>(table.state.as_ref().unwrap())];
        assert_eq!(
            table
                .replay(Some(Seat::new(0)), None, 0)
                .unwrap_err()
                .code
                .as_str(),
            "deal-in-play"
        );
        while let Some(seat) = table.state.as_ref().and_then(G::to_act) {
            play_one(&mut table, seat, &mut rng);
            seen.push(views::<G>(table.state.as_ref().unwrap()));
        }
        let steps = seen.len() - 1;
        for (step, shown) in seen.iter().enumerate() {
            for (i, seat) in Seat::all(G::SEATS).map(Some).chain([None]).enumerate() {
                let deal = (step % 2 == 0).then_some(0);
                let frame = present::replay(&table.replay(seat, deal, step).unwrap());
                let frame: serde_json::Value =
                    serde_json::from_str(frame.text_payload().unwrap()).unwrap();
                assert_eq!(frame["type"], "replay");
                assert_eq!(frame["seat"], serde_json::json!(seat.map(Seat::index)));
                assert_eq!(frame["replay"]["step"], step);
                assert_eq!(frame["replay"]["steps"], steps);
                assert_eq!(frame["actions"], serde_json::json!([]));
                assert_eq!(
                    frame["view"],
                    shown[i],
                    "{} seed {seed}, step {step}, seat {seat:?}",
                    G::NAME,
                );
            }
        }
        let last = present::replay(&table.replay(Some(Seat::new(0)), Some(0), steps).unwrap());
        let last: serde_json::Value = serde_json::from_str(last.text_payload().unwrap()).unwrap();
        assert_eq!(last["replay"]["deals"], 1);
        let moves = last["replay"]["moves"].as_array().unwrap();
        assert_eq!(moves.len(), steps);
        for (told, (by, action, _)) in moves.iter().zip(&table.record[0].actions) {
            assert_eq!(told["by"], by.index());
            let action = G::action_told_to(action, *by, Some(Seat::new(0)));
            assert_eq!(told["action"], serde_json::to_value(action).unwrap());
        }
        let code = |r: Result<Replay<G>, TableRefusal>| r.err().map(|e| e.code.as_str());
        assert_eq!(
            code(table.replay(Some(Seat::new(0)), None, steps + 1)),
            Some("no-such-step")
        );
        assert_eq!(code(table.replay(None, Some(1), 0)), Some("no-such-deal"));
    }

    #[test]
    fn every_game_replays_each_step_as_each_seat_saw_it() {
        for seed in 0..4 {
            replays_every_step::<Panjpar>(MatchLength::DealsWon(3), seed);
            replays_every_step::<PishePasha>(MatchLength::Points(100), seed);
            replays_every_step::<Ganjifa>(MatchLength::Deals(3), seed);
        }
    }
}
