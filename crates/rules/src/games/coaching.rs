//! What the three games' coaches share: turning the strong computer's values of its candidates into a
//! verdict (the best candidate, the made one, the grade) and the verdict into a [`Reason`].

use crate::game::{Grade, Judgement, Measure, Play, Reason, Rule};
use crate::games::strong::Playouts;

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

/// The reason for a verdict reached over sampled deals: `best` and `made` are the moves as the game
/// names them, `rule` what the rules can add.
pub fn sampled_reason(
    measure: Measure,
    verdict: &Verdict,
    best: Play,
    made: Option<Play>,
    rule: Option<Rule>,
) -> Reason {
    match (verdict.made, made) {
        (None, _) | (_, None) => Reason::Hint {
            measure,
            best,
            value: verdict.best_value,
        },
        (Some((i, _)), Some(made)) if i == verdict.best => Reason::Agreed {
            measure,
            made,
            value: verdict.best_value,
        },
        (Some((_, made_value)), Some(made)) if verdict.grade == Grade::Fine => Reason::Close {
            measure,
            best,
            best_value: verdict.best_value,
            made,
            made_value,
        },
        (Some((_, made_value)), Some(made)) => Reason::Better {
            measure,
            best,
            best_value: verdict.best_value,
            made,
            made_value,
            rule,
        },
    }
}

/// How a game whose candidates are its actions speaks of them.
pub trait Speaks<A> {
    /// The action as a reason names it: the game's value for it, with what the seat saw of it.
    fn play(&self, action: &A) -> Play;
    /// What the rules can say for `best` against `made`, when they can.
    fn rule(&self, best: &A, made: &A) -> Option<Rule>;
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
        let why = Reason::Only {
            measure,
            play: speech.play(&only),
            value,
        };
        return Judgement {
            best: only,
            best_value: value,
            made_value: made.map(|_| value),
            unit: measure.unit(),
            grade: Grade::Fine,
            why: why.into(),
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
    let rule = verdict
        .made
        .filter(|_| verdict.grade != Grade::Fine)
        .and_then(|(i, _)| speech.rule(best, &candidates[i]));
    let why = sampled_reason(
        measure,
        &verdict,
        speech.play(best),
        made.map(|m| speech.play(m)),
        rule,
    );
    Judgement {
        best: best.clone(),
        best_value: verdict.best_value,
        made_value: verdict.made.map(|(_, v)| v),
        unit: measure.unit(),
        grade: verdict.grade,
        why: why.into(),
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
    fn a_verdict_names_its_sentence_with_both_moves_and_their_values() {
        let (best, made) = (
            serde_json::json!({"type": "a"}),
            serde_json::json!({"type": "b"}),
        );
        let worse = verdict(&[0.64, 0.31], 0, Some(&[1]), |_, _| 0.01, T);
        let rule = Some(serde_json::json!({"rule": "r"}));
        let why = sampled_reason(
            Measure::Chance,
            &worse,
            best.clone(),
            Some(made.clone()),
            rule.clone(),
        );
        assert_eq!(
            why,
            Reason::Better {
                measure: Measure::Chance,
                best: best.clone(),
                best_value: 0.64,
                made: made.clone(),
                made_value: 0.31,
                rule,
            }
        );
        let noisy = verdict(&[0.64, 0.31], 0, Some(&[1]), |_, _| 0.2, T);
        let close = sampled_reason(
            Measure::Cards,
            &noisy,
            best.clone(),
            Some(made.clone()),
            None,
        );
        assert!(matches!(close, Reason::Close { made_value, .. } if made_value == 0.31));
        let same = verdict(&[0.64, 0.31], 0, Some(&[0]), |_, _| 0.0, T);
        let agreed = sampled_reason(
            Measure::Chance,
            &same,
            best.clone(),
            Some(best.clone()),
            None,
        );
        assert_eq!(
            agreed,
            Reason::Agreed {
                measure: Measure::Chance,
                made: best.clone(),
                value: 0.64
            }
        );
        let hint = verdict(&[0.64, 0.31], 0, None, |_, _| 0.0, T);
        let hinted = sampled_reason(Measure::Chance, &hint, best.clone(), None, None);
        assert_eq!(
            hinted,
            Reason::Hint {
                measure: Measure::Chance,
                best,
                value: 0.64
            }
        );
    }
}
