//! The rules of a deal of Pishe Pasha: its state, its phases, and what each action does.
//!
//! A seat is asked only where it has a choice or must turn a card. Everything forced (a pile's top
//! going home, a turned card going home, a card that fits nowhere landing on the discard pile, the pile
//! turned over into the stock) the table does inside [`State::apply`] and writes into the turn log.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::codes::Code;
use super::log::{Source, Step, TurnLog};
use super::piles::{one_apart, Stack, SuitPiles, DECK_SIZE};
use crate::cards::{shuffled_deck, BySeat, Card, CardSet, DealRng, Seat};
use crate::game::{DealOutcome, DealSetup, RuleCode, RuleError};

/// Two seats.
pub const SEATS: usize = 2;

/// What a seat can do on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// Turn the top card of the stock (the discard pile is turned over first if the stock is empty).
    Turn,
    /// Give a card to the other seat's discard pile: the top of your pile, or the card just turned.
    Give,
    /// Keep the card just turned, which fits only the other seat's pile: it goes onto your own pile
    /// and your turn ends.
    Keep,
}

/// Where the deal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "kebab-case")]
pub enum Phase {
    /// The seat to act may give the top of its pile (when it is one rank from theirs) or turn a card.
    Play,
    /// The card just turned fits only the other seat's pile: give it or keep it.
    Turned { card: Card },
    /// The winner has no stock and no pile; it scores one point per card the loser still holds.
    Won { winner: Seat, points: u8 },
}

/// Why the top of a seat's pile cannot be given now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CannotGive {
    YourPileEmpty,
    TheirPileEmpty,
    NotOneApart { yours: Card, theirs: Card },
}

impl CannotGive {
    /// A short code for the board.
    pub fn code(&self) -> RuleCode {
        match self {
            CannotGive::YourPileEmpty => Code::YourPileEmpty,
            CannotGive::TheirPileEmpty => Code::TheirPileEmpty,
            CannotGive::NotOneApart { .. } => Code::NotOneApart,
        }
        .into()
    }
}

impl fmt::Display for CannotGive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CannotGive::YourPileEmpty => f.write_str("your pile is empty"),
            CannotGive::TheirPileEmpty => f.write_str("their pile is empty"),
            CannotGive::NotOneApart { yours, theirs } => {
                let (mine, their) = (yours.rank().name(), theirs.rank().name());
                write!(f, "the {mine} is not one rank above or below their {their}")?;
                if neighbours_only_if_ranks_wrapped(yours, theirs) {
                    f.write_str(" (ranks do not wrap round from king to ace)")?;
                }
                Ok(())
            }
        }
    }
}

fn neighbours_only_if_ranks_wrapped(a: Card, b: Card) -> bool {
    a.rank().value_ace_low().abs_diff(b.rank().value_ace_low()) == 12
}

/// How a test or a restored table lays out a deal in progress. Stocks list their cards top first,
/// discard piles bottom first (the top last). Every card not listed and not on a suit pile is missing,
/// which is refused: a deal always holds all 52 cards.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub dealer: usize,
    pub to_act: usize,
    pub suit_piles: [u8; 4],
    pub stocks: [Vec<Card>; SEATS],
    pub piles: [Vec<Card>; SEATS],
}

/// The whole truth of one deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct State {
    dealer: Seat,
    /// The seat whose turn it is (once the deal is won: whose turn it was).
    turn: Seat,
    phase: Phase,
    /// Face down, top last.
    stocks: BySeat<Stack, SEATS>,
    /// Face up, top last.
    piles: BySeat<Stack, SEATS>,
    suit_piles: SuitPiles,
    /// Each seat's latest turn: the turn in progress for the seat whose turn it is (or the turn that won
    /// the deal), the last one for the other seat (empty before it has had one).
    logs: BySeat<TurnLog, SEATS>,
    /// Turns begun so far, the first included.
    turns: u32,
    /// Whether each seat's stock has been made again from its discard pile: every card in it was
    /// then seen face up before.
    restocked: BySeat<bool, SEATS>,
}

impl State {
    /// Deals a new deal: the dealer is the match's rotating seat, the other seat plays first. The
    /// shuffled deck is dealt one card at a time, the first to the seat that plays first, each card on
    /// top of that seat's stock, 26 each.
    pub fn deal(setup: &DealSetup, rng: &mut DealRng) -> State {
        State::deal_from(setup, &shuffled_deck(rng))
    }

    /// The seat whose stock the card at `position` of the shuffled deck goes to: one at a time, the
    /// first to the seat that plays first (the seat after the dealer).
    pub fn dealt_to(setup: &DealSetup, position: usize) -> Seat {
        setup.rotating_seat(SEATS).after(1 + position, SEATS)
    }

    /// The deal of a shuffled deck, `cards` in shuffled order.
    pub fn deal_from(setup: &DealSetup, cards: &[Card]) -> State {
        let dealer = setup.rotating_seat(SEATS);
        let first = dealer.next(SEATS);
        let mut stocks = BySeat([Stack::EMPTY; SEATS]);
        for (i, &card) in cards.iter().enumerate() {
            stocks[State::dealt_to(setup, i)].push(card);
        }
        State::begin(
            dealer,
            first,
            stocks,
            BySeat([Stack::EMPTY; SEATS]),
            SuitPiles::default(),
        )
    }

    /// A deal laid out by hand, at the start of `to_act`'s turn (forced steps are done at once).
    /// Refused when a card is missing or listed twice, a seat number is not 0 or 1, or a suit pile is
    /// higher than 13.
    pub fn laid_out(layout: &Layout) -> Result<State, String> {
        let seat = |n: usize, what: &str| {
            (n < SEATS)
                .then(|| Seat::new(n))
                .ok_or_else(|| format!("the {what} must be seat 0 or 1, not {n}"))
        };
        let dealer = seat(layout.dealer, "dealer")?;
        let to_act = seat(layout.to_act, "seat to act")?;
        let suit_piles =
            SuitPiles::at(layout.suit_piles).ok_or("a suit pile holds at most 13 cards")?;
        let mut seen: CardSet = suit_piles.cards().collect();
        let listed = layout.stocks.iter().chain(&layout.piles).flatten();
        for &card in listed {
            if seen.contains(card) {
                return Err(format!("{card} is listed twice"));
            }
            seen.insert(card);
        }
        if seen != CardSet::DECK {
            let missing: Vec<String> = CardSet::DECK
                .minus(seen)
                .iter()
                .map(|c| c.to_string())
                .collect();
            return Err(format!("missing cards: {}", missing.join(" ")));
        }
        let stack = |cards: &[Card]| Stack::from_bottom(cards).ok_or("too many cards in a stack");
        let stocks = BySeat([
            stack(&reversed(&layout.stocks[0]))?,
            stack(&reversed(&layout.stocks[1]))?,
        ]);
        let piles = BySeat([stack(&layout.piles[0])?, stack(&layout.piles[1])?]);
        Ok(State::begin(dealer, to_act, stocks, piles, suit_piles))
    }

    fn begin(
        dealer: Seat,
        to_act: Seat,
        stocks: BySeat<Stack, SEATS>,
        piles: BySeat<Stack, SEATS>,
        suit_piles: SuitPiles,
    ) -> State {
        let mut state = State {
            dealer,
            turn: to_act,
            phase: Phase::Play,
            stocks,
            piles,
            suit_piles,
            logs: BySeat::from_fn(TurnLog::new),
            turns: 1,
            restocked: BySeat([false; SEATS]),
        };
        state.settle();
        state
    }

    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The seat whose turn it is, or that won the deal on its turn.
    pub fn turn(&self) -> Seat {
        self.turn
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether `seat`'s stock was made again from its pile (its cards were all seen before).
    pub fn restocked(&self, seat: Seat) -> bool {
        self.restocked[seat]
    }

    pub fn stock(&self, seat: Seat) -> &Stack {
        &self.stocks[seat]
    }

    pub fn pile(&self, seat: Seat) -> &Stack {
        &self.piles[seat]
    }

    pub fn suit_piles(&self) -> &SuitPiles {
        &self.suit_piles
    }

    /// The steps of the turn in progress (or of the turn that won the deal).
    pub fn this_turn(&self) -> &TurnLog {
        &self.logs[self.turn]
    }

    /// The steps of the other seat's last turn.
    pub fn last_turn(&self) -> &TurnLog {
        &self.logs[self.turn.next(SEATS)]
    }

    /// How many turns have begun, this one included.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The seat to act, or `None` once the deal is won.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Won { .. } => None,
            _ => Some(self.turn),
        }
    }

    /// The card just turned, waiting to be given or kept, if any.
    pub fn turned(&self) -> Option<Card> {
        match self.phase {
            Phase::Turned { card } => Some(card),
            _ => None,
        }
    }

    /// Every card lying anywhere (the turned card in the seat's hand included), counted: always 52.
    pub fn card_count(&self) -> usize {
        usize::from(self.turned().is_some())
            + self.suit_piles.total()
            + self.stocks.0.iter().map(Stack::len).sum::<usize>()
            + self.piles.0.iter().map(Stack::len).sum::<usize>()
    }

    /// The card a give would give now, or why the top of the pile cannot be given. In the `Turned`
    /// phase this is the turned card, which always fits their pile.
    pub fn giveable(&self) -> Result<Card, CannotGive> {
        match self.phase {
            Phase::Turned { card } => Ok(card),
            _ => {
                let yours = self.piles[self.turn]
                    .top()
                    .ok_or(CannotGive::YourPileEmpty)?;
                let theirs = self.piles[self.turn.next(SEATS)]
                    .top()
                    .ok_or(CannotGive::TheirPileEmpty)?;
                if one_apart(yours, theirs) {
                    Ok(yours)
                } else {
                    Err(CannotGive::NotOneApart { yours, theirs })
                }
            }
        }
    }

    /// The actions `seat` may take now, in the order Give, Turn, Keep.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        match self.phase {
            Phase::Play if self.giveable().is_ok() => vec![Action::Give, Action::Turn],
            Phase::Play => vec![Action::Turn],
            Phase::Turned { .. } => vec![Action::Give, Action::Keep],
            Phase::Won { .. } => Vec::new(),
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.to_act().is_none() {
            return Err(RuleError::deal_over());
        }
        if seat != self.turn {
            return Err(RuleError::not_your_turn());
        }
        match (self.phase, action) {
            (Phase::Play, Action::Turn) | (Phase::Turned { .. }, Action::Give | Action::Keep) => {
                Ok(())
            }
            (Phase::Play, Action::Give) => self.giveable().map(|_| ()).map_err(|why| {
                RuleError::new(Code::CannotGive, format!("You cannot give now: {why}."))
            }),
            (Phase::Play, Action::Keep) => Err(RuleError::new(
                Code::NothingToKeep,
                "There is no turned card to keep: turn a card first.",
            )),
            (Phase::Turned { card }, Action::Turn) => Err(RuleError::new(
                Code::TurnedCardWaiting,
                format!(
                    "First give {} to the other seat or keep it.",
                    card.describe()
                ),
            )),
            (Phase::Won { .. }, _) => Err(RuleError::deal_over()),
        }
    }

    /// Checks the action and plays it with every forced step that follows. On error nothing changes.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<(), RuleError> {
        self.check(seat, action)?;
        match (self.phase, action) {
            (Phase::Play, Action::Give) => self.give_from_pile(),
            (Phase::Play, Action::Turn) => self.turn_card(),
            (Phase::Turned { card }, Action::Give) => self.give_turned(card),
            (Phase::Turned { card }, Action::Keep) => self.keep_turned(card),
            _ => {}
        }
        Ok(())
    }

    /// How the deal ended, once it has: the winner scores the loser's stock and pile, the loser 0.
    pub fn outcome(&self) -> Option<DealOutcome> {
        match self.phase {
            Phase::Won { winner, points } => {
                let mut scores = vec![0; SEATS];
                scores[winner.index()] = i32::from(points);
                Some(DealOutcome {
                    points: scores,
                    winners: vec![winner],
                })
            }
            _ => None,
        }
    }

    fn other(&self) -> Seat {
        self.turn.next(SEATS)
    }

    fn give_from_pile(&mut self) {
        let (me, them) = (self.turn, self.other());
        if let Some(card) = self.piles[me].pop() {
            self.piles[them].push(card);
            self.log(Step::Give {
                card,
                from: Source::Pile,
            });
        }
        self.settle();
    }

    fn give_turned(&mut self, card: Card) {
        let them = self.other();
        self.piles[them].push(card);
        self.log(Step::Give {
            card,
            from: Source::Stock,
        });
        self.settle();
    }

    fn keep_turned(&mut self, card: Card) {
        let me = self.turn;
        self.piles[me].push(card);
        self.log(Step::Keep { card });
        self.end_turn();
    }

    /// Turns the stock's top card (turning the pile over first if the stock is empty) and deals with it.
    fn turn_card(&mut self) {
        let me = self.turn;
        if self.stocks[me].is_empty() {
            self.stocks[me] = self.piles[me].turned_over();
            self.piles[me] = Stack::EMPTY;
            self.restocked[me] = true;
            let cards = self.stocks[me].len() as u8;
            self.log(Step::TurnOver { cards });
        }
        let Some(card) = self.stocks[me].pop() else {
            // Only a seat with cards left is ever asked to turn; with none it would already have won.
            self.settle();
            return;
        };
        if self.suit_piles.fits(card) {
            self.suit_piles.place(card);
            self.log(Step::Home {
                card,
                from: Source::Stock,
            });
            self.settle();
        } else if self.piles[self.other()]
            .top()
            .is_some_and(|top| one_apart(card, top))
        {
            self.phase = Phase::Turned { card };
        } else {
            self.piles[me].push(card);
            self.log(Step::Discard { card });
            self.end_turn();
        }
    }

    /// Step 1 of the turn, repeated: the pile's top goes home while it fits. Then the deal is won if the
    /// seat holds nothing more, else the seat chooses.
    fn settle(&mut self) {
        let me = self.turn;
        while let Some(card) = self.piles[me].top().filter(|&c| self.suit_piles.fits(c)) {
            self.piles[me].pop();
            self.suit_piles.place(card);
            self.log(Step::Home {
                card,
                from: Source::Pile,
            });
        }
        if self.stocks[me].is_empty() && self.piles[me].is_empty() {
            let loser = self.other();
            let points = (self.stocks[loser].len() + self.piles[loser].len()).min(DECK_SIZE) as u8;
            self.phase = Phase::Won { winner: me, points };
        } else {
            self.phase = Phase::Play;
        }
    }

    fn log(&mut self, step: Step) {
        self.logs[self.turn].push(step);
    }

    fn end_turn(&mut self) {
        self.turn = self.other();
        self.logs[self.turn].restart(self.turn);
        self.turns += 1;
        self.settle();
    }
}

fn reversed(cards: &[Card]) -> Vec<Card> {
    cards.iter().rev().copied().collect()
}
