//! What one seat may see (RULINGS Ganjifa 9): its hand, the face-up cards of the other hands, counts,
//! the trick, the cards it has seen played, marks, the phase, day or night, a tracker per suit, and the
//! hints its board needs. A face-down talafa card is shown to its owner only. Hints are small enums,
//! turned into sentences only when the view is serialized, so that self-play stays cheap.

use serde::ser::{SerializeSeq, SerializeStruct, Serializer};
use serde::Serialize;

use super::ladder::{order, Ladder, Rung};
use super::lead::ladder;
use super::pack::{GCard, GRank, GSet, GSuit};
use super::rules::{PerSeat, Phase, State, Time, Trick, TrickKind, SEATS};
use crate::cards::Seat;

/// Where the deal stands, as a board shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    Opening,
    Lead,
    Follow,
    BlindPick,
    Over,
}

/// A trick as one seat sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TrickView {
    pub leader: Seat,
    pub kind: TrickKind,
    pub winner: Seat,
    /// The cards each seat put in, as this seat may see them.
    pub cards: PerSeat<GSet>,
    /// The seat whose card lies face down, if any (its card is in `cards` only for that seat itself).
    pub face_down_by: Option<Seat>,
    /// Cards still owed per seat.
    pub need: PerSeat<u8>,
}

impl TrickView {
    fn of(trick: &Trick, seat: Option<Seat>) -> TrickView {
        let mut cards = trick.cards;
        let face_down_by = trick.face_down.map(|card| {
            if seat != Some(trick.leader) {
                cards[trick.leader].remove(card);
            }
            trick.leader
        });
        TrickView {
            leader: trick.leader,
            kind: trick.kind,
            winner: trick.winner,
            cards,
            face_down_by,
            need: trick.need,
        }
    }
}

/// Why a rung of the ladder is open or shut, for one lead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// One run: the cards held from the top, the ones to lead and the one kept.
    RunHeld {
        held: GSet,
        keep: GCard,
    },
    /// Runs in several suits.
    RunsHeld {
        suits: u8,
    },
    NoRun,
    RunFirst,
    DeniMust {
        suits: u8,
    },
    DeniLone {
        suits: u8,
    },
    NoDeni,
    DeniFirst,
    Choice {
        talafa: u8,
        hukms: u8,
        any_set: bool,
    },
    NoChoice,
    BlindMay,
    BlindMust,
    HoldHukm,
}

/// Words for a list of suits: "Taj", "Taj and Chang", "Taj, Safed and Chang".
fn suit_list(mask: u8) -> String {
    let names: Vec<&str> = GSuit::of_mask(mask).map(GSuit::name).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Words for cards of one suit: "the Mir and the Wazir of Taj".
fn card_list(cards: GSet) -> String {
    let Some(suit) = cards.first().map(GCard::suit) else {
        return String::new();
    };
    let names: Vec<String> = cards
        .iter()
        .map(|c| match c.rank() {
            GRank::Mir => "the Mir".to_string(),
            GRank::Wazir => "the Wazir".to_string(),
            GRank::Number(n) => format!("the {n}"),
        })
        .collect();
    let words = match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    };
    format!("{words} of {}", suit.name())
}

impl Why {
    /// The sentence the board shows.
    pub fn sentence(self) -> String {
        match self {
            Why::RunHeld { held, keep } => format!(
                "you hold {} at the top of the suit: you must lead that run, {}, and keep {}",
                card_list(held),
                card_list(held.minus(GSet::one(keep))),
                keep.describe()
            ),
            Why::RunsHeld { suits } => format!(
                "you hold runs in {}: you must lead one of them, all of it but its lowest card",
                suit_list(suits)
            ),
            Why::NoRun => "you do not hold the top two unplayed cards of any suit".into(),
            Why::RunFirst => "you hold a run, and the run comes first".into(),
            Why::DeniMust { suits } => format!(
                "in {0} you hold the Wazir with a weaker card beside it, and the Mir sits in another hand: a deni is due, made with one of the weaker cards",
                suit_list(suits)
            ),
            Why::DeniLone { suits } => format!(
                "in {} your only card is the Wazir and the Mir is in another hand: call with the Wazir, or keep it and it burns",
                suit_list(suits)
            ),
            Why::NoDeni => "you hold no Wazir whose Mir is in another hand".into(),
            Why::DeniFirst => "you must make a deni first".into(),
            Why::Choice {
                talafa,
                hukms,
                any_set,
            } => {
                let mut parts = Vec::new();
                if talafa != 0 {
                    parts.push(format!("a talafa in {}", suit_list(talafa)));
                }
                if hukms > 0 {
                    parts.push(format!(
                        "an utari of your {hukms} hukm{}{}",
                        if hukms == 1 { "" } else { "s" },
                        match (hukms, any_set) {
                            (1, _) => "",
                            (_, true) => " (as many of them as you like)",
                            (_, false) => " (all of them at once)",
                        }
                    ));
                }
                format!("you may make {}", parts.join(" or "))
            }
            Why::NoChoice => "you hold no hukm and no talafa is open to you".into(),
            Why::BlindMay => {
                "with no hukm in your hand you may hand over the lead blind rather than make a talafa".into()
            }
            Why::BlindMust => "you hold no hukm and no talafa is open: you must give up the lead, and the next seat picks one of your cards face down".into(),
            Why::HoldHukm => "you hold a hukm, so the blind lead is not open to you".into(),
        }
    }
}

/// One rung of the ladder for this lead: open or not, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RungHint {
    pub rung: Rung,
    pub allowed: bool,
    pub why: Why,
}

impl Serialize for RungHint {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("RungHint", 4)?;
        s.serialize_field("rung", &self.rung)?;
        s.serialize_field("allowed", &self.allowed)?;
        s.serialize_field("why", &self.why.sentence())?;
        s.serialize_field("reason", &self.why)?;
        s.end()
    }
}

/// The suits of a one-byte set, as the wire names them: `["taj", "chang"]`.
fn suits_of(mask: u8) -> Vec<GSuit> {
    GSuit::of_mask(mask).collect()
}

/// The reason as values, for a board that words it in another language than the sentence's: `say`
/// names it (kebab-case, as the variant), with the suits, cards and counts it is about.
impl Serialize for Why {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Why", 4)?;
        match *self {
            Why::RunHeld { held, keep } => {
                s.serialize_field("say", "run-held")?;
                s.serialize_field("lead", &held.minus(GSet::one(keep)))?;
                s.serialize_field("keep", &keep)?;
            }
            Why::RunsHeld { suits } => {
                s.serialize_field("say", "runs-held")?;
                s.serialize_field("suits", &suits_of(suits))?;
            }
            Why::NoRun => s.serialize_field("say", "no-run")?,
            Why::RunFirst => s.serialize_field("say", "run-first")?,
            Why::DeniMust { suits } => {
                s.serialize_field("say", "deni-must")?;
                s.serialize_field("suits", &suits_of(suits))?;
            }
            Why::DeniLone { suits } => {
                s.serialize_field("say", "deni-lone")?;
                s.serialize_field("suits", &suits_of(suits))?;
            }
            Why::NoDeni => s.serialize_field("say", "no-deni")?,
            Why::DeniFirst => s.serialize_field("say", "deni-first")?,
            Why::Choice {
                talafa,
                hukms,
                any_set,
            } => {
                s.serialize_field("say", "choice")?;
                s.serialize_field("talafa", &suits_of(talafa))?;
                s.serialize_field("hukms", &hukms)?;
                s.serialize_field("any_set", &any_set)?;
            }
            Why::NoChoice => s.serialize_field("say", "no-choice")?,
            Why::BlindMay => s.serialize_field("say", "blind-may")?,
            Why::BlindMust => s.serialize_field("say", "blind-must")?,
            Why::HoldHukm => s.serialize_field("say", "hold-hukm")?,
        }
        s.end()
    }
}

/// The four rungs for the leader: run, deni, choice (talafa or utari), blind lead.
pub fn lead_hints(ladder: &Ladder, unplayed: GSet, burnt: GSet) -> [RungHint; 4] {
    let rung = ladder.rung();
    let runs = ladder.run_suits();
    let run = if runs.count_ones() == 1 {
        let suit = GSuit::of_mask(runs).next().unwrap_or(GSuit::Taj);
        let led = ladder.runs[suit.index()];
        // The card kept is the next one down the suit's order after those led.
        let kept = order(unplayed, burnt, suit).find(|&c| !led.contains(c));
        match kept {
            Some(keep) => Why::RunHeld {
                held: led.union(GSet::one(keep)),
                keep,
            },
            None => Why::RunsHeld { suits: runs },
        }
    } else if runs != 0 {
        Why::RunsHeld { suits: runs }
    } else {
        Why::NoRun
    };
    let deni = if rung == Rung::Run {
        Why::RunFirst
    } else if ladder.deni != 0 {
        Why::DeniMust { suits: ladder.deni }
    } else if ladder.lone_wazir != 0 {
        Why::DeniLone {
            suits: ladder.lone_wazir,
        }
    } else {
        Why::NoDeni
    };
    let choice = match rung {
        Rung::Run => Why::RunFirst,
        Rung::Deni => Why::DeniFirst,
        Rung::Choice => Why::Choice {
            talafa: ladder.talafa_suits(),
            hukms: ladder.hukms.len() as u8,
            any_set: ladder.second_phase,
        },
        Rung::Blind => Why::NoChoice,
    };
    let blind = match rung {
        Rung::Run => Why::RunFirst,
        Rung::Deni => Why::DeniFirst,
        Rung::Choice if !ladder.hukms.is_empty() => Why::HoldHukm,
        Rung::Choice => Why::BlindMay,
        Rung::Blind => Why::BlindMust,
    };
    [
        RungHint {
            rung: Rung::Run,
            allowed: rung == Rung::Run,
            why: run,
        },
        RungHint {
            rung: Rung::Deni,
            allowed: rung == Rung::Deni,
            why: deni,
        },
        RungHint {
            rung: Rung::Choice,
            allowed: rung == Rung::Choice,
            why: choice,
        },
        RungHint {
            rung: Rung::Blind,
            allowed: ladder.blind_open(),
            why: blind,
        },
    ]
}

/// Each suit's tracker from one seat's knowledge: the ranks it has not seen played, strongest first.
/// Ranks only (no card codes): the tracker tells what may still be out, never where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tracker {
    /// Cards this seat has not seen leave a hand.
    pub out: GSet,
    pub burnt: GSet,
}

struct SuitTracker(GSuit, Tracker);

impl Serialize for SuitTracker {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let SuitTracker(suit, tracker) = self;
        // Ranks alone ("M", "W", "10"): the tracker tells what may still be out, never where.
        let ranks: Vec<&str> = order(tracker.out, tracker.burnt, *suit)
            .map(|card| card.rank().code())
            .collect();
        let mut s = serializer.serialize_struct("SuitTracker", 4)?;
        s.serialize_field("suit", suit)?;
        s.serialize_field("high", if suit.ten_high() { "ten" } else { "one" })?;
        s.serialize_field("out", &ranks)?;
        s.serialize_field("burnt", &!tracker.burnt.of_suit(*suit).is_empty())?;
        s.end()
    }
}

impl Serialize for Tracker {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(8))?;
        for suit in GSuit::ALL {
            seq.serialize_element(&SuitTracker(suit, *self))?;
        }
        seq.end()
    }
}

/// Everything one seat (or a spectator) may know now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub seat: Option<Seat>,
    pub dealer: Seat,
    pub time: Time,
    /// The Mir that opens this deal.
    pub opening_mir: GCard,
    pub stage: Stage,
    pub to_act: Option<Seat>,
    pub second_phase: bool,
    /// This seat's hand (empty for a spectator).
    pub hand: GSet,
    /// The face-up cards still in each hand.
    pub face_up: PerSeat<GSet>,
    pub counts: PerSeat<u8>,
    pub won: PerSeat<u8>,
    pub marks: PerSeat<u8>,
    pub trick: Option<TrickView>,
    pub last_trick: Option<TrickView>,
    /// The played cards this seat has seen.
    pub played: GSet,
    /// How many played cards lie face down, unseen by this seat.
    pub hidden_played: u8,
    pub burnt: GSet,
    pub tracker: Tracker,
    /// For the seat to lead: every rung, open or not, and why.
    pub lead_hints: Option<[RungHint; 4]>,
    /// For the seat to put down: how many cards it still owes in this trick.
    pub to_put_down: u8,
    /// For the seat picking in a blind lead: how many face-down cards it picks from.
    pub backs: u8,
    /// Cards won minus 32, once the deal is over.
    pub scores: Option<PerSeat<i32>>,
}

/// The cards `seat` (None: a spectator) may know of now: its own hand and face-down cards, the face-up
/// cards of the other hands, every card played face up, and the burnt cards (a burnt Wazir is announced
/// to the table, since its rank changes for everyone). Used to check views and frames against the truth.
pub fn visible_to(state: &State, seat: Option<Seat>) -> GSet {
    let mut hidden_played = GSet::EMPTY;
    let mut visible = GSet::EMPTY;
    for s in Seat::all(SEATS) {
        if Some(s) == seat {
            visible = visible.union(state.hands[s]).union(state.face_down[s]);
        } else {
            visible = visible.union(state.hands[s].intersection(state.face_up));
            hidden_played = hidden_played.union(state.face_down[s]);
        }
    }
    visible
        .union(state.played.minus(hidden_played))
        .union(state.burnt)
}

/// The view of `seat` (`None`: a spectator).
pub fn view(state: &State, seat: Option<Seat>) -> View {
    // A seat the table does not have sees what a spectator sees.
    let seat = seat.filter(|s| s.index() < SEATS);
    let mut unseen_face_down = GSet::EMPTY;
    for s in Seat::all(SEATS) {
        if Some(s) != seat {
            unseen_face_down = unseen_face_down.union(state.face_down[s]);
        }
    }
    let played = state.played.minus(unseen_face_down);
    let hand = seat.map_or(GSet::EMPTY, |s| state.hands[s]);
    let to_act = state.to_act();
    let acting = to_act.is_some() && to_act == seat;
    let (stage, trick, lead_hints, to_put_down, backs) = match state.phase {
        Phase::Trick(trick) => (
            if trick.kind == TrickKind::Opening {
                Stage::Opening
            } else {
                Stage::Follow
            },
            Some(TrickView::of(&trick, seat)),
            None,
            seat.map_or(0, |s| trick.need[s]),
            0,
        ),
        Phase::Lead { leader } => (
            Stage::Lead,
            None,
            acting.then(|| lead_hints(&ladder(state, leader), state.unplayed(), state.burnt)),
            0,
            0,
        ),
        Phase::BlindPick { backs, .. } => (
            Stage::BlindPick,
            None,
            None,
            0,
            if acting { backs.len } else { 0 },
        ),
        Phase::Over => (Stage::Over, None, None, 0, 0),
    };
    View {
        seat,
        dealer: state.dealer,
        time: state.time,
        opening_mir: state.time.opening_mir(),
        stage,
        to_act,
        second_phase: state.second_phase,
        hand,
        face_up: state.hands.map(|_, h| h.intersection(state.face_up)),
        counts: state.hands.map(|_, h| h.len() as u8),
        won: state.won,
        marks: state.marks,
        trick,
        last_trick: state.last_trick.map(|t| TrickView::of(&t, seat)),
        played,
        hidden_played: unseen_face_down.len() as u8,
        burnt: state.burnt,
        tracker: Tracker {
            // Once every hand is empty nothing is out any more, the cards played face down included.
            out: if Seat::all(SEATS).all(|s| state.hands[s].is_empty()) {
                GSet::EMPTY
            } else {
                GSet::PACK.minus(played)
            },
            burnt: state.burnt,
        },
        lead_hints,
        to_put_down,
        backs,
        scores: (state.phase == Phase::Over)
            .then(|| PerSeat::from_fn(|s| i32::from(state.won[s]) - 32)),
    }
}
