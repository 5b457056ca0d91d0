//! Property tests: the protocol parser on arbitrary text and arbitrary JSON never panics and refuses
//! with a known code; every game's `apply`, given arbitrary actions from arbitrary seats at arbitrary
//! moments of random deals, either refuses and leaves the state exactly as it was, or accepts an action
//! that was among the seat's legal ones.

use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::Value;

use chaikhana::protocol::ClientMsg;
use chaikhana_rules::cards::{deal_rng, Seat};
use chaikhana_rules::game::{DealSetup, Game};
use chaikhana_rules::games::{ganjifa::Ganjifa, panjpar::Panjpar, pishe_pasha::PishePasha};

const CODES: &[&str] = &["malformed", "unknown-type"];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "[a-z-]{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "action",
            "resync",
            "next-deal",
            "rematch",
            "type",
            "version"
        ])
        .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec!["type", "version", "id", "action", "cards", "x"]),
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn the_parser_refuses_any_text_with_a_known_code(text in any::<String>()) {
        if let Err(e) = ClientMsg::parse(&text) {
            prop_assert!(CODES.contains(&e.code.as_str()));
            prop_assert!(!e.message.is_empty());
        }
    }

    #[test]
    fn the_parser_takes_any_json_without_panicking(value in json_value()) {
        if let Err(e) = ClientMsg::parse(&value.to_string()) {
            prop_assert!(CODES.contains(&e.code.as_str()));
        }
    }
}

/// Every string in a JSON value.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// `value` with some leaves replaced: strings by other strings seen in the deal, numbers by others.
fn mutate(value: &Value, words: &[String], rng: &mut impl Rng) -> Value {
    match value {
        Value::String(_) if rng.gen_bool(0.5) => {
            Value::String(words.choose(rng).cloned().unwrap_or_default())
        }
        Value::Number(_) if rng.gen_bool(0.5) => Value::from(rng.gen_range(-3i64..200)),
        Value::Array(items) => {
            let mut items: Vec<Value> = items.iter().map(|v| mutate(v, words, rng)).collect();
            if rng.gen_bool(0.2) && !items.is_empty() {
                let copy = items[0].clone();
                items.push(copy);
            }
            if rng.gen_bool(0.2) {
                items.pop();
            }
            Value::Array(items)
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), mutate(v, words, rng)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Plays `moves` random legal moves of a random deal, then tries `tries` arbitrary actions from
/// arbitrary seats: a refusal changes nothing, an acceptance was legal.
fn arbitrary_actions<G: Game>(seed: u64, moves: usize, tries: usize) -> Result<(), TestCaseError> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let setup = DealSetup {
        index: rng.gen_range(0..6),
        first: Seat::new(rng.gen_range(0..G::SEATS)),
    };
    let mut state = G::deal(&setup, &mut deal_rng(seed));
    let mut pool: Vec<Value> = Vec::new();
    for _ in 0..moves {
        let Some(seat) = G::to_act(&state) else { break };
        let legal = G::legal_actions(&state, seat);
        pool.extend(legal.iter().map(|a| serde_json::to_value(a).unwrap()));
        let chosen = legal.choose(&mut rng).unwrap().clone();
        G::apply(&mut state, seat, &chosen).unwrap();
    }
    for seat in Seat::all(G::SEATS) {
        let legal = G::legal_actions(&state, seat);
        pool.extend(legal.iter().map(|a| serde_json::to_value(a).unwrap()));
    }
    let mut words = Vec::new();
    strings(&serde_json::to_value(&state).unwrap(), &mut words);
    pool.iter().for_each(|a| strings(a, &mut words));
    if pool.is_empty() {
        return Ok(());
    }
    for _ in 0..tries {
        let json = mutate(pool.choose(&mut rng).unwrap(), &words, &mut rng);
        let Ok(action) = serde_json::from_value::<G::Action>(json) else {
            continue;
        };
        let seat = Seat::new(rng.gen_range(0..G::SEATS));
        let legal = G::legal_actions(&state, seat);
        let before = state.clone();
        match G::apply(&mut state, seat, &action) {
            Err(e) => {
                prop_assert_eq!(
                    &state,
                    &before,
                    "{} refused {:?} ({}) but changed",
                    G::NAME,
                    action,
                    e.code.as_str()
                );
                prop_assert!(
                    !e.message.is_empty(),
                    "{} refused {:?} without a sentence",
                    G::NAME,
                    action
                );
            }
            Ok(()) => {
                prop_assert!(
                    legal.contains(&action),
                    "{} accepted {:?}, not legal",
                    G::NAME,
                    action
                );
                // Go back, so that the next try starts from the same moment.
                state = before;
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn panjpar_apply_refuses_without_change(seed in any::<u64>(), moves in 0usize..120) {
        arbitrary_actions::<Panjpar>(seed, moves, 40)?;
    }

    #[test]
    fn pishe_pasha_apply_refuses_without_change(seed in any::<u64>(), moves in 0usize..400) {
        arbitrary_actions::<PishePasha>(seed, moves, 40)?;
    }

    #[test]
    fn ganjifa_apply_refuses_without_change(seed in any::<u64>(), moves in 0usize..200) {
        arbitrary_actions::<Ganjifa>(seed, moves, 40)?;
    }
}
