//! The lobby's rules, on the one kept in memory (the Redis one is tried across real nodes in
//! `tests/it/pairing.rs`): the oldest are paired first, a silent or departed ticket never is, a
//! formation is seated all or none, one browser waits once, and the open list follows its seats.

use std::time::Duration;

use super::*;
use crate::table::Token;

const GONE_AFTER: u64 = 5_000;
const FRESH: u64 = 90_000;

fn hall() -> Hall {
    Hall::new(
        Duration::from_millis(GONE_AFTER),
        Duration::from_millis(FRESH),
    )
}

fn entering(game: &'static str, needed: usize, browser: &str) -> Entering {
    Entering {
        game,
        length: MatchLength::DealsWon(3),
        needed,
        browser: browser.to_string(),
        key: seat_token(browser).hash(),
    }
}

fn place(formation: &Formation) -> Vec<Place> {
    (0..formation.tickets.len())
        .map(|seat| Place {
            table: "T".into(),
            seat,
        })
        .collect()
}

#[actix_rt::test]
async fn the_oldest_are_paired_and_seated_together() {
    let lobby = hall();
    let first = lobby
        .enter("a", &entering("panjpar", 2, "browser-a"), 1_000)
        .await
        .unwrap();
    assert_eq!(
        first.standing,
        Standing::Waiting {
            waiting: 1,
            since: 1_000
        }
    );
    assert!(first.formed.is_none());
    let second = lobby
        .enter("b", &entering("panjpar", 2, "browser-b"), 2_000)
        .await
        .unwrap();
    assert_eq!(second.standing, Standing::Forming);
    let formed = second.formed.expect("two make a Panjpar table");
    assert_eq!(formed.tickets, ["a", "b"]);
    assert_eq!(formed.since, [1_000, 2_000]);
    let keys = [
        seat_token("browser-a").hash(),
        seat_token("browser-b").hash(),
    ];
    assert!(formed.keys.iter().zip(&keys).all(|(a, b)| a.matches(b)));
    assert_eq!(formed.left, 0);
    // Until it is seated, the first asks and hears it is being seated; nobody else is paired with it.
    let asked = lobby.ask("a", 2_100).await.unwrap();
    assert_eq!(asked.standing, Standing::Forming);
    let third = lobby
        .enter("c", &entering("panjpar", 2, "browser-c"), 2_200)
        .await
        .unwrap();
    assert!(third.formed.is_none());
    let places = place(&formed);
    assert!(lobby.seat(&formed, &places).await.unwrap());
    for (ticket, place) in ["a", "b"].iter().zip(&places) {
        let asked = lobby.ask(ticket, 2_300).await.unwrap();
        assert_eq!(asked.standing, Standing::Seated(place.clone()));
    }
    // Seated once: the same formation is never seated again.
    assert!(!lobby.seat(&formed, &places).await.unwrap());
}

#[actix_rt::test]
async fn a_ticket_that_left_or_went_silent_is_never_paired() {
    let lobby = hall();
    lobby
        .enter("a", &entering("ganjifa", 3, "browser-a"), 0)
        .await
        .unwrap();
    lobby
        .enter("b", &entering("ganjifa", 3, "browser-b"), 100)
        .await
        .unwrap();
    assert!(lobby.leave("b").await.unwrap());
    assert!(!lobby.leave("b").await.unwrap());
    assert_eq!(lobby.ask("b", 200).await.unwrap().standing, Standing::Gone);

    // "a" stops asking: by the time two more come, it has gone.
    let asked = lobby
        .enter("c", &entering("ganjifa", 3, "browser-c"), GONE_AFTER + 1)
        .await
        .unwrap();
    assert_eq!(asked.dropped, 1);
    let asked = lobby
        .enter("d", &entering("ganjifa", 3, "browser-d"), GONE_AFTER + 2)
        .await
        .unwrap();
    assert!(asked.formed.is_none(), "{asked:?}");
    assert_eq!(
        asked.standing,
        Standing::Waiting {
            waiting: 2,
            since: GONE_AFTER + 2
        }
    );
    let formed = lobby
        .enter("e", &entering("ganjifa", 3, "browser-e"), GONE_AFTER + 3)
        .await
        .unwrap()
        .formed
        .expect("three make a Ganjifa table");
    assert_eq!(formed.tickets, ["c", "d", "e"]);
    // A page silent too long is not revived by asking late.
    let at = GONE_AFTER + 10;
    lobby
        .enter("z", &entering("panjpar", 2, "browser-z"), at)
        .await
        .unwrap();
    let late = lobby.ask("z", at + GONE_AFTER).await.unwrap();
    assert_eq!(late.standing, Standing::Gone);
}

/// "a" entering the Panjpar queue at 0 and "b" at 10: the formation "b"'s entry makes.
async fn paired(lobby: &Hall) -> Formation {
    lobby
        .enter("a", &entering("panjpar", 2, "browser-a"), 0)
        .await
        .unwrap();
    let b = entering("panjpar", 2, "browser-b");
    let asked = lobby.enter("b", &b, 10).await.unwrap();
    asked.formed.expect("two make a Panjpar table")
}

#[actix_rt::test]
async fn a_formation_with_one_gone_is_seated_nowhere_and_the_rest_wait_on() {
    let lobby = hall();
    let formed = paired(&lobby).await;
    // "a" leaves while its table is being made: nobody is seated, and "b" waits with its old wait.
    assert!(lobby.leave("a").await.unwrap());
    assert!(!lobby.seat(&formed, &place(&formed)).await.unwrap());
    lobby.unform(&formed).await.unwrap();
    assert_eq!(
        lobby.ask("b", 20).await.unwrap().standing,
        Standing::Waiting {
            waiting: 1,
            since: 10
        }
    );
}

#[actix_rt::test]
async fn a_formation_never_seated_waits_again_after_the_limit() {
    let lobby = hall();
    let formed = paired(&lobby).await;
    let limit = FORMING_LIMIT.as_millis() as u64;
    // Both keep asking while the node that took them is silent.
    for at in (1_000..limit).step_by(1_000) {
        for ticket in ["a", "b"] {
            assert_eq!(
                lobby.ask(ticket, at).await.unwrap().standing,
                Standing::Forming
            );
        }
    }
    let again = lobby.ask("a", limit + 20).await.unwrap();
    assert_eq!(
        again.standing,
        Standing::Waiting {
            waiting: 1,
            since: 0
        }
    );
    // "b" comes back too and the two are paired afresh; the late node's seating is refused.
    let fresh = lobby.ask("b", limit + 30).await.unwrap();
    let fresh = fresh.formed.expect("paired again");
    assert_ne!(fresh.id, formed.id);
    assert!(!lobby.seat(&formed, &place(&formed)).await.unwrap());
    assert!(lobby.seat(&fresh, &place(&fresh)).await.unwrap());
}

#[actix_rt::test]
async fn one_browser_waits_once_and_queues_are_apart() {
    let lobby = hall();
    lobby
        .enter("a", &entering("panjpar", 2, "browser-a"), 0)
        .await
        .unwrap();
    // The same browser again (another tab): its first entry leaves, so it is never paired with itself.
    let again = lobby
        .enter("a2", &entering("panjpar", 2, "browser-a"), 10)
        .await
        .unwrap();
    assert!(again.formed.is_none());
    assert_eq!(lobby.ask("a", 20).await.unwrap().standing, Standing::Gone);
    // Another game, and another length, are other queues.
    let other_game = lobby
        .enter("p", &entering("pishe-pasha", 2, "browser-p"), 30)
        .await
        .unwrap();
    assert!(other_game.formed.is_none());
    let mut five = entering("panjpar", 2, "browser-5");
    five.length = MatchLength::DealsWon(5);
    assert!(lobby.enter("f", &five, 40).await.unwrap().formed.is_none());
    let formed = lobby
        .enter("b", &entering("panjpar", 2, "browser-b"), 50)
        .await
        .unwrap()
        .formed
        .unwrap();
    assert_eq!(formed.tickets, ["a2", "b"]);
}

#[actix_rt::test]
async fn an_open_table_is_listed_until_full_or_left_and_only_its_host_keeps_or_closes_it() {
    let lobby = hall();
    let (host, stranger) = (Token::random().hash(), Token::random().hash());
    let listing = |table: &str, since| Listing {
        table: table.into(),
        game: "ganjifa".into(),
        length: MatchLength::Deals(3),
        seats: 3,
        taken: 1,
        name: Some("Parvin".into()),
        since,
    };
    assert!(lobby
        .list(&listing("T1", 1_000), &host, "10.0.0.1")
        .await
        .unwrap());
    assert!(lobby
        .list(&listing("T2", 2_000), &host, "10.0.0.2")
        .await
        .unwrap());
    let shown = lobby.listed("ganjifa", 3_000).await.unwrap();
    assert_eq!(shown, [listing("T1", 1_000), listing("T2", 2_000)]);
    assert!(lobby.listed("panjpar", 3_000).await.unwrap().is_empty());
    // A host who has not said they are there for the fresh time leaves the list; one who says so
    // stays. Only the host may say it.
    assert!(!lobby.host("T1", &stranger, false, FRESH).await.unwrap());
    assert!(lobby.host("T1", &host, false, FRESH).await.unwrap());
    let later = 2_000 + FRESH;
    assert_eq!(
        lobby.listed("ganjifa", later).await.unwrap(),
        [listing("T1", 1_000)]
    );
    assert!(
        !lobby.host("T2", &host, false, later).await.unwrap(),
        "gone"
    );
    // Seats taken: gone from the list once all three are.
    lobby.took_seat("T1").await.unwrap();
    assert_eq!(lobby.listed("ganjifa", later).await.unwrap()[0].taken, 2);
    lobby.took_seat("T1").await.unwrap();
    assert!(lobby.listed("ganjifa", later).await.unwrap().is_empty());
    // Closed by a stranger: refused; by its host: gone.
    assert!(lobby
        .list(&listing("T3", later), &host, "10.0.0.1")
        .await
        .unwrap());
    assert!(!lobby.host("T3", &stranger, true, later).await.unwrap());
    assert!(lobby.host("T3", &host, true, later).await.unwrap());
    assert!(lobby.listed("ganjifa", later).await.unwrap().is_empty());
}

#[actix_rt::test]
async fn one_address_lists_a_few_tables_at_once() {
    let lobby = hall();
    let host = Token::random().hash();
    let listing = |table: &str| Listing {
        table: table.into(),
        game: "panjpar".into(),
        length: MatchLength::DealsWon(3),
        seats: 2,
        taken: 1,
        name: None,
        since: 0,
    };
    for n in 0..LISTED_PER_ADDRESS {
        let table = format!("T{n}");
        assert!(lobby
            .list(&listing(&table), &host, "10.0.0.9")
            .await
            .unwrap());
    }
    assert!(!lobby
        .list(&listing("more"), &host, "10.0.0.9")
        .await
        .unwrap());
    assert!(lobby
        .list(&listing("other"), &host, "10.0.0.10")
        .await
        .unwrap());
    // One of them filled: room for another.
    lobby.took_seat("T0").await.unwrap();
    assert!(lobby
        .list(&listing("more"), &host, "10.0.0.9")
        .await
        .unwrap());
    assert_eq!(
        lobby.listed("panjpar", 1).await.unwrap().len(),
        LISTED_PER_ADDRESS + 1
    );
}

#[test]
fn a_ticket_is_kept_under_a_hash_and_its_seat_token_is_worked_out_from_it() {
    let ticket = random_id();
    let (name, token) = (ticket_name(&ticket), seat_token(&ticket));
    assert_ne!(name, ticket);
    assert!(!name.contains(&ticket) && !name.contains(token.as_str()));
    assert_eq!(token.as_str().len(), 22);
    assert!(seat_token(&ticket) == token, "the same for the same ticket");
    assert!(seat_token(&random_id()) != token);
    assert_ne!(ticket_name(&random_id()), name);
}

#[test]
fn a_length_is_named_in_a_key_and_read_back() {
    for length in [
        MatchLength::DealsWon(3),
        MatchLength::Points(100),
        MatchLength::Deals(6),
    ] {
        assert_eq!(length_of_key(&length_key(&length)), Some(length));
    }
    assert_eq!(length_of_key("rounds-3"), None);
    assert_eq!(length_of_key("deals-x"), None);
}
