//! Computers that search think away from the table: the search runs on a blocking worker thread, and
//! its choice comes back to the table as a [`Thought`]. The table goes on answering its sockets
//! meanwhile; a thought that comes back after the table has moved on is dropped.

use std::time::Instant;

use actix::{AsyncContext, Context, Handler, Message};
use rand::{Rng, SeedableRng};

use super::super::seats::{Level, Occupant, TableKind};
use super::super::{RefusalCode, TableRefusal};
use super::Table;
use crate::cards::Seat;
use crate::game::{BotRng, Game, Search};
use crate::metrics::metrics;

/// A computer's choice, made on the table's `version`.
pub(super) struct Thought<A> {
    seat: Seat,
    version: u64,
    action: A,
}

impl<A: 'static> Message for Thought<A> {
    type Result = ();
}

impl<G: Game> Table<G> {
    /// Runs `search` on a worker thread; its choice comes back as a [`Thought`].
    pub(super) fn think_away(
        &mut self,
        seat: Seat,
        version: u64,
        search: Search<G>,
        ctx: &mut Context<Self>,
    ) {
        let table = ctx.address();
        let mut rng = BotRng::seed_from_u64(self.bot_rng.gen());
        actix_web::rt::task::spawn_blocking(move || {
            let thinking = Instant::now();
            let action = search(&mut rng);
            metrics()
                .computer_think_seconds
                .with_label_values(&[G::NAME])
                .observe(thinking.elapsed().as_secs_f64());
            table.do_send(Thought {
                seat,
                version,
                action,
            });
        });
    }

    /// Sets how well the computers play from the next match on (`None` keeps the level). Only a
    /// computer table has a level to choose.
    pub(super) fn choose_level(&mut self, level: Option<&str>) -> Result<(), TableRefusal> {
        let Some(name) = level else {
            return Ok(());
        };
        let refuse = |message: String| TableRefusal::new(RefusalCode::BadLevel, message);
        let level = Level::parse(name).map_err(refuse)?;
        if self.kind != TableKind::Computer {
            return Err(refuse(
                "A level is chosen only at a table against the computer.".into(),
            ));
        }
        for seat in Seat::all(G::SEATS) {
            if let Occupant::Computer(bot) = &mut self.seats[seat.index()] {
                if let Some(fresh) = G::bot(level.bot(), seat, self.config.strong_budget) {
                    *bot = fresh;
                }
            }
        }
        self.level = Some(level);
        Ok(())
    }

    /// How well the computers play, at a computer table.
    pub(super) fn level(&self) -> Option<Level> {
        self.level
    }
}

impl<G: Game> Handler<Thought<G::Action>> for Table<G> {
    type Result = ();

    fn handle(&mut self, thought: Thought<G::Action>, ctx: &mut Context<Self>) {
        self.computer_plays(thought.seat, thought.version, thought.action, ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::super::keeping::tests::config;
    use super::*;
    use crate::games::panjpar::Panjpar;
    use crate::matches::MatchLength;
    use crate::table::{TableId, Token};

    fn table(kind: TableKind, level: Level) -> Table<Panjpar> {
        let length = MatchLength::DealsWon(3);
        let creator = Token::random().hash();
        Table::new(TableId::random(), kind, length, level, creator, config()).unwrap()
    }

    fn computers_named(table: &Table<Panjpar>) -> Vec<crate::game::BotKind> {
        let computers = table.seats.iter().filter_map(|occupant| match occupant {
            Occupant::Computer(bot) => Some(bot.kind()),
            _ => None,
        });
        computers.collect()
    }

    #[test]
    fn a_table_keeps_its_level_through_a_rematch_and_a_rebuild() {
        let mut strong = table(TableKind::Computer, Level::Strong);
        assert_eq!(strong.level(), Some(Level::Strong));
        assert_eq!(computers_named(&strong), [crate::game::BotKind::Strong]);
        let rebuilt =
            Table::<Panjpar>::rebuild(TableId::random(), strong.snapshot(), config()).unwrap();
        assert_eq!(rebuilt.level(), Some(Level::Strong));

        strong.choose_level(Some("standard")).unwrap();
        assert_eq!(strong.level(), Some(Level::Standard));
        assert_eq!(computers_named(&strong), [crate::game::BotKind::Computer]);
        let refused = strong.choose_level(Some("grandmaster")).unwrap_err();
        assert_eq!(refused.code, RefusalCode::BadLevel);
        assert_eq!(strong.level(), Some(Level::Standard));

        let mut friends = table(TableKind::Friends, Level::Strong);
        assert_eq!(friends.level(), None);
        let refused = friends.choose_level(Some("strong")).unwrap_err();
        assert_eq!(refused.code, RefusalCode::BadLevel);
        let rebuilt =
            Table::<Panjpar>::rebuild(TableId::random(), friends.snapshot(), config()).unwrap();
        assert_eq!(rebuilt.level(), None);
    }
}
