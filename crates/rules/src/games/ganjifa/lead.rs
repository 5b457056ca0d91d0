//! Leading: the actions the ladder offers a leader, and playing the one chosen. A lead either keeps the
//! lead (run, utari: the others put down as many cards as were led and the leader takes them) or is a
//! call (deni, talafa, blind lead: the table plays the called suit's hukm for its holder, the third
//! seat puts down one card, and the hukm's holder takes the trick and leads).

use super::codes::Code;
use super::ladder::{hukm, run, Ladder, Rung};
use super::pack::{GCard, GSet, GSuit};
use super::state::{Action, PerSeat, Phase, State, Trick, TrickKind};
use crate::cards::Seat;
use crate::game::{RuleCode, RuleError};

/// The ladder of `leader` now.
pub fn ladder(state: &State, leader: Seat) -> Ladder {
    if let Some(memo) = &state.memo {
        if memo.hand == state.hands[leader]
            && memo.played == state.played
            && memo.burnt == state.burnt
            && memo.second_phase == state.second_phase
        {
            return memo.ladder;
        }
    }
    Ladder::of(
        state.hands[leader],
        state.unplayed(),
        state.burnt,
        state.second_phase,
    )
}

/// Every lead the ladder allows `leader`.
pub fn lead_actions(state: &State, leader: Seat) -> Vec<Action> {
    let ladder = ladder(state, leader);
    let mut actions = Vec::new();
    match ladder.rung() {
        Rung::Run => {
            for suit in GSuit::of_mask(ladder.run_suits()) {
                actions.push(Action::Run { suit });
            }
        }
        Rung::Deni => {
            for suit in GSuit::of_mask(ladder.deni) {
                let lower = state.hands[leader]
                    .of_suit(suit)
                    .minus(GSet::one(GCard::wazir(suit)));
                actions.extend(lower.iter().map(|card| Action::Deni { card }));
            }
            for suit in GSuit::of_mask(ladder.lone_wazir) {
                actions.push(Action::Deni {
                    card: GCard::wazir(suit),
                });
                actions.push(Action::Burn { suit });
            }
        }
        Rung::Choice | Rung::Blind => {
            for suit in GSuit::of_mask(ladder.talafa_suits()) {
                let callers = ladder.talafa[suit.index()];
                actions.extend(callers.iter().map(|card| Action::Talafa { suit, card }));
            }
            if ladder.hukms.is_empty() {
                actions.push(Action::GiveUpLead);
            } else if ladder.second_phase {
                let hukms: Vec<GCard> = ladder.hukms.iter().collect();
                for subset in 1u32..(1 << hukms.len()) {
                    let cards = hukms
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| subset & (1 << i) != 0)
                        .map(|(_, &c)| c)
                        .collect();
                    actions.push(Action::Utari { cards });
                }
            } else {
                actions.push(Action::Utari {
                    cards: ladder.hukms,
                });
            }
        }
    }
    actions
}

fn refuse(code: impl Into<RuleCode>, message: impl Into<String>) -> Result<(), RuleError> {
    Err(RuleError::new(code, message))
}

/// Why a lead on a lower rung is refused while a higher rung holds.
fn rung_first(ladder: &Ladder) -> Result<(), RuleError> {
    match ladder.rung() {
        Rung::Run => {
            let suit = GSuit::of_mask(ladder.run_suits())
                .next()
                .unwrap_or(GSuit::Taj);
            refuse(
                Code::RunFirst,
                format!(
                    "You hold the top cards of {} in a row: you must lead a run.",
                    suit.name()
                ),
            )
        }
        Rung::Deni => {
            let suit = GSuit::of_mask(ladder.deni | ladder.lone_wazir)
                .next()
                .unwrap_or(GSuit::Taj);
            refuse(
                Code::DeniFirst,
                format!(
                    "You hold the Wazir of {} and its Mir is in another hand: you must make a deni.",
                    suit.name()
                ),
            )
        }
        Rung::Choice | Rung::Blind => Ok(()),
    }
}

/// Leads the run held in `suit`: every card of it but its lowest.
fn lead_run(state: &mut State, leader: Seat, suit: GSuit) -> Result<(), RuleError> {
    let cards = run(state.hands[leader], state.unplayed(), state.burnt, suit);
    if cards.is_empty() {
        return refuse(
            Code::NoRun,
            format!(
                "You do not hold the top two unplayed cards of {}.",
                suit.name()
            ),
        );
    }
    start_trick(state, leader, cards, TrickKind::Run { suit });
    Ok(())
}

/// Checks and plays a lead.
pub fn apply_lead(state: &mut State, leader: Seat, action: &Action) -> Result<(), RuleError> {
    if let Action::Run { suit } = *action {
        // A run outranks every other rung, so only this suit needs weighing.
        return lead_run(state, leader, suit);
    }
    let ladder = ladder(state, leader);
    let hand = state.hands[leader];
    match *action {
        Action::Run { suit } => lead_run(state, leader, suit),
        Action::Deni { card } => {
            if ladder.rung() == Rung::Run {
                return rung_first(&ladder);
            }
            let suit = card.suit();
            let lone = ladder.lone_wazir & suit.bit() != 0;
            if ladder.deni & suit.bit() == 0 && !lone {
                return refuse(
                    Code::NoDeni,
                    format!(
                        "A deni needs the Wazir of {0} in your hand and its Mir in another.",
                        suit.name()
                    ),
                );
            }
            if !hand.contains(card) {
                return refuse(
                    RuleCode::NOT_IN_HAND,
                    format!("You do not hold {}.", card.describe()),
                );
            }
            if !lone && card == GCard::wazir(suit) {
                return refuse(
                    Code::DeniLowCard,
                    "You have a weaker card in that suit: the deni is made with it, and the Wazir stays in your hand.",
                );
            }
            start_call(state, leader, card, suit, TrickKind::Deni { suit })
        }
        Action::Burn { suit } => {
            if ladder.rung() == Rung::Run {
                return rung_first(&ladder);
            }
            if ladder.lone_wazir & suit.bit() == 0 {
                return refuse(
                    Code::NoBurn,
                    format!(
                        "Only a Wazir that is your one card of its suit, with its Mir in another hand, may burn; {} is not such a suit.",
                        suit.name()
                    ),
                );
            }
            state.burnt.insert(GCard::wazir(suit));
            state.remember_ladder();
            Ok(())
        }
        Action::Talafa { suit, card } => {
            rung_first(&ladder)?;
            let callers = ladder.talafa[suit.index()];
            if callers.is_empty() {
                return refuse(
                    Code::NoTalafa,
                    format!(
                        "A talafa in {0} needs its second-best unplayed card in your hand and the best in another.",
                        suit.name()
                    ),
                );
            }
            if !callers.contains(card) {
                let why = if !hand.contains(card) {
                    format!("You do not hold {}.", card.describe())
                } else if card.suit() == suit {
                    "Keep the card that gives you the talafa: call with a lower one.".to_string()
                } else {
                    "Calling with a card from a different suit is allowed only once the second phase has begun."
                        .to_string()
                };
                return refuse(Code::TalafaCard, why);
            }
            let face_down = card.suit() != suit;
            start_call(
                state,
                leader,
                card,
                suit,
                TrickKind::Talafa { suit, face_down },
            )
        }
        Action::Utari { cards } => {
            rung_first(&ladder)?;
            if cards.is_empty() || !ladder.hukms.includes(cards) {
                return refuse(
                    Code::UtariHukms,
                    "An utari leads hukms you hold, and at least one.",
                );
            }
            if !ladder.second_phase && cards != ladder.hukms {
                return refuse(
                    Code::UtariAll,
                    "In the first phase an utari leads every hukm you hold at once.",
                );
            }
            start_trick(state, leader, cards, TrickKind::Utari);
            Ok(())
        }
        Action::GiveUpLead => {
            rung_first(&ladder)?;
            if !ladder.hukms.is_empty() {
                return refuse(
                    Code::HoldHukm,
                    "You hold a hukm: only a hand without one may give up the lead.",
                );
            }
            let backs = state.shuffle_backs(leader);
            state.blind_leads += 1;
            state.phase = Phase::BlindPick { leader, backs };
            Ok(())
        }
        Action::PutDown { .. } | Action::Pick { .. } => refuse(
            Code::LeadExpected,
            "You have the lead: choose a lead the ladder allows.",
        ),
    }
}

/// A run or an utari: the leader puts `cards` down and each other seat owes as many.
fn start_trick(state: &mut State, leader: Seat, cards: GSet, kind: TrickKind) {
    let mut trick_cards = PerSeat::<GSet>::default();
    trick_cards[leader] = cards;
    state.hands[leader] = state.hands[leader].minus(cards);
    state.played = state.played.union(cards);
    let led = cards.len() as u8;
    let need = PerSeat::from_fn(|s| {
        if s == leader {
            0
        } else {
            led.min(state.hands[s].len() as u8)
        }
    });
    let trick = Trick {
        leader,
        kind,
        winner: leader,
        cards: trick_cards,
        face_down: None,
        need,
    };
    if trick.next_to_play().is_some() {
        state.phase = Phase::Trick(trick);
    } else {
        state.finish_trick(trick);
    }
}

/// A call in `suit` with `card` (face down when of another suit): the table plays the suit's hukm for
/// its holder, and the third seat owes one card. Refused, with nothing changed, if the hukm is not in
/// another hand (the ladder never lets that happen).
pub fn start_call(
    state: &mut State,
    leader: Seat,
    card: GCard,
    suit: GSuit,
    kind: TrickKind,
) -> Result<(), RuleError> {
    let top = hukm(state.unplayed().minus(GSet::one(card)), state.burnt, suit);
    let holder = top.and_then(|c| state.holder(c)).filter(|&s| s != leader);
    let (Some(top), Some(holder)) = (top, holder) else {
        debug_assert!(false, "a call in {suit:?} found no hukm in another hand");
        return refuse(
            Code::NoHukmOut,
            format!("No other hand holds the hukm of {}.", suit.name()),
        );
    };
    let face_down = card.suit() != suit;
    let mut cards = PerSeat::<GSet>::default();
    cards[leader].insert(card);
    cards[holder].insert(top);
    for (seat, played) in [(leader, card), (holder, top)] {
        state.hands[seat].remove(played);
        state.played.insert(played);
    }
    if face_down {
        state.face_down[leader].insert(card);
    }
    let need =
        PerSeat::from_fn(|s| u8::from(s != leader && s != holder && !state.hands[s].is_empty()));
    let trick = Trick {
        leader,
        kind,
        winner: holder,
        cards,
        face_down: face_down.then_some(card),
        need,
    };
    if trick.next_to_play().is_some() {
        state.phase = Phase::Trick(trick);
    } else {
        state.finish_trick(trick);
    }
    Ok(())
}
