//! RULINGS Pishe Pasha 6 to 9: the match lengths, the views, the computer and the experiment's two
//! strategies.

use super::*;
use crate::game::BotKind;
use crate::game::DEFAULT_BUDGET;

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
    let asked = |length: serde_json::Value| serde_json::from_value::<MatchChoice>(length);
    assert_eq!(
        asked(serde_json::json!("one-deal")).ok(),
        Some(MatchChoice::OneDeal)
    );
    assert_eq!(
        asked(serde_json::json!(50)).ok(),
        Some(MatchChoice::FirstTo50)
    );
    assert_eq!(
        asked(serde_json::json!(100)).ok(),
        Some(MatchChoice::FirstTo100)
    );
    for other in [
        serde_json::json!(75),
        serde_json::json!("two-deals"),
        serde_json::json!([]),
    ] {
        assert!(asked(other).is_err());
    }
    assert_eq!(MatchChoice::default(), MatchChoice::FirstTo50);
    let one = play_match(MatchChoice::OneDeal.into(), 5);
    assert_eq!(one.deals_dealt, 1);
    assert_eq!(one.winners().unwrap().len(), 1);
    for (target, length) in [(50, MatchChoice::FirstTo50), (100, MatchChoice::FirstTo100)] {
        let m = play_match(length.into(), 9);
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
fn the_game_names_its_bots_and_refuses_unknown_ones() {
    for kind in PishePasha::BOTS {
        assert_eq!(
            PishePasha::bot(*kind, YOU, DEFAULT_BUDGET).unwrap().kind(),
            *kind
        );
        assert_eq!(BotKind::of_game::<PishePasha>(kind.name()), Some(*kind));
    }
    assert!(BotKind::of_game::<PishePasha>("grandmaster").is_none());
    assert!(
        crate::games::panjpar::Panjpar::bot(BotKind::Own("hold-kings"), YOU, DEFAULT_BUDGET)
            .is_none()
    );
    let setup = DealSetup {
        index: 0,
        first: YOU,
    };
    let state = PishePasha::deal(&setup, &mut deal_rng(1));
    assert_eq!(
        serde_json::to_string(&PishePasha::legal_actions(&state, THEM)).unwrap(),
        r#"[{"type":"turn"}]"#
    );
}
