//! Scripted scenarios: the worked turn of seed 002 and every Pishe Pasha ruling of RULINGS.md.

use rand::SeedableRng;

use super::*;
use crate::cards::{deal_rng, BySeat, Card, CardSet, Seat, Suit};
use crate::game::{BotRng, DealSetup, Game};
use crate::matches::Match;

const YOU: Seat = Seat::new(0);
const THEM: Seat = Seat::new(1);

fn card(code: &str) -> Card {
    code.parse().unwrap()
}

fn cards(codes: &str) -> Vec<Card> {
    codes.split_whitespace().map(card).collect()
}

/// A deal in progress with seat 0 ("you") to act and seat 1 the dealer: the suit piles at `heights`
/// (clubs, diamonds, hearts, spades), stocks listed top first, piles bottom first. Every card not
/// placed goes under their stock, so that the deal holds all 52.
fn laid_out(heights: [u8; 4], stocks: [&str; 2], piles: [&str; 2]) -> State {
    let mut layout = Layout {
        dealer: 1,
        to_act: 0,
        suit_piles: heights,
        stocks: stocks.map(cards),
        piles: piles.map(cards),
    };
    let mut placed: CardSet = SuitPiles::at(heights).unwrap().cards().collect();
    for list in layout.stocks.iter().chain(&layout.piles) {
        placed = placed.union(list.iter().copied().collect());
    }
    layout.stocks[1].extend(CardSet::DECK.minus(placed));
    State::laid_out(&layout).unwrap()
}

fn act(state: &mut State, seat: Seat, action: Action) {
    if let Err(e) = state.apply(seat, action) {
        panic!("{seat} could not {action:?}: {e}");
    }
}

fn refused(state: &mut State, seat: Seat, action: Action) -> String {
    let before = *state;
    let error = state
        .apply(seat, action)
        .expect_err("the action should be refused");
    assert_eq!(*state, before, "a refused action changed the state");
    error.code.to_string()
}

fn height(state: &State, suit: Suit) -> u8 {
    state.suit_piles().height(suit)
}

fn held(state: &State, seat: Seat) -> usize {
    state.stock(seat).len() + state.pile(seat).len()
}

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
    let mut m = Match::starting_with(MATCH_LENGTHS[1].1, 2, THEM);
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
        .map(|_| Match::new(MATCH_LENGTHS[0].1, 2, &mut rng).next_deal())
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

/// Plays whole deals between computers until the match is over; returns the match and how many deals.
fn play_match(length: crate::matches::MatchLength, seed: u64) -> Match {
    let mut m = Match::starting_with(length, 2, YOU);
    let mut bots = [Player(Strategy::Computer), Player(Strategy::Computer)];
    let mut rng = BotRng::seed_from_u64(seed);
    while m.winners().is_none() {
        let mut state = PishePasha::deal(
            &m.next_deal(),
            &mut deal_rng(seed + u64::from(m.deals_dealt)),
        );
        while let Some(seat) = state.to_act() {
            let legal = state.legal_actions(seat);
            let action = crate::game::Bot::choose(
                &mut bots[seat.index()],
                &View::of(&state, Some(seat)),
                &legal,
                &mut rng,
            );
            act(&mut state, seat, action);
        }
        let outcome = state.outcome().unwrap();
        m.record(&outcome);
    }
    m
}

#[test]
fn ruling_6_one_deal_or_first_to_50_or_100_points() {
    let labels: Vec<&str> = MATCH_LENGTHS.iter().map(|(label, _)| *label).collect();
    assert_eq!(
        labels,
        vec!["one deal", "first to 50 points", "first to 100 points"]
    );
    let one = play_match(MATCH_LENGTHS[0].1, 5);
    assert_eq!(one.deals_dealt, 1);
    assert_eq!(one.winners().unwrap().len(), 1);
    for (target, (_, length)) in [(50, MATCH_LENGTHS[1]), (100, MATCH_LENGTHS[2])] {
        let m = play_match(length, 9);
        let winners = m.winners().unwrap();
        assert_eq!(winners.len(), 1);
        let (winner, loser) = (winners[0], winners[0].next(2));
        assert!(m.totals[winner.index()] >= target);
        assert!(m.totals[loser.index()] < target);
    }
}

#[test]
fn ruling_7_a_view_shows_piles_counts_and_turns_but_no_stock_card() {
    let mut state = laid_out([0, 0, 0, 0], ["4D 6C", "JS"], ["KC", "9H 3C"]);
    act(&mut state, YOU, Action::Turn);
    let view = View::of(&state, Some(YOU));
    assert_eq!(view.turned, Some(card("4D")));
    assert_eq!(
        view.choices,
        Choices {
            turn: false,
            give: Some(card("4D")),
            keep: true,
            cannot_give: None
        }
    );
    assert_eq!(
        view.piles[THEM],
        PileView {
            top: Some(card("3C")),
            count: 2
        }
    );
    assert_eq!(
        view.stocks,
        BySeat([state.stock(YOU).len() as u8, state.stock(THEM).len() as u8])
    );
    let theirs = View::of(&state, Some(THEM));
    assert_eq!(theirs.choices, Choices::default());
    assert_eq!(theirs.turned, Some(card("4D")));
    let json = serde_json::to_string(&view).unwrap();
    for hidden in ["6C", "JS", "9H"] {
        assert!(
            !json.contains(&format!("\"{hidden}\"")),
            "{hidden} is in {json}"
        );
    }
    // The hint for each reason a give is not possible.
    let hint = |piles: [&str; 2]| {
        let state = laid_out([0, 0, 0, 0], ["QD", ""], piles);
        let json = serde_json::to_value(View::of(&state, Some(YOU))).unwrap();
        json["choices"]["hint"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(hint(["9S", ""]), "their pile is empty");
    assert_eq!(hint(["", "4H"]), "your pile is empty");
    assert_eq!(
        hint(["9S", "4H"]),
        "the 9 is not one rank above or below their 4"
    );
    assert_eq!(hint(["9S", "10H"]), "");
    // A spectator has no choices.
    assert_eq!(View::of(&state, None).choices, Choices::default());
}

#[test]
fn ruling_8_the_computer_settles_its_pile_by_giving_then_turns_and_gives_what_it_turns() {
    let mut state = laid_out([0, 0, 0, 0], ["9C 4H", ""], ["QS 8D 7S", "8C"]);
    let computer = Strategy::Computer;
    let mut chosen = vec![];
    while state.to_act() == Some(YOU) {
        let action = computer.decide(&View::of(&state, Some(YOU))).unwrap();
        chosen.push(action);
        act(&mut state, YOU, action);
    }
    // 7 on their 8, 8 on that 7, then turn: the 9 goes on their 8, the 4 fits nowhere.
    use Action::{Give, Turn};
    assert_eq!(chosen, vec![Give, Give, Turn, Give, Turn]);
    assert_eq!(state.pile(THEM).as_slice(), &cards("8C 7S 8D 9C"));
}

#[test]
fn ruling_9_hold_kings_never_gives_a_king_and_two_above_never_gives_two_above_its_pile() {
    let decide = |strategy: Strategy, state: &State| strategy.decide(&View::of(state, Some(YOU)));
    // A king on top of the pile, one from their queen.
    let state = laid_out([0, 0, 0, 0], ["5C", ""], ["KD", "QH"]);
    assert_eq!(decide(Strategy::Computer, &state), Some(Action::Give));
    assert_eq!(decide(Strategy::HoldKings, &state), Some(Action::Turn));
    assert_eq!(decide(Strategy::TwoAbove, &state), Some(Action::Give));
    // A turned king that fits only their queen is kept.
    let mut state = laid_out([0, 0, 0, 0], ["KD", ""], ["5C", "QH"]);
    act(&mut state, YOU, Action::Turn);
    assert_eq!(decide(Strategy::HoldKings, &state), Some(Action::Keep));
    assert_eq!(decide(Strategy::Computer, &state), Some(Action::Give));
    // Diamonds at the 4: the 6 of diamonds is two above and stays; the 6 of clubs (clubs unstarted)
    // goes. An unstarted pile counts 0, so a 2 is two above it.
    let state = laid_out([0, 4, 0, 0], ["9C", ""], ["6D", "7H"]);
    assert_eq!(decide(Strategy::TwoAbove, &state), Some(Action::Turn));
    assert_eq!(decide(Strategy::HoldKings, &state), Some(Action::Give));
    let state = laid_out([0, 4, 0, 0], ["9C", ""], ["6C", "7H"]);
    assert_eq!(decide(Strategy::TwoAbove, &state), Some(Action::Give));
    let piles = SuitPiles::default();
    assert!(!Strategy::TwoAbove.gives(card("2S"), &piles));
    assert!(Strategy::TwoAbove.gives(card("3S"), &piles));
    // Otherwise they play like the computer: a queen is given by both.
    let state = laid_out([0, 0, 0, 0], ["5C", ""], ["QD", "KH"]);
    for strategy in Strategy::ALL {
        assert_eq!(decide(strategy, &state), Some(Action::Give), "{strategy:?}");
    }
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

#[test]
fn the_game_names_its_bots_and_refuses_unknown_ones() {
    for name in PishePasha::BOTS {
        assert_eq!(PishePasha::bot(name, YOU).unwrap().name(), *name);
    }
    assert!(PishePasha::bot("grandmaster", YOU).is_none());
    let setup = DealSetup {
        index: 0,
        first: YOU,
    };
    let state = PishePasha::deal(&setup, &mut deal_rng(1));
    assert_eq!(
        serde_json::to_string(&PishePasha::legal_actions(&state, THEM)).unwrap(),
        r#"["turn"]"#
    );
}
