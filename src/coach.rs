//! Finding a seat's decisions in a finished deal, for its game's coach ([`crate::game::Coach`]) to
//! judge: the views the seat saw, as a table shows them (after the deal and after every action), and
//! the points where it chose between more than one legal action.

use std::fmt;

use crate::cards::Seat;
use crate::game::Game;

/// One decision of a seat in a deal: after `step` actions of the deal, with `seen` views of its own
/// taken in (views[..seen], the last being the one it decided from), the legal actions it had (more
/// than one) and the one it made.
pub struct Point<G: Game> {
    pub step: usize,
    pub seen: usize,
    pub legal: Vec<G::Action>,
    pub made: G::Action,
}

impl<G: Game> Clone for Point<G> {
    fn clone(&self) -> Self {
        Point {
            step: self.step,
            seen: self.seen,
            legal: self.legal.clone(),
            made: self.made.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for Point<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Point")
            .field("step", &self.step)
            .field("seen", &self.seen)
            .field("legal", &self.legal)
            .field("made", &self.made)
            .finish()
    }
}

impl<G: Game> PartialEq for Point<G> {
    fn eq(&self, other: &Self) -> bool {
        (self.step, self.seen, &self.legal, &self.made)
            == (other.step, other.seen, &other.legal, &other.made)
    }
}

/// The views `seat` saw through the deal, starting from the dealt `state` and applying `actions` in
/// order (a view after the deal and after every action, as the table shows each change), and the
/// points where it decided between more than one legal action. An action the rules refuse ends the
/// walk there: what came before it is returned.
pub fn decisions<G: Game>(
    state: G::State,
    actions: &[(Seat, G::Action)],
    seat: Seat,
) -> (Vec<G::View>, Vec<Point<G>>) {
    let mut state = state;
    let mut views = vec![G::view(&state, Some(seat))];
    let mut points = Vec::new();
    for (step, (by, action)) in actions.iter().enumerate() {
        if *by == seat && G::to_act(&state) == Some(seat) {
            let legal = G::legal_actions(&state, seat);
            if legal.len() > 1 && legal.contains(action) {
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
