//! The Ganjifa coach: deals that differ only in hidden cards, and a blind pick.

use super::*;
use crate::cards::Seat;
use crate::game::{Game, Grade};
use crate::games::ganjifa::rules::State;
use rand::SeedableRng;

/// Two deals alike in everything seat 0 sees, unlike in the other hands' hidden cards: the same
/// judgement for the same seed.
#[test]
fn what_the_seat_could_not_see_does_not_change_the_judgement() {
    for seed in 0..2 {
        let (one, two) = super::super::strong::hidden_twins(seed);
        let judge = |state: &State| {
            let seen = super::super::view::view(state, Some(Seat::new(0)));
            let legal = Ganjifa::legal_actions(state, Seat::new(0));
            COACH.judge(
                &[seen],
                &legal,
                legal.last(),
                Budget::Samples(3),
                &mut BotRng::seed_from_u64(seed),
            )
        };
        let (first, second) = (judge(&one), judge(&two));
        assert_eq!(first, second, "seed {seed}");
        assert_eq!(first.unit, "cards won in the deal");
        assert!((0.0..=96.0).contains(&first.best_value));
    }
}

/// A blind pick draws from shuffled backs, so every pick is as good as another: Fine.
#[test]
fn a_blind_pick_is_always_fine() {
    for seed in 0..30 {
        let (dealt, actions) = crate::coach::self_played::<Ganjifa>(seed);
        for seat in Seat::all(3) {
            let (views, points) = crate::coach::decisions::<Ganjifa>(dealt.clone(), &actions, seat);
            if let Some(pick) = points
                .iter()
                .find(|p| matches!(p.made, Action::Pick { .. }))
            {
                let judgement = pick.judged(&COACH, &views, &pick.made, 2, seed);
                assert_eq!(judgement.grade, Grade::Fine);
                assert_eq!(judgement.best, pick.made);
                return;
            }
        }
    }
    panic!("no blind pick in 30 deals");
}
