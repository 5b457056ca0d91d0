//! The lead ladder (RULINGS Ganjifa 4 and 5): the hukm of every suit, and which leads a seat may make.
//!
//! The rungs, tried in order at every lead: a run (dukkal) when a suit's best unplayed cards, two or more in a row, are all yours
//! cards; a deni when you hold a Wazir whose Mir is in another hand; your choice of talafa or utari;
//! the blind lead when you hold no hukm. The functions here read only card sets, so the view and the
//! computer use them too, with what their seat knows in place of the truth.

use super::pack::{GCard, GSet, GSuit};

/// The unplayed cards of `suit` from the strongest down: unburnt cards by place, then a burnt one,
/// which ranks lowest from the moment it burns.
pub fn order(unplayed: GSet, burnt: GSet, suit: GSuit) -> impl Iterator<Item = GCard> {
    let left = unplayed.of_suit(suit);
    left.minus(burnt)
        .iter()
        .chain(left.intersection(burnt).iter())
}

/// The hukm of `suit`: its strongest unplayed card.
pub fn hukm(unplayed: GSet, burnt: GSet, suit: GSuit) -> Option<GCard> {
    let left = unplayed.of_suit(suit);
    left.minus(burnt)
        .first()
        .or_else(|| left.intersection(burnt).first())
}

/// Whether `a` beats `b`, two cards of one suit, given the burnt cards.
pub fn outranks(a: GCard, b: GCard, burnt: GSet) -> bool {
    match (burnt.contains(a), burnt.contains(b)) {
        (false, true) => true,
        (true, false) => false,
        _ => a.place() < b.place(),
    }
}

/// How many cards of `set` rank above `card` in its suit.
pub fn above(card: GCard, set: GSet, burnt: GSet) -> usize {
    set.of_suit(card.suit())
        .iter()
        .filter(|&other| outranks(other, card, burnt))
        .count()
}

/// The twelve bits of one suit in a set, the Mir lowest.
pub fn suit_bits(set: GSet, suit: GSuit) -> u16 {
    ((set.bits() >> (12 * suit.index())) & 0xfff) as u16
}

/// The cards of `suit` at the places set in `bits`.
pub fn from_suit_bits(bits: u16, suit: GSuit) -> GSet {
    GSet::from_bits(u128::from(bits & 0xfff) << (12 * suit.index()))
}

/// The places of one suit's unplayed cards from the strongest down: unburnt ones, then burnt ones.
#[derive(Clone, Copy)]
struct Places {
    unburnt: u16,
    burnt: u16,
}

impl Iterator for Places {
    type Item = u16;
    fn next(&mut self) -> Option<u16> {
        let source = if self.unburnt != 0 {
            &mut self.unburnt
        } else if self.burnt != 0 {
            &mut self.burnt
        } else {
            return None;
        };
        let bit = *source & source.wrapping_neg();
        *source &= !bit;
        Some(bit)
    }
}

fn places(unplayed: GSet, burnt: GSet, suit: GSuit) -> Places {
    let left = suit_bits(unplayed, suit);
    let burnt = suit_bits(burnt, suit);
    Places {
        unburnt: left & !burnt,
        burnt: left & burnt,
    }
}

/// The run `hand` holds in `suit`, from the top, as suit bits: every card of it but the lowest.
fn run_bits(mine: u16, mut order: Places) -> u16 {
    let mut led = 0;
    let mut lowest = 0;
    for bit in order.by_ref() {
        if mine & bit == 0 {
            break;
        }
        led |= lowest;
        lowest = bit;
    }
    led
}

/// The cards of a run `hand` holds in `suit` that must be led (all of its cards except the weakest, which stays in the hand),
/// or the empty set when it holds no run there.
pub fn run(hand: GSet, unplayed: GSet, burnt: GSet, suit: GSuit) -> GSet {
    let led = run_bits(suit_bits(hand, suit), places(unplayed, burnt, suit));
    from_suit_bits(led, suit)
}

/// What one seat may lead, rung by rung, from the truth of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ladder {
    /// The run to lead in each suit (empty where there is none).
    pub runs: [GSet; 8],
    /// Suits where the seat holds the Wazir, the Mir is in another hand, and it holds a lower card.
    pub deni: u8,
    /// Suits where the seat holds the Wazir alone, with the Mir in another hand.
    pub lone_wazir: u8,
    /// Suits where a talafa is open, with the cards it could be made with.
    pub talafa: [GSet; 8],
    /// The hukms the seat holds.
    pub hukms: GSet,
    /// Whether the second phase has begun (it widens utari and talafa).
    pub second_phase: bool,
}

/// The rung that decides a lead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rung {
    Run,
    Deni,
    Choice,
    Blind,
}

impl Ladder {
    /// The ladder of the seat holding `hand`, with `unplayed` the cards still in any hand.
    pub fn of(hand: GSet, unplayed: GSet, burnt: GSet, second_phase: bool) -> Ladder {
        let mut ladder = Ladder {
            runs: [GSet::EMPTY; 8],
            deni: 0,
            lone_wazir: 0,
            talafa: [GSet::EMPTY; 8],
            hukms: GSet::EMPTY,
            second_phase,
        };
        for suit in GSuit::ALL {
            let mine = suit_bits(hand, suit);
            if mine == 0 {
                continue;
            }
            let order = places(unplayed, burnt, suit);
            let mut top = order;
            let (first, second) = (top.next().unwrap_or(0), top.next().unwrap_or(0));
            ladder.hukms = ladder.hukms.union(from_suit_bits(first & mine, suit));
            if first & mine != 0 && second & mine != 0 {
                ladder.runs[suit.index()] = from_suit_bits(run_bits(mine, order), suit);
            }
            const MIR: u16 = 1;
            const WAZIR: u16 = 2;
            let left = order.unburnt | order.burnt;
            if mine & WAZIR != 0 && order.unburnt & WAZIR != 0 && left & MIR != 0 && mine & MIR == 0
            {
                if mine != WAZIR {
                    ladder.deni |= suit.bit();
                } else {
                    ladder.lone_wazir |= suit.bit();
                }
            }
            if first != 0 && first & mine == 0 && second & mine != 0 {
                let mut callers = from_suit_bits(mine & !second, suit);
                if second_phase {
                    callers = callers.union(hand.minus(GSet::suit(suit)));
                }
                ladder.talafa[suit.index()] = callers;
            }
        }
        ladder
    }

    /// The suits holding a run.
    pub fn run_suits(&self) -> u8 {
        GSuit::ALL
            .into_iter()
            .filter(|s| !self.runs[s.index()].is_empty())
            .fold(0, |mask, s| mask | s.bit())
    }

    /// The suits where a talafa is open.
    pub fn talafa_suits(&self) -> u8 {
        GSuit::ALL
            .into_iter()
            .filter(|s| !self.talafa[s.index()].is_empty())
            .fold(0, |mask, s| mask | s.bit())
    }

    /// The rung that decides this lead.
    pub fn rung(&self) -> Rung {
        if self.run_suits() != 0 {
            Rung::Run
        } else if self.deni | self.lone_wazir != 0 {
            Rung::Deni
        } else if !self.hukms.is_empty() || self.talafa_suits() != 0 {
            Rung::Choice
        } else {
            Rung::Blind
        }
    }

    /// Whether the blind lead is open: no run, no deni and no hukm held.
    pub fn blind_open(&self) -> bool {
        matches!(self.rung(), Rung::Choice | Rung::Blind) && self.hukms.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::super::pack::parse_set;
    use super::*;

    fn set(codes: &str) -> GSet {
        parse_set(codes).unwrap()
    }

    #[test]
    fn once_mir_and_wazir_of_taj_are_out_the_ten_is_hukm() {
        let unplayed = GSet::PACK;
        assert_eq!(
            hukm(unplayed, GSet::EMPTY, GSuit::Taj),
            Some(set("MTA").first().unwrap())
        );
        let unplayed = unplayed.minus(set("MTA WTA"));
        assert_eq!(hukm(unplayed, GSet::EMPTY, GSuit::Taj), set("10TA").first());
    }

    #[test]
    fn in_a_one_high_suit_the_one_is_the_third_best_card() {
        let third: Vec<GCard> = order(GSet::PACK, GSet::EMPTY, GSuit::Chang)
            .take(3)
            .collect();
        assert_eq!(third[2], set("1CH").first().unwrap());
        let unplayed = GSet::PACK.minus(set("MCH WCH"));
        assert_eq!(
            hukm(unplayed, GSet::EMPTY, GSuit::Chang),
            set("1CH").first()
        );
        // In a ten-high suit the 1 is the weakest.
        assert_eq!(
            order(GSet::PACK, GSet::EMPTY, GSuit::Taj).last(),
            set("1TA").first()
        );
    }

    #[test]
    fn a_burnt_card_counts_below_every_other_card_of_its_suit() {
        let burnt = set("WCH");
        let unplayed = GSet::PACK.minus(set("MCH"));
        assert_eq!(hukm(unplayed, burnt, GSuit::Chang), set("1CH").first());
        assert_eq!(
            order(unplayed, burnt, GSuit::Chang).last(),
            set("WCH").first()
        );
        assert!(outranks(
            set("10CH").first().unwrap(),
            set("WCH").first().unwrap(),
            burnt
        ));
        // Alone in its suit, a burnt card is the hukm.
        let unplayed = set("WCH 5TA");
        assert_eq!(hukm(unplayed, burnt, GSuit::Chang), set("WCH").first());
    }

    #[test]
    fn a_run_skips_played_cards_and_keeps_its_lowest() {
        // Mir and 10 of Taj with the Wazir played: a run of two, the Mir is led.
        let hand = set("MTA 10TA 3TA");
        let unplayed = GSet::PACK.minus(set("WTA"));
        assert_eq!(run(hand, unplayed, GSet::EMPTY, GSuit::Taj), set("MTA"));
        // Without the 10 there is no run.
        let hand = set("MTA 9TA");
        assert_eq!(run(hand, unplayed, GSet::EMPTY, GSuit::Taj), GSet::EMPTY);
    }
}
