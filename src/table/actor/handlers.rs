//! The messages a table answers: joins, tokens, sockets attaching and leaving, frames from seats, and
//! the record.

use std::time::Instant;

use actix::{Context, Handler, ResponseFuture};

use super::super::messages::*;
use super::super::seats::{Occupant, TableKind};
use super::{Status, Table};
use crate::cards::Seat;
use crate::game::Game;
use crate::matches::Match;
use crate::metrics::metrics;
use crate::protocol::ClientMsg;

impl<G: Game> Handler<Join> for Table<G> {
    type Result = ResponseFuture<Result<Seat, TableRefusal>>;

    /// The seat is given once it is in the snapshot, so a new owner knows its token.
    fn handle(&mut self, Join(key): Join, ctx: &mut Context<Self>) -> Self::Result {
        if self.kind == TableKind::Computer {
            return Box::pin(std::future::ready(Err(TableRefusal::full())));
        }
        let Some(seat) =
            Seat::all(G::SEATS).find(|s| matches!(self.seats[s.index()], Occupant::Free))
        else {
            return Box::pin(std::future::ready(Err(TableRefusal::full())));
        };
        self.seats[seat.index()] = Occupant::person(key);
        self.last_activity = Instant::now();
        let (seated, told) = tokio::sync::oneshot::channel();
        self.commit(ctx, move |table, ctx| {
            let everyone_seated = !table.seats.iter().any(|s| matches!(s, Occupant::Free));
            if everyone_seated && table.state.is_none() {
                table.deal_next(ctx);
            } else {
                table.broadcast();
            }
            let _ = seated.send(());
        });
        Box::pin(async move {
            told.await.map_err(|_| TableRefusal::not_found())?;
            Ok(seat)
        })
    }
}

impl<G: Game> Handler<CheckToken> for Table<G> {
    type Result = Result<Seat, TableRefusal>;

    fn handle(&mut self, CheckToken(key): CheckToken, _: &mut Context<Self>) -> Self::Result {
        self.seat_of(&key).ok_or_else(TableRefusal::wrong_token)
    }
}

impl<G: Game> Handler<Attach> for Table<G> {
    type Result = Result<Seat, TableRefusal>;

    fn handle(&mut self, attach: Attach, _: &mut Context<Self>) -> Self::Result {
        let seat = self
            .seat_of(&attach.key)
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
            ClientMsg::Rematch { version, level } => {
                let ready = self
                    .check_moment(version, Status::MatchOver)
                    .and_then(|()| self.choose_level(level.as_deref()));
                match ready {
                    Ok(()) => {
                        self.matchup = Match::new(self.length, G::SEATS, &mut self.rng);
                        // The record keeps the match in play: a table rematching for hours must not
                        // keep every action it ever took (the soak found it growing without end).
                        self.record.clear();
                        self.deal_next(ctx);
                    }
                    Err(refusal) => self.refuse(conn, seat, refusal, None),
                }
            }
            ClientMsg::Voice { on } => self.switch_voice(conn, seat, on),
            ClientMsg::Signal { to, kind, data } => self.relay_signal(conn, seat, to, kind, &data),
        }
    }
}

impl<G: Game> Handler<Detach> for Table<G> {
    type Result = ();

    fn handle(&mut self, Detach { conn }: Detach, _: &mut Context<Self>) {
        let voice_went = self.voice_socket_gone(conn);
        if self.forget_socket(conn).is_some() || voice_went {
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
