//! The computers' turns: a computer that searches thinks away from the table (an [`Effect::Think`])
//! inside the move delay, a quick one chooses in place once its timer runs out, and a move made for a
//! version the table has left is dropped. The [`Computers`] part keeps their generator, the version
//! they were last asked on, and at a guided table the hold on their first move until the guide has
//! spoken. A computer's move after a round closed (a trick, a battle) waits three delays, not one.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};

use super::super::seats::Occupant;
use super::{Count, Effect, Status, TableCore, TableKind, Then, Timer};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::{BotRng, Game};

/// How long the computers of a guided deal wait for the guide's first words at the most: a page that
/// never says them holds the table up no longer.
const GUIDE_WAIT: Duration = Duration::from_secs(10);

/// How many move delays a computer waits before the move after a round closed ([`Game::round_closed`]):
/// the taken trick or the ended battle stays on the table that much longer for the people to see.
const ROUND_CLOSED_DELAYS: u32 = 3;

/// The computers' generator, and the version a move has been asked for and not yet played, so that
/// one change never asks twice.
#[derive(Debug)]
pub(super) struct Computers {
    rng: BotRng,
    asked: Option<u64>,
    /// At a guided table, until its page says the guide has spoken: no computer moves yet.
    held: Hold,
}

/// Whether the computers wait for a guide's first words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hold {
    None,
    /// Held, and the wait's end not yet set.
    Held,
    /// Held, with the wait's end set (an [`Effect::Wake`] of [`Timer::GuideWait`]).
    Waiting,
}

impl Computers {
    /// Seeded from the table's own generator.
    pub(super) fn new(seed: u64) -> Computers {
        Computers {
            rng: BotRng::seed_from_u64(seed),
            asked: None,
            held: Hold::None,
        }
    }

    /// Holds the computers' first move until the guide has spoken (see [`TableCore::guided`]).
    fn hold(&mut self) {
        self.held = Hold::Held;
    }

    /// Lets the computers move; true when they were held.
    pub(super) fn release(&mut self) -> bool {
        std::mem::replace(&mut self.held, Hold::None) != Hold::None
    }

    /// Whether a move may be asked on `version` (none has been yet).
    pub(super) fn may_ask(&self, version: u64) -> bool {
        self.asked != Some(version)
    }

    /// A move has been asked on `version`.
    pub(super) fn asked(&mut self, version: u64) {
        self.asked = Some(version);
    }

    /// The move asked will not be played (the table paused or moved on): the next wake asks again.
    pub(super) fn forget_asked(&mut self) {
        self.asked = None;
    }

    /// A seed for a search thought away from the table.
    pub(super) fn seed(&mut self) -> u64 {
        self.rng.gen()
    }

    /// The generator a computer choosing in place draws from.
    pub(super) fn rng(&mut self) -> &mut BotRng {
        &mut self.rng
    }
}

impl<G: Game> TableCore<G> {
    /// Guides the first deal of this computer table: its computers make no move until the seat's
    /// page says the guide has said its first words (`guide-shown`), the person plays, or
    /// `GUIDE_WAIT` has passed since a computer's turn came. A table rebuilt from its store is not
    /// held (its page has shown the guide before).
    pub fn guided(mut self, guided: bool) -> Self {
        if guided && self.kind == TableKind::Computer {
            self.computers.hold();
        }
        self
    }

    /// The guide has spoken (or its wait is over): a computer whose turn it is moves after its delay.
    pub(super) fn guide_shown(&mut self) {
        if self.computers.release() {
            self.wake_computer();
        }
    }

    /// When it is a computer's turn: a computer that searches starts thinking at once, and its move
    /// is shown no sooner than `bot_delay` after its turn began, so the thinking counts inside the
    /// delay a person sees; a quick computer is woken after the delay and chooses in place.
    pub(super) fn wake_computer(&mut self) {
        if self.status() != Status::Playing || self.paused() {
            return;
        }
        let Some(seat) = self.state.as_ref().and_then(G::to_act) else {
            return;
        };
        if !matches!(self.seats[seat.index()], Occupant::Computer(_))
            || !self.computers.may_ask(self.version)
        {
            return;
        }
        match self.computers.held {
            Hold::None => {}
            Hold::Held => {
                self.computers.held = Hold::Waiting;
                self.effects
                    .push(Effect::Wake(GUIDE_WAIT, Timer::GuideWait));
                return;
            }
            Hold::Waiting => return,
        }
        let version = self.version;
        self.computers.asked(version);
        let after = if self.state.as_ref().is_some_and(G::round_closed) {
            self.policy.bot_delay * ROUND_CLOSED_DELAYS
        } else {
            self.policy.bot_delay
        };
        if !self.ask_search(seat, version, after) {
            self.effects
                .push(Effect::Wake(after, Timer::Computer { seat, version }));
        }
    }

    /// Asks the computer at `seat` for its search on `version`, to be thought away from the table
    /// and played no sooner than `play_after` from now. False when the computer chooses in place.
    fn ask_search(&mut self, seat: Seat, version: u64, play_after: Duration) -> bool {
        let Some(state) = self.state.as_ref() else {
            return false;
        };
        let Occupant::Computer(bot) = &mut self.seats[seat.index()] else {
            return false;
        };
        let legal = G::legal_actions(state, seat);
        if legal.is_empty() {
            return false;
        }
        let view = G::view(state, Some(seat));
        let Some(search) = bot.search(&view, &legal) else {
            return false;
        };
        let seed = self.computers.seed();
        self.effects.push(Effect::Think {
            seat,
            version,
            search,
            seed,
            play_after,
        });
        true
    }

    /// Whether a computer's move made on `version` still fits the table. One that does not fit only
    /// because play is paused is asked again once it resumes.
    fn computer_may_move(&mut self, version: u64) -> bool {
        if self.version != version {
            return false;
        }
        let fits = self.status() == Status::Playing && !self.paused();
        if !fits {
            self.computers.forget_asked();
        }
        fits
    }

    /// The computer at `seat` moves on `version`, in the event that began at `now`.
    pub(super) fn computer_moves(&mut self, seat: Seat, version: u64, now: Instant) {
        if !self.computer_may_move(version) {
            return;
        }
        if self.ask_search(seat, version, Duration::ZERO) {
            return;
        }
        let Some(state) = self.state.as_ref() else {
            return;
        };
        let Occupant::Computer(bot) = &mut self.seats[seat.index()] else {
            return;
        };
        let legal = G::legal_actions(state, seat);
        if legal.is_empty() {
            return;
        }
        let view = G::view(state, Some(seat));
        let action = bot.choose(&view, &legal, self.computers.rng());
        // The core reads no clock: the shell times the event from its start.
        self.count(Count::ChoseInPlace { began: now });
        self.computer_plays(seat, version, action);
    }

    /// A computer's search (see [`Effect::Think`]) chose this action on `version`.
    pub fn thought(&mut self, seat: Seat, version: u64, action: G::Action) {
        self.computer_plays(seat, version, action);
    }

    /// Plays a computer's chosen action, unless the table has moved on since it was asked. A computer
    /// that finished thinking while the table paused moves again once it resumes.
    pub(super) fn computer_plays(&mut self, seat: Seat, version: u64, mut action: G::Action) {
        if !self.computer_may_move(version) {
            return;
        }
        let Some(state) = self.state.as_mut() else {
            return;
        };
        if let Err(e) = G::apply(state, seat, &action) {
            tracing::error!(table = %self.id, %e, "a computer chose a refused action; it plays its first legal one");
            let Some(first) = G::legal_actions(state, seat).into_iter().next() else {
                return;
            };
            action = first;
            if G::apply(state, seat, &action).is_err() {
                return;
            }
        }
        self.accepted(seat, action);
        self.commit(Then::Show);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_is_asked_once_until_the_ask_is_forgotten_and_seeds_follow_the_seed() {
        let mut computers = Computers::new(5);
        assert!(computers.may_ask(3));
        computers.asked(3);
        assert!(!computers.may_ask(3));
        assert!(computers.may_ask(4));
        computers.forget_asked();
        assert!(computers.may_ask(3));
        let seeds: Vec<u64> = (0..3).map(|_| computers.seed()).collect();
        let mut again = Computers::new(5);
        assert_eq!(seeds, (0..3).map(|_| again.seed()).collect::<Vec<u64>>());
        assert_ne!(seeds[0], Computers::new(6).seed());
    }
}
