//! Ruling 8, what each seat sees: never the pile's size nor the cards set aside, the last battle until
//! the next attack, both hands once the deal ends.

use super::*;

/// Ruling 8: never the pile's size, never set-aside cards, the last battle until the next attack, both
/// hands once the deal ends.
#[test]
fn ruling_8_what_each_seat_sees() {
    // Two deals alike but for the pile's size give the same views.
    let small = table("5C 5S 4H 9C 9S", "6C 6S 5H 2D 3D", "7D", "", 3);
    let large = table("5C 5S 4H 9C 9S", "6C 6S 5H 2D 3D", "7D", "", 30);
    for seat in [Some(A), Some(B), None] {
        assert_eq!(
            serde_json::to_string(&view(&small, seat)).unwrap(),
            serde_json::to_string(&view(&large, seat)).unwrap()
        );
    }
    let mut state = large;
    play(&mut state, A, attack("5C 5S 4H"));
    let shown = view(&state, Some(B));
    assert_eq!(shown.counts, BySeat([2, 5]));
    assert_eq!(shown.hand, cards("6C 6S 5H 2D 3D"));
    assert_views_hide_what_they_must(&state);
    play(&mut state, B, beat("5C", "6C"));
    play(&mut state, B, beat("5S", "6S"));
    play(&mut state, B, beat("4H", "5H"));
    // The finished battle stays up for both until the next attack.
    assert_eq!(
        view(&state, Some(A)).last_battle.unwrap().attack,
        cards("5C 5S 4H")
    );
    assert_views_hide_what_they_must(&state);
    let next = state.hands[B].first().unwrap();
    play(
        &mut state,
        B,
        Action::Attack {
            cards: CardSet::one(next),
        },
    );
    let shown = serde_json::to_string(&view(&state, Some(A))).unwrap();
    assert!(
        !shown.contains("\"6S\""),
        "a set-aside card is shown: {shown}"
    );
    assert_eq!(view(&state, Some(A)).last_battle, None);
    assert_views_hide_what_they_must(&state);
    assert!(view(&state, Some(A)).hands_shown.is_none());

    let mut ended = table("5C", "6C 6S", "7D", "", 0);
    ended.pile.clear();
    ended.trump_drawn_by = Some(B);
    ended.set_aside.insert(card("7D"));
    play(&mut ended, A, attack("5C"));
    play(&mut ended, B, Action::PickUp);
    assert_eq!(ended.phase, Phase::Over { winner: Some(A) });
    assert_eq!(view(&ended, Some(A)).hands_shown, Some(ended.hands));
    assert_views_hide_what_they_must(&ended);
}

/// Ruling 8: beaten cards go out of play face down once their battle is cleared from the table; a
/// seat learns that some lie there (its board draws the stack), never which nor how many.
#[test]
fn ruling_8_beaten_cards_lie_out_of_play_once_their_battle_is_cleared() {
    // Every card not held nor the trump is in the pile: nothing lies out of play yet.
    let mut state = table("5C 5S 4H 9C 9S", "6C 6S 5H 2D 3D", "7D", "", 41);
    assert!(state.set_aside.is_empty());
    assert!(!view(&state, Some(A)).out_of_play);
    play(&mut state, A, attack("5C"));
    play(&mut state, B, beat("5C", "6C"));
    // The beaten pair stays up as the last battle: not yet out of play.
    assert!(view(&state, Some(A)).last_battle.is_some());
    assert!(!view(&state, Some(A)).out_of_play);
    let next = state.hands[B].first().unwrap();
    play(
        &mut state,
        B,
        Action::Attack {
            cards: CardSet::one(next),
        },
    );
    for seat in [Some(A), Some(B), None] {
        assert!(view(&state, seat).out_of_play);
    }
}
