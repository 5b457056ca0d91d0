//! A fair deal's two orders (see `docs/fair.md`): the table's own order of the pack, committed to before
//! anyone adds a number, and the players' shuffle of it, worked out from the commitment and the seats'
//! numbers by [`super::mix`]. The cards are dealt from the players' shuffle of the table's order.
//!
//! - The table's secret is 32 random bytes, as 64 hex digits, never shown. Its order of the pack is the
//!   [`Stream`] keyed by `chaikhana-order|{secret}` shuffling the pack's places.
//! - Place `i` of the table's order has a salt, the first 16 bytes (32 hex digits) of the SHA-256 of
//!   `chaikhana-salt|{secret}|{i}`, and a leaf, the hex SHA-256 of `{i}|{card}|{salt}`.
//! - The commitment is the hex SHA-256 of the leaves joined by commas, then `|`, then where each dealt
//!   place goes (a seat's number, `trump` or `pile`) joined by commas.
//! - The players' shuffle is the stream keyed by [`players_key`]: its first shuffle `p` deals, at
//!   place `j`, the card of the table's place `p[j]`. A Ganjifa deal that leaves a hand with no Mir is
//!   void: the same stream shuffles the dealt order again (`rounds` counts the shuffles).
//!
//! Once the deal has ended each viewer is sent the numbers, the rounds, where each place went, and for
//! each place of the table's order its card and salt, or, for a card the viewer never saw in play, only
//! its leaf.
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::mix::{key_of, players_key, Stream};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::{DealOrder, DealSetup, DealtTo, Game};

/// The lowercase hex SHA-256 of `text`.
pub(super) fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// What a table keeps of a fair deal to deal it again exactly: its secret and the seats' numbers,
/// with the table's number for the deal and the closed list of pledges the numbers answered (none
/// for a deal kept before deals were named, or dealt without waiting for pages).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FairRecord {
    pub secret: String,
    pub numbers: Vec<Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pledges: Option<Vec<Option<String>>>,
    /// The deal's hidden draws (Ganjifa's blind leads) come from every number, as the reveal lets a
    /// page work out (see [`blind_seed`]); a deal kept from before draws them from the secret.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open_draws: bool,
}

/// The seed of a deal's hidden draws (Ganjifa's blind leads). A deal with `open_draws` takes it
/// from the commitment and every seat's number: no party knows it before every number is in, and
/// every page can work it out at the reveal. The first 8 bytes, big-endian, of the SHA-256 of
/// `chaikhana-blind|{commitment}|{numbers joined by commas}`.
pub fn blind_seed(record: &FairRecord, commitment: &str) -> u64 {
    let text = if record.open_draws {
        let numbers: Vec<&str> = record
            .numbers
            .iter()
            .map(|n| n.as_deref().unwrap_or(""))
            .collect();
        format!("chaikhana-blind|{commitment}|{}", numbers.join(","))
    } else {
        format!("chaikhana-blind|{}", record.secret)
    };
    let digest = Sha256::digest(text.as_bytes());
    u64::from_be_bytes(digest[..8].try_into().expect("a SHA-256 has 32 bytes"))
}

/// How a place's destination is written in the commitment and the reveal.
fn destination(to: &DealtTo) -> String {
    match to {
        DealtTo::Seat(seat) => seat.index().to_string(),
        DealtTo::Trump => "trump".into(),
        DealtTo::Pile => "pile".into(),
    }
}

/// The table's order of the pack for `secret`, committed to before any number is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Committed {
    /// The pack's index of the card at each place of the table's order.
    order: Vec<usize>,
    /// The card codes, in the table's order.
    cards: Vec<String>,
    salts: Vec<String>,
    leaves: Vec<String>,
    /// Where each dealt place goes.
    to: Vec<DealtTo>,
    commitment: String,
}

impl Committed {
    /// The table's order for `secret`, for a deal of `setup` that is the table's deal number `deal`.
    pub fn new<G: Game>(secret: &str, setup: &DealSetup, deal: Option<u64>) -> Committed {
        let pack = G::pack();
        let order = Stream::new(key_of(&format!("chaikhana-order|{secret}"))).shuffle(pack.len());
        let cards: Vec<String> = order.iter().map(|&i| pack[i].clone()).collect();
        let salts: Vec<String> = (0..cards.len())
            .map(|i| {
                let digest = Sha256::digest(format!("chaikhana-salt|{secret}|{i}").as_bytes());
                hex::encode(&digest[..16])
            })
            .collect();
        let leaves: Vec<String> = cards
            .iter()
            .zip(&salts)
            .enumerate()
            .map(|(i, (card, salt))| sha256_hex(&format!("{i}|{card}|{salt}")))
            .collect();
        let to: Vec<DealtTo> = (0..cards.len()).map(|i| G::dealt_to(setup, i)).collect();
        let places: Vec<String> = to.iter().map(destination).collect();
        let mut committed = format!("{}|{}", leaves.join(","), places.join(","));
        if let Some(deal) = deal {
            committed.push_str(&format!("|{deal}"));
        }
        let commitment = sha256_hex(&committed);
        Committed {
            order,
            cards,
            salts,
            leaves,
            to,
            commitment,
        }
    }

    pub fn commitment(&self) -> &str {
        &self.commitment
    }
}

/// A dealt fair deal: the table's order, the numbers, and the places the players' shuffle dealt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealSeal {
    committed: Committed,
    deal: Option<u64>,
    pledges: Option<Vec<Option<String>>>,
    numbers: Vec<Option<String>>,
    rounds: u32,
    /// For each dealt place, the place of the table's order whose card it holds.
    dealt: Vec<usize>,
    open_draws: bool,
}

/// A void deal is shuffled again; this many shuffles in a row without a deal is a bug in a game.
const MAX_ROUNDS: u32 = 1000;

/// Deals the fair deal `record` of `setup`: the state, the dealt order and its seal.
pub fn deal_fair<G: Game>(
    setup: &DealSetup,
    record: &FairRecord,
) -> (G::State, DealOrder, DealSeal) {
    let committed = Committed::new::<G>(&record.secret, setup, record.deal);
    let blind = blind_seed(record, &committed.commitment);
    let n = committed.order.len();
    let mut stream = Stream::new(players_key(&committed.commitment, &record.numbers));
    let mut dealt: Vec<usize> = (0..n).collect();
    for rounds in 1..=MAX_ROUNDS {
        let shuffle = stream.shuffle(n);
        dealt = shuffle.iter().map(|&j| dealt[j]).collect();
        let pack: Vec<usize> = dealt.iter().map(|&i| committed.order[i]).collect();
        if let Some(state) = G::deal_ordered(setup, &pack, blind) {
            let cards: Vec<&str> = dealt.iter().map(|&i| committed.cards[i].as_str()).collect();
            let order = DealOrder::new(&cards, |j| committed.to[j]);
            let seal = DealSeal {
                committed,
                deal: record.deal,
                pledges: record.pledges.clone(),
                numbers: record.numbers.clone(),
                rounds,
                dealt,
                open_draws: record.open_draws,
            };
            return (state, order, seal);
        }
    }
    panic!("{} dealt {MAX_ROUNDS} void deals in a row", G::NAME)
}

/// Who a reveal is for, and what it may show.
pub struct RevealTo<'a> {
    /// The seat, or none for a watcher.
    pub viewer: Option<Seat>,
    /// The cards the viewer saw in play, or `None` when the whole deal may be shown (nothing went
    /// face down).
    pub seen: Option<&'a [String]>,
}

impl DealSeal {
    /// The deal's commitment, sent before any number was asked for.
    pub fn commitment(&self) -> &str {
        &self.committed.commitment
    }

    /// What a frame carries: the commitment always, and once the deal has ended what `reveal` may see.
    pub fn shown(&self, reveal: Option<RevealTo<'_>>) -> SealShown<'_> {
        SealShown {
            commitment: &self.committed.commitment,
            dealt_at: None,
            reveal: reveal.map(|to| self.reveal(&to)),
        }
    }

    fn reveal(&self, to: &RevealTo<'_>) -> Reveal<'_> {
        let c = &self.committed;
        let n = c.cards.len();
        let mut reveal = Reveal {
            cards: Vec::with_capacity(n),
            salts: Vec::with_capacity(n),
            leaves: Vec::with_capacity(n),
            to: &c.to,
            deal: self.deal,
            pledges: self.pledges.as_deref(),
            numbers: &self.numbers,
            rounds: self.rounds,
            open_draws: self.open_draws,
        };
        for i in 0..n {
            let shown = to.seen.is_none_or(|seen| seen.contains(&c.cards[i]));
            if shown {
                reveal.cards.push(Some(&c.cards[i]));
                reveal.salts.push(Some(&c.salts[i]));
                reveal.leaves.push(None);
            } else {
                reveal.cards.push(None);
                reveal.salts.push(None);
                reveal.leaves.push(Some(&c.leaves[i]));
            }
        }
        reveal
    }

    /// How many shuffles of the players' stream dealt it (more than one after void deals).
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// For each dealt place, the place of the table's order it came from.
    pub fn dealt(&self) -> &[usize] {
        &self.dealt
    }
}

/// The `deal` field of a view frame.
#[derive(Serialize)]
pub struct SealShown<'a> {
    pub commitment: &'a str,
    /// The version of the deal's first view: a page that saw it saw the hand as dealt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dealt_at: Option<u64>,
    /// Once the deal has ended: what this viewer may learn of it.
    pub reveal: Option<Reveal<'a>>,
}

/// A deal's reveal: for each place of the table's order its card and salt, or (null in those) its
/// leaf; where each dealt place went; the table's number for the deal; the closed list of pledges;
/// each seat's number; how many shuffles dealt it.
#[derive(Serialize)]
pub struct Reveal<'a> {
    pub cards: Vec<Option<&'a str>>,
    pub salts: Vec<Option<&'a str>>,
    pub leaves: Vec<Option<&'a str>>,
    pub to: &'a [DealtTo],
    pub deal: Option<u64>,
    pub pledges: Option<&'a [Option<String>]>,
    pub numbers: &'a [Option<String>],
    pub rounds: u32,
    /// The deal's hidden draws come from every number (see [`blind_seed`]), so a page can check them.
    pub open_draws: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaikhana_rules::games::ganjifa::Ganjifa;
    use chaikhana_rules::games::panjpar::Panjpar;

    fn setup() -> DealSetup {
        DealSetup {
            index: 0,
            first: Seat::new(0),
        }
    }

    /// The commitment worked out from a reveal, as a page does.
    fn from_reveal(reveal: &serde_json::Value) -> String {
        let leaves: Vec<String> = (0..reveal["cards"].as_array().unwrap().len())
            .map(|i| match reveal["cards"][i].as_str() {
                Some(card) => {
                    let salt = reveal["salts"][i].as_str().unwrap();
                    sha256_hex(&format!("{i}|{card}|{salt}"))
                }
                None => reveal["leaves"][i].as_str().unwrap().to_string(),
            })
            .collect();
        let to: Vec<String> = reveal["to"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| match t {
                serde_json::Value::Number(n) => n.to_string(),
                other => other.as_str().unwrap().to_string(),
            })
            .collect();
        let mut committed = format!("{}|{}", leaves.join(","), to.join(","));
        if let Some(deal) = reveal["deal"].as_u64() {
            committed.push_str(&format!("|{deal}"));
        }
        sha256_hex(&committed)
    }

    fn record(numbers: Vec<Option<String>>) -> FairRecord {
        FairRecord {
            secret: "ab".repeat(32),
            numbers,
            deal: Some(5),
            pledges: None,
            open_draws: true,
        }
    }

    #[test]
    fn hidden_draws_come_from_every_number_and_a_kept_deal_keeps_its_own() {
        let fair = record(vec![Some("01".repeat(16)), None]);
        let seed = blind_seed(&fair, "c0");
        let mut other = fair.clone();
        other.numbers[1] = Some("02".repeat(16));
        assert_ne!(blind_seed(&other, "c0"), seed, "each number counts");
        assert_ne!(blind_seed(&fair, "c1"), seed, "so does the commitment");
        // A deal kept from before draws from its secret, as it was dealt.
        let kept = FairRecord {
            open_draws: false,
            ..fair.clone()
        };
        let digest = Sha256::digest(format!("chaikhana-blind|{}", fair.secret).as_bytes());
        let before = u64::from_be_bytes(digest[..8].try_into().unwrap());
        assert_eq!(blind_seed(&kept, "c0"), before);
        // Kept and read back, the flag stays; a record without it reads as a deal from before.
        let json = serde_json::to_string(&fair).unwrap();
        assert_eq!(serde_json::from_str::<FairRecord>(&json).unwrap(), fair);
        let old = json.replace(",\"open_draws\":true", "");
        assert!(!serde_json::from_str::<FairRecord>(&old).unwrap().open_draws);
    }

    #[test]
    fn the_deal_is_the_players_shuffle_of_the_committed_order() {
        let fair = record(vec![Some("01".repeat(16)), None]);
        let (state, order, seal) = deal_fair::<Panjpar>(&setup(), &fair);
        let committed = Committed::new::<Panjpar>(&fair.secret, &setup(), fair.deal);
        assert_eq!(seal.commitment(), committed.commitment());
        let mut stream = Stream::new(players_key(committed.commitment(), &fair.numbers));
        let first = stream.shuffle(52);
        let cards: Vec<&str> = order.cards().collect();
        for (j, card) in cards.iter().enumerate() {
            assert_eq!(*card, committed.cards[first[j]]);
        }
        assert_eq!(seal.rounds(), 1);
        // The same record deals the same deal; another number another one.
        assert_eq!(deal_fair::<Panjpar>(&setup(), &fair).0, state);
        let other = record(vec![Some("02".repeat(16)), None]);
        assert_ne!(deal_fair::<Panjpar>(&setup(), &other).1, order);
        // The secret decides the table's order, and so the commitment.
        let mut secret = fair.clone();
        secret.secret = "ac".repeat(32);
        assert_ne!(
            Committed::new::<Panjpar>(&secret.secret, &setup(), fair.deal).commitment,
            committed.commitment
        );
    }

    #[test]
    fn a_reveal_hides_what_the_viewer_did_not_see_and_still_checks() {
        let fair = record(vec![None, None, None]);
        let (_, _, seal) = deal_fair::<Ganjifa>(&setup(), &fair);
        let all = serde_json::to_value(seal.shown(Some(RevealTo {
            viewer: None,
            seen: None,
        })))
        .unwrap();
        assert_eq!(from_reveal(&all["reveal"]), seal.commitment());
        assert!(all["reveal"]["cards"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c.is_string()));
        let seen = vec!["MTA".to_string(), "5CH".to_string()];
        let some = serde_json::to_value(seal.shown(Some(RevealTo {
            viewer: Some(Seat::new(1)),
            seen: Some(&seen),
        })))
        .unwrap();
        assert_eq!(from_reveal(&some["reveal"]), seal.commitment());
        let shown: Vec<&str> = some["reveal"]["cards"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c.as_str())
            .collect();
        assert_eq!(shown.len(), 2);
        assert!(!some.to_string().contains(&fair.secret));
        let playing = serde_json::to_value(seal.shown(None)).unwrap();
        assert!(playing["reveal"].is_null());
    }
}
