//! A table's snapshot read back: rebuilt at the same version in every game, stored in steps, and
//! refused when it does not fit.

use rand::seq::SliceRandom;

use super::super::tests::{moment, open, play, rebuilt};
use super::*;
use crate::table::{TableKind, Token};
use chaikhana_rules::games::{ganjifa::Ganjifa, panjpar::Panjpar, pishe_pasha::PishePasha};
use chaikhana_rules::matches::MatchLength;

fn rebuilds_exactly<G: Game>(length: MatchLength, kind: TableKind) {
    for (actions, seed) in [(0, 1), (1, 2), (17, 3), (120, 4), (400, 5)] {
        let token = Token::random();
        let mut table = open::<G>(kind, length, Level::Standard, token.hash());
        if kind == TableKind::Friends {
            for seat in table.seats.iter_mut().skip(1) {
                *seat = Occupant::person(Token::random().hash(), moment());
            }
        }
        if actions > 0 {
            table.start_deal();
        }
        play(&mut table, actions, seed);
        let snapshot = table.snapshot();
        let text = snapshot.to_json();
        assert!(!text.contains(token.as_str()), "a token in clear");
        let stored = Snapshot::from_json(text.as_bytes()).unwrap();
        assert_eq!(stored, snapshot);
        let rebuilt = rebuilt::<G>(stored).unwrap();
        assert_eq!(rebuilt.version, table.version, "{}", G::NAME);
        assert_eq!(rebuilt.state, table.state, "{}", G::NAME);
        assert_eq!(
            rebuilt.dealer.seal(),
            table.dealer.seal(),
            "the same commitment after a rebuild"
        );
        assert_eq!(rebuilt.matchup, table.matchup);
        assert_eq!(rebuilt.snapshot(), snapshot);
        assert_eq!(rebuilt.status(), table.status());
        assert_eq!(rebuilt.seat_of(&token.hash()), Some(Seat::new(0)));
        assert_eq!(rebuilt.seat_of(&Token::random().hash()), None);
        // The rebuilt table's deal goes on exactly as the original's (the next deal's seed is
        // drawn afresh by whichever node deals it).
        let (mut original, mut copy) = (table, rebuilt);
        let more = original.state.as_ref().map_or(0, |_| 30);
        for table in [&mut original, &mut copy] {
            let mut rng = chaikhana_rules::cards::deal_rng(seed + 100);
            for _ in 0..more {
                let Some(seat) = table.state.as_ref().and_then(G::to_act) else {
                    break;
                };
                let state = table.state.as_mut().unwrap();
                let action = G::legal_actions(state, seat)
                    .choose(&mut rng)
                    .cloned()
                    .unwrap();
                G::apply(state, seat, &action).unwrap();
                table.accepted(seat, action);
            }
        }
        assert_eq!(copy.state, original.state);
        assert_eq!(copy.version, original.version);
    }
}

#[test]
fn every_game_rebuilds_from_its_snapshot_at_the_same_version() {
    rebuilds_exactly::<Panjpar>(MatchLength::DealsWon(3), TableKind::Friends);
    rebuilds_exactly::<Panjpar>(MatchLength::DealsWon(1), TableKind::Computer);
    rebuilds_exactly::<PishePasha>(MatchLength::Points(100), TableKind::Friends);
    rebuilds_exactly::<Ganjifa>(MatchLength::Deals(3), TableKind::Computer);
    rebuilds_exactly::<Ganjifa>(MatchLength::Deals(6), TableKind::Friends);
}

/// Stores the table the way a store fed by `commit` would, after each change, checking that what
/// it holds reads back as the table's own snapshot and rebuilds the same table.
fn stored_in_steps<G: Game>(length: MatchLength, kind: TableKind) {
    for seed in 1..4 {
        let mut table = open::<G>(kind, length, Level::Standard, Token::random().hash());
        if kind == TableKind::Friends {
            for seat in table.seats.iter_mut().skip(1) {
                *seat = Occupant::person(Token::random().hash(), moment());
            }
        }
        table.start_deal();
        let mut held = String::new();
        let (mut wholes, mut added) = (0, 0);
        for step in 0..300 {
            play(&mut table, 1, seed * 1000 + step);
            if step == 150 && kind == TableKind::Friends {
                // A seat given up and taken again: the whole table goes, not an action line.
                table.seats[1] = Occupant::person(Token::random().hash(), moment());
            }
            match table.change_to_store() {
                None => panic!("a change that the store would not hear of"),
                Some((Change::Whole { game, json }, mark)) => {
                    assert_eq!(game, G::NAME);
                    held = json;
                    table.keeper.holds(mark);
                    wholes += 1;
                }
                Some((Change::Played { lines, from }, mark)) => {
                    assert_eq!(from, table.version, "one action, the last");
                    assert_eq!(lines.matches('\n').count(), 1, "one action, one line");
                    held.push_str(&lines);
                    table.keeper.holds(mark);
                    added += 1;
                }
            }
            assert!(table.change_to_store().is_none(), "nothing new to store");
            let read = Snapshot::from_stored(held.as_bytes()).unwrap();
            assert_eq!(read, table.snapshot(), "{} at step {step}", G::NAME);
            if step % 37 == 0 {
                let rebuilt = rebuilt::<G>(read).unwrap();
                assert_eq!(rebuilt.state, table.state);
                assert_eq!(rebuilt.version, table.version);
                assert_eq!(rebuilt.dealer.seal(), table.dealer.seal());
                assert_eq!(rebuilt.matchup, table.matchup);
            }
        }
        assert!(
            added > 2 * wholes,
            "{}: {added} actions added, {wholes} whole snapshots",
            G::NAME
        );
        // A store that failed forgets what it held: the next change is whole.
        table.keeper.forget_held();
        assert!(matches!(
            table.change_to_store(),
            Some((Change::Whole { .. }, _))
        ));
    }
}

#[test]
fn a_closed_list_of_pledges_is_stored_and_kept_through_a_rebuild() {
    let mut table = computer_table_after::<Ganjifa>(MatchLength::Deals(3), 10);
    let stored = table.change_to_store().unwrap().1;
    let commitment = table.dealer.coming().commitment().to_string();
    let pledge = crate::table::pledge_of("0123456789abcdef0123456789abcdef");
    table
        .dealer
        .coming_mut()
        .pledge(Seat::new(0), &commitment, &pledge)
        .unwrap();
    // A pledge alone is not stored; the list once closed is, whole, before it is shown.
    assert!(stored.only_played_since(&table.as_stored()));
    table.dealer.coming_mut().close();
    assert!(!stored.only_played_since(&table.as_stored()));
    let rebuilt = rebuilt::<Ganjifa>(table.snapshot()).unwrap();
    let coming = rebuilt.dealer.coming();
    assert_eq!(
        coming.commitment(),
        commitment,
        "the same deal, committed to once"
    );
    assert!(coming.closed());
    assert_eq!(coming.pledges(), &[Some(pledge), None, None]);
}

#[test]
fn a_snapshot_with_the_actions_added_since_reads_back_as_the_whole_table() {
    stored_in_steps::<Panjpar>(MatchLength::DealsWon(3), TableKind::Friends);
    stored_in_steps::<PishePasha>(MatchLength::Points(100), TableKind::Computer);
    stored_in_steps::<Ganjifa>(MatchLength::Deals(4), TableKind::Friends);
}

/// A computer table dealt, after `actions` random actions.
fn computer_table_after<G: Game>(length: MatchLength, actions: usize) -> TableCore<G> {
    let creator = Token::random().hash();
    let mut table = open::<G>(TableKind::Computer, length, Level::Standard, creator);
    table.start_deal();
    play(&mut table, actions, actions as u64);
    table
}

#[test]
fn the_whole_snapshot_reads_back_as_the_snapshot_itself() {
    let table = computer_table_after::<Ganjifa>(MatchLength::Deals(2), 40);
    let Change::Whole { json, .. } = table.whole() else {
        panic!("not whole");
    };
    assert_eq!(Snapshot::from_json(json.as_bytes()), Ok(table.snapshot()));
}

#[test]
fn actions_added_out_of_order_or_with_a_gap_are_refused() {
    let mut table = computer_table_after::<Panjpar>(MatchLength::DealsWon(1), 0);
    let base = table.snapshot().to_json();
    play(&mut table, 3, 11);
    let deal = table.record.last().unwrap();
    let line = |i: usize| {
        let (seat, action, made) = &deal.actions[i];
        Snapshot::played_line(*seat, action, *made)
    };
    let all = format!("{base}{}{}{}", line(0), line(1), line(2));
    assert_eq!(
        Snapshot::from_stored(all.as_bytes()).unwrap(),
        table.snapshot()
    );
    let gap = format!("{base}{}{}", line(0), line(2));
    assert!(Snapshot::from_stored(gap.as_bytes()).is_err());
    let twice = format!("{base}{}{}", line(0), line(0));
    assert!(Snapshot::from_stored(twice.as_bytes()).is_err());
    let junk = format!("{base}\n[0,{{\"type\":\"no\"}}");
    assert!(Snapshot::from_stored(junk.as_bytes()).is_err());
}

#[test]
fn a_snapshot_that_does_not_fit_is_refused() {
    let table = computer_table_after::<Panjpar>(MatchLength::DealsWon(1), 5);
    let good = table.snapshot();
    let mut other_game = good.clone();
    other_game.game = "ganjifa".into();
    assert!(rebuilt::<Panjpar>(other_game).is_err());
    let mut bad_action = good.clone();
    if let Some(deal) = bad_action.deals.last_mut() {
        if let Some(first) = deal.actions.first_mut() {
            first.1 = serde_json::json!({"type": "no-such-move"});
        }
    }
    assert!(rebuilt::<Panjpar>(bad_action).is_err());
    let mut bad_bot = good.clone();
    bad_bot.seats[1] = SeatRecord::Computer {
        bot: chaikhana_rules::game::BotKind::Random,
    };
    assert!(rebuilt::<Panjpar>(bad_bot).is_err());
    let mut short = good;
    short.seats.pop();
    assert!(rebuilt::<Panjpar>(short).is_err());
}
