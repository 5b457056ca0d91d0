//! The computer player (RULINGS Ganjifa 10). It decides from its seat's view and the legal actions only:
//! it leads the longest run it holds, keeps its hukms for an utari, makes a deni with its weakest card
//! and burns a lone Wazir rather than hand it over, prefers a talafa that clears a rival's Mir to a
//! blind lead, and when it puts cards down it throws the cards least likely ever to win, keeping one low
//! card under a second-best card so that it can call later.

use rand::Rng;

use super::ladder::{run, suit_bits};
use super::pack::{GCard, GSet, GSuit};
use super::rules::Action;
use super::view::View;
use super::Ganjifa;
use crate::game::{Bot, BotKind, BotRng};

/// What the computer knows of one suit, as suit bits (the Mir lowest).
#[derive(Clone, Copy, Default)]
struct SuitReading {
    mine: u16,
    /// Cards it neither holds nor has seen played, burnt ones left out.
    out_unburnt: u16,
    /// Every card it neither holds nor has seen played.
    out: u16,
    burnt: u16,
    /// The weakest card it holds under a second-best card of its own: kept to call with.
    call_card: u16,
}

/// How many bits of a 12-bit suit mask are set, by table: cheaper than a software count on CPUs
/// without a population-count instruction, and self-play asks this on every decision.
const ONES: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut i = 1;
    while i < 4096 {
        table[i] = table[i >> 1] + (i & 1) as u8;
        i += 1;
    }
    table
};

fn ones(bits: u16) -> u32 {
    u32::from(ONES[usize::from(bits & 0xfff)])
}

impl SuitReading {
    /// How many cards still out rank above the card at `bit`.
    fn above(&self, bit: u16) -> u32 {
        if self.burnt & bit != 0 {
            ones(self.out & !bit)
        } else {
            ones(self.out_unburnt & bit.wrapping_sub(1))
        }
    }

    /// What the card at `bit` is worth for winning tricks: hukms most, then cards close to the top;
    /// cards with many stronger cards out are worth least. Among equals, a card of a longer suit is
    /// worth less.
    fn worth(&self, bit: u16) -> i32 {
        let value = match self.above(bit) as i32 {
            0 => 1000,
            1 => 400,
            2 => 150,
            n => 100 - 5 * n,
        };
        value - ones(self.mine) as i32
    }

    /// How much the computer wants to keep the card at `bit` when it puts cards down: its worth, and
    /// more for the low card it keeps under a second-best card to call with later.
    fn keep(&self, bit: u16) -> i32 {
        self.worth(bit) + if self.call_card & bit != 0 { 200 } else { 0 }
    }

    /// Whether it holds a card with exactly one card still out above it.
    fn holds_second_best(&self) -> bool {
        let out = self.out_unburnt;
        let first = out & out.wrapping_neg();
        if first == 0 {
            return false;
        }
        let rest = out & !first;
        let next = rest & rest.wrapping_neg();
        let below_next = if next == 0 { 0xfff } else { next - 1 };
        let between = below_next & !(first | (first - 1));
        self.mine & !self.burnt & between != 0
            || (self.mine & self.burnt != 0 && ones(self.out) == 1)
    }
}

/// What the computer knows of the cards, from one view.
struct Reading {
    suits: [SuitReading; 8],
}

impl Reading {
    fn of(view: &View) -> Reading {
        let unseen = GSet::PACK.minus(view.played).minus(view.hand);
        let mut suits = [SuitReading::default(); 8];
        for suit in GSuit::ALL {
            let mine = suit_bits(view.hand, suit);
            if mine == 0 {
                continue;
            }
            let out = suit_bits(unseen, suit);
            let burnt = suit_bits(view.burnt, suit);
            let mut reading = SuitReading {
                mine,
                out_unburnt: out & !burnt,
                out,
                burnt,
                call_card: 0,
            };
            if ones(mine) >= 2 && reading.holds_second_best() {
                // The weakest card: a burnt one if held, else the highest place.
                let weakest = if mine & burnt != 0 {
                    mine & burnt
                } else {
                    1 << (15 - mine.leading_zeros())
                };
                if reading.above(weakest) > 1 {
                    reading.call_card = weakest;
                }
            }
            suits[suit.index()] = reading;
        }
        Reading { suits }
    }

    /// What `card` is worth for winning tricks (see [`SuitReading::worth`]).
    fn worth(&self, card: GCard) -> i32 {
        self.suits[card.suit().index()].worth(1 << card.place())
    }

    /// How much the computer wants to keep `card` when it puts cards down (see [`SuitReading::keep`]).
    fn keep(&self, card: GCard) -> i32 {
        self.suits[card.suit().index()].keep(1 << card.place())
    }

    /// The card it wants least, found suit by suit: within a suit the weakest card is worth least,
    /// unless it is kept to call with, and then the next weakest is.
    fn throw(&self, hand: GSet) -> Option<GCard> {
        let mut best: Option<(i32, GCard)> = None;
        for suit in GSuit::ALL {
            let reading = &self.suits[suit.index()];
            let mine = reading.mine;
            if mine == 0 {
                continue;
            }
            let weakest = |bits: u16| {
                if bits & reading.burnt != 0 {
                    bits & reading.burnt
                } else {
                    1 << (15 - bits.leading_zeros())
                }
            };
            let last = weakest(mine);
            let mut candidates = [Some(last), None];
            if reading.call_card == last && mine != last {
                candidates[1] = Some(weakest(mine & !last));
            }
            for bit in candidates.into_iter().flatten() {
                let value = reading.keep(bit);
                if best.is_none_or(|(v, _)| value < v) {
                    best = Some((value, GCard::new(suit, bit.trailing_zeros() as u8)));
                }
            }
        }
        best.map(|(_, card)| card)
            .filter(|&card| hand.contains(card))
    }

    fn mir_out(&self, suit: GSuit) -> bool {
        self.suits[suit.index()].out & 1 != 0
    }
}

/// The site's default computer player.
pub struct Computer;

impl Bot<Ganjifa> for Computer {
    fn kind(&self) -> BotKind {
        BotKind::Computer
    }

    fn choose(&mut self, view: &View, legal: &[Action], rng: &mut BotRng) -> Action {
        let Some(first) = legal.first() else {
            return Action::GiveUpLead;
        };
        match first {
            Action::PutDown { .. } => {
                let reading = Reading::of(view);
                // While cards are owed, every card of the hand may be put down.
                let owed = view.to_put_down > 0 && legal.len() == view.hand.len();
                match reading.throw(view.hand) {
                    Some(card) if owed => Action::PutDown { card },
                    _ => legal
                        .iter()
                        .min_by_key(|a| match a {
                            Action::PutDown { card } => reading.keep(*card),
                            _ => i32::MAX,
                        })
                        .copied()
                        .unwrap_or(*first),
                }
            }
            Action::Pick { .. } => legal[rng.gen_range(0..legal.len())],
            _ => lead(view, legal),
        }
    }
}

/// The lead, by preference: the longest run (each card led brings two more, and the lead stays); a deni
/// with the least worth card; burning a lone Wazir rather than handing it over; an utari of every hukm
/// it may lead; a talafa, best where the card to clear is a Mir, made with the least worth card; and
/// only then the blind lead.
fn lead(view: &View, legal: &[Action]) -> Action {
    let reading = Reading::of(view);
    let unplayed = GSet::PACK.minus(view.played);
    let mut best_run: Option<(usize, Action)> = None;
    let mut deni: Option<(i32, Action)> = None;
    let mut burn: Option<Action> = None;
    let mut utari: Option<(usize, Action)> = None;
    let mut talafa: Option<(i32, Action)> = None;
    for &action in legal {
        match action {
            Action::Run { suit } => {
                let len = run(view.hand, unplayed, view.burnt, suit).len();
                if best_run.is_none_or(|(best, _)| len >= best) {
                    best_run = Some((len, action));
                }
            }
            Action::Deni { card } => {
                let lone = view.hand.of_suit(card.suit()) == GSet::one(card);
                let value = reading.worth(card);
                if !lone && deni.is_none_or(|(best, _)| value < best) {
                    deni = Some((value, action));
                }
            }
            Action::Burn { .. } => {
                burn = burn.or(Some(action));
            }
            Action::Utari { cards } => {
                if utari.is_none_or(|(best, _)| cards.len() >= best) {
                    utari = Some((cards.len(), action));
                }
            }
            Action::Talafa { suit, card } => {
                let value = i32::from(!reading.mir_out(suit)) * 500 + reading.worth(card);
                if talafa.is_none_or(|(best, _)| value < best) {
                    talafa = Some((value, action));
                }
            }
            Action::GiveUpLead | Action::PutDown { .. } | Action::Pick { .. } => {}
        }
    }
    best_run
        .map(|(_, a)| a)
        .or(deni.map(|(_, a)| a))
        .or(burn)
        .or(utari.map(|(_, a)| a))
        .or(talafa.map(|(_, a)| a))
        .or(legal
            .iter()
            .find(|a| matches!(a, Action::GiveUpLead))
            .copied())
        .or(legal.first().copied())
        .unwrap_or(Action::GiveUpLead)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{deal_rng, Seat};
    use crate::game::{DealSetup, Game, RandomBot};
    use rand::SeedableRng;

    /// The suit-bit reading agrees with the card-by-card count of `ladder::above`, and the throw is a
    /// card of least value.
    #[test]
    fn the_reading_counts_cards_above_as_the_slow_way_does() {
        let mut rng = BotRng::seed_from_u64(3);
        for seed in 0..60 {
            let setup = DealSetup {
                index: seed as u32,
                first: Seat::new(0),
            };
            let mut state = Ganjifa::deal(&setup, &mut deal_rng(seed));
            while let Some(seat) = Ganjifa::to_act(&state) {
                let view = Ganjifa::view(&state, Some(seat));
                let reading = Reading::of(&view);
                let unseen = GSet::PACK.minus(view.played).minus(view.hand);
                let mut least = i32::MAX;
                for card in view.hand {
                    let suit = &reading.suits[card.suit().index()];
                    let slow = super::super::ladder::above(card, unseen, view.burnt);
                    assert_eq!(suit.above(1 << card.place()) as usize, slow);
                    least = least.min(reading.keep(card));
                }
                if let Some(card) = reading.throw(view.hand) {
                    assert_eq!(reading.keep(card), least);
                }
                let legal = Ganjifa::legal_actions(&state, seat);
                let action = if seed % 2 == 0 {
                    Computer.choose(&view, &legal, &mut rng)
                } else {
                    Bot::<Ganjifa>::choose(&mut RandomBot, &view, &legal, &mut rng)
                };
                assert!(legal.contains(&action));
                Ganjifa::apply(&mut state, seat, &action).unwrap();
            }
        }
    }

    #[test]
    fn the_computer_burns_a_lone_wazir_and_makes_a_deni_with_its_weakest_card() {
        use super::super::pack::parse_set;
        use super::super::rules::{PerSeat, State, Time};
        let hands = |a: &str, b: &str, c: &str| {
            PerSeat::from_fn(|s| parse_set([a, b, c][s.index()]).unwrap())
        };
        let mut rng = BotRng::seed_from_u64(1);
        let s0 = Seat::new(0);
        // The computer's lead from seat 0 with these hands, by day.
        let mut leads = |a: &str, b: &str, c: &str| {
            let state = State::at_lead(s0, Time::Day, hands(a, b, c));
            let view = Ganjifa::view(&state, Some(s0));
            let legal = Ganjifa::legal_actions(&state, s0);
            Computer.choose(&view, &legal, &mut rng)
        };
        assert_eq!(
            leads("WCH 9SA 2TA", "MCH 3CH 3TA", "4CH 8SA 4TA"),
            Action::Burn { suit: GSuit::Chang }
        );
        // Deni: Wazir, 5 and 9 of Chang against the Mir; the 9 is the weaker card.
        let card = "9CH".parse().unwrap();
        assert_eq!(
            leads("WCH 5CH 9CH 2TA", "MCH 3CH 3TA 5TA", "4CH 6CH 4TA 6TA"),
            Action::Deni { card }
        );
    }
}
