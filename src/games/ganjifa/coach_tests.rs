//! The Ganjifa coach: deals that differ only in hidden cards, and a blind pick.

use super::*;
use crate::cards::{deal_rng, Seat};
use crate::game::{DealSetup, Game, Grade};
use crate::games::ganjifa::rules::State;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// Two deals alike in everything seat 0 sees, unlike in the other hands' hidden cards: the same
/// judgement for the same seed.
#[test]
fn what_the_seat_could_not_see_does_not_change_the_judgement() {
    for seed in 0..2 {
        let setup = DealSetup {
            index: 1,
            first: Seat::new(0),
        };
        let mut one = Ganjifa::deal(&setup, &mut deal_rng(seed));
        while Ganjifa::to_act(&one) != Some(Seat::new(0)) {
            let seat = Ganjifa::to_act(&one).unwrap();
            let action = Ganjifa::legal_actions(&one, seat)[0];
            Ganjifa::apply(&mut one, seat, &action).unwrap();
        }
        let mut two = one.clone();
        let (b, c) = (Seat::new(1), Seat::new(2));
        let hidden_b = two.hands[b].minus(two.face_up);
        let hidden_c = two.hands[c].minus(two.face_up);
        let mut pool: Vec<GCard> = hidden_b.union(hidden_c).iter().collect();
        pool.shuffle(&mut BotRng::seed_from_u64(seed));
        let (new_b, new_c) = pool.split_at(hidden_b.len());
        two.hands[b] = two.hands[b]
            .minus(hidden_b)
            .union(new_b.iter().copied().collect());
        two.hands[c] = two.hands[c]
            .minus(hidden_c)
            .union(new_c.iter().copied().collect());
        two.remember_ladder();
        assert_ne!(one.hands, two.hands);
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
                let judgement = COACH.judge(
                    &views[..pick.seen],
                    &pick.legal,
                    Some(&pick.made),
                    Budget::Samples(2),
                    &mut BotRng::seed_from_u64(seed),
                );
                assert_eq!(judgement.grade, Grade::Fine);
                assert_eq!(judgement.best, pick.made);
                return;
            }
        }
    }
    panic!("no blind pick in 30 deals");
}
