//! The Pishe Pasha coach: deals that differ only in stock cards nobody has seen yet.

use super::*;
use crate::coach::{decisions, self_played};
use crate::game::{DealSetup, Game};
use rand::SeedableRng;

/// Two deals alike in everything seat 0 has seen, unlike in the order of seat 1's unturned stock:
/// while the views agree, so do the judgements for the same seed.
#[test]
fn what_the_seat_could_not_see_does_not_change_the_judgement() {
    let mut compared = 0;
    for seed in 0..4u64 {
        let setup = DealSetup {
            index: (seed % 3) as u32,
            first: Seat::new(0),
        };
        let (_, actions) = self_played::<PishePasha>(seed);
        let (one, order) = PishePasha::deal_in_order(&setup, &mut crate::cards::deal_rng(seed));
        let pack = PishePasha::pack();
        let mut order: Vec<usize> = order
            .cards()
            .map(|code| pack.iter().position(|c| c == code).unwrap())
            .collect();
        // Two of seat 1's cards dealt first lie deepest in its stock.
        let places: Vec<usize> = (0..52)
            .filter(|&p| {
                PishePasha::dealt_to(&setup, p) == crate::game::DealtTo::Seat(Seat::new(1))
            })
            .take(2)
            .collect();
        order.swap(places[0], places[1]);
        let two = PishePasha::deal_ordered(&setup, &order, 0).unwrap();
        assert_ne!(one, two);
        let (views_one, points) = decisions::<PishePasha>(one, &actions, Seat::new(0));
        let (views_two, _) = decisions::<PishePasha>(two, &actions, Seat::new(0));
        for point in points.iter().take(8) {
            let json = |views: &[View]| serde_json::to_string(views).unwrap();
            if point.seen > views_two.len()
                || json(&views_one[..point.seen]) != json(&views_two[..point.seen])
            {
                break;
            }
            let judge = |views: &[View]| {
                COACH.judge(
                    &views[..point.seen],
                    &point.legal,
                    Some(&point.made),
                    Budget::Samples(6),
                    &mut BotRng::seed_from_u64(seed),
                )
            };
            assert_eq!(judge(&views_one), judge(&views_two));
            compared += 1;
        }
    }
    assert!(compared >= 4, "{compared}");
}

/// Giving a card is one fewer to play off: a judgement that prefers giving to turning says so, and
/// every judgement's values are chances.
#[test]
fn judgements_are_chances_of_winning_and_name_the_cards() {
    let (dealt, actions) = self_played::<PishePasha>(9);
    let (views, points) = decisions::<PishePasha>(dealt, &actions, Seat::new(0));
    let mut gives_named = 0;
    for point in points.iter().take(10) {
        let judgement = COACH.judge(
            &views[..point.seen],
            &point.legal,
            Some(&point.made),
            Budget::Samples(8),
            &mut BotRng::seed_from_u64(3),
        );
        assert_eq!(judgement.unit, "chance of winning the deal");
        assert!((0.0..=1.0).contains(&judgement.best_value));
        assert!(judgement.made_value.unwrap() <= judgement.best_value);
        let why = serde_json::to_value(&judgement.why).unwrap();
        assert!(why["say"].is_string(), "{why}");
        for play in ["best", "made", "play"].map(|part| &why[part]) {
            if play["type"] == "give" {
                let card = play["card"].as_str().unwrap_or_default();
                assert!(card.parse::<crate::cards::Card>().is_ok(), "{why}");
                gives_named += 1;
            }
        }
    }
    assert!(gives_named > 0, "no judgement named a give");
}

#[test]
fn sampled_deals_are_drawn_for_the_coach() {
    let (dealt, actions) = self_played::<PishePasha>(1);
    let (views, points) = decisions::<PishePasha>(dealt, &actions, Seat::new(0));
    let mut drawn = 0;
    for point in &points {
        let seen = &views[..point.seen];
        let memory = crate::games::strong::memory_of::<PishePasha>(seen);
        let weighed = super::super::strong::weigh(
            &memory,
            seen.last().unwrap(),
            &point.legal,
            Budget::Samples(20),
            &mut BotRng::seed_from_u64(1),
        );
        drawn += weighed.deals();
    }
    assert!(
        drawn >= 20 * points.len() / 2,
        "{drawn} of {}",
        20 * points.len()
    );
}

/// In self-played deals, every decision where one legal move wins the deal at once (the seat's last
/// card played off) and another does not: nothing is worth more than a certain win, so the coach's
/// choice is valued one (the winning move, or one it found as sure), and the winning move made is Fine.
#[test]
fn a_win_at_once_is_valued_a_certain_win_and_taking_it_is_fine() {
    let mut found = 0;
    for seed in 0..30u64 {
        let (dealt, actions) = self_played::<PishePasha>(seed);
        for me in [Seat::new(0), Seat::new(1)] {
            let (views, points) = decisions::<PishePasha>(dealt, &actions, me);
            let mut state = dealt;
            let mut applied = 0;
            for point in points {
                while applied < point.step {
                    let (seat, action) = actions[applied];
                    PishePasha::apply(&mut state, seat, &action).unwrap();
                    applied += 1;
                }
                let wins_at_once = |action: &Action| {
                    let mut next = state;
                    PishePasha::apply(&mut next, me, action).unwrap();
                    PishePasha::outcome(&next).is_some_and(|o| o.winners == [me])
                };
                let Some(winning) = point.legal.iter().find(|a| wins_at_once(a)) else {
                    continue;
                };
                let Some(other) = point.legal.iter().find(|a| !wins_at_once(a)) else {
                    continue;
                };
                let judge = |made: &Action| point.judged(&COACH, &views, made, 12, seed);
                let passed_by = judge(other);
                assert_eq!(passed_by.best_value, 1.0, "{passed_by:?}");
                assert!(passed_by.made_value <= Some(1.0), "{passed_by:?}");
                if passed_by.made_value < Some(1.0) {
                    assert_ne!(&passed_by.best, other, "{passed_by:?}");
                }
                let taken = judge(winning);
                assert_eq!(taken.grade, crate::game::Grade::Fine, "{taken:?}");
                assert_eq!(taken.made_value, Some(1.0));
                found += 1;
            }
        }
    }
    assert!(found >= 1, "no deal had a win at once beside another move");
}
