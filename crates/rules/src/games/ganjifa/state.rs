//! What one Ganjifa deal is: the seats, day or night, the actions, the trick on the table, the phase
//! and the whole state. How it changes is in `rules.rs` (the deal, tricks, calls, marks, the score)
//! and `lead.rs` (leads, checked against the ladder).

use serde::{Deserialize, Serialize};

use super::ladder::Ladder;
use super::pack::{GCard, GSet, GSuit};
use crate::cards::{BySeat, Seat};

/// Seats at a Ganjifa table.
pub const SEATS: usize = 3;
/// Cards each seat is dealt, and its fair share of the pack.
pub const SHARE: usize = 32;

/// One value per seat of the table.
pub type PerSeat<T> = BySeat<T, SEATS>;

/// Day or night: which Mir opens the deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Time {
    Day,
    Night,
}

impl Time {
    /// The card that opens: the Mir of Surkh by day, of Safed by night.
    pub const fn opening_mir(self) -> GCard {
        match self {
            Time::Day => GCard::mir(GSuit::Surkh),
            Time::Night => GCard::mir(GSuit::Safed),
        }
    }
}

/// What a seat does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// Puts one card into the trick: in the opening, or following a run, an utari or a call.
    PutDown { card: GCard },
    /// Leads the run (dukkal) held in this suit: all of its cards except the weakest.
    Run { suit: GSuit },
    /// Calls with a card under a Wazir whose Mir is in another hand (or with a lone Wazir itself).
    Deni { card: GCard },
    /// Keeps a lone Wazir instead of calling with it: it burns, and the lead is weighed again.
    Burn { suit: GSuit },
    /// Calls in `suit` with `card`; a card from a different suit goes down hidden (second phase only).
    Talafa { suit: GSuit, card: GCard },
    /// Leads these hukms at once.
    Utari { cards: GSet },
    /// Gives up the lead: the hand is shuffled face down for the next seat to pick from.
    GiveUpLead,
    /// Picks the face-down card at this position of the leader's shuffled hand.
    Pick { back: u8 },
}

impl Action {
    /// A talafa called with a card of another suit: that card goes down hidden from the other seats.
    pub fn laid_face_down(&self) -> bool {
        matches!(self, Action::Talafa { suit, card } if card.suit() != *suit)
    }
}

/// What kind of trick is on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TrickKind {
    /// The first trick: the opening Mir with one card, two from each other seat.
    Opening,
    Run {
        suit: GSuit,
    },
    Utari,
    Deni {
        suit: GSuit,
    },
    Talafa {
        suit: GSuit,
        face_down: bool,
    },
    /// A blind lead: `back` is the face-down card the picker chose, of the `laid` cards of the
    /// leader's hand shuffled for the deal's blind lead number `nth` (from 0), so that a page can
    /// check the card it gave (and knows the hand's size where it missed a card played face down).
    Blind {
        suit: GSuit,
        back: u8,
        nth: u32,
        laid: u8,
    },
}

impl TrickKind {
    /// The called suit, for a call (deni, talafa, blind lead).
    pub const fn called(self) -> Option<GSuit> {
        match self {
            TrickKind::Deni { suit }
            | TrickKind::Talafa { suit, .. }
            | TrickKind::Blind { suit, .. } => Some(suit),
            _ => None,
        }
    }
}

/// A trick, in progress or finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Trick {
    pub leader: Seat,
    pub kind: TrickKind,
    /// Who takes it: the leader in the opening, a run and an utari; the hukm's holder in a call.
    pub winner: Seat,
    /// The cards each seat has put into it (a face-down card included: this is the truth).
    pub cards: PerSeat<GSet>,
    /// A talafa's face-down card, known only to its leader.
    pub face_down: Option<GCard>,
    /// How many cards each seat still has to put down.
    pub need: PerSeat<u8>,
}

impl Trick {
    /// The seat that puts down next, in table order from the leader.
    pub fn next_to_play(&self) -> Option<Seat> {
        (0..SEATS)
            .map(|step| self.leader.after(step, SEATS))
            .find(|&seat| self.need[seat] > 0)
    }

    /// Every card in the trick.
    pub fn all_cards(&self) -> GSet {
        self.cards
            .0
            .iter()
            .fold(GSet::EMPTY, |all, &c| all.union(c))
    }
}

/// The leader's hand shuffled face down for a blind lead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Backs {
    pub cards: [Option<GCard>; 32],
    pub len: u8,
}

/// Where the deal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "kebab-case")]
pub enum Phase {
    /// A trick is being played; the seats still owing cards put them down one at a time.
    Trick(Trick),
    /// `leader` must lead, as the ladder allows.
    Lead { leader: Seat },
    /// `leader` gave up the lead; the seat after picks one of its face-down cards.
    BlindPick { leader: Seat, backs: Backs },
    /// Every card has been played.
    Over,
}

/// The whole truth of one deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct State {
    pub dealer: Seat,
    pub time: Time,
    /// The seat that held the opening Mir.
    pub opener: Seat,
    pub hands: PerSeat<GSet>,
    /// The cards dealt open (the opening and closing batch of every seat); the table sees them while held.
    pub face_up: GSet,
    /// Every card that has left a hand.
    pub played: GSet,
    /// The cards each seat has played face down; nobody else ever learns them.
    pub face_down: PerSeat<GSet>,
    pub burnt: GSet,
    /// Cards won per seat.
    pub won: PerSeat<u8>,
    /// How often each seat has lost the lead.
    pub marks: PerSeat<u8>,
    pub second_phase: bool,
    pub phase: Phase,
    pub last_trick: Option<Trick>,
    /// Where the blind leads' shuffles come from, drawn at the deal, so that replays are exact.
    pub blind_seed: u64,
    pub blind_leads: u32,
    /// The leader's ladder, worked out once when the lead begins, with what it was worked out from.
    /// It is only a shortcut: `lead::ladder` works the ladder out afresh whenever the cards differ.
    #[serde(skip)]
    pub memo: Option<LadderMemo>,
}

/// A ladder with the cards it was worked out from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LadderMemo {
    pub hand: GSet,
    pub played: GSet,
    pub burnt: GSet,
    pub second_phase: bool,
    pub ladder: Ladder,
}
