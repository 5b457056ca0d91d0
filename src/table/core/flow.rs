//! The match's flow: actions played by people and computers, deals dealt once everyone is ready and
//! every number of the shuffle is in (or its wait is over), rematches.

use std::sync::Arc;
use std::time::Instant;

use super::super::seats::Occupant;
use super::super::{ConnId, DealRecord};
use super::super::{RefusalCode, ShuffleRefused, TableRefusal};
use super::views::Notice;
use super::{Count, Effect, Status, TableCore, Then, Timer, PAUSED};
use crate::protocol::ClientMsg;
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::{DealSetup, Game};
use chaikhana_rules::matches::Match;

impl<G: Game> TableCore<G> {
    /// A parsed frame from a socket, a seat's or a watcher's.
    pub fn from_seat(&mut self, conn: ConnId, msg: ClientMsg, now: Instant) {
        if self.sockets.is_watcher(conn) {
            return self.heard_from_watcher(conn, msg);
        }
        let Some(seat) = self.sockets.seat_of(conn) else {
            return;
        };
        self.last_activity = now;
        if self.paused() && msg.is_play() {
            let id = match &msg {
                ClientMsg::Action { id, .. } => id.as_deref(),
                _ => None,
            };
            return self.send_refusal(conn, RefusalCode::Unavailable, PAUSED, id);
        }
        match msg {
            ClientMsg::Resync {} => {
                self.count(Count::Resync);
                self.send_whole_view(conn, Some(seat));
            }
            ClientMsg::Replay { deal, step } => self.send_replay(conn, Some(seat), deal, step),
            ClientMsg::Hint { version } => self.ask_hint(conn, seat, version),
            ClientMsg::Analyse { deal } => self.ask_analysis(conn, Some(seat), deal),
            ClientMsg::Action {
                version,
                id,
                action,
            } => {
                // A person who plays has had the guide's words, if any.
                self.computers.release();
                self.play(conn, seat, version, id.as_deref(), action, now)
            }
            ClientMsg::GuideShown {} => self.guide_shown(),
            ClientMsg::NextDeal { version } => match self.check_moment(version, Status::DealOver) {
                Ok(()) => self.agree(seat, Self::deal_next),
                Err(refusal) => self.refuse(conn, seat, refusal, None),
            },
            ClientMsg::Rematch { version, level } => {
                let ready = self
                    .check_moment(version, Status::MatchOver)
                    .and_then(|()| self.choose_level(level.as_deref()));
                match ready {
                    Ok(()) => self.agree(seat, Self::rematch),
                    Err(refusal) => self.refuse(conn, seat, refusal, None),
                }
            }
            ClientMsg::Pledge { commitment, hash } => self.pledge(conn, seat, &commitment, &hash),
            ClientMsg::Contribute { commitment, value } => {
                self.contribute(conn, seat, &commitment, &value)
            }
            ClientMsg::Name { name } => self.rename(conn, seat, &name),
            ClientMsg::Phrase { id } => self.say(conn, seat, id),
            ClientMsg::OfferSeat { seat: offered } => self.offer_seat(conn, seat, offered),
            ClientMsg::EndMatch { version } => self.end_match(conn, seat, version),
            ClientMsg::Voice { on } => self.switch_voice(conn, seat, on),
            ClientMsg::Signal { to, kind, data } => self.relay_signal(conn, seat, to, kind, data),
        }
    }

    /// A timer set by an [`Effect::Wake`] has run out, at `now`.
    pub fn timer(&mut self, timer: Timer, now: Instant) {
        match timer {
            Timer::Computer { seat, version } => self.computer_moves(seat, version, now),
            Timer::ShuffleWait(wait) => {
                if !self.dealer.waits_from(wait) {
                    return;
                }
                if self.dealer.coming().closed() {
                    return self.deal_now();
                }
                // The pledges' wait is over: the list closes as it stands, and the numbers pledged
                // are waited for in turn (see `pledges_closed`).
                self.close_pledges();
            }
            Timer::PauseRetry => self.retry_store(),
            Timer::GuideWait => self.guide_shown(),
        }
    }

    /// Starts what `seat` asked for (the next deal, a rematch) once every person at the table has
    /// asked for it; until then everyone is told who has. A computer table starts it at once.
    pub(super) fn agree(&mut self, seat: Seat, start: fn(&mut Self)) {
        self.notes.set_ready(seat);
        let everyone = Seat::all(G::SEATS).all(|s| {
            self.notes.is_ready(s) || !matches!(self.seats[s.index()], Occupant::Person { .. })
        });
        if everyone {
            start(self);
        } else {
            self.broadcast_seats();
        }
    }

    /// Starts a new match at the same table. Its first deal keeps the rotation (the seat that would
    /// have held the role in the next deal holds it), so that the shuffle committed to while the last
    /// deal was played, and answered by the pages, deals it: a deal is committed to once.
    pub(super) fn rematch(&mut self) {
        let first = self.dealer.coming().setup().rotating_seat(G::SEATS);
        self.matchup = Match::starting_with(self.length, G::SEATS, first);
        // The record keeps the match in play: a table rematching for hours keeps only this match's
        // actions.
        self.record.clear();
        self.deal_next();
    }

    /// Deals the next deal of the match once every person seated has pledged a number to its shuffle
    /// and then given it, or once `shuffle_wait` has passed at each step: a page that never answers
    /// does not hold the table up, and its seat is shown as having given none.
    pub(super) fn deal_next(&mut self) {
        if self.dealer.waiting() {
            return;
        }
        // Only a table kept from before rematches kept the rotation commits afresh here, before any
        // number for the deal is taken.
        let setup = self.matchup.next_deal();
        // (The commitment is made whatever the wait; it is shown at once where pages are waited for.)
        if self.dealer.commit_if_other::<G>(setup, &mut self.rng)
            && !self.policy.shuffle_wait.is_zero()
        {
            self.version += 1;
            self.commit(Then::Show);
        }
        if self.policy.shuffle_wait.is_zero() || self.dealer.coming().complete() {
            return self.deal_now();
        }
        self.wait_for_pages();
        self.close_if_every_pledge_is_in();
    }

    /// Waits `shuffle_wait` for the pages' pledges or numbers.
    fn wait_for_pages(&mut self) {
        let wait = self.dealer.begin_wait();
        let after = self.policy.shuffle_wait;
        self.effects
            .push(Effect::Wake(after, Timer::ShuffleWait(wait)));
    }

    fn deal_now(&mut self) {
        self.start_deal();
        self.commit(Then::Show);
    }

    /// Closes the coming deal's pledges once every seat is taken and every person in one has
    /// pledged: from then on nobody's input can change, and the pages may send their numbers.
    fn close_if_every_pledge_is_in(&mut self) {
        let pledges = self.dealer.coming().pledges();
        let everyone = self.seats.iter().zip(pledges).all(|(occupant, pledge)| {
            matches!(occupant, Occupant::Computer(_))
                || matches!(occupant, Occupant::Person { .. }) && pledge.is_some()
        });
        if everyone && !self.dealer.coming().closed() {
            self.close_pledges();
        }
    }

    /// Fixes the list of pledges, and once it is stored (a list shown is shown again after a restart)
    /// shows it to every seat, whose pages then send their numbers.
    fn close_pledges(&mut self) {
        self.dealer.coming_mut().close();
        self.commit(Then::ShowPledges);
    }

    /// The closed list is stored: every seat is shown it; a deal waiting goes on waiting for the
    /// numbers pledged, or is dealt when none is due.
    pub(super) fn pledges_closed(&mut self) {
        let notice = Arc::new(Notice::Shuffle(self.shuffle_shown()));
        let seats: Vec<ConnId> = self
            .sockets
            .viewers()
            .filter_map(|(conn, seat)| seat.map(|_| conn))
            .collect();
        let sends = seats
            .into_iter()
            .map(|conn| Effect::Send(conn, Arc::clone(&notice)));
        self.effects.extend(sends);
        if self.dealer.waiting() {
            if self.dealer.coming().complete() {
                self.deal_now();
            } else {
                self.wait_for_pages();
            }
        }
    }

    /// Takes a seat's pledge for the coming deal's shuffle.
    pub(super) fn pledge(&mut self, conn: ConnId, seat: Seat, commitment: &str, hash: &str) {
        if let Err(refused) = self.dealer.coming_mut().pledge(seat, commitment, hash) {
            return self.refuse_shuffle(conn, refused);
        }
        self.close_if_every_pledge_is_in();
    }

    /// Takes a seat's number for the coming deal's shuffle; the deal waiting for it goes ahead once
    /// every pledged number is in.
    pub(super) fn contribute(&mut self, conn: ConnId, seat: Seat, commitment: &str, value: &str) {
        if let Err(refused) = self.dealer.coming_mut().contribute(seat, commitment, value) {
            return self.refuse_shuffle(conn, refused);
        }
        if self.dealer.waiting() && self.dealer.coming().complete() {
            self.deal_now();
        }
    }

    fn refuse_shuffle(&mut self, conn: ConnId, refused: ShuffleRefused) {
        let message = match refused {
            ShuffleRefused::OtherDeal => "That answers a shuffle already dealt.",
            ShuffleRefused::AlreadyIn => {
                "This seat's pledge or number for the coming deal is already in."
            }
            ShuffleRefused::Malformed => {
                "A pledge is 64 lowercase hex digits, a shuffle number 32."
            }
            ShuffleRefused::Closed => "The pledges for the coming deal are closed.",
            ShuffleRefused::NotYet => "Send the number once every pledge is in and shown.",
            ShuffleRefused::NotPledged => "That number is not the one this seat pledged.",
        };
        self.send_refusal(conn, RefusalCode::ContributionRefused, message, None);
    }

    pub(super) fn start_deal(&mut self) {
        self.notes.clear_ready();
        let setup = self.matchup.next_deal();
        let next = DealSetup {
            index: setup.index + 1,
            ..setup
        };
        let (state, fair) = self.dealer.deal::<G>(setup, next, &mut self.rng);
        self.state = Some(state);
        self.version += 1;
        self.record.push(DealRecord {
            setup,
            seed: 0,
            fair: Some(fair),
            dealt_at: self.version,
            actions: Vec::new(),
            coaching: Default::default(),
        });
    }

    /// The setup of the deal the coming shuffle is for: the next one once the deal in play has ended.
    pub(super) fn coming_setup(&self) -> DealSetup {
        let setup = self.matchup.next_deal();
        match &self.state {
            Some(state) if G::outcome(state).is_none() => DealSetup {
                index: setup.index + 1,
                ..setup
            },
            _ => setup,
        }
    }

    /// After every accepted change: show the computers, send every seat its view, and wake the next
    /// computer.
    pub(super) fn show(&mut self) {
        self.show_answering(None);
    }

    /// [`Self::show`], telling the socket `answering` names that its action made the change.
    pub(super) fn show_answering(&mut self, answering: Option<(ConnId, Option<&str>)>) {
        if let Some(state) = &self.state {
            for (i, occupant) in self.seats.iter_mut().enumerate() {
                if let Occupant::Computer(bot) = occupant {
                    if bot.observes() {
                        bot.observe(&G::view(state, Some(Seat::new(i))));
                    }
                }
            }
        }
        self.broadcast_answering(answering);
        self.wake_computer();
    }

    /// Records an accepted action, moves the version on, and counts the deal if it has ended.
    pub(super) fn accepted(&mut self, seat: Seat, action: G::Action) {
        self.count(Count::Accepted);
        self.version += 1;
        if let Some(deal) = self.record.last_mut() {
            deal.actions.push((seat, action, self.version));
        }
        // An action that ends the deal is the deal's last: count it in the match here, once.
        if let Some(outcome) = self.state.as_ref().and_then(G::outcome) {
            self.matchup.record(&outcome);
            if self.matchup.winners().is_some() {
                self.count(Count::MatchFinished);
            }
        }
    }

    /// A seat's action, made on `version`, as the page sent it.
    pub(super) fn play(
        &mut self,
        conn: ConnId,
        seat: Seat,
        version: u64,
        id: Option<&str>,
        raw: serde_json::Value,
        now: Instant,
    ) {
        if let Err(refusal) = self.check_moment(version, Status::Playing) {
            return self.refuse(conn, seat, refusal, id);
        }
        // The session read the frame without knowing the game; the game's action is read from it
        // here, once, and kept typed from here on.
        let action = match read_action::<G>(raw) {
            Ok(action) => action,
            Err(message) => {
                return self.send_refusal(conn, RefusalCode::BadAction, message, id);
            }
        };
        let Some(state) = self.state.as_mut() else {
            return;
        };
        if let Err(e) = G::apply(state, seat, &action) {
            return self.send_refusal(conn, e.code, e.message, id);
        }
        self.accepted(seat, action);
        self.commit(Then::Acknowledge {
            conn,
            id: id.map(str::to_string),
            arrived: now,
        });
    }

    /// Checks a request made on `version` while the table should be at `wanted`.
    pub(super) fn check_moment(&self, version: u64, wanted: Status) -> Result<(), TableRefusal> {
        if version != self.version {
            return Err(TableRefusal::new(
                RefusalCode::StaleVersion,
                "The table has moved on since that view; here is the current one.",
            ));
        }
        let status = self.status();
        if status == wanted {
            return Ok(());
        }
        let message = match status {
            Status::Waiting => "The table is waiting for every seat to be taken.",
            Status::Playing => "A deal is being played.",
            Status::DealOver => "This deal is over: deal the next one.",
            Status::MatchOver => "The match is over: start a rematch.",
        };
        Err(TableRefusal::new(RefusalCode::WrongMoment, message))
    }

    /// Sends an error, and with a stale version the current view as well.
    pub(super) fn refuse(
        &mut self,
        conn: ConnId,
        seat: Seat,
        refusal: TableRefusal,
        id: Option<&str>,
    ) {
        let stale = matches!(refusal.code, RefusalCode::StaleVersion);
        self.send_refusal(conn, refusal.code, refusal.message, id);
        if stale {
            self.send_whole_view(conn, Some(seat));
        }
    }
}

/// Reads a game's action from a frame, refusing a field no action has. serde lets a variant without
/// fields (`{"type": "turn"}`) carry fields it ignores, so every field the frame's action names must
/// be one the typed action writes back (in any order, its lists as the page wrote them).
fn read_action<G: Game>(raw: serde_json::Value) -> Result<G::Action, String> {
    let action = <G::Action as serde::Deserialize>::deserialize(&raw)
        .map_err(|e| format!("That is not a {} action: {e}.", G::NAME))?;
    match serde_json::to_value(&action) {
        Ok(written) if fields_within(&raw, &written) => Ok(action),
        _ => Err(format!(
            "That {} action has a field that no action has.",
            G::NAME
        )),
    }
}

/// Whether every field of `sent`, in its objects at any depth, is one `written` has.
fn fields_within(sent: &serde_json::Value, written: &serde_json::Value) -> bool {
    use serde_json::Value::Object;
    match (sent, written) {
        (Object(sent), Object(written)) => sent.iter().all(|(name, value)| {
            written
                .get(name)
                .is_some_and(|kept| fields_within(value, kept))
        }),
        (Object(_), _) => false,
        _ => true,
    }
}
