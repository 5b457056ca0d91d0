//! The deal, day and night, the opening, void deals, scoring, matches and the shape of what is sent,
//! as scripted scenarios.

use super::scenarios::{at_lead, card, put, refused, set, trick, S0, S1, S2};
use crate::cards::{deal_rng, BySeat};
use crate::game::{DealSetup, Game};
use crate::games::ganjifa::pack::{GCard, GSet, GSuit};
use crate::games::ganjifa::rules::{deal, deal_from, Action, PerSeat, Phase, Time, TrickKind};
use crate::games::ganjifa::view::{view, Stage};
use crate::games::ganjifa::Ganjifa;

#[test]
fn day_and_night_alternate_and_the_dealer_moves_on() {
    for index in 0..6 {
        let setup = DealSetup { index, first: S2 };
        let state = deal(&setup, &mut deal_rng(40 + u64::from(index)));
        let (time, mir) = if index % 2 == 0 {
            (Time::Day, card("MSU"))
        } else {
            (Time::Night, card("MSA"))
        };
        assert_eq!(state.time, time);
        assert_eq!(state.dealer, setup.rotating_seat(3));
        assert_eq!(state.time.opening_mir(), mir);
        let t = trick(&state);
        assert_eq!(t.kind, TrickKind::Opening);
        assert_eq!(t.cards[state.opener], GSet::one(mir));
        assert_eq!(view(&state, Some(S0)).opening_mir, mir);
    }
}

#[test]
fn the_opening_mir_takes_its_card_and_two_from_each_other_seat_and_nobody_loses_the_lead() {
    let mut state = deal(
        &DealSetup {
            index: 0,
            first: S0,
        },
        &mut deal_rng(9),
    );
    let opener = state.opener;
    assert_eq!(state.to_act(), Some(opener));
    assert_eq!(view(&state, Some(opener)).stage, Stage::Opening);
    assert_eq!(view(&state, Some(opener)).to_put_down, 1);
    for step in [0, 1, 1, 2, 2] {
        let seat = opener.after(step, 3);
        assert_eq!(state.to_act(), Some(seat));
        let first = state.hands[seat].first().unwrap();
        state.apply(seat, &Action::PutDown { card: first }).unwrap();
    }
    assert_eq!(state.phase, Phase::Lead { leader: opener });
    assert_eq!(state.won[opener], 6);
    assert_eq!(state.marks, PerSeat::default());
    assert!(state.hands.0.iter().all(|h| h.len() == 30));
}

#[test]
fn a_hand_without_a_mir_voids_the_deal_and_the_same_dealer_deals_again() {
    // In pack order every Mir falls in the batches of the seat after the dealer.
    let pack: Vec<GCard> = GSet::PACK.iter().collect();
    assert!(deal_from(S0, Time::Day, &pack, 0).is_none());
    // Moving one Mir to each other seat's batch makes the deal good.
    let mut good = pack.clone();
    good.swap(12, 4); // the Mir of Safed into batch 1 (seat 2)
    good.swap(24, 8); // the Mir of Shamsher into batch 2 (seat 0)
    let state = deal_from(S0, Time::Day, &good, 0).expect("every hand has a Mir");
    assert!(state.hands[S1].contains(card("MTA")));
    // The opening and closing batch that reached each seat are open to the table: eight cards a hand.
    for seat in [S0, S1, S2] {
        let hand = state.hands[seat].union(trick(&state).cards[seat]);
        assert_eq!(hand.len(), 32);
        assert_eq!(hand.intersection(state.face_up).len(), 8);
    }
    assert_eq!(state.face_up.len(), 24);
    // Through `deal`, void deals are redealt: many seeds, every hand holds a Mir.
    for seed in 0..300 {
        let setup = DealSetup {
            index: seed as u32,
            first: S1,
        };
        let state = deal(&setup, &mut deal_rng(seed));
        assert_eq!(state.dealer, setup.rotating_seat(3));
        for seat in [S0, S1, S2] {
            let hand = state.hands[seat].union(trick(&state).cards[seat]);
            assert!(!hand.intersection(GSet::MIRS).is_empty());
        }
    }
}

#[test]
fn face_up_cards_show_in_every_view_and_face_down_ones_only_to_their_holder() {
    let state = deal(
        &DealSetup {
            index: 0,
            first: S0,
        },
        &mut deal_rng(5),
    );
    let v = view(&state, Some(S1));
    assert_eq!(v.face_up[S0], state.hands[S0].intersection(state.face_up));
    assert_eq!(v.hand, state.hands[S1]);
    assert_eq!(v.counts[S2] as usize, state.hands[S2].len());
    let spectator = view(&state, None);
    assert!(spectator.hand.is_empty());
    let stranger = view(&state, Some(crate::cards::Seat::new(7)));
    assert_eq!(stranger.seat, None);
    assert!(stranger.hand.is_empty());
    assert!(state.legal_actions(crate::cards::Seat::new(7)).is_empty());
    let json = serde_json::to_string(&view(&state, Some(S1))).unwrap();
    for hidden in state.hands[S0].minus(state.face_up) {
        assert!(!json.contains(&format!("\"{hidden}\"")));
    }
}

#[test]
fn the_deal_scores_cards_won_minus_thirty_two_and_the_top_scorers_win() {
    let mut state = at_lead("MTA", "1CH", "2CH");
    state.won = BySeat([40, 27, 26]);
    state
        .apply(S0, &Action::Utari { cards: set("MTA") })
        .unwrap();
    put(&mut state, S1, "1CH");
    put(&mut state, S2, "2CH");
    assert_eq!(state.phase, Phase::Over);
    assert_eq!(state.scores(), vec![11, -5, -6]);
    let outcome = Ganjifa::outcome(&state).unwrap();
    assert_eq!(outcome.winners, vec![S0]);
    assert_eq!(Ganjifa::to_act(&state), None);
    refused(&mut state, S0, Action::GiveUpLead, "deal-over");
}

#[test]
fn actions_and_views_serialize_in_a_stable_shape() {
    let action = Action::Talafa {
        suit: GSuit::Taj,
        card: card("4CH"),
    };
    let json = serde_json::to_string(&action).unwrap();
    assert_eq!(json, r#"{"type":"talafa","suit":"taj","card":"4CH"}"#);
    assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), action);
    let put_down: Action = serde_json::from_str(r#"{"type":"put-down","card":"10TA"}"#).unwrap();
    assert_eq!(put_down, Action::PutDown { card: card("10TA") });
    assert!(serde_json::from_str::<Action>(r#"{"type":"put-down","card":"11TA"}"#).is_err());
    let state = at_lead("MTA WTA 5CH 9SA", "10TA 3CH 4CH 8SA", "9TA 6CH 7CH 7SA");
    let json = serde_json::to_value(view(&state, Some(S0))).unwrap();
    assert_eq!(json["stage"], "lead");
    assert_eq!(json["time"], "day");
    assert_eq!(json["lead_hints"][0]["rung"], "run");
    assert_eq!(json["tracker"].as_array().unwrap().len(), 8);
}

#[test]
fn a_match_of_three_or_six_deals_gives_every_seat_the_deal_and_alternates_day_and_night() {
    use crate::matches::{Match, MatchLength};
    for (deals, first) in [(3, S1), (6, S2)] {
        let mut m = Match::starting_with(MatchLength::Deals(deals), 3, first);
        let mut dealers = Vec::new();
        let mut times = Vec::new();
        while m.winners().is_none() {
            let setup = m.next_deal();
            let state = deal(&setup, &mut deal_rng(u64::from(setup.index)));
            dealers.push(state.dealer);
            times.push(state.time);
            // Play the deal out with the first legal action each time.
            let mut state = state;
            while let Some(seat) = state.to_act() {
                let action = state.legal_actions(seat)[0];
                state.apply(seat, &action).unwrap();
            }
            m.record(&Ganjifa::outcome(&state).unwrap());
        }
        assert_eq!(dealers.len(), deals as usize);
        assert_eq!(&dealers[..3], &[first, first.next(3), first.after(2, 3)]);
        for (i, time) in times.iter().enumerate() {
            assert_eq!(*time, if i % 2 == 0 { Time::Day } else { Time::Night });
        }
        assert_eq!(m.totals.iter().sum::<i64>(), 0);
        let best = *m.totals.iter().max().unwrap();
        let winners = m.winners().unwrap();
        assert!(winners.iter().all(|s| m.totals[s.index()] == best));
    }
}
