//! A seat's decisions in a deal.

use crate::cards::Seat;
use crate::game::Game;

pub struct Point<G: Game> {
    pub step: usize,
    pub seen: usize,
    pub legal: Vec<G::Action>,
    pub made: G::Action,
}

pub fn decisions<G: Game>(
    mut state: G::State,
    actions: &[(Seat, G::Action)],
    seat: Seat,
) -> (Vec<G::View>, Vec<Point<G>>) {
    let mut views = vec![G::view(&state, Some(seat))];
    let mut points = Vec::new();
    for (step, (by, action)) in actions.iter().enumerate() {
        if *by == seat {
            let legal = G::legal_actions(&state, seat);
            if legal.len() > 1 {
                points.push(Point {
                    step,
                    seen: views.len(),
                    legal,
                    made: action.clone(),
                });
            }
        }
        if G::apply(&mut state, *by, action).is_err() {
            break;
        }
        views.push(G::view(&state, Some(seat)));
    }
    (views, points)
}
