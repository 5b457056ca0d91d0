//! The messages a table answers: joins, tokens, sockets attaching and leaving, frames from seats, and
//! the record.

use std::time::Instant;

use actix::{Context, Handler, ResponseFuture};

use super::super::messages::*;
use super::super::seats::{Occupant, TableKind};
use super::super::{RefusalCode, TableRefusal};
use super::{Status, Table};
use crate::cards::Seat;
use crate::game::Game;
use crate::metrics::metrics;
use crate::protocol::ClientMsg;

impl<G: Game> Handler<Join> for Table<G> {
    type Result = ResponseFuture<Result<Seat, TableRefusal>>;

    /// The seat is given once it is in the snapshot, so a new owner knows its token.
    fn handle(&mut self, Join(key): Join, ctx: &mut Context<Self>) -> Self::Result {
        if self.kind == TableKind::Computer {
            return Box::pin(std::future::ready(Err(TableRefusal::full())));
        }
        if self.paused() {
            return Box::pin(std::future::ready(Err(TableRefusal::unavailable())));
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
        let seat = self.seat_of(&key).ok_or_else(TableRefusal::wrong_token)?;
        self.room_for_a_socket(seat)?;
        Ok(seat)
    }
}

impl<G: Game> Handler<Attach> for Table<G> {
    type Result = Result<Seat, TableRefusal>;

    fn handle(&mut self, attach: Attach, _: &mut Context<Self>) -> Self::Result {
        let seat = self
            .seat_of(&attach.key)
            .ok_or_else(TableRefusal::wrong_token)?;
        self.room_for_a_socket(seat)?;
        // Its first frame would show a change not yet stored.
        if self.paused() {
            return Err(TableRefusal::unavailable());
        }
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
        let frame = self.view_frame(Some(seat), &self.seat_infos());
        self.send(attach.conn, frame);
        self.broadcast_seats();
        Ok(seat)
    }
}

impl<G: Game> Handler<FromSeat> for Table<G> {
    type Result = ();

    fn handle(&mut self, FromSeat { conn, msg }: FromSeat, ctx: &mut Context<Self>) {
        if self.watchers.contains_key(&conn) {
            self.heard_from_watcher(conn, msg);
            return;
        }
        let Some((seat, _)) = self.sockets.get(&conn) else {
            return;
        };
        let seat = *seat;
        self.last_activity = Instant::now();
        if self.paused() && msg.is_play() {
            let id = match &msg {
                ClientMsg::Action { id, .. } => id.as_deref(),
                _ => None,
            };
            self.send_refusal(conn, RefusalCode::Unavailable.as_str(), super::PAUSED, id);
            return;
        }
        match msg {
            ClientMsg::Resync {} => {
                metrics().resyncs.inc();
                let frame = self.view_frame(Some(seat), &self.seat_infos());
                self.send(conn, frame);
            }
            ClientMsg::Replay { deal, step } => self.send_replay(conn, Some(seat), deal, step),
            ClientMsg::Action {
                version,
                id,
                action,
            } => self.play(conn, seat, version, id.as_deref(), action, ctx),
            ClientMsg::NextDeal { version } => match self.check_moment(version, Status::DealOver) {
                Ok(()) => self.agree(seat, ctx, Self::deal_next),
                Err(refusal) => self.refuse(conn, seat, refusal, None),
            },
            ClientMsg::Rematch { version, level } => {
                let ready = self
                    .check_moment(version, Status::MatchOver)
                    .and_then(|()| self.choose_level(level.as_deref()));
                match ready {
                    Ok(()) => self.agree(seat, ctx, Self::rematch),
                    Err(refusal) => self.refuse(conn, seat, refusal, None),
                }
            }
            ClientMsg::Contribute { commitment, value } => {
                self.contribute(conn, seat, &commitment, &value, ctx)
            }
            ClientMsg::Name { name } => self.rename(conn, seat, &name),
            ClientMsg::Phrase { id } => self.say(conn, seat, id),
            ClientMsg::Voice { on } => self.switch_voice(conn, seat, on),
            ClientMsg::Signal { to, kind, data } => self.relay_signal(conn, seat, to, kind, &data),
        }
    }
}

impl<G: Game> Handler<Detach> for Table<G> {
    type Result = ();

    fn handle(&mut self, Detach { conn }: Detach, _: &mut Context<Self>) {
        let voice_went = self.voice_socket_gone(conn);
        let watcher_went = self.watchers.contains_key(&conn);
        if self.forget_socket(conn).is_some() || voice_went || watcher_went {
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
