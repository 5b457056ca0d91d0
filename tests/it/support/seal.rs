//! The fair deal's seal as a viewer checks it: the commitment a reveal hashes to, worked out here
//! rather than by the server's code, and every frame of every deal checked against the record.

use serde_json::Value;

use chaikhana::table::TableRecord;

use super::{deal_at, deal_history};

/// The lowercase hex SHA-256 of `text`, worked out here rather than by the server's code.
pub fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The commitment a deal's reveal gives, worked out as a page does (see `table::seal`).
pub fn commitment_of_reveal(reveal: &Value) -> String {
    let cards = reveal["cards"]
        .as_array()
        .expect("a reveal lists every place");
    let leaves: Vec<String> = (0..cards.len())
        .map(|i| match cards[i].as_str() {
            Some(card) => {
                let salt = reveal["salts"][i].as_str().expect("a shown place's salt");
                sha256_hex(&format!("{i}|{card}|{salt}"))
            }
            None => reveal["leaves"][i]
                .as_str()
                .expect("a hidden place's leaf")
                .to_string(),
        })
        .collect();
    let to: Vec<String> = reveal["to"]
        .as_array()
        .expect("where each place went")
        .iter()
        .map(|to| match to {
            Value::Number(n) => n.to_string(),
            other => other.as_str().expect("a destination").to_string(),
        })
        .collect();
    // The table's number for the deal, where the deal was named.
    let named = reveal["deal"]
        .as_u64()
        .map_or(String::new(), |deal| format!("|{deal}"));
    sha256_hex(&format!("{}|{}{named}", leaves.join(","), to.join(",")))
}

/// Checks the fair deal in one seat's (or a watcher's) frames: every frame of a deal carries one
/// commitment, the one a seat was shown as the coming deal's before the deal; nothing of the order,
/// no salt and never the table's secret before the end; at the end a reveal that hashes to the
/// commitment, holds the deal's numbers, and whose players' shuffle gives the order really dealt; in a
/// deal where a card stayed concealed, the reveal names only cards this viewer saw in play. Returns how
/// many reveals were checked.
pub fn check_deal_seal<G: chaikhana_rules::game::Game>(
    record: &TableRecord,
    frames: &[Value],
) -> usize {
    use std::collections::BTreeMap;
    let mut by_deal: BTreeMap<u64, Vec<&Value>> = BTreeMap::new();
    for frame in frames
        .iter()
        .filter(|f| f["type"] == "view" && !f["view"].is_null())
    {
        let version = frame["version"].as_u64().unwrap();
        let deal = deal_at(record, version).expect("a view belongs to a deal");
        by_deal.entry(deal.dealt_at).or_default().push(frame);
    }
    let mut reveals = 0;
    for (dealt_at, deal_frames) in by_deal {
        let deal = record
            .deals
            .iter()
            .find(|d| d.dealt_at == dealt_at)
            .unwrap();
        let fair = deal.fair.as_ref().expect("every deal is a fair deal");
        let (_, order, _) = deal.dealt::<G>();
        let last = deal_frames.last().unwrap()["version"].as_u64().unwrap();
        let history = deal_history::<G>(record, last);
        let ended_state = history.last().unwrap();
        let commitment = deal_frames[0]["deal"]["commitment"]
            .as_str()
            .expect("every frame of a deal carries its commitment")
            .to_string();
        assert_eq!(commitment.len(), 64, "a hex SHA-256");
        // A seat that saw the table before the deal was shown this commitment as the coming deal's.
        let before: Vec<&Value> = frames
            .iter()
            .filter(|f| f["type"] == "view" && f["version"].as_u64() < Some(dealt_at))
            .filter(|f| f["shuffle"]["commitment"].is_string())
            .collect();
        if let Some(last) = before.last() {
            assert_eq!(
                last["shuffle"]["commitment"],
                commitment.as_str(),
                "the deal's commitment is the one shown before it"
            );
        }
        let mut salts: Vec<String> = Vec::new();
        for frame in &deal_frames {
            assert_eq!(
                frame["deal"]["commitment"],
                commitment.as_str(),
                "one commitment a deal"
            );
            assert!(
                !frame.to_string().contains(&fair.secret),
                "the table's secret left it"
            );
            let reveal = &frame["deal"]["reveal"];
            let ended = !frame["outcome"].is_null();
            assert_eq!(
                !reveal.is_null(),
                ended,
                "the order is shown exactly once the deal has ended"
            );
            if !ended {
                continue;
            }
            assert!(reveal.get("seed").is_none(), "no seed is published");
            assert_eq!(
                commitment_of_reveal(reveal),
                commitment,
                "the reveal hashes to the commitment"
            );
            assert_eq!(
                reveal["numbers"],
                serde_json::to_value(&fair.numbers).unwrap()
            );
            assert_eq!(
                reveal["to"],
                serde_json::to_value(&order.to).unwrap(),
                "where each place went"
            );
            // The players' shuffle of the revealed order is the order dealt.
            let n = order.to.len();
            let mut stream = chaikhana::table::mix::Stream::new(
                chaikhana::table::mix::players_key(&commitment, &fair.numbers),
            );
            let mut dealt: Vec<usize> = (0..n).collect();
            for _ in 0..reveal["rounds"].as_u64().unwrap() {
                let shuffle = stream.shuffle(n);
                dealt = shuffle.iter().map(|&j| dealt[j]).collect();
            }
            let viewer = frame["seat"]
                .as_u64()
                .map(|s| chaikhana_rules::cards::Seat::new(s as usize));
            let concealed = G::concealed_at_end(ended_state);
            let seen = G::seen_at_end(ended_state, viewer);
            for (j, card) in order.cards().enumerate() {
                let place = dealt[j];
                let shown = &reveal["cards"][place];
                if shown.is_null() {
                    assert!(
                        !concealed.is_empty(),
                        "a deal with nothing face down is shown whole"
                    );
                    assert!(
                        !seen.iter().any(|c| c == card),
                        "{card} was seen, yet hidden"
                    );
                    assert!(
                        reveal["leaves"][place].is_string() && reveal["salts"][place].is_null()
                    );
                } else {
                    assert_eq!(
                        shown, card,
                        "the players' shuffle of the revealed order is the deal"
                    );
                    if !concealed.is_empty() {
                        assert!(
                            seen.iter().any(|c| c == card),
                            "{card} shown, never seen in play"
                        );
                    }
                    salts.push(reveal["salts"][place].as_str().unwrap().to_string());
                }
            }
            for card in &concealed {
                if !seen.contains(card) {
                    assert!(
                        !reveal.to_string().contains(&format!("\"{card}\"")),
                        "{card} in a reveal"
                    );
                }
            }
            reveals += 1;
        }
        for frame in deal_frames.iter().filter(|f| f["outcome"].is_null()) {
            let text = frame.to_string();
            for salt in &salts {
                assert!(
                    !text.contains(salt.as_str()),
                    "a salt was sent before the end"
                );
            }
        }
    }
    reveals
}
