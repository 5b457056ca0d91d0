//! What the three games' coaches share: turning the strong computer's values of its candidates into a
//! verdict (the best candidate, the made one, the grade) and the verdict into a sentence.

use crate::game::{Grade, Judgement, CARDS_WON, CHANCE_OF_WINNING};
use crate::games::strong::Playouts;

/// How a game's values read in a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// A chance of winning the deal, 0 to 1, written as a percentage.
    Chance,
    /// Cards won in the deal, written with one decimal.
    Cards,
}

impl Measure {
    /// The unit, in words, as a judgement names it.
    pub fn unit(self) -> &'static str {
        match self {
            Measure::Chance => CHANCE_OF_WINNING,
            Measure::Cards => CARDS_WON,
        }
    }

    /// A value alone: "64%", "14.2 cards".
    pub fn amount(self, value: f64) -> String {
        match self {
            Measure::Chance => format!("{:.0}%", value * 100.0),
            Measure::Cards => format!("{value:.1} cards"),
        }
    }

    /// What a value says of a move: "won the deal in 64% of", "won 14.2 cards on average in".
    fn result(self, value: f64) -> String {
        match self {
            Measure::Chance => format!("won the deal in {} of", self.amount(value)),
            Measure::Cards => format!("won {} on average in", self.amount(value)),
        }
    }
}

/// The candidates' values read against the move made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// The candidate the coach prefers (the made one when it is as good).
    pub best: usize,
    pub best_value: f64,
    /// The made move's candidate (the best of those it belongs to) and its value.
    pub made: Option<(usize, f64)>,
    pub grade: Grade,
}

/// The verdict on `values` (one per candidate) where the strong computer's choice is `choice` and the
/// made move belongs to the candidates `made` (`None` for a hint); `noise(a, b)` is the standard error
/// of the difference between two candidates' values.
pub fn verdict(
    values: &[f64],
    choice: usize,
    made: Option<&[usize]>,
    noise: impl Fn(usize, usize) -> f64,
    thresholds: [f64; 3],
) -> Verdict {
    let best_value = values[choice];
    let made = made.and_then(|group| {
        let mut best: Option<usize> = None;
        for &i in group {
            if best.is_none_or(|b| values[i] > values[b]) {
                best = Some(i);
            }
        }
        best.map(|i| (i, values[i]))
    });
    match made {
        None => Verdict {
            best: choice,
            best_value,
            made: None,
            grade: Grade::Fine,
        },
        Some((i, value)) if i == choice || value >= best_value => Verdict {
            best: i,
            best_value: value,
            made: Some((i, value)),
            grade: Grade::Fine,
        },
        Some((i, value)) => Verdict {
            best: choice,
            best_value,
            made: Some((i, value)),
            grade: Grade::of_loss(best_value - value, noise(choice, i), thresholds),
        },
    }
}

/// The sentence for a verdict reached over sampled deals: `best` and `made` describe the moves as
/// phrases ("beating the 7 of hearts with the 9 of hearts"), `reason` adds what the rules can say.
pub fn sampled_why(
    measure: Measure,
    verdict: &Verdict,
    best: &str,
    made: Option<&str>,
    reason: Option<&str>,
) -> String {
    const FIT: &str = "the deals that fit what you knew";
    let sentence = match (verdict.made, made) {
        (None, _) | (_, None) => format!(
            "{}: it {} {FIT}.",
            capitalised(best),
            measure.result(verdict.best_value)
        ),
        (Some((i, _)), Some(made)) if i == verdict.best => format!(
            "{} was the coach's choice too: it {} {FIT}.",
            capitalised(made),
            measure.result(verdict.best_value)
        ),
        (Some((_, value)), Some(made)) if verdict.grade == Grade::Fine => format!(
            "{} was about as good as {best}: {} against {} in {FIT}, a difference within what the \
             sampling can tell.",
            capitalised(made),
            measure.amount(value),
            measure.amount(verdict.best_value)
        ),
        (Some((_, value)), Some(made)) => format!(
            "{} was better than {made}: it {} {FIT}, against {} after {made}.",
            capitalised(best),
            measure.result(verdict.best_value),
            measure.amount(value)
        ),
    };
    match reason {
        Some(reason) => format!("{sentence} {reason}"),
        None => sentence,
    }
}

/// How a game whose candidates are its actions speaks of them.
pub trait Speaks<A> {
    /// The action as a phrase: "giving the 7 of hearts to the other seat".
    fn describe(&self, action: &A) -> String;
    /// What the rules can say for `best` against `made`, as a sentence, when they can.
    fn reason(&self, best: &A, made: &A) -> Option<String>;
}

/// The judgement of a decision whose candidates are actions (the made one among them or added to
/// them): `weigh` plays candidates in sampled deals as the strong computer does.
pub fn judge_actions<A: Clone + PartialEq>(
    mut candidates: Vec<A>,
    made: Option<&A>,
    measure: Measure,
    thresholds: [f64; 3],
    weigh: impl FnOnce(&[A]) -> Playouts,
    speech: &impl Speaks<A>,
) -> Judgement<A> {
    if let Some(made) = made {
        if !candidates.contains(made) {
            candidates.push(made.clone());
        }
    }
    if candidates.len() <= 1 {
        let only = made.cloned().unwrap_or_else(|| candidates[0].clone());
        let value = weigh(std::slice::from_ref(&only)).means()[0];
        let why = format!(
            "{} was the only real choice: it {} the deals that fit what you knew.",
            capitalised(&speech.describe(&only)),
            measure.result(value)
        );
        return Judgement {
            best: only,
            best_value: value,
            made_value: made.map(|_| value),
            unit: measure.unit(),
            grade: Grade::Fine,
            why,
        };
    }
    let weighed = weigh(&candidates);
    let values = weighed.means();
    let group: Vec<usize> = made
        .and_then(|made| candidates.iter().position(|c| c == made))
        .into_iter()
        .collect();
    let verdict = verdict(
        &values,
        weighed.best(),
        made.map(|_| group.as_slice()),
        |a, b| weighed.difference_error(a, b),
        thresholds,
    );
    let best = &candidates[verdict.best];
    let reason = verdict
        .made
        .filter(|_| verdict.grade != Grade::Fine)
        .and_then(|(i, _)| speech.reason(best, &candidates[i]));
    let why = sampled_why(
        measure,
        &verdict,
        &speech.describe(best),
        made.map(|m| speech.describe(m)).as_deref(),
        reason.as_deref(),
    );
    Judgement {
        best: best.clone(),
        best_value: verdict.best_value,
        made_value: verdict.made.map(|(_, v)| v),
        unit: measure.unit(),
        grade: verdict.grade,
        why,
    }
}

/// The phrase with its first letter capitalised.
pub fn capitalised(phrase: &str) -> String {
    let mut chars = phrase.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Items joined as a sentence lists them: "a", "a and b", "a, b and c".
pub fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: [f64; 3] = [0.05, 0.15, 0.30];

    #[test]
    fn the_made_move_takes_the_best_of_its_candidates_and_a_tie_with_the_best_is_fine() {
        let values = [0.6, 0.2, 0.6, 0.4];
        let v = verdict(&values, 0, Some(&[1, 3]), |_, _| 0.0, T);
        assert_eq!(v.made, Some((3, 0.4)));
        assert_eq!(v.grade, Grade::Mistake);
        let v = verdict(&values, 0, Some(&[2]), |_, _| 0.0, T);
        assert_eq!((v.best, v.grade), (2, Grade::Fine));
        let hint = verdict(&values, 0, None, |_, _| 0.0, T);
        assert_eq!((hint.best, hint.made, hint.grade), (0, None, Grade::Fine));
    }

    #[test]
    fn sentences_name_both_moves_and_their_values() {
        let v = verdict(&[0.64, 0.31], 0, Some(&[1]), |_, _| 0.01, T);
        let why = sampled_why(Measure::Chance, &v, "beating it", Some("picking up"), None);
        assert_eq!(
            why,
            "Beating it was better than picking up: it won the deal in 64% of the deals that fit \
             what you knew, against 31% after picking up."
        );
        assert_eq!(listed(&["a".into(), "b".into(), "c".into()]), "a, b and c");
    }
}
