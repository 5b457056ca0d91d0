//! The computer player (RULINGS Ganjifa 10). It decides from its seat's view and the legal actions only:
//! it leads the longest run it holds, keeps its hukms for an utari, makes a deni with its weakest card
//! and burns a lone Wazir rather than hand it over, prefers a talafa that clears a rival's Mir to a
//! blind lead, and when it puts cards down it throws the cards least likely ever to win, keeping one low
//! card under a second-best card so that it can call later.

use rand::Rng;

use super::ladder::run;
use super::pack::{GCard, GSet, GSuit};
use super::rules::Action;
use super::view::View;
use super::Ganjifa;
use crate::game::{Bot, BotRng};

/// How many cards a seat has not seen played, and does not hold, rank above `card` in its suit.
fn above(card: GCard, unseen: GSet, burnt: GSet) -> u32 {
    let suit = unseen.of_suit(card.suit());
    if burnt.contains(card) {
        return suit.minus(GSet::one(card)).len() as u32;
    }
    let stronger = GSet::from_bits((1u128 << card.index()) - 1);
    suit.minus(burnt).intersection(stronger).len() as u32
}

/// What the computer knows of the cards, from one view.
struct Reading {
    hand: GSet,
    unseen: GSet,
    burnt: GSet,
    /// Per suit, the weakest card it holds under a card of its own that is second-best: kept to call with.
    call_cards: GSet,
}

impl Reading {
    fn of(view: &View) -> Reading {
        let hand = view.hand;
        let unseen = GSet::PACK.minus(view.played).minus(hand);
        let burnt = view.burnt;
        let mut call_cards = GSet::EMPTY;
        for suit in GSuit::ALL {
            let mine = hand.of_suit(suit);
            if mine.len() < 2 {
                continue;
            }
            let second_best = mine.iter().any(|c| above(c, unseen, burnt) == 1);
            if second_best {
                let weakest = mine
                    .iter()
                    .max_by_key(|&c| (burnt.contains(c), c.place()))
                    .unwrap_or(GCard::mir(suit));
                if above(weakest, unseen, burnt) > 1 {
                    call_cards.insert(weakest);
                }
            }
        }
        Reading {
            hand,
            unseen,
            burnt,
            call_cards,
        }
    }

    /// How much the computer wants to keep `card`: hukms most, then cards close to the top, then the
    /// low cards it needs for a call; cards with many stronger cards out are worth least.
    fn keep(&self, card: GCard) -> i32 {
        let a = above(card, self.unseen, self.burnt) as i32;
        let mut value = match a {
            0 => 1000,
            1 => 400,
            2 => 150,
            n => 100 - 5 * n,
        };
        if self.call_cards.contains(card) {
            value += 200;
        }
        // Among equals, throw from the suit where it holds the most: those cards crowd each other.
        value - self.hand.of_suit(card.suit()).len() as i32
    }
}

/// The site's default computer player.
pub struct Computer;

impl Bot<Ganjifa> for Computer {
    fn name(&self) -> &'static str {
        "computer"
    }

    fn choose(&mut self, view: &View, legal: &[Action], rng: &mut BotRng) -> Action {
        let Some(first) = legal.first() else {
            return Action::GiveUpLead;
        };
        match first {
            Action::PutDown { .. } => {
                let reading = Reading::of(view);
                legal
                    .iter()
                    .min_by_key(|a| match a {
                        Action::PutDown { card } => reading.keep(*card),
                        _ => i32::MAX,
                    })
                    .copied()
                    .unwrap_or(*first)
            }
            Action::Pick { .. } => legal[rng.gen_range(0..legal.len())],
            _ => lead(view, legal),
        }
    }
}

fn lead(view: &View, legal: &[Action]) -> Action {
    let reading = Reading::of(view);
    let unplayed = GSet::PACK.minus(view.played);
    // A run: the longest (each card led brings two more with it, and the lead stays).
    let best_run = legal
        .iter()
        .filter_map(|a| match a {
            Action::Run { suit } => Some((run(view.hand, unplayed, view.burnt, *suit).len(), *a)),
            _ => None,
        })
        .max_by_key(|(len, _)| *len);
    if let Some((_, action)) = best_run {
        return action;
    }
    // A deni: with the weakest card; a lone Wazir burns rather than being handed over.
    let deni = legal
        .iter()
        .filter_map(|a| match a {
            Action::Deni { card } if !legal.contains(&Action::Burn { suit: card.suit() }) => {
                Some((reading.keep(*card), *a))
            }
            _ => None,
        })
        .min_by_key(|(value, _)| *value);
    if let Some((_, action)) = deni {
        return action;
    }
    if let Some(burn) = legal.iter().find(|a| matches!(a, Action::Burn { .. })) {
        return *burn;
    }
    // An utari: every hukm it may lead.
    let utari = legal
        .iter()
        .filter_map(|a| match a {
            Action::Utari { cards } => Some((cards.len(), *a)),
            _ => None,
        })
        .max_by_key(|(len, _)| *len);
    if let Some((_, action)) = utari {
        return action;
    }
    // A talafa: best where the card to clear is a Mir, made with the card it least wants to keep.
    let talafa = legal
        .iter()
        .filter_map(|a| match a {
            Action::Talafa { suit, card } => {
                let mir_out = reading.unseen.contains(GCard::mir(*suit));
                Some((i32::from(!mir_out) * 500 + reading.keep(*card), *a))
            }
            _ => None,
        })
        .min_by_key(|(value, _)| *value);
    if let Some((_, action)) = talafa {
        return action;
    }
    legal
        .iter()
        .find(|a| matches!(a, Action::GiveUpLead))
        .or(legal.first())
        .copied()
        .unwrap_or(Action::GiveUpLead)
}
