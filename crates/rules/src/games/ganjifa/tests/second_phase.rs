//! The second phase of a Ganjifa deal, as scripted deals: when it begins, its utari of any hukms, and
//! its talafa with a card of another suit, which lies face down.

use super::scenarios::*;
use crate::cards::{BySeat, Seat};
use crate::games::ganjifa::lead::lead_actions;
use crate::games::ganjifa::pack::GSuit;
use crate::games::ganjifa::rules::{Action, Phase, State, TrickKind};
use crate::games::ganjifa::view::view;

#[test]
fn the_second_phase_begins_once_every_seat_has_lost_the_lead() {
    let mut state = at_lead("WCH 5CH 9SA 2TA", "MCH 3CH 8SA 3TA", "4CH 6CH 7SA 4TA");
    state.marks = BySeat([0, 1, 1]);
    assert!(!state.second_phase);
    state
        .apply(S0, &Action::Deni { card: card("5CH") })
        .unwrap();
    assert!(
        !state.second_phase,
        "the phase changes once the trick is over"
    );
    put(&mut state, S2, "7SA");
    assert_eq!(state.marks, BySeat([1, 1, 1]));
    assert!(state.second_phase);
    assert!(view(&state, Some(S1)).second_phase);
}

#[test]
fn in_the_second_phase_an_utari_is_any_set_of_hukms() {
    let mut state = at_lead("MTA 9SA 1CH", "WTA 8SA 2CH", "10TA 7SA 3CH");
    assert_eq!(
        lead_actions(&state, S0),
        vec![Action::Utari {
            cards: set("MTA 9SA 1CH")
        }]
    );
    refused(
        &mut state,
        S0,
        Action::Utari { cards: set("MTA") },
        "utari-all",
    );
    assert!(hint_sentences(&state, S0)[2]
        .1
        .contains("all of them at once"));
    state.second_phase = true;
    assert!(hint_sentences(&state, S0)[2]
        .1
        .contains("as many of them as you like"));
    let utaris = lead_actions(&state, S0);
    assert_eq!(utaris.len(), 7);
    assert!(utaris.contains(&Action::Utari {
        cards: set("MTA 1CH")
    }));
    state
        .apply(S0, &Action::Utari { cards: set("9SA") })
        .unwrap();
    put(&mut state, S1, "WTA");
    put(&mut state, S2, "3CH");
    assert_eq!(state.phase, Phase::Lead { leader: S0 });
    refused(
        &mut state,
        S0,
        Action::Utari { cards: set("9SA") },
        "utari-hukms",
    );
}

#[test]
fn a_second_phase_talafa_with_another_suit_lies_face_down_and_no_other_seat_learns_it() {
    // Seat 0 holds the 10 of Taj (second-best) and no lower Taj card.
    let mut state = at_lead("10TA 4CH 6SA", "WTA 1CH 9SA", "4TA 2CH 8SA");
    refused(
        &mut state,
        S0,
        Action::Talafa {
            suit: GSuit::Taj,
            card: card("4CH"),
        },
        "no-talafa",
    );
    state.second_phase = true;
    state.face_up = set("4CH");
    assert!(lead_actions(&state, S0).contains(&Action::Talafa {
        suit: GSuit::Taj,
        card: card("4CH")
    }));
    state
        .apply(
            S0,
            &Action::Talafa {
                suit: GSuit::Taj,
                card: card("4CH"),
            },
        )
        .unwrap();
    let t = trick(&state);
    assert_eq!(
        t.kind,
        TrickKind::Talafa {
            suit: GSuit::Taj,
            face_down: true
        }
    );
    assert_eq!(t.cards[S1], set("WTA"));
    let hidden = |state: &State, seat: Seat| {
        let json = serde_json::to_string(&view(state, Some(seat))).unwrap();
        !json.contains("\"4CH\"")
    };
    assert!(!hidden(&state, S0), "its owner sees it");
    assert!(hidden(&state, S1) && hidden(&state, S2));
    assert!(serde_json::to_string(&view(&state, None))
        .unwrap()
        .find("\"4CH\"")
        .is_none());
    assert_eq!(view(&state, Some(S2)).trick.unwrap().face_down_by, Some(S0));
    put(&mut state, S2, "2CH");
    // The winner takes it without learning it; the others' trackers still count it out.
    assert_eq!(state.won[S1] as usize, 3 + (96 - 9) / 3);
    assert!(hidden(&state, S1) && hidden(&state, S2));
    for (seat, out) in [(S0, false), (S1, true), (S2, true)] {
        let v = view(&state, Some(seat));
        assert_eq!(v.tracker.out.contains(card("4CH")), out);
        assert_eq!(v.hidden_played, u8::from(out));
        let json = serde_json::to_value(&v).unwrap();
        let chang = &json["tracker"][GSuit::Chang.index()];
        assert_eq!(chang["high"], "one");
        let ranks: Vec<&str> = chang["out"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert_eq!(ranks.contains(&"4"), out, "{seat}: {ranks:?}");
    }
    // The table knows the truth: the card is played.
    assert!(state.played.contains(card("4CH")));
}
