//! Random playouts over many seeded deals: every deal ends, no card is lost or doubled, every legal
//! action is accepted and others are refused with the state untouched, and no view holds a stock card
//! or a card under a pile's top.
//!
//! They also hold the evidence that a deal cannot go on forever (see README.pishe-pasha.md): the next
//! card a suit pile needs is never given away (it would go home first) and never buried for good (a
//! seat turns at least one card every turn, so its stock runs out and its pile comes round), so a card
//! reaches a suit pile within a bounded number of turns whatever the seats choose.
//! [`TURNS_WITHOUT_HOME_BOUND`] is that bound, and every playout checks it.

use rand::SeedableRng;

use crate::cards::{deal_rng, Card, CardSet, Seat, Suit};
use crate::game::DEFAULT_BUDGET;
use crate::game::{Bot, BotKind, BotRng, DealSetup, Game};
use crate::games::pishe_pasha::log::TurnLog;
use crate::games::pishe_pasha::piles::DECK_SIZE;
use crate::games::pishe_pasha::rules::{Action, State, SEATS};
use crate::games::pishe_pasha::view::View;
use crate::games::pishe_pasha::PishePasha;

/// The most turns that can pass with no card going home. The needed card of a suit, held by a seat X,
/// is never given (it goes home first) and never moves but home. In X's stock it is turned within 51
/// of X's turns; in X's pile it waits at most 51 of X's turns for the stock to run out, then at most 52
/// more in the new stock. Turns alternate, so at most 2 × 104 turns pass, and one more for the turn in
/// progress when the count starts.
const TURNS_WITHOUT_HOME_BOUND: u32 = 2 * 104 + 1;

/// What a batch of playouts found.
#[derive(Debug, Default)]
struct Findings {
    deals: u64,
    decisions: u64,
    most_decisions: u64,
    most_turns: u32,
    most_turns_without_home: u32,
}

fn card_set(cards: &[Card]) -> CardSet {
    cards.iter().copied().collect()
}

/// The cards named in a piece of JSON: every quoted string that is a card code.
fn cards_named(json: &str) -> CardSet {
    json.split('"')
        .skip(1)
        .step_by(2)
        .filter(|s| (2..=3).contains(&s.len()))
        .filter_map(|s| s.parse::<Card>().ok())
        .collect()
}

fn stock_cards(state: &State) -> CardSet {
    Seat::all(SEATS)
        .map(|s| card_set(state.stock(s).as_slice()))
        .fold(CardSet::EMPTY, CardSet::union)
}

fn check_conserved(state: &State) {
    assert_eq!(state.card_count(), DECK_SIZE);
    let mut all: CardSet = state.suit_piles().cards().chain(state.turned()).collect();
    for seat in Seat::all(SEATS) {
        for stack in [state.stock(seat), state.pile(seat)] {
            let cards = card_set(stack.as_slice());
            assert!(all.intersection(cards).is_empty(), "a card lies twice");
            all = all.union(cards);
        }
    }
    assert_eq!(all, CardSet::DECK);
}

/// Checks one view's JSON. It names only face-up cards (pile tops, the turned card, the suit piles'
/// tops) and cards of the two turn logs, so never a card under a pile's top. It names no stock card,
/// except that the last turn's steps may name a card that has since gone into a stock by a turn-over;
/// when the last turn is first shown, it names none either.
fn check_view(state: &State, seat: Option<Seat>, last_turn_is_new: bool) {
    let view = View::of(state, seat);
    let named = cards_named(&serde_json::to_string(&view).unwrap());
    let logged =
        |log: &TurnLog| -> CardSet { log.steps().filter_map(|step| step.card()).collect() };
    let (this_turn, last_turn) = (logged(&view.this_turn), logged(&view.last_turn));
    let tops = Seat::all(SEATS).map(|s| state.pile(s).top());
    let suit_tops = Suit::ALL.map(|suit| state.suit_piles().top(suit));
    let face_up: CardSet = tops
        .chain(suit_tops)
        .chain([view.turned])
        .flatten()
        .collect();
    let allowed = face_up.union(this_turn).union(last_turn);
    assert!(
        allowed.includes(named),
        "{seat:?} sees {named:?}, beyond {allowed:?}"
    );
    let seen_in_stock = stock_cards(state).intersection(named);
    let remembered = if last_turn_is_new {
        CardSet::EMPTY
    } else {
        last_turn
    };
    assert!(
        remembered.includes(seen_in_stock),
        "{seat:?} sees stock cards {seen_in_stock:?}"
    );
}

/// Plays `deals` seeded deals between the named bots, checking everything at every step. With
/// `json_views`, every view of both seats (and a spectator's at the end) is serialized and checked too.
fn play(bots: [BotKind; SEATS], deals: u64, seed: u64, json_views: bool) -> Findings {
    let mut found = Findings::default();
    for index in 0..deals {
        let deal_seed = seed.wrapping_mul(1_000_003).wrapping_add(index);
        let setup = DealSetup {
            index: index as u32,
            first: Seat::new((seed % 2) as usize),
        };
        let mut state = PishePasha::deal(&setup, &mut deal_rng(deal_seed));
        let mut players: Vec<Box<dyn Bot<PishePasha>>> = Seat::all(SEATS)
            .map(|s| PishePasha::bot(bots[s.index()], s, DEFAULT_BUDGET).unwrap())
            .collect();
        let mut rng = BotRng::seed_from_u64(deal_seed);
        let mut decisions = 0u64;
        let (mut homes, mut turn_of_last_home) = (state.suit_piles().total(), 1);
        let mut last_turn_seen = *state.last_turn();
        while let Some(seat) = state.to_act() {
            check_conserved(&state);
            if json_views {
                let is_new = *state.last_turn() != last_turn_seen;
                last_turn_seen = *state.last_turn();
                check_view(&state, Some(seat), is_new);
                check_view(&state, Some(seat.next(SEATS)), is_new);
            }
            let legal = state.legal_actions(seat);
            assert!(!legal.is_empty(), "{seat} must act but may do nothing");
            assert!(state.legal_actions(seat.next(SEATS)).is_empty());
            let view = View::of(&state, Some(seat));
            for action in [Action::Turn, Action::Give, Action::Keep] {
                assert_eq!(view.choices.allows(action), legal.contains(&action));
                let before = state;
                let refused = !legal.contains(&action);
                let out_of_turn = state.apply(seat.next(SEATS), action);
                assert!(
                    out_of_turn.is_err() && state == before,
                    "out of turn accepted"
                );
                if refused {
                    assert!(state.apply(seat, action).is_err(), "{action:?} accepted");
                    assert_eq!(state, before, "a refused action changed the state");
                } else {
                    let mut trial = state;
                    assert!(
                        trial.apply(seat, action).is_ok(),
                        "legal {action:?} refused"
                    );
                    assert_ne!(trial, before, "an accepted action changed nothing");
                }
            }
            let action = players[seat.index()].choose(&view, &legal, &mut rng);
            state
                .apply(seat, action)
                .expect("a legal action is accepted");
            decisions += 1;
            if state.suit_piles().total() > homes {
                homes = state.suit_piles().total();
                turn_of_last_home = state.turns();
            }
            let waited = state.turns() - turn_of_last_home;
            found.most_turns_without_home = found.most_turns_without_home.max(waited);
            assert!(
                waited <= TURNS_WITHOUT_HOME_BOUND,
                "deal {index}: no card home in {waited} turns"
            );
        }
        check_conserved(&state);
        if json_views {
            check_view(
                &state,
                Some(Seat::new(0)),
                *state.last_turn() != last_turn_seen,
            );
            check_view(&state, Some(Seat::new(1)), false);
            check_view(&state, None, false);
        }
        let outcome = PishePasha::outcome(&state).expect("an ended deal has an outcome");
        let winner = outcome.winners[0];
        let loser = winner.next(SEATS);
        assert!(state.stock(winner).is_empty() && state.pile(winner).is_empty());
        let left = state.stock(loser).len() + state.pile(loser).len();
        assert_eq!(outcome.points[winner.index()], left as i32);
        assert_eq!(outcome.points[loser.index()], 0);
        assert!(state.apply(state.turn(), Action::Turn).is_err());
        found.deals += 1;
        found.decisions += decisions;
        found.most_decisions = found.most_decisions.max(decisions);
        found.most_turns = found.most_turns.max(state.turns());
    }
    eprintln!("{bots:?}: {found:?}");
    found
}

// Ten thousand deals with every view's JSON checked at every decision: five thousand between random
// players, five thousand between computers. The mixed pairings below add eight thousand more.

#[test]
fn random_players_over_five_thousand_deals_with_every_view_checked() {
    let found = play([BotKind::Random, BotKind::Random], 5_000, 1, true);
    assert_eq!(found.deals, 5_000);
    assert!(found.most_turns_without_home <= TURNS_WITHOUT_HOME_BOUND);
}

#[test]
fn computers_over_five_thousand_deals_with_every_view_checked() {
    let found = play([BotKind::Computer, BotKind::Computer], 5_000, 2, true);
    assert_eq!(found.deals, 5_000);
}

#[test]
fn every_bot_against_every_other_ends_its_deals() {
    // The strong computer searches for 200 ms a decision; its own tests play it on a sample budget.
    let quick = || PishePasha::BOTS.iter().filter(|b| **b != BotKind::Strong);
    for a in quick() {
        for b in quick() {
            let found = play([*a, *b], 500, 3, false);
            assert_eq!(found.deals, 500);
            assert!(found.decisions >= found.deals);
        }
    }
}
