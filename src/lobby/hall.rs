//! The lobby of a process alone: its queues and list in memory, under one lock held for no await.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use futures_util::future::{ready, BoxFuture, FutureExt};

use super::{
    random_id, Asked, Entering, Formation, Listing, Lobby, Place, Standing, FORMING_LIMIT,
    LISTED_AT_MOST, LISTED_PER_ADDRESS, PLACE_KEPT, QUEUE_READ,
};
use crate::table::{TableRefusal, TokenHash};
use chaikhana_rules::game::MatchLength;

/// The lobby in this process.
pub struct Hall {
    gone_after: u64,
    /// How long a listing lasts after its host last said it was there (ms).
    fresh: u64,
    inside: Mutex<Inside>,
}

#[derive(Default)]
struct Inside {
    tickets: HashMap<String, Ticket>,
    /// Each browser's ticket.
    browsers: HashMap<String, String>,
    listings: HashMap<String, Listed>,
}

struct Ticket {
    game: &'static str,
    length: MatchLength,
    needed: usize,
    browser: String,
    key: TokenHash,
    since: u64,
    /// When its page last asked (Unix ms).
    seen: u64,
    state: State,
}

enum State {
    Waiting,
    Forming { id: String, at: u64 },
    Seated { place: Place, at: u64 },
}

struct Listed {
    listing: Listing,
    host: TokenHash,
    /// The client address that listed it.
    by: String,
    /// When its host last said it was there (Unix ms).
    refreshed: u64,
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

impl Hall {
    pub fn new(gone_after: Duration, fresh: Duration) -> Hall {
        Hall {
            gone_after: ms(gone_after),
            fresh: ms(fresh),
            inside: Mutex::new(Inside::default()),
        }
    }

    fn inside(&self) -> std::sync::MutexGuard<'_, Inside> {
        self.inside.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where `ticket` stands, counting it as there now, and pairing its queue.
    fn stand(&self, inside: &mut Inside, ticket: &str, now: u64) -> Asked {
        // The silent go first, this ticket too if its page was silent too long: it is not revived.
        let dropped = self.sweep(inside, now);
        let only = |standing| Asked {
            dropped,
            ..Asked::only(standing)
        };
        let Some(entry) = inside.tickets.get_mut(ticket) else {
            return only(Standing::Gone);
        };
        match &entry.state {
            State::Seated { place, .. } => return only(Standing::Seated(place.clone())),
            State::Forming { at, .. } if now.saturating_sub(*at) < ms(FORMING_LIMIT) => {
                entry.seen = now;
                return only(Standing::Forming);
            }
            _ => {}
        }
        entry.seen = now;
        entry.state = State::Waiting;
        let (game, length, needed, since) = (entry.game, entry.length, entry.needed, entry.since);
        let mut queue: Vec<(u64, String)> = inside
            .tickets
            .iter()
            .filter(|(_, t)| {
                matches!(t.state, State::Waiting) && t.game == game && t.length == length
            })
            .map(|(id, t)| (t.since, id.clone()))
            .collect();
        queue.sort();
        queue.truncate(QUEUE_READ);
        let live = queue.len();
        let queue_asked = Some((game.to_string(), length));
        if live < needed {
            return Asked {
                standing: Standing::Waiting {
                    waiting: live,
                    since,
                },
                formed: None,
                queue: queue_asked,
                dropped,
            };
        }
        queue.truncate(needed);
        let id = random_id();
        for (_, t) in &queue {
            if let Some(entry) = inside.tickets.get_mut(t) {
                entry.state = State::Forming {
                    id: id.clone(),
                    at: now,
                };
            }
        }
        let standing = if queue.iter().any(|(_, t)| t == ticket) {
            Standing::Forming
        } else {
            Standing::Waiting {
                waiting: live - needed,
                since,
            }
        };
        Asked {
            standing,
            formed: Some(Formation {
                id,
                game: game.to_string(),
                length,
                since: queue.iter().map(|(s, _)| *s).collect(),
                keys: queue
                    .iter()
                    .filter_map(|(_, t)| inside.tickets.get(t).map(|e| e.key.clone()))
                    .collect(),
                tickets: queue.into_iter().map(|(_, t)| t).collect(),
                left: live - needed,
            }),
            queue: queue_asked,
            dropped,
        }
    }

    /// Forgets the listings whose host has not said it was there within the fresh time.
    fn forget_stale(&self, inside: &mut Inside, now: u64) {
        let fresh = self.fresh;
        inside
            .listings
            .retain(|_, l| now.saturating_sub(l.refreshed) < fresh);
    }

    /// Forgets the tickets whose page stopped asking (answers how many of them were waiting) and the
    /// places kept long enough.
    fn sweep(&self, inside: &mut Inside, now: u64) -> usize {
        let gone_after = self.gone_after;
        let mut dropped = 0;
        inside.tickets.retain(|_, t| match &t.state {
            State::Seated { at, .. } => now.saturating_sub(*at) < ms(PLACE_KEPT),
            state => {
                let kept = now.saturating_sub(t.seen) < gone_after;
                dropped += usize::from(!kept && matches!(state, State::Waiting));
                kept
            }
        });
        let tickets = &inside.tickets;
        inside.browsers.retain(|_, t| tickets.contains_key(t));
        dropped
    }
}

impl Lobby for Hall {
    fn enter<'a>(
        &'a self,
        ticket: &'a str,
        entering: &'a Entering,
        now: u64,
    ) -> BoxFuture<'a, Result<Asked, TableRefusal>> {
        let mut inside = self.inside();
        if let Some(old) = inside
            .browsers
            .insert(entering.browser.clone(), ticket.to_string())
        {
            inside.tickets.remove(&old);
        }
        inside.tickets.insert(
            ticket.to_string(),
            Ticket {
                game: entering.game,
                length: entering.length,
                needed: entering.needed,
                browser: entering.browser.clone(),
                key: entering.key.clone(),
                since: now,
                seen: now,
                state: State::Waiting,
            },
        );
        let asked = self.stand(&mut inside, ticket, now);
        ready(Ok(asked)).boxed()
    }

    fn ask<'a>(&'a self, ticket: &'a str, now: u64) -> BoxFuture<'a, Result<Asked, TableRefusal>> {
        let mut inside = self.inside();
        let asked = self.stand(&mut inside, ticket, now);
        ready(Ok(asked)).boxed()
    }

    fn seat<'a>(
        &'a self,
        formation: &'a Formation,
        places: &'a [Place],
    ) -> BoxFuture<'a, Result<bool, TableRefusal>> {
        let mut inside = self.inside();
        let still = formation.tickets.iter().all(|t| {
            inside.tickets.get(t).is_some_and(
                |entry| matches!(&entry.state, State::Forming { id, .. } if *id == formation.id),
            )
        });
        if still {
            let now = formation_time(&inside, formation);
            for (t, place) in formation.tickets.iter().zip(places) {
                if let Some(entry) = inside.tickets.get_mut(t) {
                    entry.state = State::Seated {
                        place: place.clone(),
                        at: now,
                    };
                }
            }
        }
        ready(Ok(still)).boxed()
    }

    fn unform<'a>(&'a self, formation: &'a Formation) -> BoxFuture<'a, Result<(), TableRefusal>> {
        let mut inside = self.inside();
        for t in &formation.tickets {
            if let Some(entry) = inside.tickets.get_mut(t) {
                if matches!(&entry.state, State::Forming { id, .. } if *id == formation.id) {
                    entry.state = State::Waiting;
                }
            }
        }
        ready(Ok(())).boxed()
    }

    fn leave<'a>(&'a self, ticket: &'a str) -> BoxFuture<'a, Result<bool, TableRefusal>> {
        let mut inside = self.inside();
        let left = match inside.tickets.get(ticket).map(|t| &t.state) {
            Some(State::Seated { .. }) | None => false,
            Some(_) => {
                if let Some(entry) = inside.tickets.remove(ticket) {
                    inside.browsers.remove(&entry.browser);
                }
                true
            }
        };
        ready(Ok(left)).boxed()
    }

    fn list<'a>(
        &'a self,
        listing: &'a Listing,
        host: &'a TokenHash,
        by: &'a str,
    ) -> BoxFuture<'a, Result<bool, TableRefusal>> {
        let mut inside = self.inside();
        self.forget_stale(&mut inside, listing.since);
        let theirs = inside.listings.values().filter(|l| l.by == by).count();
        if theirs >= LISTED_PER_ADDRESS {
            return ready(Ok(false)).boxed();
        }
        let listed = Listed {
            listing: listing.clone(),
            host: host.clone(),
            by: by.to_string(),
            refreshed: listing.since,
        };
        inside.listings.insert(listing.table.clone(), listed);
        ready(Ok(true)).boxed()
    }

    fn host<'a>(
        &'a self,
        table: &'a str,
        host: &'a TokenHash,
        close: bool,
        now: u64,
    ) -> BoxFuture<'a, Result<bool, TableRefusal>> {
        let mut inside = self.inside();
        self.forget_stale(&mut inside, now);
        let theirs = inside
            .listings
            .get_mut(table)
            .filter(|listed| listed.host.matches(host));
        let answer = match theirs {
            None => false,
            Some(_) if close => inside.listings.remove(table).is_some(),
            Some(listed) => {
                listed.refreshed = now;
                true
            }
        };
        ready(Ok(answer)).boxed()
    }

    fn took_seat<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<(), TableRefusal>> {
        let mut inside = self.inside();
        if let Some(listed) = inside.listings.get_mut(table) {
            listed.listing.taken += 1;
            if listed.listing.taken >= listed.listing.seats {
                inside.listings.remove(table);
            }
        }
        ready(Ok(())).boxed()
    }

    fn listed<'a>(
        &'a self,
        game: &'a str,
        now: u64,
    ) -> BoxFuture<'a, Result<Vec<Listing>, TableRefusal>> {
        let mut inside = self.inside();
        self.forget_stale(&mut inside, now);
        let mut listed: Vec<Listing> = inside
            .listings
            .values()
            .filter(|l| l.listing.game == game)
            .map(|l| l.listing.clone())
            .collect();
        listed.sort_by(|a, b| (a.since, &a.table).cmp(&(b.since, &b.table)));
        listed.truncate(LISTED_AT_MOST);
        ready(Ok(listed)).boxed()
    }
}

/// When a formation was made: its places are kept from then.
fn formation_time(inside: &Inside, formation: &Formation) -> u64 {
    formation
        .tickets
        .iter()
        .find_map(|t| match inside.tickets.get(t).map(|e| &e.state) {
            Some(State::Forming { at, .. }) => Some(*at),
            _ => None,
        })
        .unwrap_or(0)
}
