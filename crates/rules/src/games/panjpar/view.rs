//! What one seat may know (RULINGS.md, Panjpar 8), and the hints its board needs.
//!
//! A view is small and `Copy`, so computer players get theirs cheaply; the hints are only worked out
//! when the view is serialized for a board. They travel as codes with the facts a sentence needs (the
//! cards, the counts, the largest attack), not as sentences: the board words them in its own language
//! (English or Persian, `panjpar-words.js`), and a view sent after every move stays small.

use std::collections::BTreeMap;

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use crate::cards::{BySeat, Card, CardSet, Seat, Suit};

use super::battle::{beat_problem, beaters, largest_attack, AttackProblem, Battle};
use super::rules::{to_act, GuessMade, Phase, State, SEATS};

/// One seat's view of a deal (or a spectator's, with no hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// Whose view this is; `None` for a spectator.
    pub seat: Option<Seat>,
    pub phase: Phase,
    pub to_act: Option<Seat>,
    pub guesser: Seat,
    pub guess: Option<GuessMade>,
    /// This seat's cards (empty for a spectator, and before the guess).
    pub hand: CardSet,
    /// How many cards each seat holds.
    pub counts: BySeat<usize, SEATS>,
    /// The trump suit, once the guess has turned the trump card.
    pub trump: Option<Suit>,
    /// The trump card while it lies under the pile.
    pub trump_card: Option<Card>,
    /// Who drew the trump card, once it has been drawn.
    pub trump_drawn_by: Option<Seat>,
    /// Whether anything is left to draw; never how much.
    pub stock_left: bool,
    /// Who attacks (after the guess).
    pub attacker: Option<Seat>,
    /// The battle in progress.
    pub battle: Option<Battle>,
    /// The last finished battle, until the next attack starts.
    pub last_battle: Option<Battle>,
    /// Whether beaten cards lie out of play, face down (those of the last battle once it is cleared
    /// from the table): never which, nor how many, which would tell the pile's size (ruling 8).
    pub out_of_play: bool,
    /// Both hands, once the deal has ended.
    pub hands_shown: Option<BySeat<CardSet, SEATS>>,
    /// What this seat can do now, and why not where it cannot.
    pub hints: Hints,
}

/// Builds `seat`'s view of `state`.
pub fn view(state: &State, seat: Option<Seat>) -> View {
    let guessed = state.phase != Phase::Guess;
    let over = matches!(state.phase, Phase::Over { .. });
    let hand = match seat {
        Some(s) if guessed => state.hands[s],
        _ => CardSet::EMPTY,
    };
    let counts = if guessed {
        state.hands.map(|_, h| h.len())
    } else {
        BySeat::default()
    };
    View {
        seat,
        phase: state.phase,
        to_act: to_act(state),
        guesser: state.guesser,
        guess: state.guess,
        hand,
        counts,
        trump: guessed.then(|| state.trump()),
        trump_card: (guessed && state.stock_left()).then_some(state.trump_card),
        trump_drawn_by: state.trump_drawn_by,
        stock_left: state.stock_left(),
        attacker: guessed.then_some(state.attacker),
        battle: state.battle,
        last_battle: state.last_battle,
        out_of_play: !state
            .set_aside
            .minus(
                state
                    .last_battle
                    .map_or(CardSet::EMPTY, |b| b.cards_on_table()),
            )
            .is_empty(),
        hands_shown: over.then_some(state.hands),
        hints: Hints {
            seat,
            phase: state.phase,
            hand,
            trump: state.trump(),
            battle: state.battle,
            attacker: state.attacker,
            defender_holds: state.hands[state.defender()].len(),
        },
    }
}

/// Every card `seat` may know of now (RULINGS.md, Panjpar 8): its hand, the trump card while it lies
/// under the pile, the cards of the battle in progress and of the last one, and both hands once the deal
/// has ended. Nothing before the guess. Used to check views and frames against the truth.
pub fn visible_to(state: &State, seat: Option<Seat>) -> CardSet {
    if state.phase == Phase::Guess {
        return CardSet::EMPTY;
    }
    let mut seen = seat.map(|s| state.hands[s]).unwrap_or_default();
    if state.stock_left() {
        seen.insert(state.trump_card);
    }
    for battle in [state.battle, state.last_battle].into_iter().flatten() {
        seen = seen.union(battle.attack).union(battle.beating_cards());
    }
    if matches!(state.phase, Phase::Over { .. }) {
        seen = seen.union(state.hands.0[0]).union(state.hands.0[1]);
    }
    seen
}

/// The facts the hints are worked out from when serialized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hints {
    seat: Option<Seat>,
    phase: Phase,
    hand: CardSet,
    trump: Suit,
    battle: Option<Battle>,
    attacker: Seat,
    defender_holds: usize,
}

/// For one uncovered attack card: the hand cards that beat it, and the others by why not.
#[derive(Serialize)]
struct AttackCardHint {
    attack: Card,
    beaten_by: CardSet,
    not: NotBeaters,
}

/// The hand cards that do not beat an attack card, grouped by the code of why not
/// ([`super::battle::BeatProblem::code`]): a JSON object from each code to its cards, with only the
/// codes some card has. Grouped, a defender's view names each hand card once per attack card rather
/// than carrying a card and a code for each.
type NotBeaters = BTreeMap<&'static str, CardSet>;

/// For the attacker: the largest attack allowed, and why selections of each size are not attacks.
#[derive(Serialize)]
struct AttackHint {
    largest: usize,
    /// Whether the attack is capped below five by the other seat's cards, so that any larger
    /// selection is answered with the cap ([`AttackProblem::OverCap`]).
    capped: bool,
    /// The code ([`AttackProblem::code`]) for a selection of each size that is not an attack, none
    /// for a size that can be (index = number of cards).
    not_an_attack: Vec<Option<&'static str>>,
}

impl Hints {
    fn defend(&self) -> Option<Vec<AttackCardHint>> {
        let battle = self.battle?;
        if self.phase != Phase::Defend || self.seat != Some(self.attacker.next(SEATS)) {
            return None;
        }
        Some(
            battle
                .uncovered()
                .iter()
                .map(|attack| {
                    let mut not = NotBeaters::new();
                    for card in self.hand.iter() {
                        if let Some(problem) = beat_problem(attack, card, self.trump) {
                            not.entry(problem.code().as_str()).or_default().insert(card);
                        }
                    }
                    AttackCardHint {
                        attack,
                        beaten_by: beaters(attack, self.hand, self.trump),
                        not,
                    }
                })
                .collect(),
        )
    }

    fn attack(&self) -> Option<AttackHint> {
        if self.phase != Phase::Attack || self.seat != Some(self.attacker) {
            return None;
        }
        let largest = largest_attack(self.defender_holds, self.hand.len());
        let over_cap = AttackProblem::OverCap {
            defender_holds: self.defender_holds,
            most: largest,
        };
        let not_an_attack = (0..=self.hand.len().min(6))
            .map(|n| {
                let problem = match n {
                    0 => AttackProblem::Empty,
                    1 => return None,
                    3 if largest >= 3 => AttackProblem::ThreeNeedAPair,
                    5 if largest >= 5 => AttackProblem::FiveNeedTwoPairs,
                    3 | 5 => over_cap,
                    n => AttackProblem::BadSize(n),
                };
                Some(problem.code().as_str())
            })
            .collect();
        Some(AttackHint {
            largest,
            capped: largest < 5 && self.defender_holds < 5,
            not_an_attack,
        })
    }
}

impl Serialize for Hints {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A seat has at most one of the two hints (a waiting seat neither); a hint it lacks is left
        // out, and a page reads it as none.
        let mut s = serializer.serialize_struct("Hints", 3)?;
        match self.defend() {
            Some(defend) => s.serialize_field("defend", &defend)?,
            None => s.skip_field("defend")?,
        }
        match self.attack() {
            Some(attack) => s.serialize_field("attack", &attack)?,
            None => s.skip_field("attack")?,
        }
        s.serialize_field(
            "can_pick_up",
            &(self.phase == Phase::Defend && self.seat == Some(self.attacker.next(SEATS))),
        )?;
        s.end()
    }
}
