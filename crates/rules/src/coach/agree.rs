//! Judgements of one deal that agree with each other. Each decision is judged on its own, over
//! sampled deals played on by the strong computer's playouts: the value it gives the move made is what
//! those playouts made of the position after it. When the same seat decides again at once, having seen
//! no new card (the next action of the deal is its own next decision, as in Pishe Pasha's runs of
//! moves: [`super::continuing`]), the coach's own study of that next position is a deeper look at the
//! very position the made move led to, with the same knowledge: the made move was worth at least the
//! best found there. Taken into account from the last decision back, a position the coach finds won is
//! never called lost one move earlier, and a move that led to it is never graded as if it had lost.

use super::Mark;
use crate::game::{Grade, Reason, Why};

/// Raises each decision's made value to what its seat's next decision found, where that one
/// `continues` it, and grades it again by `thresholds` (never more severely than before). A decision
/// whose made value reaches the best is fine.
pub fn agree(judged: &mut [Mark], continues: &[bool], thresholds: [f64; 3]) {
    let mut after: Option<f64> = None;
    for (i, mark) in judged.iter_mut().enumerate().rev() {
        let next = after.filter(|_| continues.get(i + 1) == Some(&true));
        if let Some(value) = next {
            if value > mark.made_value && !is_solved(&mark.why) {
                mark.made_value = value;
                let loss = mark.best_value - value;
                let grade = if loss > 0.0 {
                    Grade::of_loss(loss, 0.0, thresholds)
                } else {
                    Grade::Fine
                };
                mark.grade = grade.min(mark.grade);
                made_value_now(&mut mark.why, value);
            }
        }
        after = Some(mark.best_value.max(mark.made_value));
    }
}

/// An endgame solved exactly: its values are the deal's end, nothing to raise.
fn is_solved(why: &Why) -> bool {
    matches!(why, Why::Reason(Reason::SolvedBetter { .. }))
}

/// The reason, saying `value` for the move made.
fn made_value_now(why: &mut Why, value: f64) {
    if let Why::Reason(Reason::Better { made_value, .. } | Reason::Close { made_value, .. }) = why {
        *made_value = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Measure;
    use serde_json::json;

    const T: [f64; 3] = [0.05, 0.15, 0.30];

    fn judged(step: usize, grade: Grade, best_value: f64, made_value: f64) -> Mark {
        Mark {
            step,
            grade,
            best: json!({"type": "keep"}),
            made_value,
            best_value,
            why: Reason::Better {
                measure: Measure::Chance,
                best: json!({"type": "keep"}),
                best_value,
                made: json!({"type": "give"}),
                made_value,
                rule: None,
            }
            .into(),
        }
    }

    #[test]
    fn a_move_called_lost_is_worth_what_the_next_decision_finds_right_after_it() {
        // Step 91 "gave" at 0% against 100%; at step 92, straight after, the coach finds 100% again.
        let mut marks = vec![
            judged(91, Grade::Blunder, 1.0, 0.0),
            judged(92, Grade::Blunder, 1.0, 0.0),
            judged(93, Grade::Fine, 0.97, 0.97),
        ];
        agree(&mut marks, &[false, true, true], T);
        assert_eq!(marks[1].grade, Grade::Fine);
        assert_eq!(marks[1].made_value, 0.97);
        // Then 91's made move led to a position the coach found won (its best there, 100%).
        assert_eq!(marks[0].made_value, 1.0);
        assert_eq!(marks[0].grade, Grade::Fine);
        let Why::Reason(Reason::Better { made_value, .. }) = marks[1].why else {
            panic!("{:?}", marks[1].why)
        };
        assert_eq!(made_value, 0.97);
    }

    #[test]
    fn another_seat_between_a_card_seen_or_a_lower_value_changes_nothing_and_no_grade_rises() {
        let mut marks = vec![
            judged(10, Grade::Mistake, 0.6, 0.4),
            // Step 12: another seat acted at step 11; step 13: a new card was seen before it.
            judged(12, Grade::Fine, 0.9, 0.9),
            judged(13, Grade::Fine, 0.95, 0.95),
            judged(14, Grade::Fine, 0.2, 0.2),
        ];
        let before = marks.clone();
        agree(&mut marks, &[false, false, false, true], T);
        assert_eq!(marks, before);
        let mut partly = vec![
            judged(20, Grade::Blunder, 0.9, 0.2),
            judged(21, Grade::Mistake, 0.7, 0.5),
        ];
        agree(&mut partly, &[false, true], T);
        assert_eq!(partly[0].made_value, 0.7);
        assert_eq!(
            partly[0].grade,
            Grade::Mistake,
            "a loss of 0.2 left: no longer a blunder"
        );
        assert_eq!(
            partly[1].grade,
            Grade::Mistake,
            "the last decision is as judged"
        );
    }
}

/// The coach of two games judging every decision of whole deals, then agreeing: a decision's made
/// value is never below what the seat's next decision, straight after it, found.
#[cfg(test)]
mod over_deals {
    use super::*;
    use crate::cards::Seat;
    use crate::coach::{decisions, self_played};
    use crate::game::Game;

    /// Every decision of seat 0 in the deals of `seeds`, judged with `samples` sampled deals and
    /// agreed; answers how many made values the agreement raised.
    fn agreed_over<G: Game>(seeds: std::ops::Range<u64>, samples: u32) -> usize {
        let coach = G::coach().expect("the game has a coach");
        let mut raised = 0;
        for seed in seeds {
            let (dealt, actions) = self_played::<G>(seed);
            let (views, points) = decisions::<G>(dealt, &actions, Seat::new(0));
            let mut marks: Vec<Mark> = points
                .iter()
                .map(|point| {
                    let judgement = point.judged(coach, &views, &point.made, samples, seed);
                    Mark {
                        step: point.step,
                        grade: judgement.grade,
                        best: serde_json::to_value(&judgement.best).unwrap(),
                        made_value: judgement.made_value.unwrap(),
                        best_value: judgement.best_value,
                        why: judgement.why,
                    }
                })
                .collect();
            let before = marks.clone();
            let continues = crate::coach::continuing(&views, &points);
            agree(&mut marks, &continues, coach.thresholds());
            for (k, pair) in marks.windows(2).enumerate() {
                let (this, next) = (&pair[0], &pair[1]);
                assert!(this.grade <= before[k].grade, "seed {seed}: a grade rose");
                if continues[k + 1] && !is_solved(&this.why) {
                    let found = next.best_value.max(next.made_value);
                    assert!(
                        this.made_value >= found,
                        "seed {seed}, step {}: made {} but the next decision found {found}",
                        this.step,
                        this.made_value
                    );
                }
            }
            raised += marks
                .iter()
                .zip(&before)
                .filter(|(after, before)| after.made_value > before.made_value)
                .count();
        }
        raised
    }

    #[test]
    fn pishe_pasha_runs_of_moves_are_judged_in_agreement() {
        let raised = agreed_over::<crate::games::pishe_pasha::PishePasha>(0..25, 6);
        eprintln!("Pishe Pasha: {raised} made values raised to the next decision's");
    }

    #[test]
    fn panjpar_decisions_are_judged_in_agreement() {
        let raised = agreed_over::<crate::games::panjpar::Panjpar>(0..25, 6);
        eprintln!("Panjpar: {raised} made values raised to the next decision's");
    }
}
