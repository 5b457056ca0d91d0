//! The worked examples of the rule texts (seed 000, and the Persian text, seed 003), played through.

use super::*;

/// Seed 000: diamonds are trump. A attacks with the 6 of spades, the 6 of hearts and the queen of
/// clubs; B beats the spade six with the 9 of spades, the heart six with the 3 of diamonds, keeps its
/// king of diamonds and picks the queen up. Four cards go aside, A draws three, B one, A attacks again.
#[test]
fn the_battle_with_diamonds_trump() {
    let mut state = table("6S 6H QC 2C 7C", "9S 3D KD 4C 10H", "8D", "JH 5S 4H AC", 10);
    play(&mut state, A, attack("6S 6H QC"));
    play(&mut state, B, beat("6S", "9S"));
    play(&mut state, B, beat("6H", "3D"));
    // The king of diamonds would beat the queen, and B may keep it anyway.
    assert!(legal_actions(&state, B).contains(&beat("QC", "KD")));
    play(&mut state, B, Action::PickUp);

    let last = state
        .last_battle
        .expect("the battle is shown until the next attack");
    assert_eq!(last.picked_up, cards("QC"));
    assert_eq!(
        state.set_aside.intersection(cards("6S 9S 6H 3D")),
        cards("6S 9S 6H 3D")
    );
    // A, with two cards left, drew three first; B, with four, drew one.
    assert_eq!(state.hands[A], cards("2C 7C JH 5S 4H"));
    assert_eq!(state.hands[B], cards("KD 4C 10H QC AC"));
    assert_eq!(
        state.attacker, A,
        "one card went unbeaten, so A attacks again"
    );
    assert_eq!(state.phase, Phase::Attack);
}

/// Seed 003, first example: diamonds are trump. A attacks with the 5 of diamonds, the 5 of clubs and the
/// king of clubs; B beats the 5 of clubs with the 7 of clubs and takes the other two. A draws three; B,
/// holding more than five, draws none. A attacks again with the 9 of hearts, the 9 of clubs and the 3 of
/// spades; B beats them with the 4 of spades, the king of clubs and the 5 of diamonds, and all six go
/// aside. A draws three, B draws up to five, and B attacks with the 6 of spades, which A, holding no
/// spade and keeping its diamonds, picks up. B draws one and attacks again.
///
/// The text counts seven cards in B's hand after the first battle and four after the second; by the
/// rules B holds six and then three (five, less the 7 of clubs, plus the two picked up). Either way B
/// draws nothing after the first battle, and every play of the example goes as the text says.
#[test]
fn the_two_battles_of_the_persian_text() {
    let mut state = table(
        "5D 5C KC 9H 9C",
        "7C 4S 6S 2C 3H",
        "10D",
        "3S 2H 8D  7H JD 10C  QH 8C  AH",
        10,
    );
    play(&mut state, A, attack("5D 5C KC"));
    play(&mut state, B, beat("5C", "7C"));
    play(&mut state, B, Action::PickUp);
    assert_eq!(state.hands[A], cards("9H 9C 3S 2H 8D"));
    assert_eq!(state.hands[B].len(), 6);
    assert!(state.hands[B].includes(cards("5D KC")));
    assert!(state.set_aside.includes(cards("5C 7C")));
    assert_eq!(state.attacker, A);

    play(&mut state, A, attack("9H 9C 3S"));
    play(&mut state, B, beat("3S", "4S"));
    play(&mut state, B, beat("9C", "KC"));
    play(&mut state, B, beat("9H", "5D"));
    assert!(state.set_aside.includes(cards("9H 9C 3S 4S KC 5D")));
    assert_eq!(state.hands[A], cards("2H 8D 7H JD 10C"));
    assert_eq!(state.hands[B], cards("6S 2C 3H QH 8C"));
    assert_eq!(state.attacker, B, "B beat everything, so B attacks next");

    play(&mut state, B, attack("6S"));
    // A could beat the spade with a trump, and is not made to.
    assert!(legal_actions(&state, A).contains(&beat("6S", "8D")));
    play(&mut state, A, Action::PickUp);
    assert_eq!(state.hands[A].len(), 6, "A holds six and draws nothing");
    assert_eq!(state.hands[B], cards("2C 3H QH 8C AH"), "B drew one");
    assert_eq!(state.attacker, B, "B attacks again");
}

/// Seed 003, first end-of-play example: five cards each and four to draw, the trump card among them. A
/// attacks with three and B beats them all; A draws the last three face-down cards and B the trump card.
/// B then attacks with its three cards, a pair among them, and wins whatever A does.
#[test]
fn the_first_end_of_play_example() {
    for a_beats_what_it_can in [true, false] {
        let mut state = table("2S 2H 3C 9D 10D", "5S 5H 7C QC QH", "QD", "4C 6C 8C", 0);
        assert_eq!(state.pile.len(), 3);
        play(&mut state, A, attack("2S 2H 3C"));
        play(&mut state, B, beat("2S", "5S"));
        play(&mut state, B, beat("2H", "5H"));
        play(&mut state, B, beat("3C", "7C"));
        assert_eq!(state.hands[A], cards("9D 10D 4C 6C 8C"));
        assert_eq!(state.hands[B], cards("QC QH QD"));
        assert_eq!(state.trump_drawn_by, Some(B));
        assert!(!state.stock_left());
        assert_eq!((state.attacker, state.phase), (B, Phase::Attack));

        play(&mut state, B, attack("QC QH QD"));
        if a_beats_what_it_can {
            play(&mut state, A, beat("QC", "9D"));
            play(&mut state, A, beat("QH", "10D"));
            // Nothing of A's beats the queen of trumps.
            assert_eq!(legal_actions(&state, A), vec![Action::PickUp]);
        }
        play(&mut state, A, Action::PickUp);
        assert_eq!(state.phase, Phase::Over { winner: Some(B) });
        assert_eq!(outcome(&state).unwrap().winners, vec![B]);
        assert_eq!(outcome(&state).unwrap().points, vec![0, 1]);
    }
}

/// Seed 003, second end-of-play example: A attacks with five and B beats four, taking the fifth. A draws
/// the last four cards, the trump card among them; B draws nothing and holds two. A may now lay only one
/// card; B beats it, then attacks with its other card and wins.
#[test]
fn the_second_end_of_play_example() {
    let mut state = table("3S 3H 4C 4D 6H", "5S 5H 7C 5D 9S", "KC", "8S 8H 2S", 0);
    play(&mut state, A, attack("3S 3H 4C 4D 6H"));
    play(&mut state, B, beat("3S", "5S"));
    play(&mut state, B, beat("3H", "5H"));
    play(&mut state, B, beat("4C", "7C"));
    play(&mut state, B, beat("4D", "5D"));
    play(&mut state, B, Action::PickUp);
    assert_eq!(state.hands[A], cards("8S 8H 2S KC"));
    assert_eq!(state.trump_drawn_by, Some(A));
    assert_eq!(state.hands[B], cards("9S 6H"));
    assert_eq!(state.attacker, A);

    // Only one card may be laid against a hand of two.
    assert_eq!(
        refused(&mut state, A, attack("8S 8H 2S")),
        "attack-over-cap"
    );
    assert!(legal_actions(&state, A)
        .iter()
        .all(|a| matches!(a, Action::Attack { cards } if cards.len() == 1)));
    play(&mut state, A, attack("8S"));
    play(&mut state, B, beat("8S", "9S"));
    assert_eq!((state.attacker, state.phase), (B, Phase::Attack));
    play(&mut state, B, attack("6H"));
    play(&mut state, A, Action::PickUp);
    assert_eq!(state.phase, Phase::Over { winner: Some(B) });
}
