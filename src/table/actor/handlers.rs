//! The messages a table answers: joins, tokens, sockets attaching and leaving, frames from seats, and
//! the record.

use std::time::Instant;

use actix::{Context, Handler};

use super::super::messages::*;
use super::super::seats::{Occupant, SeatTicket, TableKind};
use super::{Status, Table};
use crate::cards::Seat;
use crate::game::Game;
use crate::matches::Match;
use crate::metrics::metrics;
use crate::protocol::ClientMsg;

impl<G: Game> Handler<Join> for Table<G> {
    type Result = Result<SeatTicket, TableRefusal>;

    fn handle(&mut self, _: Join, ctx: &mut Context<Self>) -> Self::Result {
        if self.kind == TableKind::Computer {
            return Err(TableRefusal::full());
        }
        let seat = Seat::all(G::SEATS)
            .find(|s| matches!(self.seats[s.index()], Occupant::Free))
            .ok_or_else(TableRefusal::full)?;
        let (occupant, token) = Occupant::person();
        self.seats[seat.index()] = occupant;
        self.last_activity = Instant::now();
        let everyone_seated = !self.seats.iter().any(|s| matches!(s, Occupant::Free));
        if everyone_seated && self.state.is_none() {
            self.deal_next(ctx);
        } else {
            self.broadcast();
        }
        Ok(SeatTicket { seat, token })
    }
}

impl<G: Game> Handler<CheckToken> for Table<G> {
    type Result = Result<Seat, TableRefusal>;

    fn handle(&mut self, CheckToken(token): CheckToken, _: &mut Context<Self>) -> Self::Result {
        self.seat_of(&token).ok_or_else(TableRefusal::wrong_token)
    }
}

impl<G: Game> Handler<Attach> for Table<G> {
    type Result = Result<Seat, TableRefusal>;

    fn handle(&mut self, attach: Attach, _: &mut Context<Self>) -> Self::Result {
        let seat = self
            .seat_of(&attach.token)
            .ok_or_else(TableRefusal::wrong_token)?;
        if let Occupant::Person {
            sockets,
            gone_since,
            attached_before,
            ..
        } = &mut self.seats[seat.index()]
        {
            if *attached_before {
                metrics().reconnects.inc();
            }
            *attached_before = true;
            *sockets += 1;
            *gone_since = None;
        }
        self.sockets.insert(attach.conn, (seat, attach.out));
        self.last_activity = Instant::now();
        let frame = self.view_frame(seat, &self.seat_infos());
        self.send(attach.conn, frame);
        self.broadcast_seats();
        Ok(seat)
    }
}

impl<G: Game> Handler<FromSeat> for Table<G> {
    type Result = ();

    fn handle(&mut self, FromSeat { conn, msg }: FromSeat, ctx: &mut Context<Self>) {
        let Some((seat, _)) = self.sockets.get(&conn) else {
            return;
        };
        let seat = *seat;
        self.last_activity = Instant::now();
        match msg {
            ClientMsg::Resync {} => {
                metrics().resyncs.inc();
                let frame = self.view_frame(seat, &self.seat_infos());
                self.send(conn, frame);
            }
            ClientMsg::Action {
                version,
                id,
                action,
            } => self.play(conn, seat, version, id.as_deref(), action, ctx),
            ClientMsg::NextDeal { version } => match self.check_moment(version, Status::DealOver) {
                Ok(()) => self.deal_next(ctx),
                Err(refusal) => self.refuse(conn, seat, refusal, None),
            },
            ClientMsg::Rematch { version } => match self.check_moment(version, Status::MatchOver) {
                Ok(()) => {
                    self.matchup = Match::new(self.length, G::SEATS, &mut self.rng);
                    self.deal_next(ctx);
                }
                Err(refusal) => self.refuse(conn, seat, refusal, None),
            },
        }
    }
}

impl<G: Game> Handler<Detach> for Table<G> {
    type Result = ();

    fn handle(&mut self, Detach { conn }: Detach, _: &mut Context<Self>) {
        if self.forget_socket(conn).is_some() {
            self.broadcast_seats();
        }
    }
}

impl<G: Game> Handler<Inspect> for Table<G> {
    type Result = actix::MessageResult<Inspect>;

    fn handle(&mut self, _: Inspect, _: &mut Context<Self>) -> Self::Result {
        actix::MessageResult(TableRecord {
            game: G::NAME,
            version: self.version,
            deals: self.record.clone(),
        })
    }
}
