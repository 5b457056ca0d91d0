//! The three games' rules cores. The server's catalog registers each once, and everything per-game
//! iterates it there. Nothing here knows of tables, sockets or Redis.

pub mod coaching;
pub mod ganjifa;
pub mod panjpar;
pub mod pishe_pasha;
pub mod strong;

#[cfg(test)]
#[test]
fn each_games_codes_are_written_once_and_apart_from_the_shared_ones() {
    use crate::game::rule_code::assert_written_once;
    assert_written_once::<panjpar::codes::Code>();
    assert_written_once::<pishe_pasha::codes::Code>();
    assert_written_once::<ganjifa::codes::Code>();
}

#[cfg(test)]
mod deal_order_tests {
    use crate::cards::{deal_rng, Card, CardSet, Seat};
    use crate::game::{DealOrder, DealSetup, DealtTo, Game};

    use super::ganjifa::{pack::GSet, Ganjifa};
    use super::panjpar::{rules, Panjpar};
    use super::pishe_pasha::PishePasha;

    fn setups() -> impl Iterator<Item = (DealSetup, u64)> {
        (0..60u64).map(|seed| {
            let setup = DealSetup {
                index: (seed % 5) as u32,
                first: Seat::new((seed % 2) as usize),
            };
            (setup, seed * 7919)
        })
    }

    fn french(order: &DealOrder, to: DealtTo) -> Vec<Card> {
        let cards = order.cards().zip(&order.to).filter(|(_, t)| **t == to);
        cards.map(|(c, _)| c.parse().unwrap()).collect()
    }

    /// Each game's order deals the very state `deal` deals, holds every card once, and says where each
    /// card went truly.
    #[test]
    fn each_games_deal_order_is_the_deal_it_dealt() {
        for (setup, seed) in setups() {
            let (state, order) = Panjpar::deal_in_order(&setup, &mut deal_rng(seed));
            assert_eq!(state, Panjpar::deal(&setup, &mut deal_rng(seed)));
            assert_eq!(order.cards().count(), 52);
            let all: CardSet = french(&order, rules::PILE).into_iter().collect();
            assert_eq!(french(&order, rules::PILE), state.pile);
            assert_eq!(french(&order, rules::TRUMP), vec![state.trump_card]);
            for seat in Seat::all(2) {
                let hand: CardSet = french(&order, DealtTo::Seat(seat)).into_iter().collect();
                assert_eq!(hand, state.hands[seat]);
                assert!(hand.intersection(all).is_empty());
            }

            let (state, order) = PishePasha::deal_in_order(&setup, &mut deal_rng(seed));
            assert_eq!(state, PishePasha::deal(&setup, &mut deal_rng(seed)));
            let everything: CardSet = order.cards().map(|c| c.parse::<Card>().unwrap()).collect();
            assert_eq!(everything, CardSet::DECK);
            for seat in Seat::all(2) {
                assert_eq!(
                    french(&order, DealtTo::Seat(seat)),
                    state.stock(seat).as_slice().to_vec()
                );
            }

            let (state, order) = Ganjifa::deal_in_order(&setup, &mut deal_rng(seed));
            assert_eq!(state, Ganjifa::deal(&setup, &mut deal_rng(seed)));
            let everything: GSet = order.cards().map(|c| c.parse().unwrap()).collect();
            assert_eq!((everything, order.cards().count()), (GSet::PACK, 96));
            for seat in Seat::all(3) {
                let dealt: GSet = order.dealt_to(seat).map(|c| c.parse().unwrap()).collect();
                assert_eq!(dealt.len(), 32);
                // The table may already have put the opening Mir down for its holder.
                assert_eq!(state.hands[seat].minus(dealt), GSet::EMPTY);
                assert_eq!(
                    dealt.minus(state.hands[seat]).minus(state.played),
                    GSet::EMPTY
                );
            }
        }
    }
}
