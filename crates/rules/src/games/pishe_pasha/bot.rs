//! The computer players of Pishe Pasha. Each decides from its seat's view alone.
//!
//! - `computer` (RULINGS Pishe Pasha 8) gives whenever it may. Since a give of its pile's top is offered
//!   before it turns, it settles its own pile first, chaining a run of gives, and only then turns a card;
//!   a turned card that fits the other pile is given too.
//! - `hold-kings` (RULINGS 9) plays like the computer but never gives a king, turned or from its pile.
//! - `two-above` (RULINGS 9) plays like the computer but never gives a card exactly two ranks above the
//!   top of its own suit's pile (an unstarted pile counting 0): that card may soon go home.
//!
//! A card the strategy holds back is kept (if just turned) or left on the pile while it turns a card.

use super::piles::SuitPiles;
use super::rules::Action;
use super::view::View;
use super::PishePasha;
use crate::cards::{Card, Rank};
use crate::game::{Bot, BotKind, BotRng};

/// How a computer player chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Computer,
    HoldKings,
    TwoAbove,
}

impl Strategy {
    pub const ALL: [Strategy; 3] = [Strategy::Computer, Strategy::HoldKings, Strategy::TwoAbove];

    /// Its kind among the game's bots.
    pub const fn kind(self) -> BotKind {
        match self {
            Strategy::Computer => BotKind::Computer,
            Strategy::HoldKings => BotKind::Own("hold-kings"),
            Strategy::TwoAbove => BotKind::Own("two-above"),
        }
    }

    /// The strategy of that kind, if it is one.
    pub fn of(kind: BotKind) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.kind() == kind)
    }

    /// Whether it gives `card` when the rules allow it, the suit piles standing as they do.
    pub fn gives(self, card: Card, suit_piles: &SuitPiles) -> bool {
        match self {
            Strategy::Computer => true,
            Strategy::HoldKings => card.rank() != Rank::King,
            Strategy::TwoAbove => card.rank().value_ace_low() != suit_piles.height(card.suit()) + 2,
        }
    }

    /// Its choice from what the view offers, or `None` when the view offers nothing.
    pub fn decide(self, view: &View) -> Option<Action> {
        let choices = &view.choices;
        match choices.give {
            Some(card) if self.gives(card, &view.suit_piles) => Some(Action::Give),
            _ if choices.turn => Some(Action::Turn),
            _ if choices.keep => Some(Action::Keep),
            _ => None,
        }
    }
}

/// A computer player following one [`Strategy`].
pub struct Player(pub Strategy);

impl Bot<PishePasha> for Player {
    fn kind(&self) -> BotKind {
        self.0.kind()
    }

    fn choose(&mut self, view: &View, legal: &[Action], _rng: &mut BotRng) -> Action {
        match self.0.decide(view) {
            Some(action) if legal.contains(&action) => action,
            // The view and the legal list always agree; should they not, stay within the rules.
            _ => legal.first().copied().unwrap_or(Action::Turn),
        }
    }
}
