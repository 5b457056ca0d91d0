//! Seats away and tables left alone: kept seats, seats offered to someone else, a match ended by the one left, sleep and expiry.

use super::*;

#[test]
fn a_seat_whose_person_has_not_come_yet_is_shown_on_the_way_not_away() {
    let (mut table, now, [host, _guest]) = friends_dealt(false);
    table.attach(1, &host, now).unwrap();
    let did = done(&mut table);
    let seats = &last_view(&did, 1).unwrap()["seats"];
    assert_eq!(seats[0]["arrived"], true);
    assert_eq!(seats[1]["arrived"], false);
    assert_eq!(seats[1]["connected"], false);
    // Once come, a person who goes is away, and arrived for good.
    table.detach(1, now);
    done(&mut table);
    let host_seat = table.seats[0].info(Seat::new(0), false, false, None);
    assert!(!host_seat.connected && host_seat.arrived);
}

#[test]
fn a_seat_away_is_kept_for_its_player_however_long_and_shown_away() {
    let (mut table, now) = friends_at_play(false);
    let guest = match &table.seats[1] {
        Occupant::Person { key, .. } => key.clone(),
        _ => panic!("a person in seat 1"),
    };
    table.detach(2, now);
    let did = done(&mut table);
    let seats = &sent_to(&did, 1)[0]["seats"];
    assert_eq!(seats[1]["connected"], false);
    assert_eq!(seats[1]["away_since"], clock(now).unix_ms);
    assert_eq!(seats[1]["arrived"], true);
    assert_eq!(seats[1]["offerable"], false);
    assert_eq!(seats[0]["away_since"], serde_json::Value::Null);
    // Far past the old minute's hold, and a day later: the seat is still its player's.
    for later in [Duration::from_secs(61), Duration::from_secs(86400)] {
        table.tick(now + later);
        done(&mut table);
        assert!(table.seats[1].holds(&guest));
    }
    assert_eq!(
        table.join(Token::random().hash(), false, now),
        Err(TableRefusal::full())
    );
    assert_eq!(
        table.attach(3, &guest, now + Duration::from_secs(86400)),
        Ok(Seat::new(1))
    );
    let did = done(&mut table);
    assert_eq!(last_view(&did, 3).unwrap()["seats"][1]["connected"], true);
}

#[test]
fn an_away_seat_may_be_offered_to_someone_else_once_it_has_been_away_long_enough() {
    let (mut table, now) = friends_at_play(false);
    let guest = match &table.seats[1] {
        Occupant::Person { key, .. } => key.clone(),
        _ => panic!("a person in seat 1"),
    };
    table.detach(2, now);
    done(&mut table);
    let offer = || ClientMsg::OfferSeat { seat: Seat::new(1) };
    table.from_seat(1, offer(), now + Duration::from_secs(60));
    let did = done(&mut table);
    assert_eq!(sent_to(&did, 1)[0]["code"], "wrong-moment", "{did:?}");
    assert!(table.seats[1].holds(&guest), "too early: nothing changes");
    // Its own seat, never.
    table.from_seat(1, ClientMsg::OfferSeat { seat: Seat::new(0) }, now);
    assert_eq!(sent_to(&done(&mut table), 1)[0]["code"], "wrong-moment");
    let later = now + policy().offer_after;
    table.tick(later);
    let did = done(&mut table);
    assert_eq!(
        sent_to(&did, 1)[0]["seats"][1]["offerable"],
        true,
        "{did:?}"
    );
    let score_before = table.matchup.clone();
    table.from_seat(1, offer(), later);
    let did = done(&mut table);
    assert_eq!(last_view(&did, 1).unwrap()["seats"][1]["who"], "free");
    assert_eq!(table.matchup, score_before, "the seat keeps its score");
    assert_eq!(
        table.check_token(&guest),
        Err(TableRefusal::seat_given_away())
    );
    // Whoever opens the link next takes it, and the deal goes on.
    let newcomer = Token::random().hash();
    assert_eq!(table.join(newcomer.clone(), false, later), Ok(Seat::new(1)));
    assert_eq!(table.check_token(&newcomer), Ok(Seat::new(1)));
    // The seat given away is kept in the snapshot: a rebuilt table still tells its old holder.
    let rebuilt = rebuilt::<Panjpar>(table.snapshot()).unwrap();
    assert_eq!(
        rebuilt.check_token(&guest),
        Err(TableRefusal::seat_given_away())
    );
}

#[test]
fn at_two_seats_the_one_left_may_end_the_match_once_the_other_has_been_away_long_enough() {
    let (mut table, now) = friends_at_play(false);
    table.detach(2, now);
    done(&mut table);
    let version = table.version();
    table.from_seat(1, ClientMsg::EndMatch { version }, now);
    assert_eq!(sent_to(&done(&mut table), 1)[0]["code"], "wrong-moment");
    let later = now + policy().offer_after;
    table.tick(later);
    done(&mut table);
    table.from_seat(
        1,
        ClientMsg::EndMatch {
            version: version + 7,
        },
        later,
    );
    assert_eq!(sent_to(&done(&mut table), 1)[0]["code"], "stale-version");
    table.from_seat(1, ClientMsg::EndMatch { version }, later);
    let did = done(&mut table);
    assert!(
        did.iter().any(|d| matches!(d, Did::Closed(1, 4410))),
        "{did:?}"
    );
    assert!(did
        .iter()
        .any(|d| matches!(d, Did::Stopped(Closing::Closed(Gone::Ended)))));
}

#[test]
fn a_table_nobody_is_at_sleeps_once_stored_and_one_left_too_long_expires() {
    let (mut table, now) = friends_at_play(true);
    table.detach(1, now);
    table.detach(2, now);
    done(&mut table);
    table.tick(now + policy().sleep_after - Duration::from_secs(1));
    assert!(!done(&mut table)
        .iter()
        .any(|d| matches!(d, Did::HandedOver)));
    table.tick(now + policy().sleep_after);
    let did = done(&mut table);
    assert!(did.iter().any(|d| matches!(d, Did::HandedOver)), "{did:?}");
    // A store out of reach: it stays awake, and tries again.
    table.handed_over(StoreAnswer::Failed);
    assert!(done(&mut table).is_empty());
    table.tick(now + policy().sleep_after * 2);
    assert!(done(&mut table)
        .iter()
        .any(|d| matches!(d, Did::HandedOver)));
    table.handed_over(StoreAnswer::Stored);
    assert!(matches!(
        done(&mut table)[..],
        [Did::Stopped(Closing::Asleep)]
    ));

    let (mut table, now) = friends_at_play(false);
    table.tick(now + policy().expiry.friends - Duration::from_secs(1));
    assert!(!done(&mut table)
        .iter()
        .any(|d| matches!(d, Did::Stopped(_))));
    table.tick(now + policy().expiry.friends);
    let did = done(&mut table);
    assert!(
        did.iter().any(|d| matches!(d, Did::Closed(1, 4411))),
        "{did:?}"
    );
    assert!(did
        .iter()
        .any(|d| matches!(d, Did::Stopped(Closing::Closed(Gone::Expired)))));
}
