//! Random playouts over thousands of seeded deals: nothing panics, the 96 cards are all somewhere at
//! every step, every legal action is accepted and every other one refused with the state unchanged,
//! every call finds its hukm in another hand, no view holds a card its seat may not see, and the
//! scores add up to zero.

use rand::{Rng, SeedableRng};

use crate::card_codes::codes_in;
use crate::cards::{deal_rng, Seat};
use crate::game::{Bot, BotRng, DealSetup, Game, RandomBot, RuleCode};
use crate::games::ganjifa::bot::Computer;
use crate::games::ganjifa::ladder::hukm;
use crate::games::ganjifa::lead::ladder;
use crate::games::ganjifa::pack::{GCard, GSet, GSuit};
use crate::games::ganjifa::rules::{Action, Phase, State, SEATS};
use crate::games::ganjifa::view::{view, visible_to as visible};
use crate::games::ganjifa::Ganjifa;

const DEALS: u64 = 5_000;
/// Deals whose every view, for every seat and a spectator, is serialized and searched for card codes.
const JSON_DEALS: u64 = 1_200;

fn check_cards(state: &State) {
    let mut all = state.played;
    let mut count = state.played.len();
    for hand in state.hands.0 {
        assert!(hand.intersection(all).is_empty(), "a card is in two places");
        all = all.union(hand);
        count += hand.len();
    }
    assert_eq!(all, GSet::PACK);
    assert_eq!(count, 96);
    if let Phase::Lead { .. } = state.phase {
        let sizes: Vec<usize> = state.hands.0.iter().map(|h| h.len()).collect();
        assert!(
            sizes.iter().all(|&n| n == sizes[0]),
            "hands differ at a lead: {sizes:?}"
        );
    }
}

fn check_views(state: &State, json: bool) {
    for seat in [
        None,
        Some(Seat::new(0)),
        Some(Seat::new(1)),
        Some(Seat::new(2)),
    ] {
        let allowed = visible(state, seat);
        let v = view(state, seat);
        assert_eq!(v.hand, seat.map_or(GSet::EMPTY, |s| state.hands[s]));
        let mut shown = v.hand.union(v.played).union(v.burnt);
        for s in Seat::all(SEATS) {
            shown = shown.union(v.face_up[s]);
            if let Some(t) = v.trick {
                shown = shown.union(t.cards[s]);
            }
            if let Some(t) = v.last_trick {
                shown = shown.union(t.cards[s]);
            }
        }
        assert!(
            allowed.includes(shown),
            "{seat:?} sees {:?}",
            shown.minus(allowed)
        );
        if json {
            let json = serde_json::to_value(&v).expect("views serialize");
            codes_in(&json, &mut |card: GCard| {
                assert!(allowed.contains(card), "{seat:?}'s view shows {card}");
            });
        }
    }
}

/// An action drawn from everything a seat could try, legal or not.
fn any_action(rng: &mut BotRng, state: &State, seat: Seat) -> Action {
    let card = GCard::from_index(rng.gen_range(0..96)).unwrap_or(GCard::mir(GSuit::Taj));
    let suit = GSuit::from_index(rng.gen_range(0..8));
    match rng.gen_range(0..8) {
        0 => Action::PutDown { card },
        1 => Action::Run { suit },
        2 => Action::Deni { card },
        3 => Action::Burn { suit },
        4 => Action::Talafa { suit, card },
        5 => Action::Utari {
            cards: state.hands[seat]
                .iter()
                .filter(|_| rng.gen_bool(0.2))
                .collect(),
        },
        6 => Action::GiveUpLead,
        _ => Action::Pick {
            back: rng.gen_range(0..40),
        },
    }
}

/// The ladder worked out the slow way, card by card from the suit order, to check the bit arithmetic.
fn check_ladder(state: &State, leader: Seat) {
    let hand = state.hands[leader];
    let unplayed = state.unplayed();
    let fast = ladder(state, leader);
    let mut hukms = GSet::EMPTY;
    for suit in GSuit::ALL {
        let order: Vec<GCard> =
            crate::games::ganjifa::ladder::order(unplayed, state.burnt, suit).collect();
        let i = suit.index();
        if order.first().is_some_and(|c| hand.contains(*c)) {
            hukms.insert(order[0]);
        }
        let held = order.iter().take_while(|c| hand.contains(**c)).count();
        let run: GSet = if held >= 2 {
            order[..held - 1].iter().copied().collect()
        } else {
            GSet::EMPTY
        };
        assert_eq!(fast.runs[i], run, "run in {suit:?}");
        let (mir, wazir) = (GCard::mir(suit), GCard::wazir(suit));
        let deni_suit = hand.contains(wazir)
            && !state.burnt.contains(wazir)
            && unplayed.contains(mir)
            && !hand.contains(mir);
        let lower = hand.of_suit(suit).minus(GSet::one(wazir));
        assert_eq!(fast.deni & suit.bit() != 0, deni_suit && !lower.is_empty());
        assert_eq!(
            fast.lone_wazir & suit.bit() != 0,
            deni_suit && lower.is_empty()
        );
        let mut callers = GSet::EMPTY;
        if order.len() >= 2 && !hand.contains(order[0]) && hand.contains(order[1]) {
            callers = hand.of_suit(suit).minus(GSet::one(order[1]));
            if state.second_phase {
                callers = callers.union(hand.minus(GSet::suit(suit)));
            }
        }
        assert_eq!(fast.talafa[i], callers, "talafa in {suit:?}");
    }
    assert_eq!(fast.hukms, hukms);
}

/// After a lead that starts a call, the hukm of the called suit came from another hand and wins.
fn check_call(before: &State, after: &State, leader: Seat) {
    let Phase::Trick(trick) = after.phase else {
        return;
    };
    let Some(suit) = trick.kind.called() else {
        return;
    };
    let led = trick.cards[leader];
    assert_eq!(led.len(), 1);
    let top =
        hukm(before.unplayed().minus(led), before.burnt, suit).expect("a called suit has a hukm");
    assert_ne!(
        trick.winner, leader,
        "a call found its hukm in the caller's hand"
    );
    assert!(
        before.hands[trick.winner].contains(top),
        "the hukm's holder did not play it"
    );
    assert_eq!(trick.cards[trick.winner], GSet::one(top));
}

#[test]
fn random_and_computer_playouts_keep_every_rule() {
    let mut second_phases = 0;
    let mut face_down_talafas = 0;
    let mut blind_leads = 0;
    let mut burns = 0;
    for deal_index in 0..DEALS {
        let setup = DealSetup {
            index: deal_index as u32,
            first: Seat::new((deal_index % 3) as usize),
        };
        let seed = 0x9a1f_0000 + deal_index;
        let mut state = Ganjifa::deal(&setup, &mut deal_rng(seed));
        let mut rng = BotRng::seed_from_u64(seed);
        let mut bots: Vec<Box<dyn Bot<Ganjifa>>> = (0..SEATS)
            .map(|i| -> Box<dyn Bot<Ganjifa>> {
                if (i as u64) < deal_index % 3 {
                    Box::new(Computer)
                } else {
                    Box::new(RandomBot)
                }
            })
            .collect();
        let mut log = Vec::new();
        let mut steps = 0;
        while let Some(seat) = Ganjifa::to_act(&state) {
            steps += 1;
            assert!(steps < 500, "deal {deal_index} does not end");
            check_cards(&state);
            check_views(&state, deal_index < JSON_DEALS);
            if let Phase::Lead { leader } = state.phase {
                check_ladder(&state, leader);
            }
            let legal = Ganjifa::legal_actions(&state, seat);
            assert!(
                !legal.is_empty(),
                "deal {deal_index}: {seat} has nothing to do"
            );
            for other in Seat::all(SEATS).filter(|&s| s != seat) {
                assert!(Ganjifa::legal_actions(&state, other).is_empty());
                let before = state.clone();
                let error = Ganjifa::apply(&mut state, other, &legal[0]).unwrap_err();
                assert_eq!(error.code, RuleCode::NOT_YOUR_TURN);
                assert_eq!(state, before);
            }
            for action in &legal {
                let mut trial = state.clone();
                Ganjifa::apply(&mut trial, seat, action)
                    .unwrap_or_else(|e| panic!("legal {action:?} refused: {e}"));
                if let Phase::Lead { leader } | Phase::BlindPick { leader, .. } = state.phase {
                    check_call(&state, &trial, leader);
                }
            }
            for _ in 0..4 {
                let action = any_action(&mut rng, &state, seat);
                if !legal.contains(&action) {
                    let before = state.clone();
                    assert!(
                        Ganjifa::apply(&mut state, seat, &action).is_err(),
                        "{action:?} accepted though not legal"
                    );
                    assert_eq!(state, before);
                }
            }
            let v = Ganjifa::view(&state, Some(seat));
            let action = bots[seat.index()].choose(&v, &legal, &mut rng);
            assert!(legal.contains(&action));
            match action {
                Action::Talafa { suit, card } if card.suit() != suit => face_down_talafas += 1,
                Action::GiveUpLead => blind_leads += 1,
                Action::Burn { .. } => burns += 1,
                _ => {}
            }
            Ganjifa::apply(&mut state, seat, &action).expect("the chosen action is legal");
            log.push((seat, action));
        }
        check_cards(&state);
        check_views(&state, deal_index < JSON_DEALS);
        second_phases += usize::from(state.second_phase);
        let outcome = Ganjifa::outcome(&state).expect("an ended deal has an outcome");
        assert_eq!(outcome.points.iter().sum::<i32>(), 0);
        assert_eq!(
            state.won.0.iter().map(|&w| usize::from(w)).sum::<usize>(),
            96
        );
        assert!(!outcome.winners.is_empty());
        // (setup, seed, actions) replays the deal exactly.
        if deal_index % 50 == 0 {
            let mut replay = Ganjifa::deal(&setup, &mut deal_rng(seed));
            for (seat, action) in &log {
                Ganjifa::apply(&mut replay, *seat, action).expect("the replay is accepted");
            }
            assert_eq!(replay, state);
        }
    }
    // The playouts reach the rarer corners of the rules.
    assert!(second_phases > 1_000, "second phases: {second_phases}");
    assert!(
        face_down_talafas > 100,
        "face-down talafas: {face_down_talafas}"
    );
    assert!(blind_leads > 1_000, "blind leads: {blind_leads}");
    assert!(burns > 100, "burns: {burns}");
}
