//! The table actor's messages from the sockets and the router (join, a seat's frame, attach, watch,
//! detach, inspect, the owner's orders) and the thinking pool's choices: each handed to the core with
//! the time, its effects carried out as every other event's.

use super::*;

impl<G: Game> Handler<Join> for Table<G> {
    type Result = ResponseFuture<Result<Seat, TableRefusal>>;

    /// The seat is given once it is in the snapshot, so a new owner knows its token.
    fn handle(&mut self, join: Join, ctx: &mut Context<Self>) -> Self::Result {
        let seat = match self
            .core
            .join(join.key, join.agrees_to_hints, Instant::now())
        {
            Ok(seat) => seat,
            Err(refusal) => return Box::pin(std::future::ready(Err(refusal))),
        };
        let (seated, told) = tokio::sync::oneshot::channel();
        self.joins.insert(seat, seated);
        self.carry_out(ctx);
        Box::pin(async move {
            told.await.map_err(|_| TableRefusal::not_found())?;
            Ok(seat)
        })
    }
}

impl<G: Game> Handler<CheckToken> for Table<G> {
    type Result = Result<Seat, TableRefusal>;

    fn handle(&mut self, CheckToken(key): CheckToken, _: &mut Context<Self>) -> Self::Result {
        self.core.check_token(&key)
    }
}

impl<G: Game> Handler<Attach> for Table<G> {
    type Result = Result<Seat, TableRefusal>;

    fn handle(&mut self, attach: Attach, ctx: &mut Context<Self>) -> Self::Result {
        let seat = self.core.attach(attach.conn, &attach.key, Instant::now())?;
        self.outs.insert(attach.conn, attach.out);
        self.carry_out(ctx);
        Ok(seat)
    }
}

impl<G: Game> Handler<Watch> for Table<G> {
    type Result = Result<usize, TableRefusal>;

    fn handle(&mut self, Watch { conn, out }: Watch, ctx: &mut Context<Self>) -> Self::Result {
        let watching = self.core.watch(conn)?;
        self.outs.insert(conn, out);
        self.carry_out(ctx);
        Ok(watching)
    }
}

impl<G: Game> Handler<FromSeat> for Table<G> {
    type Result = ();

    fn handle(&mut self, FromSeat { conn, msg }: FromSeat, ctx: &mut Context<Self>) {
        self.core.from_seat(conn, msg, Instant::now());
        self.carry_out(ctx);
    }
}

impl<G: Game> Handler<Detach> for Table<G> {
    type Result = ();

    fn handle(&mut self, Detach { conn }: Detach, ctx: &mut Context<Self>) {
        self.core.detach(conn, Instant::now());
        self.outs.remove(&conn);
        self.carry_out(ctx);
    }
}

impl<G: Game> Handler<Thought<G::Action>> for Table<G> {
    type Result = ();

    fn handle(&mut self, thought: Thought<G::Action>, ctx: &mut Context<Self>) {
        let Thought {
            seat,
            version,
            action,
            play_at,
        } = thought;
        let play = move |table: &mut Self, ctx: &mut Context<Self>| {
            table.core.thought(seat, version, action);
            table.carry_out(ctx);
        };
        match play_at.checked_duration_since(Instant::now()) {
            Some(wait) if !wait.is_zero() => {
                ctx.run_later(wait, play);
            }
            _ => play(self, ctx),
        }
    }
}

impl<G: Game> Handler<Inspect> for Table<G> {
    type Result = actix::MessageResult<Inspect>;

    fn handle(&mut self, _: Inspect, _: &mut Context<Self>) -> Self::Result {
        actix::MessageResult(TableRecord {
            game: G::NAME,
            version: self.core.version(),
            deals: self.core.record().iter().map(DealRecord::written).collect(),
        })
    }
}

impl<G: Game> Handler<OwnerOrder> for Table<G> {
    type Result = ();

    fn handle(&mut self, order: OwnerOrder, ctx: &mut Context<Self>) {
        match order {
            OwnerOrder::Save => self.core.save(),
            OwnerOrder::HandOver => self.core.hand_over(),
            OwnerOrder::Lost => self.core.step_down(),
        }
        self.carry_out(ctx);
    }
}
