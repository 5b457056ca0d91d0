//! Seed 004's worked examples and every Ganjifa ruling, as scripted deals built from given hands.

use crate::cards::Seat;
use crate::games::ganjifa::ladder::{hukm, Rung};
use crate::games::ganjifa::lead::{ladder, lead_actions};
use crate::games::ganjifa::pack::{parse_set, GCard, GSet, GSuit};
use crate::games::ganjifa::rules::{Action, PerSeat, Phase, State, Time, TrickKind};
use crate::games::ganjifa::view::{view, Stage};

pub(super) fn set(codes: &str) -> GSet {
    parse_set(codes).expect("test card codes are valid")
}

pub(super) fn card(code: &str) -> GCard {
    code.parse().expect("test card codes are valid")
}

/// The hukm of `suit` now: its best unplayed card, the burnt ones counted lowest.
pub(super) fn top_of(state: &State, suit: GSuit) -> Option<GCard> {
    hukm(state.unplayed(), state.burnt, suit)
}

pub(super) const S0: Seat = Seat::new(0);
pub(super) const S1: Seat = Seat::new(1);
pub(super) const S2: Seat = Seat::new(2);

/// Seat 0 to lead with these three hands; every other card has been played.
pub(super) fn at_lead(a: &str, b: &str, c: &str) -> State {
    State::at_lead(
        S0,
        Time::Day,
        PerSeat::from_fn(|s| set([a, b, c][s.index()])),
    )
}

pub(super) fn put(state: &mut State, seat: Seat, code: &str) {
    state
        .apply(seat, &Action::PutDown { card: card(code) })
        .expect("the put-down is allowed");
}

/// Applies an action that must be refused, and checks that nothing changed.
pub(super) fn refused(state: &mut State, seat: Seat, action: Action, code: &str) {
    let before = state.clone();
    let error = state
        .apply(seat, &action)
        .expect_err("the action is refused");
    assert_eq!(error.code.as_str(), code, "{}", error.message);
    assert_eq!(*state, before);
}

pub(super) fn trick(state: &State) -> crate::games::ganjifa::rules::Trick {
    match state.phase {
        Phase::Trick(trick) => trick,
        other => panic!("no trick in progress: {other:?}"),
    }
}

pub(super) fn hint_sentences(state: &State, seat: Seat) -> Vec<(bool, String)> {
    let json = serde_json::to_value(view(state, Some(seat))).unwrap();
    json["lead_hints"]
        .as_array()
        .expect("the leader sees hints")
        .iter()
        .map(|h| {
            (
                h["allowed"].as_bool().unwrap(),
                h["why"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Each rung's reason as the view sends it beside its sentence: the values a board words.
pub(super) fn hint_reasons(state: &State, seat: Seat) -> Vec<serde_json::Value> {
    let json = serde_json::to_value(view(state, Some(seat))).unwrap();
    json["lead_hints"]
        .as_array()
        .expect("the leader sees hints")
        .iter()
        .map(|h| h["reason"].clone())
        .collect()
}

#[test]
fn mir_and_wazir_of_taj_with_the_ten_elsewhere_lead_the_mir_and_keep_the_wazir() {
    let mut state = at_lead("MTA WTA 5CH 9SA", "10TA 3CH 4CH 8SA", "9TA 6CH 7CH 7SA");
    assert_eq!(
        lead_actions(&state, S0),
        vec![Action::Run { suit: GSuit::Taj }]
    );
    let hints = hint_sentences(&state, S0);
    assert!(hints[0].0);
    assert!(
        hints[0].1.contains("the Mir and the Wazir of Taj")
            && hints[0].1.contains("you must lead that run"),
        "{}",
        hints[0].1
    );
    assert!(!hints[1].0 && !hints[2].0 && !hints[3].0);
    // The same reasons as values, for a board that words them in Persian.
    assert_eq!(
        hint_reasons(&state, S0)[..2],
        [
            serde_json::json!({ "say": "run-held", "lead": ["MTA"], "keep": "WTA" }),
            serde_json::json!({ "say": "run-first" }),
        ]
    );
    refused(
        &mut state,
        S0,
        Action::Utari {
            cards: set("MTA 9SA"),
        },
        "run-first",
    );
    refused(&mut state, S0, Action::GiveUpLead, "run-first");
    state.apply(S0, &Action::Run { suit: GSuit::Taj }).unwrap();
    let t = trick(&state);
    assert_eq!(t.cards[S0], set("MTA"));
    assert!(state.hands[S0].contains(card("WTA")));
    assert_eq!((t.need[S1], t.need[S2]), (1, 1));
    assert_eq!(state.to_act(), Some(S1));
    put(&mut state, S1, "3CH");
    put(&mut state, S2, "7SA");
    // The leader takes all three and leads again, with no mark.
    assert_eq!(state.phase, Phase::Lead { leader: S0 });
    assert_eq!(state.marks, PerSeat::default());
    assert_eq!(top_of(&state, GSuit::Taj), Some(card("WTA")));
}

#[test]
fn holding_the_ten_too_leads_mir_and_wazir_and_keeps_the_ten() {
    let mut state = at_lead("MTA WTA 10TA 9SA", "9TA 3CH 4CH 8SA", "8TA 6CH 7CH 7SA");
    assert_eq!(
        lead_actions(&state, S0),
        vec![Action::Run { suit: GSuit::Taj }]
    );
    state.apply(S0, &Action::Run { suit: GSuit::Taj }).unwrap();
    let t = trick(&state);
    assert_eq!(t.cards[S0], set("MTA WTA"));
    assert_eq!(state.hands[S0], set("10TA 9SA"));
    assert_eq!((t.need[S1], t.need[S2]), (2, 2));
    // Each follower puts its two cards down one at a time, any cards at all.
    assert_eq!(state.legal_actions(S1).len(), 4);
    put(&mut state, S1, "9TA");
    put(&mut state, S1, "8SA");
    put(&mut state, S2, "6CH");
    put(&mut state, S2, "7CH");
    assert_eq!(state.won[S0] as usize, 6 + (96 - 12) / 3);
    assert_eq!(state.phase, Phase::Lead { leader: S0 });
}

#[test]
fn a_run_above_a_burnt_wazir_keeps_its_lowest_number_not_the_wazir() {
    // The Mir of Taj is played and its Wazir burnt: the 10 and the 9 are the top two.
    let mut state = at_lead("WTA 10TA 9TA 2SA", "8TA 3SA 4SA 5SA", "7TA 6SA 7SA 8SA");
    state.burnt = set("WTA");
    assert_eq!(
        lead_actions(&state, S0),
        vec![Action::Run { suit: GSuit::Taj }]
    );
    assert_eq!(ladder(&state, S0).runs[GSuit::Taj.index()], set("10TA"));
    let hints = hint_sentences(&state, S0);
    assert!(hints[0].1.ends_with("keep the 9 of Taj"), "{}", hints[0].1);
}

#[test]
fn deni_with_the_wazir_and_five_of_chang_against_the_mir_elsewhere() {
    let mut state = at_lead("WCH 5CH 9SA 2TA", "MCH 3CH 8SA 3TA", "4CH 6CH 7SA 4TA");
    let l = ladder(&state, S0);
    assert_eq!(l.rung(), Rung::Deni);
    assert_eq!(
        lead_actions(&state, S0),
        vec![Action::Deni { card: card("5CH") }]
    );
    let hints = hint_sentences(&state, S0);
    assert!(
        hints[1].0 && hints[1].1.starts_with("in Chang you hold the Wazir"),
        "{:?}",
        hints[1]
    );
    assert_eq!(
        hint_reasons(&state, S0)[1],
        serde_json::json!({ "say": "deni-must", "suits": ["chang"] })
    );
    assert!(!hints[2].0 && !hints[3].0);
    refused(
        &mut state,
        S0,
        Action::Deni { card: card("WCH") },
        "deni-low-card",
    );
    refused(
        &mut state,
        S0,
        Action::Utari { cards: set("9SA") },
        "deni-first",
    );
    refused(
        &mut state,
        S1,
        Action::Deni { card: card("5CH") },
        "not-your-turn",
    );
    state
        .apply(S0, &Action::Deni { card: card("5CH") })
        .unwrap();
    // The table plays the Mir for its holder; the third seat owes one card.
    let t = trick(&state);
    assert_eq!(t.kind, TrickKind::Deni { suit: GSuit::Chang });
    assert_eq!(t.cards[S1], set("MCH"));
    assert_eq!(t.winner, S1);
    assert_eq!(state.to_act(), Some(S2));
    assert_eq!(view(&state, Some(S2)).to_put_down, 1);
    put(&mut state, S2, "7SA");
    assert_eq!(state.phase, Phase::Lead { leader: S1 });
    assert_eq!(state.marks[S0], 1);
    // The Mir is gone: the Wazir is now the top Chang.
    assert_eq!(top_of(&state, GSuit::Chang), Some(card("WCH")));
}

#[test]
fn a_lone_wazir_may_be_given_as_the_call_or_kept_to_burn() {
    let state = at_lead("WCH 9SA 2TA", "MCH 3CH 3TA", "4CH 8SA 4TA");
    assert_eq!(
        lead_actions(&state, S0),
        vec![
            Action::Deni { card: card("WCH") },
            Action::Burn { suit: GSuit::Chang }
        ]
    );
    let hints = hint_sentences(&state, S0);
    assert!(hints[1].1.contains("burns"), "{}", hints[1].1);

    // Given: the Mir's holder takes it.
    let mut given = state.clone();
    given
        .apply(S0, &Action::Deni { card: card("WCH") })
        .unwrap();
    assert_eq!(trick(&given).cards[S1], set("MCH"));
    put(&mut given, S2, "4CH");
    assert_eq!(given.phase, Phase::Lead { leader: S1 });

    // Kept: it burns, ranks lowest, and the ladder is weighed again for the same leader.
    let mut kept = state;
    kept.apply(S0, &Action::Burn { suit: GSuit::Chang })
        .unwrap();
    assert!(kept.burnt.contains(card("WCH")));
    assert_eq!(kept.phase, Phase::Lead { leader: S0 });
    assert_eq!(ladder(&kept, S0).rung(), Rung::Choice);
    assert_eq!(
        lead_actions(&kept, S0),
        vec![Action::Utari { cards: set("9SA") }]
    );
    refused(
        &mut kept,
        S0,
        Action::Burn { suit: GSuit::Chang },
        "no-burn",
    );
    let order: Vec<GCard> =
        crate::games::ganjifa::ladder::order(kept.unplayed(), kept.burnt, GSuit::Chang).collect();
    assert_eq!(
        order,
        vec![card("MCH"), card("3CH"), card("4CH"), card("WCH")]
    );
    // The burnt card shows in every seat's view.
    assert!(view(&kept, Some(S2)).burnt.contains(card("WCH")));
}

#[test]
fn once_the_mir_and_wazir_of_taj_are_out_the_ten_is_hukm_and_may_go_in_an_utari() {
    let state = at_lead("10TA 2SA", "9TA 3SA", "8TA 4SA");
    assert_eq!(top_of(&state, GSuit::Taj), Some(card("10TA")));
    // 10 and 9 of Taj would be a run; here the 9 is elsewhere, so the 10 is a lone hukm.
    assert_eq!(
        lead_actions(&state, S0),
        vec![Action::Utari { cards: set("10TA") }]
    );
}

#[test]
fn in_a_one_high_suit_the_one_is_the_third_best_card() {
    // With the Wazir of Chang played, its Mir and 1 are the top two: a run.
    let state = at_lead("MCH 1CH 9CH", "2CH 3CH 4CH", "5CH 6CH 7CH");
    assert_eq!(
        lead_actions(&state, S0),
        vec![Action::Run { suit: GSuit::Chang }]
    );
    assert_eq!(ladder(&state, S0).runs[GSuit::Chang.index()], set("MCH"));
    // In Taj the same numbers run the other way: the 10 is third.
    let state = at_lead("MTA 10TA 2TA", "1TA 3TA 4TA", "5TA 6TA 7TA");
    assert_eq!(ladder(&state, S0).runs[GSuit::Taj.index()], set("MTA"));
}

#[test]
fn a_talafa_calls_the_best_card_out_with_a_lower_one() {
    // The Mir of Taj is played; seat 1 holds the Wazir, seat 0 the 10 and the 5.
    let mut state = at_lead("10TA 5TA 9SA", "WTA 3CH 8SA", "4TA 6CH 7SA");
    let actions = lead_actions(&state, S0);
    assert_eq!(
        actions,
        vec![
            Action::Talafa {
                suit: GSuit::Taj,
                card: card("5TA")
            },
            Action::Utari { cards: set("9SA") }
        ]
    );
    refused(
        &mut state,
        S0,
        Action::Talafa {
            suit: GSuit::Taj,
            card: card("10TA"),
        },
        "talafa-card",
    );
    refused(
        &mut state,
        S0,
        Action::Talafa {
            suit: GSuit::Taj,
            card: card("9SA"),
        },
        "talafa-card",
    );
    refused(&mut state, S0, Action::GiveUpLead, "hold-hukm");
    state
        .apply(
            S0,
            &Action::Talafa {
                suit: GSuit::Taj,
                card: card("5TA"),
            },
        )
        .unwrap();
    let t = trick(&state);
    assert_eq!(t.cards[S1], set("WTA"));
    assert_eq!(t.winner, S1);
    put(&mut state, S2, "6CH");
    assert_eq!(state.phase, Phase::Lead { leader: S1 });
    assert_eq!(state.marks[S0], 1);
    assert_eq!(top_of(&state, GSuit::Taj), Some(card("10TA")));
}

#[test]
fn the_blind_lead_shuffles_the_hand_face_down_and_the_next_seat_picks() {
    // Seat 0 holds no hukm and has no talafa: it must give up the lead.
    let mut state = at_lead("3TA 5CH 6SA", "MTA 1CH 9SA", "WTA 2CH 8SA");
    assert_eq!(lead_actions(&state, S0), vec![Action::GiveUpLead]);
    let hints = hint_sentences(&state, S0);
    assert!(
        hints[3].0 && hints[3].1.contains("must give up the lead"),
        "{:?}",
        hints[3]
    );
    let replay = state.clone();
    state.apply(S0, &Action::GiveUpLead).unwrap();
    let Phase::BlindPick { leader, backs } = state.phase else {
        panic!("no blind pick")
    };
    assert_eq!(leader, S0);
    assert_eq!(backs.len, 3);
    let shuffled: GSet = backs.cards.iter().flatten().copied().collect();
    assert_eq!(shuffled, set("3TA 5CH 6SA"));
    // The same state shuffles the same way: replays are exact.
    let mut again = replay;
    again.apply(S0, &Action::GiveUpLead).unwrap();
    assert_eq!(again, state);
    // The picker sees three backs and nothing of the hand.
    assert_eq!(state.to_act(), Some(S1));
    let picker = view(&state, Some(S1));
    assert_eq!((picker.stage, picker.backs), (Stage::BlindPick, 3));
    let json = serde_json::to_string(&picker).unwrap();
    for code in ["3TA", "5CH", "6SA"] {
        assert!(
            !json.contains(&format!("\"{code}\"")),
            "{code} leaked: {json}"
        );
    }
    assert_eq!(
        state.legal_actions(S1),
        (0..3).map(|back| Action::Pick { back }).collect::<Vec<_>>()
    );
    refused(&mut state, S1, Action::Pick { back: 3 }, "no-such-back");
    refused(&mut state, S0, Action::Pick { back: 0 }, "not-your-turn");
    let picked = backs.cards[1].unwrap();
    state.apply(S1, &Action::Pick { back: 1 }).unwrap();
    let t = trick(&state);
    assert_eq!(
        t.kind,
        TrickKind::Blind {
            suit: picked.suit(),
            back: 1,
            nth: 0,
            laid: backs.len,
        }
    );
    assert_eq!(t.cards[S0], GSet::one(picked));
    let top = match picked.suit() {
        GSuit::Taj => card("MTA"),
        GSuit::Chang => card("1CH"),
        _ => card("9SA"),
    };
    assert_eq!(t.cards[S1], GSet::one(top));
    assert_eq!(t.winner, S1);
    assert_eq!(state.to_act(), Some(S2));
}

#[test]
fn with_no_hukm_but_a_talafa_the_blind_lead_is_a_choice() {
    let state = at_lead("10TA 5TA 6SA", "WTA 1CH 9SA", "4TA 2CH 8SA");
    assert_eq!(
        lead_actions(&state, S0),
        vec![
            Action::Talafa {
                suit: GSuit::Taj,
                card: card("5TA")
            },
            Action::GiveUpLead
        ]
    );
}
