//! Replays over the wire: once a deal has ended, each seat steps through it from the deal as dealt to
//! its last move, and every step shows it exactly the view it was sent at that moment of play (so
//! nothing it did not see then, a Ganjifa card put down face down included), with the status, the
//! match score and the result as they were then: an earlier deal of the match replays with its own
//! number and score, and its last step with the result the seat was shown. A deal still in play, a
//! step past the end, a deal the match does not have and a malformed request are refused with a
//! sentence, and the table is where it was.

use serde_json::json;

use crate::support::leaks::Tested;
use crate::support::*;
use chaikhana_rules::cards::Seat;

/// What a seat is shown of a moment of play, beside the deal itself: the header, the match and,
/// at the deal's end, its result. A replay step shows all of it as it was then.
const SHOWN: [&str; 4] = ["status", "match", "outcome", "view"];

/// Plays the deals of [`Tested::several`] among friends, then steps each seat through each deal and
/// checks every step against the frame it was sent in play; run for every game by `each_game`.
pub async fn replays_as_seen<G: Tested>() {
    let (game, seats, (length, deals), seed) = (G::NAME, G::SEATS, G::several(), 7);
    let server = TestServer::start(|s| s.bot_delay_ms = 1);
    let seated = take_seats(&server, game, seats, length).await;
    let table = seated[0].table.clone();
    let mut clients = Vec::new();
    for seat in &seated {
        clients.push(server.connect(seat).await);
    }
    // Asked for while the first deal is played (on another socket of the first seat): refused.
    let mut other = server.connect(&seated[0]).await;
    other.send(json!({"type": "replay", "step": 0})).await;
    assert_eq!(other.next_of("error").await["code"], "deal-in-play");
    let seen = play_deals(&mut clients, deals, seed).await;
    let record = server.record(&table).await;
    assert_eq!(record.deals.len(), deals, "{game}: deals played");
    assert_eq!(record.deals[0].dealt_at, 1);
    // Each seat's last view, at the last deal's end, carries the seal and its reveal.
    for client in &clients {
        let last = client.last_view();
        assert!(last["deal"]["reveal"].is_object(), "{last}");
    }
    for (index, deal) in record.deals.iter().enumerate() {
        let steps = deal.actions.len();
        for (seat, client) in clients.iter_mut().enumerate() {
            for step in 0..=steps {
                let last = index + 1 == deals;
                let ask = if step % 2 == 0 && last {
                    json!({"type": "replay", "step": step})
                } else {
                    json!({"type": "replay", "deal": index, "step": step})
                };
                client.send(ask).await;
                let frame = client.next_of("replay").await;
                assert_eq!(frame["seat"], seat, "{frame}");
                assert_eq!(frame["replay"]["deal"], index);
                assert_eq!(frame["replay"]["step"], step);
                assert_eq!(frame["replay"]["steps"], steps);
                assert_eq!(frame["actions"], json!([]));
                // The moment as the seat was shown it in play: the step's version is the one its
                // action made (the deal's first at step 0).
                let version = match step {
                    0 => deal.dealt_at,
                    _ => deal.actions[step - 1].2,
                };
                let then = &seen[seat][&version];
                assert_eq!(frame["version"], version);
                // The deal's seal with its reveal, as every seat was sent it at the deal's end.
                let end = &seen[seat][&deal.actions[steps - 1].2];
                assert_eq!(frame["deal"], end["deal"], "{frame}");
                for field in SHOWN {
                    assert_eq!(
                        frame[field], then[field],
                        "{game}: seat {seat}, deal {index} step {step}: the {field} it saw at version {version}"
                    );
                }
                assert_eq!(frame["replay"]["deals"], deals);
                // The deal's moves, each with who made it: the action as made, unless it names a
                // card this seat never saw (a talafa laid face down by another:
                // `hidden_over_the_wire` checks those against the truth).
                let moves = frame["replay"]["moves"].as_array().unwrap();
                assert_eq!(moves.len(), steps);
                for (told, (by, made, _)) in moves.iter().zip(&deal.actions) {
                    assert_eq!(told["by"], by.index());
                    let action: G::Action = serde_json::from_value(made.clone()).unwrap();
                    let expected = G::action_told_to(&action, *by, Some(Seat::new(seat)));
                    assert_eq!(told["action"], json!(expected), "{game}: step {step}");
                    assert!(expected.is_none() || json!(expected) == *made);
                }
            }
        }
    }
    let steps = record.deals[deals - 1].actions.len();
    // Refused, each with a sentence; the table stays where it was.
    let version = record.version;
    for (ask, code) in [
        (json!({"type": "replay", "step": steps + 1}), "no-such-step"),
        (
            json!({"type": "replay", "deal": deals, "step": 0}),
            "no-such-deal",
        ),
        (json!({"type": "replay", "step": -1}), "malformed"),
        (json!({"type": "replay", "step": 0, "seat": 1}), "malformed"),
    ] {
        clients[0].send(ask.clone()).await;
        let error = clients[0].next_of("error").await;
        assert_eq!(error["code"], code, "{ask}: {error}");
        assert!(error["message"].as_str().unwrap().len() > 10);
    }
    assert_eq!(server.record(&table).await.version, version);
}
