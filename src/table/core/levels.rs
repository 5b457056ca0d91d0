//! How well the computers play at a computer table: chosen when it opens, and again with a rematch.

use super::super::seats::{Level, Occupant, TableKind};
use super::super::{RefusalCode, TableRefusal};
use super::TableCore;
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;

impl<G: Game> TableCore<G> {
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
                if let Some(fresh) = level.computer::<G>(seat, self.policy.strong_budget) {
                    *bot = fresh;
                }
            }
        }
        self.level = Some(level);
        Ok(())
    }

    /// How well the computers play, at a computer table.
    pub fn level(&self) -> Option<Level> {
        self.level
    }

    /// How long a strong computer here may think per decision.
    pub fn strong_budget(&self) -> chaikhana_rules::game::Budget {
        self.policy.strong_budget
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{open, rebuilt};
    use super::*;
    use crate::table::Token;
    use chaikhana_rules::games::panjpar::Panjpar;
    use chaikhana_rules::matches::MatchLength;

    fn table(kind: TableKind, level: Level) -> TableCore<Panjpar> {
        let length = MatchLength::DealsWon(3);
        let creator = Token::random().hash();
        open(kind, length, level, creator)
    }

    fn computers_named(table: &TableCore<Panjpar>) -> Vec<chaikhana_rules::game::BotKind> {
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
        assert_eq!(
            computers_named(&strong),
            [chaikhana_rules::game::BotKind::Strong]
        );
        let copy = rebuilt::<Panjpar>(strong.snapshot()).unwrap();
        assert_eq!(copy.level(), Some(Level::Strong));

        strong.choose_level(Some("standard")).unwrap();
        assert_eq!(strong.level(), Some(Level::Standard));
        assert_eq!(
            computers_named(&strong),
            [chaikhana_rules::game::BotKind::Computer]
        );
        let refused = strong.choose_level(Some("grandmaster")).unwrap_err();
        assert_eq!(refused.code, RefusalCode::BadLevel);
        assert_eq!(strong.level(), Some(Level::Standard));

        let mut friends = table(TableKind::Friends, Level::Strong);
        assert_eq!(friends.level(), None);
        let refused = friends.choose_level(Some("strong")).unwrap_err();
        assert_eq!(refused.code, RefusalCode::BadLevel);
        let copy = rebuilt::<Panjpar>(friends.snapshot()).unwrap();
        assert_eq!(copy.level(), None);
    }

    #[test]
    fn every_level_comes_back_from_its_snapshot_with_its_own_computer() {
        for level in Level::ALL {
            let table = table(TableKind::Computer, level);
            assert_eq!(computers_named(&table), [level.bot()]);
            let stored = serde_json::to_string(&table.snapshot()).unwrap();
            let read = serde_json::from_str(&stored).unwrap();
            let copy = rebuilt::<Panjpar>(read).unwrap();
            assert_eq!(copy.level(), Some(level), "{stored}");
            assert_eq!(computers_named(&copy), [level.bot()]);
        }
    }

    #[test]
    fn a_table_stored_at_strong_before_there_were_four_levels_keeps_the_whole_budget() {
        // A snapshot names its computers by kind; a strong table's was, and still is, "strong": the
        // strong computer at the table's budget, never the clever one at a few samples.
        let strong = table(TableKind::Computer, Level::Strong);
        let stored = serde_json::to_string(&strong.snapshot()).unwrap();
        assert!(stored.contains("\"bot\":\"strong\""), "{stored}");
        let copy = rebuilt::<Panjpar>(serde_json::from_str(&stored).unwrap()).unwrap();
        assert_eq!(copy.level(), Some(Level::Strong));
        assert_eq!(
            computers_named(&copy),
            [chaikhana_rules::game::BotKind::Strong]
        );
        assert_eq!(Level::parse("strong"), Ok(Level::Strong));
        assert_eq!(Level::parse("standard"), Ok(Level::Standard));
    }
}
