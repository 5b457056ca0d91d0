//! A match around deals: how long it runs, the running totals, and who has won it.
//!
//! Panjpar plays to a number of deals won (a drawn deal scores for nobody and another is dealt); Pishe
//! Pasha plays one deal or to a points target; Ganjifa plays a fixed number of deals, the highest total
//! winning and a tie at the top shared. Every deal dealt, drawn ones included, moves the rotating role
//! (guesser or dealer) to the next seat.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::cards::Seat;
pub use crate::game::MatchLength;
use crate::game::{DealOutcome, DealSetup};

/// The running match at one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    pub length: MatchLength,
    /// The seat that held the rotating role in the first deal, chosen at random.
    pub first: Seat,
    /// Deals dealt so far, drawn ones included.
    pub deals_dealt: u32,
    /// Deals won per seat.
    pub deals_won: Vec<u32>,
    /// Points per seat.
    pub totals: Vec<i64>,
}

impl Match {
    /// A new match for `seats` seats; the first deal's rotating role goes to a random seat.
    pub fn new(length: MatchLength, seats: usize, rng: &mut impl Rng) -> Match {
        Match::starting_with(length, seats, Seat::new(rng.gen_range(0..seats)))
    }

    /// A new match whose first deal's rotating role goes to `first`.
    pub fn starting_with(length: MatchLength, seats: usize, first: Seat) -> Match {
        Match {
            length,
            first,
            deals_dealt: 0,
            deals_won: vec![0; seats],
            totals: vec![0; seats],
        }
    }

    /// The setup of the next deal.
    pub fn next_deal(&self) -> DealSetup {
        DealSetup {
            index: self.deals_dealt,
            first: self.first,
        }
    }

    /// Counts a finished deal.
    pub fn record(&mut self, outcome: &DealOutcome) {
        self.deals_dealt += 1;
        for seat in &outcome.winners {
            self.deals_won[seat.index()] += 1;
        }
        for (total, points) in self.totals.iter_mut().zip(&outcome.points) {
            *total += i64::from(*points);
        }
    }

    /// The winners once the match is over (several on a shared win), `None` while it goes on.
    pub fn winners(&self) -> Option<Vec<Seat>> {
        let seats = || Seat::all(self.totals.len());
        match self.length {
            MatchLength::DealsWon(target) => {
                let won: Vec<Seat> = seats()
                    .filter(|s| self.deals_won[s.index()] >= target)
                    .collect();
                (!won.is_empty()).then_some(won)
            }
            MatchLength::Points(target) => {
                let best = *self.totals.iter().max()?;
                (best >= i64::from(target)).then(|| self.leaders(best))
            }
            MatchLength::Deals(count) => {
                let best = *self.totals.iter().max()?;
                (self.deals_dealt >= count).then(|| self.leaders(best))
            }
        }
    }

    fn leaders(&self, best: i64) -> Vec<Seat> {
        Seat::all(self.totals.len())
            .filter(|s| self.totals[s.index()] == best)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn won_by(seat: usize, seats: usize) -> DealOutcome {
        let mut points = vec![0; seats];
        points[seat] = 1;
        DealOutcome {
            points,
            winners: vec![Seat::new(seat)],
        }
    }

    fn drawn(seats: usize) -> DealOutcome {
        DealOutcome {
            points: vec![0; seats],
            winners: vec![],
        }
    }

    #[test]
    fn first_to_three_deals_won_with_a_drawn_deal_replayed_and_the_role_passing_on() {
        let mut m = Match::starting_with(MatchLength::DealsWon(3), 2, Seat::new(1));
        assert_eq!(m.next_deal().rotating_seat(2), Seat::new(1));
        m.record(&won_by(0, 2));
        assert_eq!(m.next_deal().rotating_seat(2), Seat::new(0));
        m.record(&drawn(2));
        assert_eq!(m.deals_won, vec![1, 0]);
        // The guess passed on after the drawn deal too.
        assert_eq!(m.next_deal().rotating_seat(2), Seat::new(1));
        m.record(&won_by(1, 2));
        m.record(&won_by(0, 2));
        assert_eq!(m.winners(), None);
        m.record(&won_by(0, 2));
        assert_eq!(m.winners(), Some(vec![Seat::new(0)]));
        assert_eq!(m.deals_dealt, 5);
    }

    #[test]
    fn points_target_is_reached_by_the_first_total_at_or_over_it() {
        let mut m = Match::starting_with(MatchLength::Points(50), 2, Seat::new(0));
        m.record(&DealOutcome {
            points: vec![0, 30],
            winners: vec![Seat::new(1)],
        });
        assert_eq!(m.winners(), None);
        m.record(&DealOutcome {
            points: vec![0, 20],
            winners: vec![Seat::new(1)],
        });
        assert_eq!(m.winners(), Some(vec![Seat::new(1)]));
    }

    #[test]
    fn a_fixed_number_of_deals_shares_a_tie_at_the_top() {
        let mut m = Match::starting_with(MatchLength::Deals(3), 3, Seat::new(2));
        for points in [vec![4, -2, -2], vec![-4, 2, 2], vec![0, 0, 0]] {
            assert_eq!(m.winners(), None);
            m.record(&DealOutcome::top_scorers(points));
        }
        assert_eq!(
            m.winners(),
            Some(vec![Seat::new(0), Seat::new(1), Seat::new(2)])
        );
        assert_eq!(m.totals, vec![0, 0, 0]);
    }

    #[test]
    fn a_random_first_seat_is_one_of_the_table() {
        let mut rng = crate::cards::deal_rng(3);
        let seats: std::collections::HashSet<Seat> = (0..50)
            .map(|_| Match::new(MatchLength::Deals(3), 3, &mut rng).first)
            .collect();
        assert_eq!(seats.len(), 3);
    }
}
