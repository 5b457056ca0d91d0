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
    /// What was better, and why, in a sentence.
    pub why: String,
}
