//! The three games' rules cores, and the one place that finds a game by its name: for self-play and for
//! opening a table.

pub mod ganjifa;
pub mod panjpar;
pub mod pishe_pasha;
pub mod strong;

use actix::Actor;
use serde_json::Value;

use crate::game::Game;
use crate::matches::MatchLength;
use crate::sim::{simulate, SimConfig, SimReport};
use crate::table::{
    Level, Snapshot, Table, TableConfig, TableHandle, TableId, TableKind, TokenHash,
};

/// Every game's name, as used on the command line and in URLs.
pub const NAMES: &[&str] = &["panjpar", "pishe-pasha", "ganjifa"];

fn unknown_game(name: &str) -> String {
    format!(
        "There is no game called \"{name}\"; the games are {}.",
        NAMES.join(", ")
    )
}

/// Runs self-play of the game called `name`.
pub fn simulate_by_name(name: &str, config: &SimConfig) -> Result<SimReport, String> {
    match name {
        "panjpar" => simulate::<panjpar::Panjpar>(config),
        "pishe-pasha" => simulate::<pishe_pasha::PishePasha>(config),
        "ganjifa" => simulate::<ganjifa::Ganjifa>(config),
        other => Err(unknown_game(other)),
    }
}

/// A game's match length from a table request's `length` (absent for the game's default).
pub fn match_length(name: &str, length: Option<&Value>) -> Result<MatchLength, String> {
    match name {
        "panjpar" => match length {
            None => Ok(panjpar::DEFAULT_MATCH),
            Some(value) => value
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    "A Panjpar match length is a number of deals won: 1, 3 or 5.".to_string()
                })
                .and_then(panjpar::match_length),
        },
        "pishe-pasha" => {
            let wanted = length.unwrap_or(&Value::Null);
            let found = match (wanted.as_str(), wanted.as_u64()) {
                (Some("one-deal"), _) => Some(MatchLength::Deals(1)),
                (_, Some(points @ (50 | 100))) => Some(MatchLength::Points(points as u32)),
                _ if wanted.is_null() => Some(pishe_pasha::DEFAULT_MATCH),
                _ => None,
            };
            found.ok_or_else(|| {
                "A Pishe Pasha match is \"one-deal\", or first to 50 or 100 points.".to_string()
            })
        }
        "ganjifa" => match length.map(|v| v.as_u64()) {
            None => Ok(MatchLength::Deals(3)),
            Some(Some(deals @ (3 | 6))) => Ok(MatchLength::Deals(deals as u32)),
            Some(_) => Err("A Ganjifa match is 3 or 6 deals.".to_string()),
        },
        other => Err(unknown_game(other)),
    }
}

/// Opens a table of the game called `name` with the creator in seat 1 (holding the token with hash
/// `creator`) and starts its actor; answers its handle and its first snapshot.
/// `level` says how well the computers play at a computer table.
pub fn open_table(
    name: &str,
    kind: TableKind,
    level: Level,
    length: MatchLength,
    creator: TokenHash,
    config: TableConfig,
) -> Result<(TableHandle, Snapshot), String> {
    match name {
        "panjpar" => open::<panjpar::Panjpar>(kind, level, length, creator, config),
        "pishe-pasha" => open::<pishe_pasha::PishePasha>(kind, level, length, creator, config),
        "ganjifa" => open::<ganjifa::Ganjifa>(kind, level, length, creator, config),
        other => Err(unknown_game(other)),
    }
}

/// Rebuilds a table from its snapshot (on the node taking it over) and starts its actor.
pub fn rebuild_table(
    id: TableId,
    snapshot: Snapshot,
    config: TableConfig,
) -> Result<TableHandle, String> {
    match snapshot.game.as_str() {
        "panjpar" => start(Table::<panjpar::Panjpar>::rebuild(id, snapshot, config)?),
        "pishe-pasha" => start(Table::<pishe_pasha::PishePasha>::rebuild(
            id, snapshot, config,
        )?),
        "ganjifa" => start(Table::<ganjifa::Ganjifa>::rebuild(id, snapshot, config)?),
        other => Err(unknown_game(other)),
    }
}

fn open<G: Game>(
    kind: TableKind,
    level: Level,
    length: MatchLength,
    creator: TokenHash,
    config: TableConfig,
) -> Result<(TableHandle, Snapshot), String> {
    let id = TableId::random();
    let table = Table::<G>::new(id, kind, length, level, creator, config)
        .ok_or_else(|| format!("{} has no computer player", G::NAME))?;
    let snapshot = table.snapshot();
    Ok((start(table)?, snapshot))
}

fn start<G: Game>(table: Table<G>) -> Result<TableHandle, String> {
    let id = table.id().clone();
    let addr = table.start();
    Ok(TableHandle::new(id, G::NAME, &addr).with_keep(addr.recipient()))
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
