//! The Panjpar coach on positions whose best move is known: endgames solved by brute force through
//! the rules core, an only move, and deals that differ only in what the seat could not see.

use super::*;
use crate::coach::{decisions, self_played};
use crate::game::Game;
use crate::games::panjpar::rules::State;
use crate::games::panjpar::view::view;
use rand::SeedableRng;

/// The value for `me` of the position with best play on both sides, trying every legal action.
fn truth(state: &State, me: Seat) -> i8 {
    if let Phase::Over { winner } = state.phase {
        return match winner {
            None => 0,
            Some(w) if w == me => 1,
            Some(_) => -1,
        };
    }
    let seat = rules::to_act(state).expect("a seat acts");
    let values = rules::legal_actions(state, seat).into_iter().map(|action| {
        let mut next = state.clone();
        rules::apply(&mut next, seat, &action).expect("legal");
        truth(&next, me)
    });
    if seat == me {
        values.max().expect("a legal action")
    } else {
        values.min().expect("a legal action")
    }
}

use super::rules::Phase;
use crate::cards::Seat;

/// In self-played deals, every endgame decision (nothing left to draw, six cards or fewer) where one move wins
/// with best play and the move made loses: the coach names a winning move, values it 1 against 0 and
/// calls the move made a blunder. A winning move made is Fine.
#[test]
fn a_won_endgame_thrown_away_is_a_blunder_and_a_winning_move_is_fine() {
    let (mut blunders, mut fine) = (0, 0);
    for seed in 0..40 {
        let (dealt, actions) = self_played::<Panjpar>(seed);
        let me = Seat::new((seed % 2) as usize);
        let (views, points) = decisions::<Panjpar>(dealt.clone(), &actions, me);
        let mut state = dealt;
        let mut applied = 0;
        for point in points {
            while applied < point.step {
                let (seat, action) = actions[applied];
                rules::apply(&mut state, seat, &action).unwrap();
                applied += 1;
            }
            if state.stock_left() || state.hands[me].len() + state.hands[me.next(2)].len() > 6 {
                continue;
            }
            let value = |action: &Action| {
                let mut next = state.clone();
                rules::apply(&mut next, me, action).unwrap();
                truth(&next, me)
            };
            let values: Vec<i8> = point.legal.iter().map(value).collect();
            let Some(loser) = point.legal.iter().zip(&values).find(|(_, v)| **v == -1) else {
                continue;
            };
            let Some(winner) = point.legal.iter().zip(&values).find(|(_, v)| **v == 1) else {
                continue;
            };
            let judge = |made: &Action| point.judged(&COACH, &views, made, 4, seed);
            let judgement = judge(loser.0);
            assert_eq!(judgement.grade, Grade::Blunder, "{judgement:?}");
            assert_eq!(
                (judgement.best_value, judgement.made_value),
                (1.0, Some(0.0))
            );
            assert_eq!(value(&judgement.best), 1, "{judgement:?}");
            assert!(
                matches!(
                    judgement.why.reason(),
                    Some(Reason::SolvedBetter {
                        best_end: End::Win,
                        made_end: End::Loss,
                        ..
                    })
                ),
                "{:?}",
                judgement.why
            );
            blunders += 1;
            let judgement = judge(winner.0);
            assert_eq!(judgement.grade, Grade::Fine, "{judgement:?}");
            assert_eq!(judgement.made_value, Some(1.0));
            fine += 1;
        }
    }
    assert!(blunders >= 3 && fine >= 3, "{blunders} {fine}");
}

/// With one legal move there is nothing to judge: Fine, and the move made is the best.
#[test]
fn an_only_move_is_fine() {
    let (dealt, actions) = self_played::<Panjpar>(7);
    let me = Seat::new(0);
    let (views, points) = decisions::<Panjpar>(dealt, &actions, me);
    let point = points.iter().find(|p| p.step > 2).expect("a decision");
    let judgement = COACH.judge(
        &views[..point.seen],
        std::slice::from_ref(&point.made),
        Some(&point.made),
        Budget::Samples(3),
        &mut BotRng::seed_from_u64(1),
    );
    assert_eq!(judgement.grade, Grade::Fine);
    assert_eq!(judgement.best, point.made);
    assert_eq!(judgement.made_value, Some(judgement.best_value));
    // The reason names the move made, as the only choice or as the coach's own, at its value.
    let seen = views[..point.seen].last().unwrap();
    let named = said(&Move::of_action(seen, &point.made));
    match judgement.why.reason() {
        Some(Reason::Only { play: m, value, .. } | Reason::Agreed { made: m, value, .. }) => {
            assert_eq!((m, *value), (&named, judgement.best_value));
        }
        other => panic!("an only move's reason: {other:?}"),
    }
}

/// A reason names moves as the page reads them: cards by their codes, a beat with the card beating
/// it, a pick-up with the cards it takes; the rules' reasons with the cards and counts they are about.
#[test]
fn moves_and_rules_are_named_by_their_cards() {
    let (dealt, _, _) = super::super::strong::hidden_twins(0);
    let seen = view(&dealt, Some(Seat::new(0)));
    let set = |cards: &str| -> CardSet { cards.split(' ').map(|c| c.parse().unwrap()).collect() };
    let beat = Action::Beat {
        attack: "6S".parse().unwrap(),
        with: "9S".parse().unwrap(),
    };
    assert_eq!(
        said(&Move::of_action(&seen, &beat)),
        serde_json::json!({"type": "defend", "beats": [["6S", "9S"]], "pick_up": []})
    );
    let attack = Action::Attack { cards: set("6S") };
    assert_eq!(
        said(&Move::of_action(&seen, &attack)),
        serde_json::json!({"type": "attack", "cards": ["6S"]})
    );
    let (low, trump) = (Candidate::Attack(set("6S")), Candidate::Attack(set("3D")));
    assert_eq!(
        rule(&seen, Suit::Diamonds, &low, &trump),
        Some(serde_json::json!({"rule": "keeps-trumps", "cards": ["3D"]}))
    );
    let three = Candidate::Attack(set("6S 6H 9S"));
    assert_eq!(
        rule(&seen, Suit::Diamonds, &three, &low),
        Some(serde_json::json!({"rule": "sheds-more", "best": 3, "made": 1}))
    );
    assert_eq!(rule(&seen, Suit::Diamonds, &low, &three), None);
}

/// A beat belongs to the plans that hold it, whichever attack card it covers first; picking up to
/// the plan that beats nothing.
#[test]
fn a_beat_is_judged_as_the_best_plan_holding_it() {
    let plans: Vec<Candidate> = defences(
        "6S 6H".split(' ').map(|c| c.parse().unwrap()).collect(),
        "9S 3D 4C".split(' ').map(|c| c.parse().unwrap()).collect(),
        Suit::Diamonds,
    )
    .into_iter()
    .map(Candidate::Defend)
    .collect();
    let beat = |attack: &str, with: &str| Action::Beat {
        attack: attack.parse().unwrap(),
        with: with.parse().unwrap(),
    };
    // {6S:9S, 6H:3D} and {6S:9S} hold 6S:9S; {6H:3D} and {6S:9S, 6H:3D} hold 6H:3D.
    assert_eq!(belonging(&plans, &beat("6S", "9S")).len(), 2);
    assert_eq!(belonging(&plans, &beat("6H", "3D")).len(), 2);
    assert_eq!(belonging(&plans, &Action::PickUp).len(), 1);
}

/// Two deals alike in everything the seat saw, unlike in the other hand and the pile: the same
/// judgement, for the same seed.
#[test]
fn what_the_seat_could_not_see_does_not_change_the_judgement() {
    for seed in 0..6 {
        let (dealt, one, two) = super::super::strong::hidden_twins(seed);
        let before = view(&dealt, Some(Seat::new(0)));
        let judge = |state: &State| {
            let views = [before, view(state, Some(Seat::new(0)))];
            let legal = Panjpar::legal_actions(state, Seat::new(0));
            COACH.judge(
                &views,
                &legal,
                legal.last(),
                Budget::Samples(8),
                &mut BotRng::seed_from_u64(seed),
            )
        };
        assert_eq!(judge(&one), judge(&two), "seed {seed}");
        let hint = COACH.judge(
            &[before, view(&one, Some(Seat::new(0)))],
            &Panjpar::legal_actions(&one, Seat::new(0)),
            None,
            Budget::Samples(8),
            &mut BotRng::seed_from_u64(seed),
        );
        assert_eq!((hint.grade, hint.made_value), (Grade::Fine, None));
        let Some(Reason::Hint { best, value, .. }) = hint.why.reason() else {
            panic!("a hint's reason: {:?}", hint.why);
        };
        assert_eq!(*value, hint.best_value);
        let named = match hint.best {
            Action::Attack { cards } => best["cards"] == said(&cards),
            Action::Beat { attack, with } => best["beats"][0] == said(&(attack, with)),
            Action::PickUp => best["beats"] == serde_json::json!([]),
            Action::Guess { .. } => best["type"] == "guess",
        };
        assert!(named, "{best} names {:?}", hint.best);
    }
}

/// The hint is the strong computer's own choice, for the same seed and budget.
#[test]
fn a_hint_is_what_the_strong_computer_plays() {
    use crate::games::strong::Thinking;
    let (dealt, actions) = self_played::<Panjpar>(11);
    let (views, points) = decisions::<Panjpar>(dealt, &actions, Seat::new(1));
    for point in points.iter().skip(1).take(6) {
        let seen = &views[..point.seen];
        let memory = memory_of::<Panjpar>(seen);
        let chosen = Panjpar::decide(
            &memory,
            seen.last().unwrap(),
            &point.legal,
            Budget::Samples(6),
            &mut BotRng::seed_from_u64(2),
        );
        let hint = COACH.judge(
            seen,
            &point.legal,
            None,
            Budget::Samples(6),
            &mut BotRng::seed_from_u64(2),
        );
        assert_eq!(hint.best, chosen);
    }
}
