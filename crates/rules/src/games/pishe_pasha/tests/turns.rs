//! The worked turn of seed 002 and RULINGS Pishe Pasha 1 to 5: ranks, who starts, the steps of a
//! turn, turning the pile over, winning and scoring.

use super::*;

#[test]
fn the_worked_turn_of_seed_002() {
    // Clubs at the 3, hearts at the 6, spades unstarted. Your pile: the 6 of spades over the 7 of
    // hearts (over a 9 of clubs); theirs: the 7 of diamonds. Your stock: the 4 of clubs, then a king.
    let mut state = laid_out([3, 0, 6, 0], ["4C KD", ""], ["9C 7H 6S", "7D"]);
    let (yours, theirs) = (held(&state, YOU), held(&state, THEM));
    assert_eq!(state.legal_actions(YOU), vec![Action::Give, Action::Turn]);
    assert_eq!(View::of(&state, Some(YOU)).choices.give, Some(card("6S")));

    // Press 1: give the 6 to their 7. The 7 of hearts is uncovered and goes home without asking.
    act(&mut state, YOU, Action::Give);
    assert_eq!(state.pile(THEM).top(), Some(card("6S")));
    assert_eq!(height(&state, Suit::Hearts), 7);
    assert_eq!(state.pile(YOU).top(), Some(card("9C")));
    let view = View::of(&state, Some(YOU));
    assert_eq!(state.legal_actions(YOU), vec![Action::Turn]);
    assert_eq!(
        view.choices.cannot_give.unwrap().to_string(),
        "the 9 is not one rank above or below their 6"
    );

    // Press 2: turn the 4 of clubs, which goes home; the turn goes on.
    act(&mut state, YOU, Action::Turn);
    assert_eq!(height(&state, Suit::Clubs), 4);
    assert_eq!(state.to_act(), Some(YOU));

    // Press 3: turn the king, which fits nowhere: onto your pile, and the turn is over.
    act(&mut state, YOU, Action::Turn);
    assert_eq!(state.pile(YOU).top(), Some(card("KD")));
    assert_eq!(state.to_act(), Some(THEM));
    assert_eq!(
        state.last_turn().steps().collect::<Vec<_>>(),
        &[
            Step::Give {
                card: card("6S"),
                from: Source::Pile
            },
            Step::Home {
                card: card("7H"),
                from: Source::Pile
            },
            Step::Home {
                card: card("4C"),
                from: Source::Stock
            },
            Step::Discard { card: card("KD") },
        ]
    );
    assert_eq!(state.last_turn().seat(), YOU);
    // Three cards lighter, and they are one heavier.
    assert_eq!(held(&state, YOU), yours - 3);
    assert_eq!(held(&state, THEM), theirs + 1);
    // They see the same turn, forced steps marked.
    let json = serde_json::to_value(View::of(&state, Some(THEM))).unwrap();
    let steps = json["last_turn"]["steps"].as_array().unwrap();
    let forced: Vec<bool> = steps
        .iter()
        .map(|s| s["forced"].as_bool().unwrap())
        .collect();
    assert_eq!(forced, vec![false, true, true, true]);
}

#[test]
fn ruling_1_ranks_do_not_wrap_and_an_ace_always_goes_home() {
    // A king on their ace is not a give, and the hint says why.
    let mut state = laid_out([0, 0, 0, 0], ["9D", ""], ["KS", "AH"]);
    assert_eq!(refused(&mut state, YOU, Action::Give), "cannot-give");
    assert_eq!(
        state.apply(YOU, Action::Give).unwrap_err().message,
        "You cannot give now: the king is not one rank above or below their ace \
         (ranks do not wrap round from king to ace)."
    );
    let why = state.giveable().unwrap_err();
    assert_eq!(
        why,
        CannotGive::NotOneApart {
            yours: card("KS"),
            theirs: card("AH")
        }
    );
    assert!(why.to_string().contains("do not wrap"));
    // A queen on their king is.
    let state = laid_out([0, 0, 0, 0], ["9D", ""], ["QS", "KH"]);
    assert_eq!(state.giveable(), Ok(card("QS")));
    // An ace on top of your pile goes home before you can do anything; a turned ace goes home even
    // though it is one below their 2.
    let mut state = laid_out([0, 0, 0, 0], ["AD", ""], ["5S AC", "2H"]);
    assert_eq!(state.suit_piles().top(Suit::Clubs), Some(card("AC")));
    assert_eq!(
        state.this_turn().steps().collect::<Vec<_>>(),
        &[Step::Home {
            card: card("AC"),
            from: Source::Pile
        }]
    );
    act(&mut state, YOU, Action::Turn);
    assert_eq!(state.suit_piles().top(Suit::Diamonds), Some(card("AD")));
    assert_eq!(state.pile(THEM).top(), Some(card("2H")));
}

#[test]
fn ruling_2_the_seat_that_did_not_deal_plays_first_and_the_deal_passes_on() {
    let mut m = Match::starting_with(MatchChoice::FirstTo50.into(), 2, THEM);
    let mut dealers = vec![];
    for seed in 0..4 {
        let setup = m.next_deal();
        let state = PishePasha::deal(&setup, &mut deal_rng(seed));
        assert_eq!(state.to_act(), Some(state.dealer().next(2)));
        assert_eq!(state.stock(YOU).len(), 26);
        assert_eq!(state.stock(THEM).len(), 26);
        dealers.push(state.dealer());
        m.record(&crate::game::DealOutcome {
            points: vec![0, 0],
            winners: vec![],
        });
    }
    assert_eq!(dealers, vec![THEM, YOU, THEM, YOU]);
    // The first dealer of a match is drawn at random.
    let mut rng = deal_rng(11);
    let firsts: std::collections::HashSet<Seat> = (0..40)
        .map(|_| Match::new(MatchChoice::OneDeal.into(), 2, &mut rng).next_deal())
        .map(|setup| PishePasha::deal(&setup, &mut deal_rng(0)).dealer())
        .collect();
    assert_eq!(firsts.len(), 2, "both seats deal first in some match");
}

#[test]
fn ruling_3_the_first_turn_turns_until_a_card_fits_nowhere() {
    // With no piles at all, the first seat can only turn; aces and cards that fit go home and the
    // turn goes on, and the first card that fits nowhere starts its pile and ends the turn.
    let mut state = laid_out([0, 0, 0, 0], ["AS 2S 9H", ""], ["", ""]);
    assert_eq!(state.legal_actions(YOU), vec![Action::Turn]);
    assert_eq!(
        View::of(&state, Some(YOU)).choices.cannot_give,
        Some(CannotGive::YourPileEmpty)
    );
    act(&mut state, YOU, Action::Turn);
    act(&mut state, YOU, Action::Turn);
    assert_eq!(
        (state.to_act(), height(&state, Suit::Spades)),
        (Some(YOU), 2)
    );
    act(&mut state, YOU, Action::Turn);
    assert_eq!(state.to_act(), Some(THEM));
    assert_eq!(state.pile(YOU).as_slice(), &[card("9H")]);
}

#[test]
fn ruling_3_a_turned_card_home_first_then_give_or_keep_then_nowhere() {
    // The 2 of spades fits the spades pile and their 3: it must go home.
    let mut state = laid_out([0, 0, 0, 1], ["2S 4D 4H 8C", ""], ["KC", "3C"]);
    act(&mut state, YOU, Action::Turn);
    assert_eq!(height(&state, Suit::Spades), 2);
    // The 4 of diamonds fits only their 3: give it or keep it, nothing else.
    act(&mut state, YOU, Action::Turn);
    assert_eq!(state.phase(), Phase::Turned { card: card("4D") });
    assert_eq!(state.legal_actions(YOU), vec![Action::Give, Action::Keep]);
    assert_eq!(
        refused(&mut state, YOU, Action::Turn),
        "turned-card-waiting"
    );
    act(&mut state, YOU, Action::Give);
    assert_eq!(state.pile(THEM).top(), Some(card("4D")));
    assert_eq!(state.to_act(), Some(YOU));
    // The 4 of hearts is not one from their 4: onto your pile, and the turn ends.
    act(&mut state, YOU, Action::Turn);
    assert_eq!(state.to_act(), Some(THEM));
    assert_eq!(state.pile(YOU).top(), Some(card("4H")));

    // Keeping a card that fits theirs puts it on your pile and ends the turn.
    let mut state = laid_out([0, 0, 0, 0], ["4D", ""], ["KC", "3C"]);
    assert_eq!(refused(&mut state, YOU, Action::Keep), "nothing-to-keep");
    act(&mut state, YOU, Action::Turn);
    act(&mut state, YOU, Action::Keep);
    assert_eq!(state.pile(YOU).top(), Some(card("4D")));
    assert_eq!(state.to_act(), Some(THEM));
    assert_eq!(
        state.last_turn().steps().collect::<Vec<_>>(),
        &[Step::Keep { card: card("4D") }]
    );
}

#[test]
fn ruling_3_a_give_uncovers_a_card_that_goes_home_or_can_be_given_in_turn() {
    // Your 7 on their 8, then your 8 on that 7; under it the 3 of clubs goes home by itself.
    let mut state = laid_out([2, 0, 0, 0], ["KD", ""], ["JH 3C 8D 7S", "8C"]);
    act(&mut state, YOU, Action::Give);
    assert_eq!(state.giveable(), Ok(card("8D")));
    act(&mut state, YOU, Action::Give);
    assert_eq!(state.pile(THEM).as_slice(), &cards("8C 7S 8D"));
    assert_eq!(height(&state, Suit::Clubs), 3);
    assert_eq!(state.pile(YOU).top(), Some(card("JH")));
    assert_eq!(state.legal_actions(YOU), vec![Action::Turn]);
    // Their pile's top fits the clubs pile, but it is theirs: it goes home as the first step of their
    // turn, not during yours.
    let mut state = laid_out([3, 0, 0, 0], ["KD", ""], ["QS", "9H 4C"]);
    act(&mut state, YOU, Action::Turn);
    assert_eq!(state.to_act(), Some(THEM));
    assert_eq!(height(&state, Suit::Clubs), 4);
    assert_eq!(
        state.this_turn().steps().collect::<Vec<_>>(),
        &[Step::Home {
            card: card("4C"),
            from: Source::Pile
        }]
    );
}

#[test]
fn ruling_4_an_empty_stock_turns_the_pile_over_unshuffled_oldest_on_top() {
    let mut state = laid_out([0, 0, 0, 0], ["", "2C"], ["5C 9D KS", "7H"]);
    let theirs = held(&state, THEM);
    assert_eq!(state.stock(YOU).len(), 0);
    act(&mut state, YOU, Action::Turn);
    // The 5 of clubs was at the bottom: it is turned first and lands back on the pile.
    assert_eq!(
        state.last_turn().steps().collect::<Vec<_>>(),
        &[
            Step::TurnOver { cards: 3 },
            Step::Discard { card: card("5C") }
        ]
    );
    assert_eq!(
        state.stock(YOU).as_slice(),
        &cards("KS 9D"),
        "bottom first: the 9 is on top"
    );
    assert_eq!(state.pile(YOU).as_slice(), &cards("5C"));
    assert_eq!(held(&state, THEM), theirs);
}

#[test]
fn ruling_5_a_seat_wins_the_moment_it_holds_nothing_even_mid_turn() {
    // Your last card is the top of your pile and fits their 9: give it and the deal is won at once.
    let mut state = laid_out([0, 0, 0, 0], ["", "2C 3C"], ["8H", "JD 9S"]);
    act(&mut state, YOU, Action::Give);
    assert_eq!(state.to_act(), None);
    // They now hold every card, the one just given included.
    let points = 52;
    assert_eq!(
        state.phase(),
        Phase::Won {
            winner: YOU,
            points
        }
    );
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.winners, vec![YOU]);
    assert_eq!(outcome.points, vec![held(&state, THEM) as i32, 0]);
    assert_eq!(refused(&mut state, YOU, Action::Turn), "deal-over");
    assert_eq!(refused(&mut state, THEM, Action::Turn), "deal-over");
    assert!(state.legal_actions(YOU).is_empty() && state.legal_actions(THEM).is_empty());

    // Your last stock card goes home with your pile empty: won in the middle of the turn.
    let mut state = laid_out([0, 0, 6, 0], ["7H", ""], ["", "QS"]);
    act(&mut state, YOU, Action::Turn);
    let view = View::of(&state, Some(THEM));
    assert_eq!(
        view.result,
        Some(DealResult {
            winner: YOU,
            points: 45
        })
    );
    assert_eq!(view.to_act, None);
    assert_eq!(state.outcome().unwrap().points, vec![45, 0]);
}

#[test]
fn a_layout_must_hold_every_card_once() {
    let mut layout = Layout {
        dealer: 1,
        to_act: 0,
        ..Layout::default()
    };
    assert!(State::laid_out(&layout)
        .unwrap_err()
        .starts_with("missing cards"));
    layout.stocks[0] = CardSet::DECK.iter().collect();
    assert!(State::laid_out(&layout).is_ok());
    layout.piles[1] = cards("QS");
    assert_eq!(State::laid_out(&layout).unwrap_err(), "QS is listed twice");
    layout.piles[1].clear();
    layout.to_act = 2;
    assert!(State::laid_out(&layout).is_err());
}
