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
mod tests;
