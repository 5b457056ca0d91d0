//! The site's computer player for Panjpar, as seed 000 describes it, deciding from its own views only.
//!
//! - It guesses the colour at random.
//! - Attacking, once nothing is left to draw it lays its whole hand when that is an attack. Otherwise,
//!   when the other hand holds three or more, it lays a low plain pair with one more low plain card; else
//!   its lowest plain single. Aces, kings and trumps are kept back while anything else will do.
//! - Defending, it beats every card it can, each with the cheapest card that does it (plain before
//!   trump, low before high), and picks up only what is left.
//! - It remembers the cards the other seat picked up and still holds; among equally low attack cards
//!   it leads one that none of those known cards can beat.

use rand::Rng;

use crate::cards::{Card, CardSet, Colour, Rank, Seat, Suit};
use crate::game::{Bot, BotKind, BotRng};

use super::battle::{attack_problem, beaters, Battle};
use super::rules::{Action, Phase, SEATS};
use super::view::View;
use super::Panjpar;

/// The computer player.
#[derive(Debug, Default)]
pub struct Computer {
    /// Cards the other seat picked up and has not played since.
    known: CardSet,
}

impl Computer {
    pub fn new() -> Computer {
        Computer::default()
    }

    /// The other seat's cards this player knows of.
    pub fn known(&self) -> CardSet {
        self.known
    }

    fn remember(&mut self, view: &View) {
        let Some(me) = view.seat else {
            return;
        };
        if view.phase == Phase::Guess {
            self.known = CardSet::EMPTY;
            return;
        }
        let other = me.next(SEATS);
        for battle in [view.last_battle, view.battle].into_iter().flatten() {
            self.known = self.known.minus(played_by(&battle, other));
            if battle.attacker == me {
                self.known = self.known.union(battle.picked_up);
            }
        }
    }
}

/// The cards `seat` played in `battle`: its attack, or the cards it beat with.
fn played_by(battle: &Battle, seat: Seat) -> CardSet {
    if battle.attacker == seat {
        battle.attack
    } else {
        battle.beating_cards()
    }
}

impl Bot<Panjpar> for Computer {
    fn kind(&self) -> BotKind {
        BotKind::Computer
    }

    fn observes(&self) -> bool {
        true
    }

    fn observe(&mut self, view: &View) {
        self.remember(view);
    }

    fn choose(&mut self, view: &View, legal: &[Action], rng: &mut BotRng) -> Action {
        self.remember(view);
        let chosen = match view.phase {
            Phase::Guess => Action::Guess {
                colour: if rng.gen_bool(0.5) {
                    Colour::Red
                } else {
                    Colour::Black
                },
            },
            Phase::Attack => Action::Attack {
                cards: choose_attack(view, self.known),
            },
            Phase::Defend => choose_defence(view),
            Phase::Over { .. } => legal[0],
        };
        debug_assert!(legal.contains(&chosen), "{chosen:?} is not legal");
        chosen
    }
}

/// The hand split by how much the computer would rather keep a card: plain cards below the king first,
/// then plain kings and aces, then trumps.
fn by_keep_value(hand: CardSet, trump: Suit) -> [CardSet; 3] {
    let trumps = hand.of_suit(trump);
    let high_plain = hand
        .of_rank(Rank::King)
        .union(hand.of_rank(Rank::Ace))
        .minus(trumps);
    [hand.minus(trumps).minus(high_plain), high_plain, trumps]
}

/// The cards of the lowest rank in `cards`.
fn lowest_rank(cards: CardSet) -> CardSet {
    match cards.rank_mask().trailing_zeros() {
        13.. => CardSet::EMPTY,
        bit => cards.of_rank(Rank::ALL[bit as usize]),
    }
}

pub(super) fn choose_attack(view: &View, known: CardSet) -> CardSet {
    let hand = view.hand;
    let Some(trump) = view.trump else {
        return hand;
    };
    let seat = view.seat.unwrap_or(Seat::new(0));
    let defender_holds = view.counts[seat.next(SEATS)];
    if !view.stock_left && attack_problem(hand, hand, defender_holds).is_none() {
        return hand;
    }
    if defender_holds >= 3 {
        if let Some(three) = low_pair_and_one(hand, trump) {
            return three;
        }
    }
    lowest_single(hand, trump, known).map_or(hand, CardSet::one)
}

/// The lowest plain pair below the king, with the lowest other plain card below the king.
fn low_pair_and_one(hand: CardSet, trump: Suit) -> Option<CardSet> {
    let [low, _, _] = by_keep_value(hand, trump);
    let [c, d, h, s] = low.suit_masks();
    let paired = (c & d) | (c & h) | (c & s) | (d & h) | (d & s) | (h & s);
    let rank = *Rank::ALL.get(paired.trailing_zeros() as usize)?;
    let pair: CardSet = low.of_rank(rank).iter().take(2).collect();
    let third = lowest_rank(low.minus(pair)).first()?;
    Some(pair.union(CardSet::one(third)))
}

/// The cheapest card to lead alone; among the equally cheap, one the other seat's known cards cannot
/// beat.
fn lowest_single(hand: CardSet, trump: Suit, known: CardSet) -> Option<Card> {
    let class = by_keep_value(hand, trump)
        .into_iter()
        .find(|class| !class.is_empty())?;
    let cheapest = lowest_rank(class);
    cheapest
        .iter()
        .find(|c| beaters(*c, known, trump).is_empty())
        .or(cheapest.first())
}

/// The next beat of the cheapest plan that beats as many attack cards as possible; a pick-up when no
/// attack card left can be beaten.
pub(super) fn choose_defence(view: &View) -> Action {
    let (Some(battle), Some(trump)) = (view.battle, view.trump) else {
        return Action::PickUp;
    };
    next_beat(battle.uncovered(), view.hand, trump)
        .map(|(attack, with)| Action::Beat { attack, with })
        .unwrap_or(Action::PickUp)
}

/// The attack cards hardest to beat first: trumps, then plain cards, each from the highest rank down.
fn hardest_first(uncovered: CardSet, trump: Suit) -> impl Iterator<Item = Card> {
    let trumps = uncovered.of_suit(trump);
    let plain = uncovered.minus(trumps);
    let ranks = plain.rank_mask();
    std::iter::successors(trumps.last(), move |c| below(trumps, *c).last()).chain(
        (0..13)
            .rev()
            .filter(move |bit| ranks & (1 << bit) != 0)
            .flat_map(move |bit| plain.of_rank(Rank::ALL[bit])),
    )
}

/// The cards of `set` below `card` by index.
fn below(set: CardSet, card: Card) -> CardSet {
    CardSet::from_bits(set.bits() & ((1u64 << card.index()) - 1))
}

/// The first beat of the greedy plan: the hardest attack card that can be beaten, with the cheapest card
/// that beats it (plain before trump, low before high). Within a suit a harder card's beaters are among
/// an easier one's, and any trump serves a plain card, so serving the hardest first with the cheapest
/// beater leaves the most for the rest: played beat by beat, the plan beats as many as can be beaten.
pub fn next_beat(uncovered: CardSet, hand: CardSet, trump: Suit) -> Option<(Card, Card)> {
    hardest_first(uncovered, trump).find_map(|attack| {
        let can = beaters(attack, hand, trump);
        let plain = can.minus(can.of_suit(trump));
        plain.first().or(can.first()).map(|with| (attack, with))
    })
}

/// The whole greedy plan, beat by beat.
pub fn defence_plan(mut uncovered: CardSet, mut hand: CardSet, trump: Suit) -> Vec<(Card, Card)> {
    let mut plan = Vec::new();
    while let Some((attack, with)) = next_beat(uncovered, hand, trump) {
        uncovered.remove(attack);
        hand.remove(with);
        plan.push((attack, with));
    }
    plan
}
