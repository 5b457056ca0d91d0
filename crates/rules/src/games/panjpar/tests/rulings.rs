//! One or more tests for every Panjpar ruling of RULINGS.md, and the computer player's behaviours.

use super::*;
use crate::game::BotKind;
use crate::game::DEFAULT_BUDGET;

fn fresh(index: u32, seed: u64) -> State {
    deal(&DealSetup { index, first: B }, &mut deal_rng(seed))
}

/// Ruling 1: the guess comes first, passes every deal, and decides who attacks; the trump card is shown
/// only after it.
#[test]
fn ruling_1_the_guess() {
    assert_eq!(fresh(0, 1).guesser, B);
    assert_eq!(fresh(1, 1).guesser, A);
    assert_eq!(fresh(2, 1).guesser, B);

    let state = fresh(0, 9);
    assert_eq!(to_act(&state), Some(B));
    assert_eq!(state.all_cards(), CardSet::DECK);
    assert_eq!(
        (state.hands[A].len(), state.hands[B].len(), state.pile.len()),
        (5, 5, 41)
    );
    for seat in [Some(A), Some(B), None] {
        let v = view(&state, seat);
        assert_eq!(
            (v.trump, v.trump_card, v.hand),
            (None, None, CardSet::EMPTY)
        );
    }
    assert_views_hide_what_they_must(&state);
    let mut before_guess = state.clone();
    assert_eq!(
        refused(
            &mut before_guess,
            A,
            Action::Guess {
                colour: Colour::Red
            }
        ),
        "not-your-turn"
    );
    assert_eq!(refused(&mut before_guess, B, attack("2C")), "wrong-phase");

    let colour = state.trump().colour();
    let wrong = if colour == Colour::Red {
        Colour::Black
    } else {
        Colour::Red
    };
    let mut right_guess = state.clone();
    play(&mut right_guess, B, Action::Guess { colour });
    assert_eq!(
        (right_guess.attacker, right_guess.phase),
        (B, Phase::Attack)
    );
    assert!(right_guess.guess.unwrap().right);
    let mut wrong_guess = state.clone();
    play(&mut wrong_guess, B, Action::Guess { colour: wrong });
    assert_eq!(wrong_guess.attacker, A);
    let shown = view(&wrong_guess, Some(A));
    assert_eq!(shown.trump, Some(state.trump()));
    assert_eq!(shown.trump_card, Some(state.trump_card));
    assert_eq!(shown.hand, state.hands[A]);
}

/// Ruling 2: 1 card, 3 with a pair (three of a kind counts), 5 with two pairs sharing no card.
#[test]
fn ruling_2_attack_sizes() {
    let b = "2D 3D 4D 5D 6D 7D";
    let mut state = table("8S 8H 8D 2C 7C KS KH", b, "AS", "", 10);
    for bad in ["8S 2C 7C", "8S 8H", "8S 8H 8D 2C 7C", "8S 8H 8D 2C"] {
        let code = refused(&mut state, A, attack(bad));
        assert!(code.starts_with("attack-"), "{bad}: {code}");
    }
    assert_eq!(refused(&mut state, A, attack("AH")), "not-in-hand");
    for good in ["8S 8H 8D", "8S 8H 7C", "8S 8H 8D KS KH", "KS"] {
        let mut copy = state.clone();
        play(&mut copy, A, attack(good));
        assert!(legal_actions(&state, A).contains(&attack(good)));
    }
    let attacks = legal_actions(&state, A);
    assert!(!attacks.contains(&attack("8S 8H 8D 2C 7C")));
    assert!(attacks.contains(&attack("8S 8H KS KH 2C")));
}

/// Ruling 3: never more cards than the defender holds, enforced while the stock lasts too.
#[test]
fn ruling_3_the_cap() {
    let mut state = table("8S 8H 8D KS KH", "2D 3D", "AS", "", 20);
    assert!(state.stock_left());
    assert_eq!(
        refused(&mut state, A, attack("8S 8H 8D")),
        "attack-over-cap"
    );
    let mut state = table("8S 8H 8D KS KH", "2D 3D 4D", "AS", "", 20);
    assert_eq!(
        refused(&mut state, A, attack("8S 8H 8D KS KH")),
        "attack-over-cap"
    );
    play(&mut state, A, attack("8S 8H 8D"));
    let mut state = table("8S 8H 8D KS", "2D 3D 4D 5D 6D 7D", "AS", "", 0);
    assert!(legal_actions(&state, A)
        .iter()
        .all(|a| matches!(a, Action::Attack { cards } if cards.len() <= 3)));
    play(&mut state, A, attack("8S 8H 8D"));
}

/// Ruling 4: per attack card one defending card; same suit higher, or a trump on a plain card, a trump
/// only by a higher trump; never compulsory.
#[test]
fn ruling_4_beating() {
    let mut state = table("9S QD 5C", "10S 2D KD 6C AH", "7D", "", 20);
    play(&mut state, A, attack("9S"));
    assert_eq!(refused(&mut state, B, beat("9S", "AH")), "wrong-suit");
    assert_eq!(refused(&mut state, B, beat("9S", "6C")), "wrong-suit");
    assert_eq!(
        refused(&mut state, B, beat("5C", "6C")),
        "not-an-attack-card"
    );
    assert_eq!(refused(&mut state, B, beat("9S", "3D")), "not-in-hand");
    assert_eq!(refused(&mut state, A, Action::PickUp), "not-your-turn");
    let mut trumped = state.clone();
    play(&mut trumped, B, beat("9S", "2D"));
    // Beating is never compulsory: B may pick up a card it could beat.
    play(&mut state, B, Action::PickUp);
    assert!(state.hands[B].contains(card("9S")));

    let mut state = table("QD 5C 5S", "10S 2D KD 6C AH", "7D", "", 20);
    play(&mut state, A, attack("QD"));
    assert_eq!(
        refused(&mut state, B, beat("QD", "2D")),
        "trump-needs-higher-trump"
    );
    assert_eq!(
        refused(&mut state, B, beat("QD", "AH")),
        "trump-needs-higher-trump"
    );
    let mut state = table("5C 5S 4H", "10S 2D KD 6C AH", "7D", "", 20);
    play(&mut state, A, attack("5C 5S 4H"));
    play(&mut state, B, beat("5C", "6C"));
    assert_eq!(refused(&mut state, B, beat("5C", "KD")), "already-beaten");
    assert_eq!(refused(&mut state, B, beat("5S", "6C")), "not-in-hand");
}

/// Ruling 5: all beaten, everything goes aside and the defender attacks; otherwise beaten pairs go
/// aside, the rest joins the defender's hand and the same attacker goes again.
#[test]
fn ruling_5_end_of_a_battle() {
    let mut state = table("5C 5S 4H", "6C 6S 5H 2D 3D", "7D", "", 20);
    play(&mut state, A, attack("5C 5S 4H"));
    play(&mut state, B, beat("5C", "6C"));
    play(&mut state, B, beat("5S", "6S"));
    play(&mut state, B, beat("4H", "5H"));
    assert!(state.set_aside.includes(cards("5C 5S 4H 6C 6S 5H")));
    assert_eq!(state.attacker, B);

    let mut state = table("5C 5S 4H", "6C 6S 5H 2D 3D", "7D", "", 20);
    play(&mut state, A, attack("5C 5S 4H"));
    play(&mut state, B, beat("5S", "6S"));
    play(&mut state, B, Action::PickUp);
    assert!(state.set_aside.includes(cards("5S 6S")));
    assert!(state.hands[B].includes(cards("5C 4H")));
    assert_eq!(state.attacker, A);
}

/// Ruling 6: the attacker draws first, up to five; the trump card comes last; five or more draws none.
#[test]
fn ruling_6_the_draw() {
    let mut state = table("5C 5S 4H 9C 9S", "6C 6S 5H 2D 3D", "7D", "KC KH", 0);
    play(&mut state, A, attack("5C 5S 4H"));
    play(&mut state, B, beat("5C", "6C"));
    play(&mut state, B, Action::PickUp);
    // A took both face-down cards and the trump card; B, now holding six, drew nothing.
    assert_eq!(state.hands[A], cards("9C 9S KC KH 7D"));
    assert_eq!(state.trump_drawn_by, Some(A));
    assert_eq!(state.hands[B].len(), 6);
    assert!(!state.stock_left());
    let shown = view(&state, Some(B));
    assert_eq!(
        (shown.trump, shown.trump_card, shown.trump_drawn_by),
        (Some(Suit::Diamonds), None, Some(A))
    );
}

/// Ruling 7: the end is checked only once nothing is left to draw; a hand emptied earlier is refilled.
#[test]
fn ruling_7_the_end_of_a_deal() {
    // A empties its hand while cards remain: refilled, play goes on.
    let mut state = table("5C", "6C 6S 5H 2D 3D", "7D", "", 20);
    play(&mut state, A, attack("5C"));
    play(&mut state, B, Action::PickUp);
    assert_eq!(state.hands[A].len(), 5);
    assert_eq!(state.phase, Phase::Attack);

    // Both empty in the same battle once nothing is left: a drawn deal, scoring nobody.
    let mut state = table("5C", "6C", "7D", "", 0);
    state.pile.clear();
    state.trump_drawn_by = Some(B);
    state.set_aside.insert(card("7D"));
    play(&mut state, A, attack("5C"));
    play(&mut state, B, beat("5C", "6C"));
    assert_eq!(state.phase, Phase::Over { winner: None });
    let result = outcome(&state).unwrap();
    assert!(result.winners.is_empty());
    assert_eq!(result.points, vec![0, 0]);
    assert_eq!(refused(&mut state, A, attack("5C")), "deal-over");
}

/// The view's hints: which cards beat each attack card and the code of why the others do not; the cap
/// and the code for each size of selection that is not an attack.
#[test]
fn hints_explain_what_cannot_be_played() {
    let mut state = table("9S QD 5C 8H 8C", "10S 2D KD 6C 8S", "7D", "", 20);
    play(&mut state, A, attack("9S"));
    let hints = serde_json::to_value(view(&state, Some(B)).hints).unwrap();
    let defend = &hints["defend"][0];
    assert_eq!(defend["attack"], "9S");
    assert_eq!(defend["beaten_by"], serde_json::json!(["2D", "KD", "10S"]));
    assert_eq!(
        defend["not"],
        serde_json::json!({"wrong-suit": ["6C"], "not-higher": ["8S"]})
    );
    assert_eq!(hints["can_pick_up"], true);
    // The attacker gets no defence hints.
    assert!(serde_json::to_value(view(&state, Some(A)).hints).unwrap()["defend"].is_null());

    let state = table("8S 8H 8D KS KH", "2D 3D", "AS", "", 20);
    let hints = serde_json::to_value(view(&state, Some(A)).hints).unwrap();
    assert_eq!(
        hints["attack"],
        serde_json::json!({
            "largest": 1,
            "capped": true,
            "not_an_attack": [
                "attack-size", null, "attack-size", "attack-over-cap", "attack-size", "attack-over-cap"
            ],
        })
    );
    let roomy = table("8S 8H 8D KS KH", "2D 3D 4D 5D 6D", "AS", "", 20);
    let hints = serde_json::to_value(view(&roomy, Some(A)).hints).unwrap();
    assert_eq!(
        hints["attack"],
        serde_json::json!({
            "largest": 5,
            "capped": false,
            "not_an_attack": [
                "attack-size", null, "attack-size", "attack-needs-pair", "attack-size",
                "attack-needs-two-pairs"
            ],
        })
    );
}

/// Ruling 9: the match's lengths.
#[test]
fn ruling_9_match_lengths() {
    use super::super::DealsToWin;
    use crate::matches::MatchLength;
    let length = |n: u32| DealsToWin::try_from(n).map(MatchLength::from);
    assert_eq!(length(3), Ok(MatchLength::DealsWon(3)));
    assert_eq!(
        MatchLength::from(DealsToWin::default()),
        MatchLength::DealsWon(3)
    );
    assert!(length(1).is_ok() && length(5).is_ok());
    assert!(length(2).is_err() && length(0).is_err());
}

fn computer_choice(state: &State, seat: Seat) -> Action {
    let mut computer = Computer::new();
    let legal = legal_actions(state, seat);
    computer.choose(
        &view(state, Some(seat)),
        &legal,
        &mut BotRng::seed_from_u64(1),
    )
}

/// What the computer attacks with from the hand `a`, against the hand `b`, diamonds trumps (the five
/// under the pile) and 20 cards still to draw.
fn computer_attack(a: &str, b: &str) -> Action {
    computer_choice(&table(a, b, "5D", "", 20), A)
}

/// Ruling 10 and seed 000: the computer leads its lowest plain single, keeping aces, kings and trumps.
#[test]
fn computer_attacks_with_its_lowest_plain_single() {
    assert_eq!(computer_attack("AS KH 2D 9C 7H", "2C 3C"), attack("7H"));
    assert_eq!(computer_attack("AS KH 2D", "2C 3C"), attack("KH"));
    assert_eq!(computer_attack("AS 2D", "2C 3C"), attack("AS"));
    assert_eq!(computer_attack("3D 2D", "2C 3C"), attack("2D"));
}

/// A low plain pair and one more card, when the other hand holds three or more.
#[test]
fn computer_lays_a_low_plain_pair_as_three() {
    assert_eq!(
        computer_attack("4S 4H 9C AS 2D", "2C 3C 4C"),
        attack("4S 4H 9C")
    );
    // Not against a hand of two.
    assert_eq!(computer_attack("4S 4H 9C AS 2D", "2C 3C"), attack("4H"));
    // A pair of kings or of trumps is kept back.
    assert_eq!(
        computer_attack("KS KH 9C AS 2D 3D", "2C 3C 4C"),
        attack("9C")
    );
}

/// Once nothing is left to draw, the whole hand at once when the rules allow it.
#[test]
fn computer_lays_its_whole_hand_at_the_end() {
    let mut state = table("KS KH AD", "2C 3C 4C 5C", "5D", "", 0);
    state.pile.clear();
    state.trump_drawn_by = Some(B);
    state.hands[B].insert(state.trump_card);
    assert_eq!(computer_choice(&state, A), attack("KS KH AD"));
    // Not while cards are left to draw.
    let state = table("KS KH AD", "2C 3C 4C 5C", "6D", "", 5);
    assert_eq!(computer_choice(&state, A), attack("KH"));
}

/// It beats every card it can with the cheapest card that does it, and picks up the rest.
#[test]
fn computer_defends_cheaply_and_picks_up_the_rest() {
    let mut state = table("5S 5H QC", "9S 6S 3D KD 4C", "8D", "", 20);
    play(&mut state, A, attack("5S 5H QC"));
    let mut steps = Vec::new();
    while state.phase == Phase::Defend {
        let action = computer_choice(&state, B);
        steps.push(action);
        play(&mut state, B, action);
    }
    // The six of spades (plain, lower than the nine) for the spade, the two trumps for the heart and
    // the club: every card beaten, the 9 of spades and the 4 of clubs kept.
    assert_eq!(steps.len(), 3);
    assert!(steps.contains(&beat("5S", "6S")));
    assert_eq!(
        state.hands[B].intersection(cards("9S 4C 6S 3D KD")),
        cards("9S 4C")
    );
    assert_eq!(state.attacker, B);

    assert_eq!(
        defence_plan(cards("QD 5S"), cards("KD 2D"), Suit::Diamonds),
        vec![(card("QD"), card("KD")), (card("5S"), card("2D"))]
    );
    let mut state = table("5S", "9S 6C", "8D", "", 20);
    play(&mut state, A, attack("5S"));
    assert_eq!(computer_choice(&state, B), beat("5S", "9S"));
    let mut state = table("AS 5H", "9S 6C", "8D", "", 20);
    play(&mut state, A, attack("AS"));
    assert_eq!(computer_choice(&state, B), Action::PickUp);
}

/// It guesses at random.
#[test]
fn computer_guesses_at_random() {
    let state = fresh(0, 3);
    let legal = legal_actions(&state, B);
    let mut rng = BotRng::seed_from_u64(5);
    let mut computer = Computer::new();
    let guesses: std::collections::HashSet<String> = (0..40)
        .map(|_| {
            format!(
                "{:?}",
                computer.choose(&view(&state, Some(B)), &legal, &mut rng)
            )
        })
        .collect();
    assert_eq!(guesses.len(), 2);
}

/// It remembers the cards the other seat picked up until it sees them played, from its views alone,
/// and leads the card those known cards cannot beat among equally low ones.
#[test]
fn computer_remembers_what_the_other_seat_picked_up() {
    let mut state = table("9C 10H 2S 3S 7S", "6H 8H 10D JD QD", "4D", "", 20);
    let mut computer = Computer::new();
    let step = |state: &mut State, seat: Seat, action: Action, computer: &mut Computer| {
        play(state, seat, action);
        computer.observe(&view(state, Some(A)));
    };
    step(&mut state, A, attack("9C"), &mut computer);
    step(&mut state, B, Action::PickUp, &mut computer);
    assert_eq!(computer.known(), cards("9C"));
    step(&mut state, A, attack("10H"), &mut computer);
    step(&mut state, B, Action::PickUp, &mut computer);
    assert_eq!(computer.known(), cards("9C 10H"));
    // B beats a spade with a trump, then attacks with the heart it picked up: that one is gone.
    step(&mut state, A, attack("2S"), &mut computer);
    step(&mut state, B, beat("2S", "10D"), &mut computer);
    assert_eq!(computer.known(), cards("9C 10H"));
    step(&mut state, B, attack("10H"), &mut computer);
    assert_eq!(computer.known(), cards("9C"));

    // Two sevens, equally low: the 9 of clubs over there beats the club, so it leads the heart.
    let lead = table("7C 7H", "9C 2S 4S 5S 6S", "4D", "", 20);
    let legal = legal_actions(&lead, A);
    let chosen = computer.choose(&view(&lead, Some(A)), &legal, &mut BotRng::seed_from_u64(1));
    assert_eq!(chosen, attack("7H"));
    let forgetful = computer_choice(&lead, A);
    assert_eq!(
        forgetful,
        attack("7C"),
        "without the memory it would lead the club"
    );
}

/// Every game's random bot: uniform among legal actions, and so always legal.
#[test]
fn the_random_bot_picks_legal_actions() {
    let mut state = fresh(0, 11);
    let mut rng = BotRng::seed_from_u64(2);
    let mut bots = [
        Panjpar::bot(BotKind::Random, A, DEFAULT_BUDGET).unwrap(),
        Panjpar::bot(BotKind::Random, B, DEFAULT_BUDGET).unwrap(),
    ];
    while let Some(seat) = to_act(&state) {
        let legal = legal_actions(&state, seat);
        let action = bots[seat.index()].choose(&view(&state, Some(seat)), &legal, &mut rng);
        assert!(legal.contains(&action));
        play(&mut state, seat, action);
    }
    assert!(outcome(&state).is_some());
}
