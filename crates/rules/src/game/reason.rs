//! What the coach says of a decision, as values: which of its sentences, and what goes into it (the
//! moves as the game writes them, the values as numbers). The page words it in its own language from
//! the words modules its board uses; no sentence travels, except the text an earlier coach wrote into
//! an analysis that a store still keeps.

use serde::{Deserialize, Serialize};

/// How a game's values are counted, as a reason names it: `"chance"` or `"cards"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    /// A chance of winning the deal, 0 to 1 (a drawn deal counting a half).
    Chance,
    /// Cards the seat's tricks take in the deal.
    Cards,
}

impl Measure {
    /// The unit, in words, as a judgement names it (one of [`super::UNITS`]).
    pub fn unit(self) -> &'static str {
        match self {
            Measure::Chance => super::CHANCE_OF_WINNING,
            Measure::Cards => super::CARDS_WON,
        }
    }
}

/// How a position ends with best play on both sides, when the coach could solve it exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    Win,
    Draw,
    Loss,
}

impl End {
    /// The end a solved value (1 won, a half drawn, 0 lost) stands for.
    pub fn of_value(value: f64) -> End {
        if value > 0.75 {
            End::Win
        } else if value > 0.25 {
            End::Draw
        } else {
            End::Loss
        }
    }
}

/// A move as a reason names it: the game's own value for it (an action as the game writes actions,
/// or a whole plan of them), tagged by `type`, with cards as the game's card codes.
pub type Play = serde_json::Value;

/// What the rules say for the better move, as the game's own value, tagged by `rule`.
pub type Rule = serde_json::Value;

/// Which sentence the coach says, and its parts, tagged by `say`. "The deals that fit" are the deals
/// sampled to agree with everything the seat had seen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "say", rename_all = "kebab-case")]
pub enum Reason {
    /// A hint: `best` came to `value` over the deals that fit.
    Hint {
        measure: Measure,
        best: Play,
        value: f64,
    },
    /// The move made was the coach's choice too, at `value`.
    Agreed {
        measure: Measure,
        made: Play,
        value: f64,
    },
    /// The move made was about as good as `best`: the difference is within what sampling can tell.
    Close {
        measure: Measure,
        best: Play,
        best_value: f64,
        made: Play,
        made_value: f64,
    },
    /// `best` was better than the move made; `rule`, when the rules can say why.
    Better {
        measure: Measure,
        best: Play,
        best_value: f64,
        made: Play,
        made_value: f64,
        rule: Option<Rule>,
    },
    /// Every other legal move comes to the same as `play`, which came to `value`.
    Only {
        measure: Measure,
        play: Play,
        value: f64,
    },
    /// A hint from a position solved exactly: `best` ends as `end`.
    SolvedHint { best: Play, end: End },
    /// The move made, in a position solved exactly, was as good as any: it ends as `end`.
    SolvedAgreed { made: Play, end: End },
    /// In a position solved exactly, `best` ends as `best_end`, the move made as `made_end`.
    SolvedBetter {
        best: Play,
        best_end: End,
        made: Play,
        made_end: End,
    },
    /// A guess with nothing seen before it: either choice is alike; `play` came to `value`.
    Guess {
        measure: Measure,
        play: Play,
        value: f64,
    },
    /// The coach saw nothing of the deal from the seat.
    Unseen,
}

/// The coach's reason as a judgement carries it and an analysis keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Why {
    /// What the coach says, as values (an object with `say`).
    Reason(Reason),
    /// A sentence an earlier coach wrote into an analysis still kept in a store (a JSON string),
    /// shown as it is.
    Written(String),
}

impl From<Reason> for Why {
    fn from(reason: Reason) -> Why {
        Why::Reason(reason)
    }
}

impl Why {
    /// The reason, unless this is a kept sentence of an earlier coach.
    pub fn reason(&self) -> Option<&Reason> {
        match self {
            Why::Reason(reason) => Some(reason),
            Why::Written(_) => None,
        }
    }
}

/// A game's value for a move or a rule, as a reason carries it.
pub fn said(value: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_reason_is_written_with_its_sentence_named_and_its_parts_as_values() {
        let why = Why::from(Reason::Better {
            measure: Measure::Chance,
            best: json!({"type": "attack", "cards": ["7H"]}),
            best_value: 0.64,
            made: json!({"type": "defend", "beats": [], "pick_up": ["3C"]}),
            made_value: 0.31,
            rule: Some(json!({"rule": "keeps-trumps", "cards": ["9S"]})),
        });
        let text = serde_json::to_value(&why).unwrap();
        assert_eq!(text["say"], "better");
        assert_eq!(text["measure"], "chance");
        assert_eq!(text["best"]["cards"][0], "7H");
        assert_eq!(text["best_value"], 0.64);
        assert_eq!(text["rule"]["rule"], "keeps-trumps");
        let back: Why = serde_json::from_value(text).unwrap();
        assert_eq!(back, why);
        let solved = serde_json::to_value(Why::from(Reason::SolvedBetter {
            best: json!({"type": "pick-up"}),
            best_end: End::Draw,
            made: json!({"type": "attack", "cards": ["2C"]}),
            made_end: End::Loss,
        }))
        .unwrap();
        assert_eq!(solved["say"], "solved-better");
        assert_eq!(
            (&solved["best_end"], &solved["made_end"]),
            (&json!("draw"), &json!("loss"))
        );
        assert_eq!(
            serde_json::to_value(Why::from(Reason::Unseen)).unwrap(),
            json!({"say": "unseen"})
        );
    }

    #[test]
    fn an_earlier_coach_sentence_reads_back_as_written_text_and_is_written_the_same() {
        let old = "\"Beating it was better than picking up.\"";
        let why: Why = serde_json::from_str(old).unwrap();
        assert_eq!(
            why,
            Why::Written("Beating it was better than picking up.".into())
        );
        assert_eq!(why.reason(), None);
        assert_eq!(serde_json::to_string(&why).unwrap(), old);
    }

    #[test]
    fn a_reason_of_no_known_sentence_is_refused() {
        let unknown = json!({"say": "shrug", "measure": "chance"});
        assert!(serde_json::from_value::<Why>(unknown).is_err());
        assert!(serde_json::from_value::<Why>(json!(3)).is_err());
    }

    #[test]
    fn a_solved_value_ends_as_won_drawn_or_lost() {
        assert_eq!(End::of_value(1.0), End::Win);
        assert_eq!(End::of_value(0.5), End::Draw);
        assert_eq!(End::of_value(0.0), End::Loss);
    }
}
