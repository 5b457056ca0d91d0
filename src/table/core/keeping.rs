//! A table's snapshot, what of it goes to the store after each change, and its rebuilding on another
//! node.

use super::super::seats::{Level, Occupant};
use super::super::snapshot::{Coming, SeatRecord, Snapshot, SnapshotOf, FORMAT};
use super::super::DealRecord;
use super::super::{DealSeal, Shuffle, TableId};
use super::{Change, Clock, TableCore, TablePolicy};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;
use chaikhana_rules::matches::Match;

/// What the store holds of a table, as the table was when it was stored: everything a snapshot holds
/// except the actions of the deal in play, which are counted.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::table) struct LastStored {
    seats: Vec<SeatRecord>,
    matchup: Match,
    deals: usize,
    /// The seed and first version of the deal in play, if any.
    deal: Option<(u64, u64)>,
    actions: usize,
    version: u64,
    /// How many times the coach's word was kept (a hint counted, an analysis made): each is stored
    /// with the whole snapshot.
    coached: u64,
    /// The coming deal's closed list of pledges: once shown, kept through a restart.
    pledged: Option<Vec<Option<String>>>,
}

impl LastStored {
    /// Whether `now` differs from this only by actions added to the same deal.
    fn only_played_since(&self, now: &LastStored) -> bool {
        self.deals == now.deals
            && self.deal == now.deal
            && self.actions <= now.actions
            && self.seats == now.seats
            && self.matchup == now.matchup
            && self.coached == now.coached
            && self.pledged == now.pledged
    }
}

impl<G: Game> TableCore<G> {
    fn seat_records(&self) -> Vec<SeatRecord> {
        self.seats
            .iter()
            .map(|occupant| match occupant {
                Occupant::Free => SeatRecord::Free,
                Occupant::Person { key, .. } => SeatRecord::Person { key: key.clone() },
                Occupant::Computer(bot) => SeatRecord::Computer { bot: bot.kind() },
            })
            .collect()
    }

    /// The table as a snapshot: enough to rebuild it exactly, and no token.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            format: FORMAT,
            game: G::NAME.to_string(),
            kind: self.kind,
            length: self.length,
            matchup: self.matchup.clone(),
            seats: self.seat_records(),
            deals: self.record.iter().map(DealRecord::written).collect(),
            version: self.version,
            names: self.notes.names().to_vec(),
            away: self.away_times(),
            given_away: self.notes.given_away().to_vec(),
            coming: Some(self.coming()),
            hints: self.coaching.among_friends,
        }
    }

    /// The whole snapshot, written as JSON straight from the table.
    pub(super) fn whole(&self) -> Change {
        let json = SnapshotOf {
            format: FORMAT,
            game: G::NAME,
            kind: self.kind,
            length: self.length,
            matchup: &self.matchup,
            seats: self.seat_records(),
            deals: &self.record,
            version: self.version,
            names: self.notes.names(),
            away: self.away_times(),
            given_away: self.notes.given_away(),
            coming: Some(self.coming()),
            hints: self.coaching.among_friends,
        }
        .to_json();
        Change::Whole {
            game: G::NAME,
            json,
        }
    }

    /// The coming deal's secret and setup, for a snapshot.
    fn coming(&self) -> Coming {
        Coming {
            secret: self.dealer.coming().secret().to_string(),
            setup: self.dealer.coming().setup(),
            deal: self.dealer.coming().deal(),
            pledges: self.closed_pledges(),
        }
    }

    /// Since when (Unix ms) each seat's person has been away, for a snapshot.
    fn away_times(&self) -> Vec<Option<u64>> {
        self.seats
            .iter()
            .map(|seat| seat.away_since().map(|t| self.clock.unix_ms_of(t)))
            .collect()
    }

    fn as_stored(&self) -> LastStored {
        let last = self.record.last();
        LastStored {
            seats: self.seat_records(),
            matchup: self.matchup.clone(),
            deals: self.record.len(),
            deal: last.map(|d| (d.seed, d.dealt_at)),
            actions: last.map_or(0, |d| d.actions.len()),
            version: self.version,
            coached: self.coaching.kept(),
            pledged: self.closed_pledges(),
        }
    }

    /// The coming deal's list of pledges, once closed.
    fn closed_pledges(&self) -> Option<Vec<Option<String>>> {
        let coming = self.dealer.coming();
        coming.closed().then(|| coming.pledges().to_vec())
    }

    /// What to give the store now, and what it will then hold; `None` when it holds the table as it
    /// is. When only actions were accepted since the last store, in the deal then in play and each
    /// making the next version, only they go; otherwise (a deal dealt or ended, a seat taken or
    /// given up, a store that failed, a table just rebuilt) the whole snapshot does.
    pub(super) fn change_to_store(&self) -> Option<(Change, LastStored)> {
        let now = self.as_stored();
        let Some(stored) = self.keeper.held().filter(|s| s.only_played_since(&now)) else {
            return Some((self.whole(), now));
        };
        let new = self
            .record
            .last()
            .map_or(&[][..], |deal| &deal.actions[stored.actions..]);
        if new.is_empty() && stored.version == now.version {
            return None;
        }
        let follows = new
            .iter()
            .zip(stored.version + 1..)
            .all(|((_, _, made), next)| *made == next);
        if !follows || stored.version + new.len() as u64 != now.version {
            return Some((self.whole(), now));
        }
        let lines: String = new
            .iter()
            .map(|(seat, action, made)| Snapshot::played_line(*seat, action, *made))
            .collect();
        let from = stored.version + 1;
        Some((Change::Played { lines, from }, now))
    }

    /// Rebuilds a table from its snapshot: the recorded actions are read as the game's, the last deal
    /// is dealt again from its seed and its actions replayed through the rules core (the computer
    /// players watching, as they did). Every person's seat waits for its player to reconnect, as
    /// after a dropped socket.
    pub fn rebuild(
        id: TableId,
        snapshot: Snapshot,
        policy: TablePolicy,
        keeps: bool,
        now: Clock,
        entropy: [u8; 32],
    ) -> Result<TableCore<G>, String> {
        if snapshot.game != G::NAME {
            return Err(format!(
                "a {} snapshot is not a {} table",
                snapshot.game,
                G::NAME
            ));
        }
        if snapshot.seats.len() != G::SEATS {
            return Err(format!("a {} table has {} seats", G::NAME, G::SEATS));
        }
        let mut seats = Vec::with_capacity(G::SEATS);
        let mut level = None;
        for (seat, record) in Seat::all(G::SEATS).zip(snapshot.seats) {
            seats.push(match record {
                SeatRecord::Free => Occupant::Free,
                SeatRecord::Person { key } => Occupant::Person {
                    key,
                    sockets: 0,
                    gone_since: Some(
                        snapshot
                            .away
                            .get(seat.index())
                            .copied()
                            .flatten()
                            .map_or(now.at, |unix_ms| now.instant_of(unix_ms)),
                    ),
                    attached_before: true,
                },
                SeatRecord::Computer { bot } => {
                    let made = Level::of_bot(bot).and_then(|at| {
                        // Every computer at a table plays at the table's level.
                        level = Some(at);
                        at.computer::<G>(seat, policy.strong_budget)
                    });
                    Occupant::Computer(made.ok_or_else(|| {
                        format!("no computer player \"{}\" at a table", bot.name())
                    })?)
                }
            });
        }
        let record = snapshot
            .deals
            .into_iter()
            .map(DealRecord::read::<G>)
            .collect::<Result<Vec<_>, _>>()?;
        let (state, seal) = match record.last() {
            Some(deal) => {
                let (state, seal) = replay::<G>(deal, snapshot.version, &mut seats)?;
                (Some(state), seal)
            }
            None => (None, None),
        };
        let mut table = TableCore::assemble(
            id,
            snapshot.kind,
            level,
            policy,
            keeps,
            seats,
            (snapshot.length, snapshot.matchup),
            record,
            snapshot.version,
            now,
            rand::SeedableRng::from_seed(entropy),
        );
        table.state = state;
        table.dealer.restore_seal(seal);
        // The coming deal keeps the secret its pages answered (a snapshot from before fair deals
        // has none: the table has just drawn a fresh one).
        match snapshot.coming {
            Some(coming) => {
                let mut shuffle =
                    Shuffle::with_secret::<G>(coming.secret, coming.setup, coming.deal);
                if let Some(pledges) = coming.pledges {
                    shuffle.restore_closed(pledges);
                }
                table.dealer.restore_coming(shuffle);
            }
            None => {
                let setup = table.coming_setup();
                table.dealer.commit_to::<G>(setup, &mut table.rng);
            }
        }
        table.notes.restore(snapshot.names, snapshot.given_away);
        Ok(table.offering_hints(snapshot.hints))
    }
}

/// The deal's state after its recorded actions, shown to the computer players on the way, and the
/// deal's seal (none for a deal stored before fair deals).
fn replay<G: Game>(
    deal: &DealRecord<G::Action>,
    version: u64,
    seats: &mut [Occupant<G>],
) -> Result<(G::State, Option<DealSeal>), String> {
    let (mut state, _, seal) = deal.dealt::<G>();
    let show = |state: &G::State, seats: &mut [Occupant<G>]| {
        for (i, occupant) in seats.iter_mut().enumerate() {
            if let Occupant::Computer(bot) = occupant {
                if bot.observes() {
                    bot.observe(&G::view(state, Some(Seat::new(i))));
                }
            }
        }
    };
    show(&state, seats);
    for (seat, action, made) in &deal.actions {
        if *made > version || seat.index() >= seats.len() {
            return Err("the snapshot's actions do not fit its table".into());
        }
        G::apply(&mut state, *seat, action)
            .map_err(|e| format!("a recorded action is refused on replay: {e}"))?;
        show(&state, seats);
    }
    Ok((state, seal))
}

#[cfg(test)]
mod tests {

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
}
