//! Random playouts over many seeded deals: no panic, the 52 cards always all there, every legal action
//! accepted and illegal ones refused with the state unchanged, no view showing what its seat may not
//! see, every deal ending.

use super::*;
use crate::game::BotKind;
use crate::game::DEFAULT_BUDGET;

/// Actions that look plausible but that `seat` may not take now.
fn illegal_candidates(state: &State, seat: Seat, rng: &mut BotRng) -> Vec<Action> {
    let legal = legal_actions(state, seat);
    let mut candidates = vec![
        Action::PickUp,
        Action::Guess {
            colour: Colour::Red,
        },
    ];
    for _ in 0..6 {
        let random_cards: CardSet = (0..rng.gen_range(0..7))
            .filter_map(|_| Card::from_index(rng.gen_range(0..52)))
            .collect();
        candidates.push(Action::Attack {
            cards: random_cards,
        });
        let (Some(a), Some(b)) = (
            Card::from_index(rng.gen_range(0..52)),
            Card::from_index(rng.gen_range(0..52)),
        ) else {
            continue;
        };
        candidates.push(Action::Beat { attack: a, with: b });
    }
    candidates.retain(|a| !legal.contains(a));
    candidates
}

fn play_out(seed: u64, bots: [BotKind; 2], check_every_legal: bool) {
    let setup = DealSetup {
        index: (seed % 2) as u32,
        first: A,
    };
    let mut state = Panjpar::deal(&setup, &mut deal_rng(seed));
    let mut rng = BotRng::seed_from_u64(seed);
    let mut players = [
        Panjpar::bot(bots[0], A, DEFAULT_BUDGET).unwrap(),
        Panjpar::bot(bots[1], B, DEFAULT_BUDGET).unwrap(),
    ];
    let mut steps = 0;
    while let Some(seat) = to_act(&state) {
        steps += 1;
        assert!(steps < 2_000, "deal {seed} does not end");
        assert_eq!(state.all_cards(), CardSet::DECK);
        let total: usize = state.hands[A].len()
            + state.hands[B].len()
            + state.pile.len()
            + usize::from(state.stock_left())
            + state.set_aside.len()
            + state.battle.map_or(0, |b| b.cards_on_table().len());
        assert_eq!(total, 52, "a card is in two places");
        assert_views_hide_what_they_must(&state);

        let legal = legal_actions(&state, seat);
        assert!(!legal.is_empty());
        assert!(legal_actions(&state, seat.next(2)).is_empty());
        if check_every_legal {
            for action in &legal {
                let mut copy = state.clone();
                assert_eq!(apply(&mut copy, seat, action), Ok(()), "{action:?}");
            }
        }
        for action in illegal_candidates(&state, seat, &mut rng) {
            refused(&mut state, seat, action);
        }
        refused(&mut state, seat.next(2), legal[0]);

        let action = players[seat.index()].choose(&view(&state, Some(seat)), &legal, &mut rng);
        assert!(
            legal.contains(&action),
            "{} chose {action:?}",
            bots[seat.index()]
        );
        play(&mut state, seat, action);
        for (i, player) in players.iter_mut().enumerate() {
            if player.observes() {
                player.observe(&view(&state, Some(Seat::new(i))));
            }
        }
    }
    assert_views_hide_what_they_must(&state);
    let result = outcome(&state).expect("an ended deal has an outcome");
    assert!(result.winners.len() <= 1);
}

#[test]
fn ten_thousand_random_deals_keep_every_rule() {
    for seed in 0..10_000 {
        let bots = match seed % 3 {
            0 => [BotKind::Random, BotKind::Random],
            1 => [BotKind::Computer, BotKind::Random],
            _ => [BotKind::Random, BotKind::Computer],
        };
        play_out(seed, bots, seed % 10 == 0);
    }
}

#[test]
fn computers_against_each_other_keep_every_rule() {
    for seed in 20_000..22_000 {
        play_out(seed, [BotKind::Computer, BotKind::Computer], false);
    }
}

#[test]
fn the_same_seed_and_actions_replay_a_deal_exactly() {
    let setup = DealSetup { index: 0, first: A };
    let first = Panjpar::deal(&setup, &mut deal_rng(77));
    assert_eq!(first, Panjpar::deal(&setup, &mut deal_rng(77)));
    assert_ne!(first, Panjpar::deal(&setup, &mut deal_rng(78)));
}

/// The fast enumeration of attacks lists exactly the sets the rules accept, each once.
#[test]
fn legal_attacks_are_exactly_the_attacks_the_rules_accept() {
    let mut rng = BotRng::seed_from_u64(4);
    for _ in 0..1_500 {
        let deck = crate::cards::shuffled_deck(&mut deal_rng(rng.gen()));
        let attacker = rng.gen_range(1..=11);
        let defender = rng.gen_range(1..=8);
        let a: Vec<String> = deck[..attacker].iter().map(|c| c.to_string()).collect();
        let b: Vec<String> = deck[attacker..attacker + defender]
            .iter()
            .map(|c| c.to_string())
            .collect();
        let trump = deck[attacker + defender].to_string();
        let state = table(&a.join(" "), &b.join(" "), &trump, "", 10);
        let listed = super::super::rules::legal_attacks(&state);
        let unique: std::collections::HashSet<u64> = listed.iter().map(|s| s.bits()).collect();
        assert_eq!(unique.len(), listed.len(), "an attack listed twice");

        let hand = state.hands[A];
        let mut expected = std::collections::HashSet::new();
        let cards: Vec<Card> = hand.iter().collect();
        for positions in 1u32..(1 << cards.len()) {
            if positions.count_ones() > 5 {
                continue;
            }
            let set: CardSet = (0..cards.len())
                .filter(|i| positions & (1 << i) != 0)
                .map(|i| cards[i])
                .collect();
            if super::super::battle::attack_problem(set, hand, defender).is_none() {
                expected.insert(set.bits());
            }
        }
        assert_eq!(unique, expected, "hand {hand:?} against {defender}");
    }
}
