//! Panjpar's rules: the guess, the deal, attacks, beating, the draw and the end of a deal.
//!
//! A deal runs through explicit phases: `Guess` (one seat calls red or black), then battles, each an
//! `Attack` (the attacker lays 1, 3 or 5 cards) followed by `Defend` (the defender beats cards one at a
//! time, or picks up what is left), until the deal is `Over`.

use serde::{Deserialize, Serialize};

use super::codes::Code;
use crate::cards::{BySeat, Card, CardSet, Colour, DealRng, Rank, Seat, Suit};
use crate::game::{DealOutcome, DealSetup, DealtTo, RuleCode, RuleError};

use super::battle::{attack_problem, beat_problem, largest_attack, separate_pairs, Battle};

/// A hand is refilled to this many cards while anything is left to draw.
pub const HAND_SIZE: usize = 5;
pub const SEATS: usize = 2;

/// What a seat can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// The guesser calls the trump card's colour.
    Guess { colour: Colour },
    /// The attacker lays 1, 3 or 5 cards.
    Attack { cards: CardSet },
    /// The defender covers one attack card.
    Beat { attack: Card, with: Card },
    /// The defender ends the battle, taking every attack card still uncovered.
    PickUp,
}

/// Where the deal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "name", rename_all = "kebab-case")]
pub enum Phase {
    /// The guesser is to call the colour; nothing has been shown yet.
    Guess,
    /// The attacker is to lay an attack.
    Attack,
    /// The defender is to beat attack cards or pick up.
    Defend,
    /// The deal has ended: a winner, or `None` for a drawn deal.
    Over { winner: Option<Seat> },
}

/// The guess and whether it was right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GuessMade {
    pub colour: Colour,
    pub right: bool,
}

/// The whole truth of one deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct State {
    pub phase: Phase,
    pub guesser: Seat,
    pub guess: Option<GuessMade>,
    pub hands: BySeat<CardSet, SEATS>,
    /// The face-down cards still to draw; the next one drawn is the last.
    pub pile: Vec<Card>,
    /// The face-up card under the pile: its suit is trump, and it is drawn last.
    pub trump_card: Card,
    /// The seat that drew the trump card, once it has been drawn.
    pub trump_drawn_by: Option<Seat>,
    /// Who lays the next attack (or the current one).
    pub attacker: Seat,
    /// The battle in progress.
    pub battle: Option<Battle>,
    /// The last finished battle, shown until the next attack starts.
    pub last_battle: Option<Battle>,
    /// Cards out of play: beaten attack cards and the cards that beat them.
    pub set_aside: CardSet,
}

impl State {
    pub fn trump(&self) -> Suit {
        self.trump_card.suit()
    }

    /// Whether anything is left to draw (the face-down pile or the trump card under it).
    pub fn stock_left(&self) -> bool {
        self.trump_drawn_by.is_none()
    }

    pub fn defender(&self) -> Seat {
        self.attacker.next(SEATS)
    }

    /// Every card, wherever it is; always the 52 of the deck.
    pub fn all_cards(&self) -> CardSet {
        let mut all = self.hands[Seat::new(0)]
            .union(self.hands[Seat::new(1)])
            .union(self.set_aside);
        for card in &self.pile {
            all.insert(*card);
        }
        if self.stock_left() {
            all.insert(self.trump_card);
        }
        if let Some(battle) = &self.battle {
            all = all.union(battle.cards_on_table());
        }
        all
    }
}

/// Deals: five cards each, the next card turned for trump, the rest face down over it. The guesser is
/// the deal's rotating seat; hands and trump stay hidden from the view until the guess is made.
pub fn deal(setup: &DealSetup, rng: &mut DealRng) -> State {
    deal_from(setup, &crate::cards::shuffled_deck(rng))
}

/// The trump card's place in a deal's order.
pub const TRUMP: DealtTo = DealtTo::Trump;
/// The face-down pile's place in a deal's order.
pub const PILE: DealtTo = DealtTo::Pile;

/// Where the card at `position` of the shuffled deck goes: the first ten one at a time from the
/// guesser, the next is the trump card, and the rest make the pile.
pub fn dealt_to(guesser: Seat, position: usize) -> DealtTo {
    match position {
        p if p < SEATS * HAND_SIZE => DealtTo::Seat(guesser.after(p, SEATS)),
        p if p == SEATS * HAND_SIZE => TRUMP,
        _ => PILE,
    }
}

/// The deal of a shuffled deck, `cards` in shuffled order.
pub fn deal_from(setup: &DealSetup, cards: &[Card]) -> State {
    let guesser = setup.rotating_seat(SEATS);
    let mut hands = BySeat::<CardSet, SEATS>::default();
    let mut pile = Vec::with_capacity(cards.len());
    let mut trump_card = cards[SEATS * HAND_SIZE];
    for (i, &card) in cards.iter().enumerate() {
        match dealt_to(guesser, i) {
            DealtTo::Seat(seat) => hands[seat].insert(card),
            TRUMP => trump_card = card,
            _ => pile.push(card),
        }
    }
    State {
        phase: Phase::Guess,
        guesser,
        guess: None,
        hands,
        pile,
        trump_card,
        trump_drawn_by: None,
        attacker: guesser,
        battle: None,
        last_battle: None,
        set_aside: CardSet::EMPTY,
    }
}

pub fn to_act(state: &State) -> Option<Seat> {
    match state.phase {
        Phase::Guess => Some(state.guesser),
        Phase::Attack => Some(state.attacker),
        Phase::Defend => Some(state.defender()),
        Phase::Over { .. } => None,
    }
}

pub fn outcome(state: &State) -> Option<DealOutcome> {
    match state.phase {
        Phase::Over { winner } => Some(DealOutcome {
            points: Seat::all(SEATS)
                .map(|s| i32::from(winner == Some(s)))
                .collect(),
            winners: winner.into_iter().collect(),
        }),
        _ => None,
    }
}

/// Every action `seat` may take now.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if to_act(state) != Some(seat) {
        return Vec::new();
    }
    match state.phase {
        Phase::Guess => vec![
            Action::Guess {
                colour: Colour::Red,
            },
            Action::Guess {
                colour: Colour::Black,
            },
        ],
        Phase::Attack => {
            let mut attacks = Vec::with_capacity(16);
            for_each_attack(state, |cards| attacks.push(Action::Attack { cards }));
            attacks
        }
        Phase::Defend => legal_defence(state),
        Phase::Over { .. } => Vec::new(),
    }
}

/// Every attack the attacker may lay now: each single card, each three with a pair, each five with two
/// pairs, up to the cap.
pub fn legal_attacks(state: &State) -> Vec<CardSet> {
    let mut attacks = Vec::new();
    for_each_attack(state, |cards| attacks.push(cards));
    attacks
}

fn for_each_attack(state: &State, f: impl FnMut(CardSet)) {
    attacks_from(
        state.hands[state.attacker],
        state.hands[state.defender()].len(),
        f,
    );
}

/// Calls `f` with every attack `hand` may lay against a defender holding `defender_holds` cards.
pub fn attacks_from(hand: CardSet, defender_holds: usize, mut f: impl FnMut(CardSet)) {
    let most = largest_attack(defender_holds, hand.len());
    let pairs_in_hand = separate_pairs(hand);
    hand.iter().for_each(|c| f(CardSet::one(c)));
    if most >= 3 && pairs_in_hand >= 1 {
        for_each_three(hand, &mut f);
    }
    if most >= 5 && pairs_in_hand >= 2 {
        let cards: Vec<Card> = hand.iter().collect();
        for_each_subset(&cards, 5, |set| {
            if separate_pairs(set) >= 2 {
                f(set);
            }
        });
    }
}

/// Every three of `hand` holding a pair: two of a rank with a card of another rank, or three of a rank.
fn for_each_three(hand: CardSet, f: &mut impl FnMut(CardSet)) {
    for rank in Rank::ALL {
        let same = hand.of_rank(rank);
        if same.len() < 2 {
            continue;
        }
        let others = hand.minus(same);
        for first in same {
            for second in same.minus(CardSet::from_bits((2u64 << first.index()) - 1)) {
                let pair = CardSet::one(first).union(CardSet::one(second));
                others
                    .iter()
                    .for_each(|third| f(pair.union(CardSet::one(third))));
            }
        }
        match same.len() {
            3 => f(same),
            4 => same
                .iter()
                .for_each(|left_out| f(same.minus(CardSet::one(left_out)))),
            _ => {}
        }
    }
}

/// Calls `f` with every `size`-card subset of `cards` (at most 52), walking the subsets' position masks
/// in increasing order (Gosper's hack).
fn for_each_subset(cards: &[Card], size: usize, mut f: impl FnMut(CardSet)) {
    let n = cards.len();
    if size == 0 || size > n {
        return;
    }
    let end = 1u64 << n;
    let mut positions = (1u64 << size) - 1;
    while positions < end {
        let mut set = CardSet::EMPTY;
        let mut rest = positions;
        while rest != 0 {
            set.insert(cards[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
        f(set);
        let lowest = positions & positions.wrapping_neg();
        let ripple = positions + lowest;
        positions = (((ripple ^ positions) >> 2) / lowest) | ripple;
    }
}

fn legal_defence(state: &State) -> Vec<Action> {
    let Some(battle) = &state.battle else {
        return Vec::new();
    };
    let hand = state.hands[state.defender()];
    let mut actions = vec![Action::PickUp];
    for attack in battle.uncovered() {
        for with in super::battle::beaters(attack, hand, state.trump()) {
            actions.push(Action::Beat { attack, with });
        }
    }
    actions
}

/// Checks and plays an action; on error the state is unchanged.
pub fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
    if let Phase::Over { .. } = state.phase {
        return Err(RuleError::deal_over());
    }
    if to_act(state) != Some(seat) {
        return Err(RuleError::not_your_turn());
    }
    match (state.phase, *action) {
        (Phase::Guess, Action::Guess { colour }) => {
            guess(state, colour);
            Ok(())
        }
        (Phase::Attack, Action::Attack { cards }) => attack(state, cards),
        (Phase::Defend, Action::Beat { attack, with }) => beat(state, attack, with),
        (Phase::Defend, Action::PickUp) => {
            pick_up(state);
            Ok(())
        }
        (phase, _) => Err(wrong_moment(phase)),
    }
}

fn wrong_moment(phase: Phase) -> RuleError {
    let message = match phase {
        Phase::Guess => "First call the trump card's colour: red or black.",
        Phase::Attack => "It is time to attack: lay 1, 3 or 5 cards.",
        Phase::Defend => "It is time to defend: beat attack cards or pick them up.",
        Phase::Over { .. } => "This deal is over.",
    };
    RuleError::new(RuleCode::WRONG_PHASE, message)
}

fn guess(state: &mut State, colour: Colour) {
    let right = state.trump().colour() == colour;
    state.guess = Some(GuessMade { colour, right });
    state.attacker = if right {
        state.guesser
    } else {
        state.guesser.next(SEATS)
    };
    state.phase = Phase::Attack;
}

fn attack(state: &mut State, cards: CardSet) -> Result<(), RuleError> {
    let hand = state.hands[state.attacker];
    if let Some(problem) = attack_problem(cards, hand, state.hands[state.defender()].len()) {
        return Err(RuleError::new(problem.code(), problem.to_string()));
    }
    state.hands[state.attacker] = hand.minus(cards);
    state.last_battle = None;
    state.battle = Some(Battle::new(state.attacker, cards));
    state.phase = Phase::Defend;
    Ok(())
}

fn beat(state: &mut State, attack: Card, with: Card) -> Result<(), RuleError> {
    let defender = state.defender();
    let Some(battle) = state.battle.as_mut() else {
        return Err(wrong_moment(state.phase));
    };
    if !battle.attack.contains(attack) {
        return Err(RuleError::new(
            Code::NotAnAttackCard,
            format!("{} is not in this attack.", capitalise(&attack.describe())),
        ));
    }
    if !battle.uncovered().contains(attack) {
        return Err(RuleError::new(
            Code::AlreadyBeaten,
            format!("{} is already beaten.", capitalise(&attack.describe())),
        ));
    }
    if !state.hands[defender].contains(with) {
        return Err(RuleError::new(
            RuleCode::NOT_IN_HAND,
            format!("You do not hold {}.", with.describe()),
        ));
    }
    if let Some(problem) = beat_problem(attack, with, state.trump_card.suit()) {
        return Err(RuleError::new(problem.code(), problem.to_string()));
    }
    battle.cover(attack, with);
    state.hands[defender].remove(with);
    if battle.uncovered().is_empty() {
        finish_battle(state);
    }
    Ok(())
}

fn pick_up(state: &mut State) {
    let defender = state.defender();
    if let Some(battle) = state.battle.as_mut() {
        battle.picked_up = battle.uncovered();
        state.hands[defender] = state.hands[defender].union(battle.picked_up);
    }
    finish_battle(state);
}

/// Ends the battle: beaten pairs go aside, the next attacker is chosen, both seats draw, and the deal
/// ends if nothing is left to draw and a hand is empty.
fn finish_battle(state: &mut State) {
    let Some(mut battle) = state.battle.take() else {
        return;
    };
    battle.finished = true;
    state.set_aside = state
        .set_aside
        .union(battle.beaten())
        .union(battle.beating_cards());
    let drawer = state.attacker;
    if battle.picked_up.is_empty() {
        state.attacker = state.defender();
    }
    state.last_battle = Some(battle);
    draw_up(state, drawer);
    draw_up(state, drawer.next(SEATS));
    state.phase = end_of_deal(state).unwrap_or(Phase::Attack);
}

/// Draws for `seat` up to five cards while anything is left, the trump card last.
fn draw_up(state: &mut State, seat: Seat) {
    while state.hands[seat].len() < HAND_SIZE && state.stock_left() {
        match state.pile.pop() {
            Some(card) => state.hands[seat].insert(card),
            None => {
                state.hands[seat].insert(state.trump_card);
                state.trump_drawn_by = Some(seat);
            }
        }
    }
}

/// The deal is over once nothing is left to draw and a hand is empty; both empty is a drawn deal.
fn end_of_deal(state: &State) -> Option<Phase> {
    if state.stock_left() {
        return None;
    }
    let empty: Vec<Seat> = Seat::all(SEATS)
        .filter(|s| state.hands[*s].is_empty())
        .collect();
    match empty.as_slice() {
        [] => None,
        [winner] => Some(Phase::Over {
            winner: Some(*winner),
        }),
        _ => Some(Phase::Over { winner: None }),
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
