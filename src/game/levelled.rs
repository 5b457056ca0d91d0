//! The computer players every game has without code of its own, made from the game's two: the
//! **gentle** computer (its standard computer, which plays a random legal move about half the time)
//! and the **clever** one (its strong computer held to a few sampled deals a decision, whatever the
//! table's budget). [`computer`] makes any kind of computer player of a game, these two included.

use rand::Rng;

use super::{Bot, BotKind, BotRng, Budget, Game, Search};
use crate::cards::Seat;

/// How often the gentle computer plays a random legal move instead of the standard computer's.
pub const GENTLE_RANDOM_SHARE: f64 = 0.5;

/// How many sampled deals the clever computer plays out per decision (each candidate in each).
pub const CLEVER_SAMPLES: u32 = 8;

/// The computer player of `kind` for `seat` in the game `G` (`None` when the game has no such kind):
/// the game's own ([`Game::bot`]), or the gentle or clever computer made from them; a strong computer
/// thinks within `budget` per decision, the clever one within [`CLEVER_SAMPLES`] whatever `budget`.
pub fn computer<G: Game>(kind: BotKind, seat: Seat, budget: Budget) -> Option<Box<dyn Bot<G>>> {
    match kind {
        BotKind::Gentle => G::bot(BotKind::Computer, seat, budget).map(|standard| {
            let gentle = Gentle { standard };
            Box::new(gentle) as Box<dyn Bot<G>>
        }),
        BotKind::Clever => {
            let strong = G::bot(BotKind::Strong, seat, Budget::Samples(CLEVER_SAMPLES))?;
            Some(Box::new(Clever { strong }))
        }
        kind => G::bot(kind, seat, budget),
    }
}

/// Every kind of computer player the game `G` has: its own ([`Game::BOTS`]), then the gentle and
/// clever computers when it has the standard and strong ones they are made from.
pub fn kinds<G: Game>() -> Vec<BotKind> {
    let mut kinds = G::BOTS.to_vec();
    if G::BOTS.contains(&BotKind::Computer) {
        kinds.push(BotKind::Gentle);
    }
    if G::BOTS.contains(&BotKind::Strong) {
        kinds.push(BotKind::Clever);
    }
    kinds
}

/// The standard computer, but a random legal move [`GENTLE_RANDOM_SHARE`] of the time. It shows the
/// standard computer every view, so that one remembers as it would at the table.
struct Gentle<G: Game> {
    standard: Box<dyn Bot<G>>,
}

impl<G: Game> Bot<G> for Gentle<G> {
    fn kind(&self) -> BotKind {
        BotKind::Gentle
    }

    fn observes(&self) -> bool {
        self.standard.observes()
    }

    fn observe(&mut self, view: &G::View) {
        self.standard.observe(view);
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action], rng: &mut BotRng) -> G::Action {
        // The standard computer chooses either way, so that what it remembers stays its own.
        let standard = self.standard.choose(view, legal, rng);
        if legal.len() > 1 && rng.gen_bool(GENTLE_RANDOM_SHARE) {
            legal[rng.gen_range(0..legal.len())].clone()
        } else {
            standard
        }
    }
}

/// The strong computer at [`CLEVER_SAMPLES`] sampled deals a decision, under its own name.
struct Clever<G: Game> {
    strong: Box<dyn Bot<G>>,
}

impl<G: Game> Bot<G> for Clever<G> {
    fn kind(&self) -> BotKind {
        BotKind::Clever
    }

    fn observes(&self) -> bool {
        self.strong.observes()
    }

    fn observe(&mut self, view: &G::View) {
        self.strong.observe(view);
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action], rng: &mut BotRng) -> G::Action {
        self.strong.choose(view, legal, rng)
    }

    fn search(&mut self, view: &G::View, legal: &[G::Action]) -> Option<Search<G>> {
        self.strong.search(view, legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DEFAULT_BUDGET;
    use crate::games::panjpar::Panjpar;
    use crate::games::strong::self_play;

    #[test]
    fn every_game_has_the_gentle_and_clever_computers() {
        let kinds = kinds::<Panjpar>();
        assert!(kinds.contains(&BotKind::Gentle) && kinds.contains(&BotKind::Clever));
        for kind in kinds {
            let bot = computer::<Panjpar>(kind, Seat::new(0), DEFAULT_BUDGET).unwrap();
            assert_eq!(bot.kind(), kind);
        }
        assert!(computer::<Panjpar>(BotKind::HoldKings, Seat::new(0), DEFAULT_BUDGET).is_none());
    }

    #[test]
    fn the_gentle_computer_plays_legally_and_loses_to_the_standard_one() {
        // self_play checks every choice is legal; the gentle computer sits in seat 1 of every deal,
        // which in Panjpar guesses first on even deals and second on odd ones.
        let make = |seat: Seat| {
            let kind = if seat.index() == 0 {
                BotKind::Gentle
            } else {
                BotKind::Computer
            };
            computer::<Panjpar>(kind, seat, DEFAULT_BUDGET).unwrap()
        };
        let outcomes = self_play::<Panjpar>(200, 3, make, |_, _| {});
        let won = |seat: usize| {
            let won = outcomes.iter().filter(|o| o.winners == [Seat::new(seat)]);
            won.count()
        };
        let (gentle, standard) = (won(0), won(1));
        assert!(
            gentle * 2 < standard,
            "gentle {gentle}, standard {standard}"
        );
    }
}
