//! High card, the small fourth game the suites are run over to show that a game is its folder plus
//! one registration: two seats, three cards each from a shuffled 52-card deck, three rounds in which
//! each seat plays one card face up; the higher rank takes the round (aces high, equal ranks take
//! nothing), and the seat that takes more rounds wins the deal. The seat holding the deal's rotating
//! role leads each round.
//!
//! A seat sees its own hand and every card played; the other hand is only counted. It has the rules
//! core's whole contract (a fair deal from an order, views per seat, computer players), and nothing
//! more: a test game, not one the site offers.

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use chaikhana_rules::cards::{Card, DealRng, Seat};
use chaikhana_rules::game::{
    Bot, BotKind, BotRng, Budget, DealOrder, DealOutcome, DealSetup, DealtTo, Game, MatchLength,
    RandomBot, RuleCode, RuleError,
};

/// Cards dealt to each seat, and so rounds in a deal.
pub const HAND: usize = 3;

pub struct HighCard;

/// The whole truth of one deal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct State {
    /// The seat that leads every round.
    leader: Seat,
    hands: [Vec<Card>; 2],
    /// The cards each seat has played, in order: round `r` is the `r`-th of each.
    played: [Vec<Card>; 2],
}

/// What a seat can do: play one card of its hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    Play { card: Card },
}

/// What one seat (or a watcher, with no hand) may see.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The seat's own hand (empty for a watcher).
    pub hand: Vec<Card>,
    /// How many cards each seat still holds.
    pub held: [usize; 2],
    /// Every card played so far, per seat, in order.
    pub played: [Vec<Card>; 2],
    /// The rounds each seat has taken.
    pub taken: [u32; 2],
    /// The seat to play, if the deal goes on.
    pub to_act: Option<Seat>,
}

/// A High card match: first to 1 or 3 deals won, 1 unless the host says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "u32")]
pub struct DealsToWin(u32);

impl Default for DealsToWin {
    fn default() -> DealsToWin {
        DealsToWin(1)
    }
}

impl TryFrom<u32> for DealsToWin {
    type Error = String;

    fn try_from(deals_won: u32) -> Result<DealsToWin, String> {
        match deals_won {
            1 | 3 => Ok(DealsToWin(deals_won)),
            other => Err(format!(
                "A High card match is first to 1 or 3 deals won, not {other}."
            )),
        }
    }
}

impl From<DealsToWin> for MatchLength {
    fn from(length: DealsToWin) -> MatchLength {
        MatchLength::DealsWon(length.0)
    }
}

impl State {
    fn taken(&self) -> [u32; 2] {
        let mut taken = [0, 0];
        for (a, b) in self.played[0].iter().zip(&self.played[1]) {
            match a.rank().value().cmp(&b.rank().value()) {
                std::cmp::Ordering::Greater => taken[0] += 1,
                std::cmp::Ordering::Less => taken[1] += 1,
                std::cmp::Ordering::Equal => {}
            }
        }
        taken
    }

    /// Every card a seat may know: its own hand and every card played.
    pub fn visible_to(&self, seat: Option<Seat>) -> Vec<Card> {
        let mut cards: Vec<Card> = self.played.iter().flatten().copied().collect();
        if let Some(seat) = seat {
            cards.extend(&self.hands[seat.index()]);
        }
        cards
    }
}

fn deal_from(setup: &DealSetup, cards: &[Card]) -> State {
    let leader = setup.rotating_seat(2);
    let mut hands = [Vec::new(), Vec::new()];
    for (place, card) in cards.iter().enumerate().take(2 * HAND) {
        hands[place % 2].push(*card);
    }
    State {
        leader,
        hands,
        played: [Vec::new(), Vec::new()],
    }
}

impl Game for HighCard {
    const NAME: &'static str = "high-card";
    const SEATS: usize = 2;
    type State = State;
    type Action = Action;
    type View = View;
    type Length = DealsToWin;
    const LENGTHS: &'static str = "A High card match length is a number of deals won: 1 or 3.";

    fn deal(setup: &DealSetup, rng: &mut DealRng) -> State {
        HighCard::deal_in_order(setup, rng).0
    }

    fn deal_in_order(setup: &DealSetup, rng: &mut DealRng) -> (State, DealOrder) {
        let cards = chaikhana_rules::cards::shuffled_deck(rng);
        let order = DealOrder::new(&cards, |place| HighCard::dealt_to(setup, place));
        (deal_from(setup, &cards), order)
    }

    fn pack() -> Vec<String> {
        chaikhana_rules::cards::deck_codes()
    }

    fn dealt_to(_setup: &DealSetup, place: usize) -> DealtTo {
        if place < 2 * HAND {
            DealtTo::Seat(Seat::new(place % 2))
        } else {
            DealtTo::Pile
        }
    }

    fn deal_ordered(setup: &DealSetup, order: &[usize], _secret: u64) -> Option<State> {
        let deck = chaikhana_rules::cards::deck();
        let cards: Vec<Card> = order.iter().map(|&i| deck[i]).collect();
        Some(deal_from(setup, &cards))
    }

    fn to_act(state: &State) -> Option<Seat> {
        let [leader, other] = [state.leader, state.leader.next(2)];
        let (led, answered) = (
            state.played[leader.index()].len(),
            state.played[other.index()].len(),
        );
        if answered == HAND {
            None
        } else if led == answered {
            Some(leader)
        } else {
            Some(other)
        }
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        if HighCard::to_act(state) != Some(seat) {
            return Vec::new();
        }
        let hand = &state.hands[seat.index()];
        hand.iter().map(|&card| Action::Play { card }).collect()
    }

    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
        let Some(to_act) = HighCard::to_act(state) else {
            return Err(RuleError::deal_over());
        };
        if to_act != seat {
            return Err(RuleError::not_your_turn());
        }
        let Action::Play { card } = action;
        let hand = &mut state.hands[seat.index()];
        let Some(at) = hand.iter().position(|held| held == card) else {
            return Err(RuleError::new(
                RuleCode::NOT_IN_HAND,
                format!("You do not hold {}.", card.describe()),
            ));
        };
        hand.remove(at);
        state.played[seat.index()].push(*card);
        Ok(())
    }

    fn view(state: &State, seat: Option<Seat>) -> View {
        View {
            hand: seat.map_or_else(Vec::new, |s| state.hands[s.index()].clone()),
            held: [state.hands[0].len(), state.hands[1].len()],
            played: state.played.clone(),
            taken: state.taken(),
            to_act: HighCard::to_act(state),
        }
    }

    fn outcome(state: &State) -> Option<DealOutcome> {
        if HighCard::to_act(state).is_some() {
            return None;
        }
        let taken = state.taken();
        let points = match taken[0].cmp(&taken[1]) {
            std::cmp::Ordering::Greater => vec![1, 0],
            std::cmp::Ordering::Less => vec![0, 1],
            std::cmp::Ordering::Equal => vec![0, 0],
        };
        let winners = Seat::all(2).filter(|s| points[s.index()] > 0).collect();
        Some(DealOutcome { points, winners })
    }

    const BOTS: &'static [BotKind] = &[BotKind::Computer, BotKind::Strong, BotKind::Random];

    fn bot(kind: BotKind, _seat: Seat, _budget: Budget) -> Option<Box<dyn Bot<HighCard>>> {
        match kind {
            BotKind::Computer | BotKind::Strong => Some(Box::new(Highest(kind))),
            BotKind::Random => Some(Box::new(RandomBot)),
            _ => None,
        }
    }
}

/// The computer at both levels: it plays its highest card, the lowest when the round is already lost.
struct Highest(BotKind);

impl Bot<HighCard> for Highest {
    fn kind(&self) -> BotKind {
        self.0
    }

    fn choose(&mut self, view: &View, legal: &[Action], rng: &mut BotRng) -> Action {
        let value = |action: &Action| match action {
            Action::Play { card } => card.rank().value(),
        };
        let mut legal = legal.to_vec();
        legal.shuffle(rng);
        legal.sort_by_key(value);
        let led = view.played.iter().map(Vec::len).max().unwrap_or(0);
        let to_beat = view
            .played
            .iter()
            .filter(|cards| cards.len() == led && view.played.iter().any(|c| c.len() < led))
            .find_map(|cards| cards.last())
            .map(|card| card.rank().value());
        match to_beat {
            Some(beat) if legal.iter().all(|a| value(a) <= beat) => legal[0].clone(),
            _ => legal[legal.len() - 1].clone(),
        }
    }
}
