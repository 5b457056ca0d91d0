//! The computer players every game has without code of its own, made from the game's two: the
//! **gentle** computer (its standard computer, which plays a random legal move some of the time)
//! and the **clever** one (its strong computer held to a few sampled deals a decision, whatever the
//! table's budget). How often and how few is each game's own ([`Game::LEVELS`]), tuned so that the
//! four levels are apart in its ratings (docs/games.md, "Computer levels and their ratings").
//! [`computer`] makes any kind of computer player of a game, these two included.

use rand::{Rng, SeedableRng};

use super::{Bot, BotKind, BotRng, Budget, Game, Search};
use crate::cards::Seat;

/// How a game's computer levels play beside its own two computers: its [`Game::LEVELS`]. Each level
/// but the strong one is a computer with a share of weaker moves, so that it can be tuned down until
/// the level above it is at least 100 rating points clear.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Levels {
    /// How often the gentle computer plays a random legal move instead of the standard computer's.
    pub gentle_random_share: f64,
    /// How often the standard computer (`computer`, the standard level) plays a random legal move
    /// instead of its own: 0 but in a game whose strong computer is too little above it for a clever
    /// level between them.
    pub standard_random_share: f64,
    /// How many sampled deals the clever computer plays out per decision (each candidate in each).
    pub clever_samples: u32,
    /// How often the clever computer plays the standard computer's move instead of its own: 0 but in
    /// a game where even one sampled deal a decision plays too near the strong computer.
    pub clever_standard_share: f64,
}

impl Levels {
    /// What every game had before each was tuned, and what a game that says nothing gets: a random
    /// move half the time, the standard computer as it is, 8 sampled deals a decision.
    pub const DEFAULT: Levels = Levels {
        gentle_random_share: 0.5,
        standard_random_share: 0.0,
        clever_samples: 8,
        clever_standard_share: 0.0,
    };
}

/// The computer player of `kind` for `seat` in the game `G` (`None` when the game has no such kind):
/// the game's own ([`Game::bot`]), or the gentle or clever computer made from them, each as the
/// game's [`Game::LEVELS`] say; a strong computer thinks within `budget` per decision, the clever
/// one within [`Levels::clever_samples`] whatever `budget`.
pub fn computer<G: Game>(kind: BotKind, seat: Seat, budget: Budget) -> Option<Box<dyn Bot<G>>> {
    let levels = G::LEVELS;
    let mixed = |kind, main, weaker, share| -> Option<Box<dyn Bot<G>>> {
        let mixed = Mixed {
            kind,
            main,
            weaker,
            share,
            rng: BotRng::seed_from_u64(SEARCH_SEED ^ seat.index() as u64),
        };
        Some(Box::new(mixed))
    };
    match kind {
        BotKind::Gentle => {
            let standard = G::bot(BotKind::Computer, seat, budget)?;
            mixed(kind, standard, None, levels.gentle_random_share)
        }
        BotKind::Computer if levels.standard_random_share > 0.0 => {
            let standard = G::bot(BotKind::Computer, seat, budget)?;
            mixed(kind, standard, None, levels.standard_random_share)
        }
        BotKind::Clever => {
            let samples = Budget::Samples(levels.clever_samples.max(1));
            let strong = G::bot(BotKind::Strong, seat, samples)?;
            if levels.clever_standard_share > 0.0 {
                let standard = G::bot(BotKind::Computer, seat, budget)?;
                mixed(kind, strong, Some(standard), levels.clever_standard_share)
            } else {
                mixed(kind, strong, None, 0.0)
            }
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

/// A computer (`main`) that plays a weaker move `share` of the time, under the name `kind`: the
/// `weaker` computer's move, or a random legal one when there is none. Both see every view and both
/// choose every time, so that what each remembers stays its own.
struct Mixed<G: Game> {
    kind: BotKind,
    main: Box<dyn Bot<G>>,
    weaker: Option<Box<dyn Bot<G>>>,
    share: f64,
    /// What the weaker computer chooses with when the main one's search is thought away from the
    /// table (standard computers barely use it).
    rng: BotRng,
}

impl<G: Game> Mixed<G> {
    /// The weaker move for this decision, or `None` when the main computer's is played.
    fn weaker_move(
        &mut self,
        view: &G::View,
        legal: &[G::Action],
        rng: &mut BotRng,
    ) -> Option<G::Action> {
        let weaker = self.weaker.as_mut().map(|w| w.choose(view, legal, rng));
        if self.share <= 0.0 || legal.len() < 2 || !rng.gen_bool(self.share) {
            return None;
        }
        Some(weaker.unwrap_or_else(|| legal[rng.gen_range(0..legal.len())].clone()))
    }
}

impl<G: Game> Bot<G> for Mixed<G> {
    fn kind(&self) -> BotKind {
        self.kind
    }

    fn observes(&self) -> bool {
        self.main.observes() || self.weaker.as_ref().is_some_and(|weaker| weaker.observes())
    }

    fn observe(&mut self, view: &G::View) {
        if self.main.observes() {
            self.main.observe(view);
        }
        if let Some(weaker) = self.weaker.as_mut().filter(|weaker| weaker.observes()) {
            weaker.observe(view);
        }
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action], rng: &mut BotRng) -> G::Action {
        let main = self.main.choose(view, legal, rng);
        self.weaker_move(view, legal, rng).unwrap_or(main)
    }

    fn search(&mut self, view: &G::View, legal: &[G::Action]) -> Option<Search<G>> {
        let search = self.main.search(view, legal)?;
        if self.share <= 0.0 {
            return Some(search);
        }
        // The weaker move is chosen now, at the table (the weaker computer stays there), and the
        // draw between the two is made where the search runs, with its generator.
        let rng = &mut self.rng;
        let weaker = self.weaker.as_mut().map(|w| w.choose(view, legal, rng));
        let legal = legal.to_vec();
        let share = self.share;
        Some(Box::new(move |rng: &mut BotRng, allowance| {
            if legal.len() > 1 && rng.gen_bool(share) {
                weaker.unwrap_or_else(|| legal[rng.gen_range(0..legal.len())].clone())
            } else {
                search(rng, allowance)
            }
        }))
    }
}

/// The seed of [`Mixed::rng`] (with the seat).
const SEARCH_SEED: u64 = 0x6c65_7665_6c73;

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
        assert!(
            computer::<Panjpar>(BotKind::Own("hold-kings"), Seat::new(0), DEFAULT_BUDGET).is_none()
        );
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

    #[test]
    fn a_clever_computer_that_mixes_in_standard_moves_plays_legally_in_place_and_away() {
        use crate::cards::deal_rng;
        use crate::game::{Allowance, DealSetup};
        use crate::games::pishe_pasha::PishePasha;
        const { assert!(PishePasha::LEVELS.clever_standard_share > 0.0) };
        let make = |seat: Seat| {
            let kind = [BotKind::Clever, BotKind::Computer][seat.index()];
            computer::<PishePasha>(kind, seat, DEFAULT_BUDGET).unwrap()
        };
        let outcomes = self_play::<PishePasha>(20, 5, make, |_, _| {});
        assert_eq!(outcomes.len(), 20);
        // At a table its search is thought away from the table, and is the strong computer's or
        // the standard one's move: legal either way.
        let setup = DealSetup {
            index: 0,
            first: Seat::new(0),
        };
        let state = PishePasha::deal(&setup, &mut deal_rng(3));
        let seat = PishePasha::to_act(&state).unwrap();
        let mut clever = computer::<PishePasha>(BotKind::Clever, seat, DEFAULT_BUDGET).unwrap();
        let view = PishePasha::view(&state, Some(seat));
        let legal = PishePasha::legal_actions(&state, seat);
        let mut rng = BotRng::seed_from_u64(1);
        for _ in 0..20 {
            let search = clever
                .search(&view, &legal)
                .expect("the clever computer searches");
            let action = search(&mut rng, Allowance::WHOLE);
            assert!(legal.contains(&action));
        }
    }
}
