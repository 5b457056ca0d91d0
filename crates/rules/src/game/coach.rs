//! The coach: a game's strong computer judging one decision of one seat from only what that seat saw.
//!
//! The values are expected results over sampled deals that agree with the seat's views (the strong
//! computer's own search), so a small loss can be the luck of the draw: a move whose loss is within
//! twice the standard error of the sampled difference is [`Grade::Fine`], whatever the thresholds say.

use serde::{Deserialize, Deserializer, Serialize};

use super::{BotRng, Budget, Game, Why};

/// How costly a decision was, from the least.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Grade {
    Fine,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Grade {
    /// The grade of a decision that lost `loss` (in the game's unit) against the best, when the
    /// sampled difference has standard error `noise`: Fine within twice the noise, else the number of
    /// `thresholds` (inaccuracy, mistake, blunder) the loss reaches.
    pub fn of_loss(loss: f64, noise: f64, thresholds: [f64; 3]) -> Grade {
        if loss.is_nan() || loss <= 2.0 * noise.max(0.0) {
            return Grade::Fine;
        }
        match thresholds.iter().filter(|&&t| loss >= t).count() {
            0 => Grade::Fine,
            1 => Grade::Inaccuracy,
            2 => Grade::Mistake,
            _ => Grade::Blunder,
        }
    }
}

/// The games' units, in words: what a [`Judgement`]'s values count.
pub const UNITS: [&str; 2] = [CHANCE_OF_WINNING, CARDS_WON];
/// Panjpar's and Pishe Pasha's unit: a value from 0 to 1.
pub const CHANCE_OF_WINNING: &str = "chance of winning the deal";
/// Ganjifa's unit: of the 96 cards, those the seat's tricks take.
pub const CARDS_WON: &str = "cards won in the deal";

/// The strong computer's judgement of one decision of one seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judgement<A> {
    /// The action the coach prefers.
    pub best: A,
    /// Its expected result for the seat, in the game's unit.
    pub best_value: f64,
    /// The expected result of the action made (`None` for a hint).
    pub made_value: Option<f64>,
    /// The game's unit in words, one of [`UNITS`].
    pub unit: &'static str,
    /// Fine for a hint; for a made move, from its loss and the game's thresholds.
    pub grade: Grade,
    /// What was better and, where the rules can say it, why: a [`super::Reason`] the page words.
    pub why: Why,
}

/// A judgement is read back (from a snapshot) with its unit as the one of [`UNITS`] it names.
impl<'de, A: Deserialize<'de>> Deserialize<'de> for Judgement<A> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Written<A> {
            best: A,
            best_value: f64,
            made_value: Option<f64>,
            unit: String,
            grade: Grade,
            why: Why,
        }
        let written = Written::<A>::deserialize(deserializer)?;
        let unit = UNITS
            .into_iter()
            .find(|unit| *unit == written.unit)
            .ok_or_else(|| {
                serde::de::Error::custom(format!("no unit is called {:?}", written.unit))
            })?;
        Ok(Judgement {
            best: written.best,
            best_value: written.best_value,
            made_value: written.made_value,
            unit,
            grade: written.grade,
            why: written.why,
        })
    }
}

/// A game's coach: its strong computer judging one seat's decision from only what that seat saw.
pub trait Coach<G: Game>: Send + Sync {
    /// Judges the decision whose legal actions are `legal` (never empty), taken by a seat whose views
    /// in this deal so far are `views` (in order; the last is the view it decided from; the coach folds
    /// them into the strong computer's memory). `made` is the action the seat took, `None` when a hint
    /// is asked.
    fn judge(
        &self,
        views: &[G::View],
        legal: &[G::Action],
        made: Option<&G::Action>,
        budget: Budget,
        rng: &mut BotRng,
    ) -> Judgement<G::Action>;

    /// The loss (in the game's unit) at which a made move becomes an inaccuracy, a mistake, a blunder.
    fn thresholds(&self) -> [f64; 3];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loss_within_the_noise_is_fine_and_past_it_is_graded_by_the_thresholds() {
        let t = [0.05, 0.15, 0.30];
        assert_eq!(Grade::of_loss(0.0, 0.0, t), Grade::Fine);
        assert_eq!(Grade::of_loss(0.04, 0.0, t), Grade::Fine);
        assert_eq!(Grade::of_loss(0.05, 0.0, t), Grade::Inaccuracy);
        assert_eq!(Grade::of_loss(0.2, 0.0, t), Grade::Mistake);
        assert_eq!(Grade::of_loss(0.5, 0.0, t), Grade::Blunder);
        assert_eq!(Grade::of_loss(0.5, 0.3, t), Grade::Fine, "within the noise");
        assert_eq!(Grade::of_loss(0.5, 0.2, t), Grade::Blunder);
    }

    #[test]
    fn a_judgement_is_written_and_read_back_with_its_unit() {
        let judgement = Judgement {
            best: 3,
            best_value: 0.5,
            made_value: Some(0.25),
            unit: CHANCE_OF_WINNING,
            grade: Grade::Mistake,
            why: Why::from(super::super::Reason::Unseen),
        };
        let json = serde_json::to_string(&judgement).unwrap();
        assert!(json.contains("\"grade\":\"mistake\""), "{json}");
        let back: Judgement<i32> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, judgement);
        let unknown = json.replace(CHANCE_OF_WINNING, "bananas");
        assert!(serde_json::from_str::<Judgement<i32>>(&unknown).is_err());
    }

    #[test]
    fn a_judgement_written_with_a_sentence_reads_back_with_its_sentence() {
        let old = r#"{"best":3,"best_value":0.5,"made_value":null,"unit":"chance of winning the deal","grade":"fine","why":"Attacking with the 7 of hearts: it won the deal in 50% of the deals that fit what you knew."}"#;
        let read: Judgement<i32> = serde_json::from_str(old).unwrap();
        assert_eq!(read.grade, Grade::Fine);
        assert!(
            matches!(&read.why, Why::Written(text) if text.starts_with("Attacking with")),
            "{:?}",
            read.why
        );
        assert_eq!(serde_json::to_string(&read).unwrap(), old);
    }
}
