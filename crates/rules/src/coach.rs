//! Finding a seat's decisions in a finished deal, for its game's coach ([`crate::game::Coach`]) to
//! judge: the views the seat saw, as a table shows them (after the deal and after every action), and
//! the points where it chose between more than one legal action; and an analysis as a table keeps it
//! ([`Analysis`]).

use std::fmt;

use crate::cards::Seat;
use crate::game::Game;

mod agree;
mod kept;
pub use agree::agree;
pub use kept::{Analysis, Mark};

/// One decision of a seat in a deal: after `step` actions of the deal, with `seen` views of its own
/// taken in (views[..seen], the last being the one it decided from), the legal actions it had (more
/// than one) and the one it made.
pub struct Point<G: Game> {
    pub step: usize,
    pub seen: usize,
    pub legal: Vec<G::Action>,
    pub made: G::Action,
}

impl<G: Game> Clone for Point<G> {
    fn clone(&self) -> Self {
        Point {
            step: self.step,
            seen: self.seen,
            legal: self.legal.clone(),
            made: self.made.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for Point<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Point")
            .field("step", &self.step)
            .field("seen", &self.seen)
            .field("legal", &self.legal)
            .field("made", &self.made)
            .finish()
    }
}

impl<G: Game> PartialEq for Point<G> {
    fn eq(&self, other: &Self) -> bool {
        (self.step, self.seen, &self.legal, &self.made)
            == (other.step, other.seen, &other.legal, &other.made)
    }
}

/// The views `seat` saw through the deal, starting from the dealt `state` and applying `actions` in
/// order (a view after the deal and after every action, as the table shows each change), and the
/// points where it decided between more than one legal action. An action the rules refuse ends the
/// walk there: what came before it is returned.
pub fn decisions<G: Game>(
    state: G::State,
    actions: &[(Seat, G::Action)],
    seat: Seat,
) -> (Vec<G::View>, Vec<Point<G>>) {
    let mut state = state;
    let mut views = vec![G::view(&state, Some(seat))];
    let mut points = Vec::new();
    for (step, (by, action)) in actions.iter().enumerate() {
        if *by == seat && G::to_act(&state) == Some(seat) {
            let legal = G::legal_actions(&state, seat);
            if legal.len() > 1 && legal.contains(action) {
                points.push(Point {
                    step,
                    seen: views.len(),
                    legal,
                    made: action.clone(),
                });
            }
        }
        if G::apply(&mut state, *by, action).is_err() {
            break;
        }
        views.push(G::view(&state, Some(seat)));
    }
    (views, points)
}

/// For each decision of `points` (as [`decisions`] found them, with the seat's `views`), whether it
/// continues the one before: the seat's own next action, straight after it, with no card seen that it
/// had not seen then. Its position is then just what the move made before led to (see [`agree`]).
pub fn continuing<G: Game>(views: &[G::View], points: &[Point<G>]) -> Vec<bool> {
    let json = |i: usize| serde_json::to_value(&views[i]).unwrap_or_default();
    let mut continues = vec![false; points.len()];
    for (i, pair) in points.windows(2).enumerate() {
        let (before, this) = (&pair[0], &pair[1]);
        continues[i + 1] = this.step == before.step + 1
            && !crate::card_codes::shows_a_new_card(&json(before.seen - 1), &json(this.seen - 1));
    }
    continues
}

#[cfg(test)]
impl<G: Game> Point<G> {
    /// What `coach` makes of this decision had the seat made `made`, from the deal's `views` (as
    /// [`decisions`] found them), weighing `samples` sampled deals with the generator seeded by `seed`.
    pub(crate) fn judged(
        &self,
        coach: &(impl crate::game::Coach<G> + ?Sized),
        views: &[G::View],
        made: &G::Action,
        samples: u32,
        seed: u64,
    ) -> crate::game::Judgement<G::Action> {
        use rand::SeedableRng;
        coach.judge(
            &views[..self.seen],
            &self.legal,
            Some(made),
            crate::game::Budget::Samples(samples),
            &mut crate::game::BotRng::seed_from_u64(seed),
        )
    }
}

/// A deal played by the standard computers from `seed`: the dealt state and the actions, in order.
#[cfg(test)]
pub(crate) fn self_played<G: Game>(seed: u64) -> (G::State, Vec<(Seat, G::Action)>) {
    use crate::game::{BotKind, BotRng, DealSetup, DEFAULT_BUDGET};
    use rand::SeedableRng;
    let setup = DealSetup {
        index: (seed % 3) as u32,
        first: Seat::new(0),
    };
    let dealt = G::deal(&setup, &mut crate::cards::deal_rng(seed));
    let mut bots: Vec<_> = Seat::all(G::SEATS)
        .map(|seat| G::bot(BotKind::Computer, seat, DEFAULT_BUDGET).expect("every game has one"))
        .collect();
    let mut rng = BotRng::seed_from_u64(seed);
    let (mut state, mut actions) = (dealt.clone(), Vec::new());
    while let Some(seat) = G::to_act(&state) {
        for (i, bot) in bots.iter_mut().enumerate() {
            if bot.observes() {
                bot.observe(&G::view(&state, Some(Seat::new(i))));
            }
        }
        let legal = G::legal_actions(&state, seat);
        let view = G::view(&state, Some(seat));
        let action = bots[seat.index()].choose(&view, &legal, &mut rng);
        G::apply(&mut state, seat, &action).expect("a legal action");
        actions.push((seat, action));
    }
    (dealt, actions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BotRng, Budget, Reason};
    use crate::games::{ganjifa::Ganjifa, panjpar::Panjpar, pishe_pasha::PishePasha};
    use rand::SeedableRng;

    /// Every point of a self-played deal is a real choice the seat made from the views it had seen,
    /// and the game's coach judges each one from those views.
    fn points_of_a_deal_are_choices_made<G: Game>(seed: u64, judged: usize) {
        let (dealt, actions) = self_played::<G>(seed);
        for seat in Seat::all(G::SEATS) {
            let (views, points) = decisions::<G>(dealt.clone(), &actions, seat);
            assert_eq!(views.len(), actions.len() + 1);
            assert!(!points.is_empty(), "{seat} decided nothing");
            let mut last_step = None;
            for point in &points {
                assert!(point.legal.len() > 1);
                assert!(point.legal.contains(&point.made));
                assert!(point.seen >= 1 && point.seen <= views.len());
                assert_eq!(
                    point.seen,
                    point.step + 1,
                    "the view it decided from is the last"
                );
                assert_eq!(actions[point.step], (seat, point.made.clone()));
                assert!(last_step < Some(point.step));
                last_step = Some(point.step);
            }
            let coach = G::coach().expect("every site game has a coach");
            for point in points.iter().take(judged) {
                let judgement = coach.judge(
                    &views[..point.seen],
                    &point.legal,
                    Some(&point.made),
                    Budget::Samples(2),
                    &mut BotRng::seed_from_u64(seed),
                );
                assert!(point.legal.contains(&judgement.best), "{judgement:?}");
                assert!(judgement.made_value.is_some());
                // A made move's reason says how it stood against the best, never as a hint.
                let reason = judgement
                    .why
                    .reason()
                    .expect("a reason, not a kept sentence");
                assert!(
                    !matches!(reason, Reason::Hint { .. } | Reason::SolvedHint { .. }),
                    "{reason:?}"
                );
            }
        }
    }

    #[test]
    fn decisions_finds_the_choices_each_seat_made_in_every_game() {
        points_of_a_deal_are_choices_made::<Panjpar>(3, 6);
        points_of_a_deal_are_choices_made::<PishePasha>(3, 6);
        points_of_a_deal_are_choices_made::<Ganjifa>(3, 3);
    }
}

#[cfg(test)]
mod judged {
    use super::*;
    use crate::game::{BotRng, Budget, Grade};
    use crate::games::strong::{memory_of, Thinking};
    use crate::games::{ganjifa::Ganjifa, panjpar::Panjpar, pishe_pasha::PishePasha};
    use rand::SeedableRng;

    /// A hint is the strong computer's own choice for the same seed and budget; a made move that is
    /// the hint is Fine; an only move is Fine with the move made as the best.
    fn hints_are_the_strong_choice<G: Thinking>(seed: u64, points: usize) {
        let coach = G::coach().expect("a coach");
        let (dealt, actions) = self_played::<G>(seed);
        let (views, found) = decisions::<G>(dealt, &actions, Seat::new(1));
        for point in found.iter().take(points) {
            let seen = &views[..point.seen];
            let rng = || BotRng::seed_from_u64(seed + point.step as u64);
            let chosen = G::decide(
                &memory_of::<G>(seen),
                seen.last().unwrap(),
                &point.legal,
                Budget::Samples(4),
                &mut rng(),
            );
            let hint = coach.judge(seen, &point.legal, None, Budget::Samples(4), &mut rng());
            assert_eq!(hint.best, chosen);
            assert_eq!((hint.grade, hint.made_value), (Grade::Fine, None));
            let made = coach.judge(
                seen,
                &point.legal,
                Some(&chosen),
                Budget::Samples(4),
                &mut rng(),
            );
            assert_eq!(made.grade, Grade::Fine, "{made:?}");
            let only = std::slice::from_ref(&point.made);
            let alone = coach.judge(
                seen,
                only,
                Some(&point.made),
                Budget::Samples(2),
                &mut rng(),
            );
            assert_eq!((alone.grade, &alone.best), (Grade::Fine, &point.made));
            assert_eq!(alone.made_value, Some(alone.best_value));
        }
    }

    #[test]
    fn hints_are_the_strong_computers_choice_and_only_moves_are_fine() {
        hints_are_the_strong_choice::<Panjpar>(5, 4);
        hints_are_the_strong_choice::<PishePasha>(5, 4);
        hints_are_the_strong_choice::<Ganjifa>(5, 2);
    }
}

/// How long judging takes: one decision at a few budgets, and all of one seat's points in a deal.
/// Run with `cargo test --lib coach::speed -- --ignored --nocapture` (the test profile, opt-level 1).
#[cfg(test)]
mod speed {
    use super::*;
    use crate::game::{BotRng, Budget, DEFAULT_BUDGET};
    use crate::games::{ganjifa::Ganjifa, panjpar::Panjpar, pishe_pasha::PishePasha};
    use rand::SeedableRng;
    use std::time::Instant;

    fn time<G: Game>() {
        let coach = G::coach().expect("a coach");
        let (dealt, actions) = self_played::<G>(1);
        let (views, points) = decisions::<G>(dealt, &actions, Seat::new(0));
        for budget in [Budget::Samples(20), Budget::Samples(100), DEFAULT_BUDGET] {
            let started = Instant::now();
            for point in &points {
                let seen = &views[..point.seen];
                let rng = &mut BotRng::seed_from_u64(1);
                coach.judge(seen, &point.legal, Some(&point.made), budget, rng);
            }
            let all = started.elapsed();
            println!(
                "{}: {budget:?}: {} points in {all:.2?}, {:.1?} a decision",
                G::NAME,
                points.len(),
                all / points.len().max(1) as u32
            );
        }
    }

    #[test]
    #[ignore]
    fn speed() {
        time::<Panjpar>();
        time::<PishePasha>();
        time::<Ganjifa>();
    }
}
