//! An analysis as a table keeps it with a deal's record and sends it to its seat: the decisions
//! judged, and the costly ones marked.

use serde::{Deserialize, Serialize};

/// One seat's decisions in a deal as the strong computer judged them, from what that seat knew.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// What the values are counted in, in words ("chance of winning the deal").
    pub unit: String,
    /// How many decisions were judged (those with more than one legal action).
    pub judged: usize,
    /// The decisions that cost something, in the order they were made.
    pub marks: Vec<Mark>,
}

/// A costly decision: where it was made, how costly, and what was better.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mark {
    /// How many of the deal's actions came before it: the replay step it was decided at.
    pub step: usize,
    pub grade: crate::game::Grade,
    /// The action the coach preferred, as the game writes actions.
    pub best: serde_json::Value,
    /// The expected result of the action made, and of the best one, in the analysis's unit.
    pub made_value: f64,
    pub best_value: f64,
    /// What was better, and why: a reason the page words in its language, or, in an analysis an
    /// earlier coach kept, its sentence.
    pub why: crate::game::Why,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_back_are_the_values_written() {
        let mut value = 0.45994599459945995_f64;
        let marks = (0..200)
            .map(|step| {
                // Values with every digit in use, as the coach's fractions of many plays are.
                value = (value * 7.31 + 0.123_456_789) % 1.0;
                Mark {
                    step,
                    grade: crate::game::Grade::Mistake,
                    best: serde_json::json!({"type": "pick-up"}),
                    made_value: value / 3.0,
                    best_value: value,
                    why: crate::game::Reason::Better {
                        measure: crate::game::Measure::Chance,
                        best: serde_json::json!({"type": "pick-up"}),
                        best_value: value,
                        made: serde_json::json!({"type": "attack", "cards": ["7H"]}),
                        made_value: value / 3.0,
                        rule: None,
                    }
                    .into(),
                }
            })
            .collect();
        let kept = Analysis {
            unit: "chance of winning the deal".into(),
            judged: 200,
            marks,
        };
        let text = serde_json::to_string(&kept).unwrap();
        let read: Analysis = serde_json::from_str(&text).unwrap();
        assert_eq!(read, kept);
        assert_eq!(serde_json::to_string(&read).unwrap(), text);
    }

    /// An analysis kept before reasons travelled as values has each mark's `why` as a sentence: it
    /// still reads, its sentence kept as written, and is written back the same.
    #[test]
    fn an_analysis_kept_with_sentences_still_reads() {
        let old = r#"{"unit":"chance of winning the deal","judged":7,"marks":[{"step":4,"grade":"mistake","best":{"type":"pick-up"},"made_value":0.31,"best_value":0.64,"why":"Picking up the 3 of clubs was better than beating it: it won the deal in 64% of the deals that fit what you knew, against 31% after beating it."}]}"#;
        let read: Analysis = serde_json::from_str(old).unwrap();
        let mark = &read.marks[0];
        assert_eq!((mark.step, mark.grade), (4, crate::game::Grade::Mistake));
        let crate::game::Why::Written(text) = &mark.why else {
            panic!("an old mark's sentence: {:?}", mark.why);
        };
        assert!(
            text.starts_with("Picking up the 3 of clubs was better"),
            "{text}"
        );
        assert_eq!(serde_json::to_string(&read).unwrap(), old);
    }
}
