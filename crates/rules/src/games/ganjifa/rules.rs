//! The truth of one Ganjifa deal and how it changes: the deal, the opening, tricks, calls, marks, the
//! second phase and the score. Leads are checked against the ladder in `lead.rs`.

use rand::seq::SliceRandom;
use rand::Rng;

use super::codes::Code;
use super::ladder::Ladder;
use super::pack::{GCard, GSet};
pub use super::state::{
    Action, Backs, LadderMemo, PerSeat, Phase, State, Time, Trick, TrickKind, SEATS, SHARE,
};
use crate::cards::{DealRng, Seat};
use crate::game::{DealSetup, RuleCode, RuleError};

/// A deal's roles from the match: the rotating dealer, and day for even-numbered deals.
pub fn roles(setup: &DealSetup) -> (Seat, Time) {
    let time = if setup.index.is_multiple_of(2) {
        Time::Day
    } else {
        Time::Night
    };
    (setup.rotating_seat(SEATS), time)
}

/// Deals until every hand holds a Mir: a Mir-less hand cancels the deal, and the dealer shuffles again.
pub fn deal(setup: &DealSetup, rng: &mut DealRng) -> State {
    deal_in_order(setup, rng).0
}

/// The deal, with the pack in the order that was dealt (the shuffle that dealt no void hand).
pub fn deal_in_order(setup: &DealSetup, rng: &mut DealRng) -> (State, Vec<GCard>) {
    let (dealer, time) = roles(setup);
    let mut pack: Vec<GCard> = GSet::PACK.iter().collect();
    loop {
        pack.shuffle(rng);
        let blind_seed = rng.gen();
        if let Some(state) = deal_from(dealer, time, &pack, blind_seed) {
            return (state, pack);
        }
    }
}

/// The seat the card at `position` of the pack goes to: batches of four, round from the seat after
/// the dealer.
pub fn dealt_to(dealer: Seat, position: usize) -> Seat {
    dealer.after(1 + (position / 4) % SEATS, SEATS)
}

/// The deal of `pack` in that order, or `None` when a hand would hold no Mir (a void deal).
/// Batches of four go round from the seat after the dealer; the opening and closing batch of every seat are
/// dealt open.
pub fn deal_from(dealer: Seat, time: Time, pack: &[GCard], blind_seed: u64) -> Option<State> {
    if pack.len() != 96 || pack.iter().copied().collect::<GSet>() != GSet::PACK {
        return None;
    }
    let mut hands = PerSeat::<GSet>::default();
    let mut face_up = GSet::EMPTY;
    for (batch, cards) in pack.chunks(4).enumerate() {
        let seat = dealt_to(dealer, 4 * batch);
        let open = batch < SEATS || batch >= pack.len() / 4 - SEATS;
        for &card in cards {
            hands[seat].insert(card);
            if open {
                face_up.insert(card);
            }
        }
    }
    if hands
        .0
        .iter()
        .any(|h| h.intersection(GSet::MIRS).is_empty())
    {
        return None;
    }
    Some(State::opening(dealer, time, hands, face_up, blind_seed))
}

impl State {
    /// The state at the opening: the table puts the opening Mir down for its holder, who adds one card;
    /// the other two seats then put down two each.
    pub fn opening(
        dealer: Seat,
        time: Time,
        mut hands: PerSeat<GSet>,
        face_up: GSet,
        blind_seed: u64,
    ) -> State {
        let mir = time.opening_mir();
        let opener = Seat::all(SEATS)
            .find(|&s| hands[s].contains(mir))
            .unwrap_or(dealer);
        let mut cards = PerSeat::<GSet>::default();
        let mut played = GSet::EMPTY;
        if hands[opener].contains(mir) {
            hands[opener].remove(mir);
            cards[opener].insert(mir);
            played.insert(mir);
        }
        let need = PerSeat::from_fn(|s| {
            let want = if s == opener { 1 } else { 2 };
            want.min(hands[s].len() as u8)
        });
        State {
            dealer,
            time,
            opener,
            hands,
            face_up,
            played,
            face_down: PerSeat::default(),
            burnt: GSet::EMPTY,
            won: PerSeat::default(),
            marks: PerSeat::default(),
            second_phase: false,
            phase: Phase::Trick(Trick {
                leader: opener,
                kind: TrickKind::Opening,
                winner: opener,
                cards,
                face_down: None,
                need,
            }),
            last_trick: None,
            blind_seed,
            blind_leads: 0,
            memo: None,
        }
    }

    /// A state where `leader` is to lead with these hands; every other card has been played
    /// (for scenarios and tests).
    pub fn at_lead(leader: Seat, time: Time, hands: PerSeat<GSet>) -> State {
        let held = hands.0.iter().fold(GSet::EMPTY, |all, &h| all.union(h));
        State {
            dealer: leader,
            time,
            opener: leader,
            hands,
            face_up: GSet::EMPTY,
            played: GSet::PACK.minus(held),
            face_down: PerSeat::default(),
            burnt: GSet::EMPTY,
            won: PerSeat::from_fn(|_| ((96 - held.len()) / SEATS) as u8),
            marks: PerSeat::default(),
            second_phase: false,
            phase: Phase::Lead { leader },
            last_trick: None,
            blind_seed: 0x6a09_e667_f3bc_c908,
            blind_leads: 0,
            memo: None,
        }
        .remembering_ladder()
    }

    /// Works out the ladder of the seat to lead, if any, and keeps it for the lead's checks and view.
    pub(super) fn remember_ladder(&mut self) {
        self.memo = match self.phase {
            Phase::Lead { leader } => Some(LadderMemo {
                hand: self.hands[leader],
                played: self.played,
                burnt: self.burnt,
                second_phase: self.second_phase,
                ladder: Ladder::of(
                    self.hands[leader],
                    self.unplayed(),
                    self.burnt,
                    self.second_phase,
                ),
            }),
            _ => None,
        };
    }

    fn remembering_ladder(mut self) -> State {
        self.remember_ladder();
        self
    }

    /// The cards still in some hand.
    pub fn unplayed(&self) -> GSet {
        GSet::PACK.minus(self.played)
    }

    /// The seat holding `card`, if it is in a hand.
    pub fn holder(&self, card: GCard) -> Option<Seat> {
        Seat::all(SEATS).find(|&s| self.hands[s].contains(card))
    }

    /// The seat that must act now.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Trick(trick) => trick.next_to_play(),
            Phase::Lead { leader } => Some(leader),
            Phase::BlindPick { leader, .. } => Some(leader.next(SEATS)),
            Phase::Over => None,
        }
    }

    /// Each seat's score once the deal is over: cards won minus its share of 32.
    pub fn scores(&self) -> Vec<i32> {
        self.won
            .0
            .iter()
            .map(|&w| i32::from(w) - SHARE as i32)
            .collect()
    }

    /// Checks and plays `action` for `seat`; on error nothing changes.
    pub fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), RuleError> {
        if self.phase == Phase::Over {
            return Err(RuleError::deal_over());
        }
        if self.to_act() != Some(seat) {
            return Err(RuleError::not_your_turn());
        }
        match self.phase {
            Phase::Trick(trick) => self.put_down(trick, seat, action),
            Phase::Lead { leader } => super::lead::apply_lead(self, leader, action),
            Phase::BlindPick { leader, backs } => self.pick(leader, backs, action),
            Phase::Over => Err(RuleError::deal_over()),
        }
    }

    /// Every action `seat` may take now.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        match self.phase {
            Phase::Trick(_) => self.hands[seat]
                .iter()
                .map(|card| Action::PutDown { card })
                .collect(),
            Phase::Lead { leader } => super::lead::lead_actions(self, leader),
            Phase::BlindPick { backs, .. } => {
                (0..backs.len).map(|back| Action::Pick { back }).collect()
            }
            Phase::Over => Vec::new(),
        }
    }

    fn put_down(&mut self, mut trick: Trick, seat: Seat, action: &Action) -> Result<(), RuleError> {
        let Action::PutDown { card } = *action else {
            return Err(RuleError::new(
                Code::PutDownExpected,
                format!(
                    "A trick is being played: put down {} more card{}, any cards you like.",
                    trick.need[seat],
                    if trick.need[seat] == 1 { "" } else { "s" }
                ),
            ));
        };
        if !self.hands[seat].contains(card) {
            return Err(RuleError::new(
                RuleCode::NOT_IN_HAND,
                format!("You do not hold {}.", card.describe()),
            ));
        }
        self.hands[seat].remove(card);
        self.played.insert(card);
        trick.cards[seat].insert(card);
        trick.need[seat] -= 1;
        if trick.next_to_play().is_some() {
            self.phase = Phase::Trick(trick);
        } else {
            self.finish_trick(trick);
        }
        Ok(())
    }

    /// The winner takes the cards; a leader who did not win gets a mark; the winner leads next.
    pub(super) fn finish_trick(&mut self, trick: Trick) {
        self.won[trick.winner] += trick.all_cards().len() as u8;
        if trick.kind != TrickKind::Opening && trick.winner != trick.leader {
            self.marks[trick.leader] += 1;
            if self.marks.0.iter().all(|&m| m > 0) {
                self.second_phase = true;
            }
        }
        self.last_trick = Some(trick);
        self.phase = if self.hands.0.iter().all(|h| h.is_empty()) {
            Phase::Over
        } else {
            Phase::Lead {
                leader: trick.winner,
            }
        };
        self.remember_ladder();
    }

    fn pick(&mut self, leader: Seat, backs: Backs, action: &Action) -> Result<(), RuleError> {
        let Action::Pick { back } = *action else {
            return Err(RuleError::new(
                Code::PickExpected,
                "Pick one of the hidden cards: it becomes a call in its own suit.",
            ));
        };
        let card = match backs.cards.get(back as usize) {
            Some(Some(card)) if back < backs.len => *card,
            _ => {
                return Err(RuleError::new(
                    Code::NoSuchBack,
                    format!("There are {} face-down cards to pick from.", backs.len),
                ))
            }
        };
        super::lead::start_call(
            self,
            leader,
            card,
            card.suit(),
            TrickKind::Blind {
                suit: card.suit(),
                back,
                nth: self.blind_leads.saturating_sub(1),
                laid: backs.len,
            },
        )
    }

    /// The leader's hand shuffled face down, drawn from the deal's stored seed and the count of blind
    /// leads so far.
    pub(super) fn shuffle_backs(&self, leader: Seat) -> Backs {
        let mut cards = [None; 32];
        let hand: Vec<GCard> = self.hands[leader].iter().take(32).collect();
        let mut order = hand.clone();
        let mut z = self
            .blind_seed
            .wrapping_add(u64::from(self.blind_leads).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        for i in (1..order.len()).rev() {
            z = splitmix(z);
            let j = (z % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        for (slot, card) in cards.iter_mut().zip(order) {
            *slot = Some(card);
        }
        Backs {
            cards,
            len: hand.len() as u8,
        }
    }
}

fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
