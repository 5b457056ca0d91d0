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
use crate::game::{Bot, BotRng};

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
    fn name(&self) -> &'static str {
        "computer"
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

/// How much the computer would rather keep a card: plain low cards are cheapest, then plain kings and
/// aces, then trumps, each low before high.
fn keep_value(card: Card, trump: Suit) -> (u8, u8) {
    let class = if card.suit() == trump {
        2
    } else if card.rank() >= Rank::King {
        1
    } else {
        0
    };
    (class, card.rank().value())
}

fn is_low_plain(card: Card, trump: Suit) -> bool {
    keep_value(card, trump).0 == 0
}

fn choose_attack(view: &View, known: CardSet) -> CardSet {
    let hand = view.hand;
    let Some(trump) = view.trump else {
        return CardSet::one(hand.first().unwrap_or(Card::new(Rank::Two, Suit::Clubs)));
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
    CardSet::one(lowest_single(hand, trump, known))
}

/// The lowest plain pair below the king, with the lowest other low plain card.
fn low_pair_and_one(hand: CardSet, trump: Suit) -> Option<CardSet> {
    let low: Vec<Card> = by_keep_value(hand, trump)
        .into_iter()
        .filter(|c| is_low_plain(*c, trump))
        .collect();
    let pair_rank = low
        .windows(2)
        .find(|w| w[0].rank() == w[1].rank())
        .map(|w| w[0].rank())?;
    let mut pair = low.iter().filter(|c| c.rank() == pair_rank).take(2);
    let (first, second) = (*pair.next()?, *pair.next()?);
    let third = low.iter().find(|c| **c != first && **c != second)?;
    Some([first, second, *third].into_iter().collect())
}

/// The cheapest card to lead alone; among the equally cheap, one the other seat's known cards cannot
/// beat.
fn lowest_single(hand: CardSet, trump: Suit, known: CardSet) -> Card {
    let ordered = by_keep_value(hand, trump);
    let cheapest = keep_value(ordered[0], trump);
    ordered
        .iter()
        .take_while(|c| keep_value(**c, trump) == cheapest)
        .find(|c| beaters(**c, known, trump).is_empty())
        .copied()
        .unwrap_or(ordered[0])
}

/// The hand's cards, cheapest to give up first.
fn by_keep_value(hand: CardSet, trump: Suit) -> Vec<Card> {
    let mut cards: Vec<Card> = hand.iter().collect();
    cards.sort_by_key(|c| (keep_value(*c, trump), c.suit()));
    cards
}

/// The next beat of the cheapest plan that beats as many attack cards as possible; a pick-up when no
/// attack card left can be beaten.
fn choose_defence(view: &View) -> Action {
    let (Some(battle), Some(trump)) = (view.battle, view.trump) else {
        return Action::PickUp;
    };
    defence_plan(battle.uncovered(), view.hand, trump)
        .first()
        .map(|&(attack, with)| Action::Beat { attack, with })
        .unwrap_or(Action::PickUp)
}

/// Pairs each attack card with the cheapest card that beats it. The hardest attack cards are served
/// first (trumps, then higher before lower), each taking the cheapest beater left: within a suit a
/// harder card's beaters are among an easier one's, and any trump serves a plain card, so serving the
/// hardest first with the cheapest beater leaves the most for the rest.
pub fn defence_plan(uncovered: CardSet, hand: CardSet, trump: Suit) -> Vec<(Card, Card)> {
    let mut attacks: Vec<Card> = uncovered.iter().collect();
    attacks.sort_by_key(|c| std::cmp::Reverse((c.suit() == trump, c.rank())));
    let mut left = hand;
    let mut plan = Vec::with_capacity(attacks.len());
    for attack in attacks {
        let cheapest = beaters(attack, left, trump)
            .iter()
            .min_by_key(|c| keep_value_for_defence(*c, trump));
        if let Some(with) = cheapest {
            left.remove(with);
            plan.push((attack, with));
        }
    }
    plan
}

/// Defending spends plain cards before trumps, low before high.
fn keep_value_for_defence(card: Card, trump: Suit) -> (bool, u8) {
    (card.suit() == trump, card.rank().value())
}
