//! The coach at a table: hints at a seat's turn, counted and kept; analyses of a deal that has ended,
//! made once and kept with the deal, sent to their seat only, refused to a watcher and for a deal in
//! play.

use super::*;
use chaikhana_rules::game::Budget;

/// A one-deal Panjpar table against the standard computer, its person's socket 1 attached, the
/// coach thinking a few sampled deals a decision.
fn coached_table() -> (TableCore<Panjpar>, Instant) {
    let now = moment();
    let player = Token::random();
    let length = MatchLength::DealsWon(1);
    let mut table = open::<Panjpar>(TableKind::Computer, length, Level::Standard, player.hash());
    table.policy.strong_budget = Budget::Samples(6);
    table.start();
    table.attach(1, &player.hash(), now).unwrap();
    done(&mut table);
    (table, now)
}

/// Plays until it is the person's turn (true) or the deal has ended (false), the computer moving on
/// its timers.
fn to_my_turn(table: &mut TableCore<Panjpar>, now: Instant) -> bool {
    for _ in 0..400 {
        let Some(seat) = table.state.as_ref().and_then(Panjpar::to_act) else {
            return false;
        };
        if seat == Seat::new(0) {
            return true;
        }
        let version = table.version();
        table.timer(Timer::Computer { seat, version }, now);
        done(table);
    }
    panic!("the computer never moved");
}

/// Plays the deal to its end, the person taking the first action offered.
fn to_the_end(table: &mut TableCore<Panjpar>, now: Instant) {
    while to_my_turn(table, now) {
        let (_, chosen) = turn(table);
        table.from_seat(1, action(table.version(), chosen), now);
        done(table);
    }
}

fn frames_of_type<'a>(did: &'a [Did], conn: ConnId, kind: &str) -> Vec<&'a serde_json::Value> {
    sent_to(did, conn)
        .into_iter()
        .filter(|frame| frame["type"] == kind)
        .collect()
}

#[test]
fn a_hint_at_my_turn_is_one_of_my_actions_counted_in_every_head_and_stored() {
    let (mut table, now) = coached_table();
    assert!(to_my_turn(&mut table, now));
    let version = table.version();
    let view = whole_view(&table, Some(Seat::new(0)));
    assert_eq!(view["hints_taken"], serde_json::json!([0, 0]));
    table.from_seat(1, ClientMsg::Hint { version }, now);
    let did = done(&mut table);
    assert!(
        did.iter()
            .any(|d| matches!(d, Did::Studies(Study::Hint { .. }))),
        "{did:?}"
    );
    let hints = frames_of_type(&did, 1, "hint");
    assert_eq!(hints.len(), 1, "{did:?}");
    let hint = hints[0];
    assert_eq!(hint["version"], version);
    assert!(
        view["actions"]
            .as_array()
            .unwrap()
            .contains(&hint["action"]),
        "{hint} is one of {}",
        view["actions"]
    );
    let why: chaikhana_rules::game::Why = serde_json::from_value(hint["why"].clone()).unwrap();
    assert!(
        why.reason().is_some(),
        "a reason, not a sentence: {}",
        hint["why"]
    );
    assert_eq!(table.version(), version, "a hint changes no move");
    assert_eq!(table.record()[0].coaching.hints_taken(2, None), [1, 0]);
    let after = last_view(&did, 1).expect("the count is shown");
    assert_eq!(after["hints_taken"], serde_json::json!([1, 0]));
    // Kept as the table is stored, and read back.
    let copy = rebuilt::<Panjpar>(table.snapshot()).unwrap();
    assert_eq!(copy.record()[0].coaching.hints_taken(2, None), [1, 0]);
    // A replay counts the hints as they stood at each step: none before it was taken.
    let step = table.record()[0].actions.len();
    to_the_end(&mut table, now);
    for (at, taken) in [(step, [0, 0]), (step + 1, [1, 0])] {
        let deal = Some(0);
        table.from_seat(1, ClientMsg::Replay { deal, step: at }, now);
        let did = done(&mut table);
        let replay = frames_of_type(&did, 1, "replay");
        assert_eq!(
            replay[0]["hints_taken"],
            serde_json::json!(taken),
            "step {at}"
        );
    }
}

#[test]
fn a_hint_is_thought_once_a_turn_and_asked_again_is_the_same_words_counted_once() {
    let (mut table, now) = coached_table();
    assert!(to_my_turn(&mut table, now));
    let version = table.version();
    // Asked twice before it is thought: one study, one answer.
    table.from_seat(1, ClientMsg::Hint { version }, now);
    table.from_seat(1, ClientMsg::Hint { version }, now);
    let did = done(&mut table);
    let studied = |did: &[Did]| {
        did.iter()
            .filter(|d| matches!(d, Did::Studies(Study::Hint { .. })))
            .count()
    };
    assert_eq!(studied(&did), 1, "{did:?}");
    let first = frames_of_type(&did, 1, "hint");
    assert_eq!(first.len(), 1, "{did:?}");
    let first = first[0].clone();
    // Asked again once given: the same words at once, thought and counted no more.
    for _ in 0..3 {
        table.from_seat(1, ClientMsg::Hint { version }, now);
        let did = done(&mut table);
        assert_eq!(studied(&did), 0, "{did:?}");
        assert_eq!(frames_of_type(&did, 1, "hint"), [&first]);
    }
    assert_eq!(table.record()[0].coaching.hints_taken(2, None), [1, 0]);
    assert_eq!(table.version(), version);
}

#[test]
fn a_hint_whose_turn_passes_before_it_is_thought_is_answered_stale() {
    let (mut table, now) = coached_table();
    assert!(to_my_turn(&mut table, now));
    let version = table.version();
    table.from_seat(1, ClientMsg::Hint { version }, now);
    // The seat plays before the coach has answered.
    let (_, chosen) = turn(&mut table);
    table.from_seat(1, action(version, chosen), now);
    let did = done(&mut table);
    assert!(frames_of_type(&did, 1, "hint").is_empty(), "{did:?}");
    let refused = frames_of_type(&did, 1, "error");
    assert_eq!(refused.len(), 1, "{did:?}");
    assert_eq!(refused[0]["code"], "stale-version");
    assert_eq!(table.record()[0].coaching.hints_taken(2, None), [0, 0]);
}

#[test]
fn a_hint_out_of_turn_on_an_old_version_or_among_friends_is_refused() {
    let (mut table, now) = coached_table();
    assert!(to_my_turn(&mut table, now));
    let version = table.version();
    table.from_seat(
        1,
        ClientMsg::Hint {
            version: version + 7,
        },
        now,
    );
    let did = done(&mut table);
    assert_eq!(sent_to(&did, 1)[0]["code"], "stale-version", "{did:?}");
    let (mut friends, now) = friends_at_play(false);
    let version = friends.version();
    for conn in [1, 2] {
        friends.from_seat(conn, ClientMsg::Hint { version }, now);
        let did = done(&mut friends);
        assert_eq!(sent_to(&did, conn)[0]["code"], "no-hints", "{did:?}");
    }
    assert!(whole_view(&friends, Some(Seat::new(0)))["hints_taken"].is_null());
    // Not this seat's turn: the computer's.
    to_the_end(&mut table, now);
    let (mut table, now) = coached_table();
    if to_my_turn(&mut table, now) {
        let (_, chosen) = turn(&mut table);
        table.from_seat(1, action(table.version(), chosen), now);
        done(&mut table);
    }
    if table.state.as_ref().and_then(Panjpar::to_act) == Some(Seat::new(1)) {
        let version = table.version();
        table.from_seat(1, ClientMsg::Hint { version }, now);
        let did = done(&mut table);
        assert_eq!(sent_to(&did, 1)[0]["code"], "not-your-turn", "{did:?}");
    }
    assert_eq!(table.record()[0].coaching.hints_taken(2, None), [0, 0]);
}

#[test]
fn an_ended_deal_is_analysed_once_for_its_seat_and_kept_with_the_deal() {
    let (mut table, now) = coached_table();
    // In play: refused.
    table.from_seat(1, ClientMsg::Analyse { deal: Some(0) }, now);
    let did = done(&mut table);
    assert_eq!(sent_to(&did, 1)[0]["code"], "deal-in-play", "{did:?}");
    to_the_end(&mut table, now);
    // A watcher may not.
    table.watch(9).unwrap();
    done(&mut table);
    table.from_seat(9, ClientMsg::Analyse { deal: None }, now);
    let did = done(&mut table);
    assert_eq!(sent_to(&did, 9)[0]["code"], "not-your-decisions", "{did:?}");

    table.from_seat(1, ClientMsg::Analyse { deal: None }, now);
    let did = done(&mut table);
    let studies = did
        .iter()
        .filter(|d| matches!(d, Did::Studies(Study::Point { .. })))
        .count();
    let progress = frames_of_type(&did, 1, "analysing");
    assert_eq!(progress[0]["of"], studies, "{did:?}");
    assert!(
        frames_of_type(&did, 9, "analysis").is_empty()
            && frames_of_type(&did, 9, "analysing").is_empty(),
        "a watcher hears nothing of a seat's analysis"
    );
    let analysis = frames_of_type(&did, 1, "analysis");
    assert_eq!(analysis.len(), 1, "{did:?}");
    let analysis = analysis[0].clone();
    assert_eq!(analysis["judged"], studies);
    assert_eq!(analysis["deal"], 0);
    for mark in analysis["marks"].as_array().unwrap() {
        let step = mark["step"].as_u64().unwrap() as usize;
        let (by, _, _) = &table.record()[0].actions[step];
        assert_eq!(*by, Seat::new(0), "a mark is on this seat's own decision");
        assert!(["inaccuracy", "mistake", "blunder"].contains(&mark["grade"].as_str().unwrap()));
        assert!(mark["best_value"].as_f64() >= mark["made_value"].as_f64());
    }
    let kept = table.record()[0].coaching.analysis(Seat::new(0)).cloned();
    assert_eq!(kept.as_ref().map(|a| a.judged), Some(studies));

    // Asked again, from another socket of the seat, or after a rebuild: answered at once, unthought.
    table.from_seat(1, ClientMsg::Analyse { deal: Some(0) }, now);
    let did = done(&mut table);
    assert!(!did.iter().any(|d| matches!(d, Did::Studies(_))), "{did:?}");
    assert_eq!(frames_of_type(&did, 1, "analysis")[0], &analysis);
    let copy = rebuilt::<Panjpar>(table.snapshot()).unwrap();
    assert_eq!(
        copy.record()[0].coaching.analysis(Seat::new(0)),
        kept.as_ref()
    );
}

#[test]
fn hints_among_friends_are_offered_to_seats_that_agreed_counted_for_all_and_kept() {
    let now = moment();
    let (host, guest) = (Token::random(), Token::random());
    let length = MatchLength::DealsWon(1);
    let mut table = open::<Panjpar>(TableKind::Friends, length, Level::Standard, host.hash())
        .offering_hints(true);
    table.policy.strong_budget = Budget::Samples(6);
    table.start();
    done(&mut table);
    // The guest must agree before the seat is theirs; refused, the seat stays free.
    let refused = table.join(guest.hash(), false, now).unwrap_err();
    assert_eq!(refused.code, crate::table::RefusalCode::HintsToAgree);
    assert!(refused.message.contains("hints"), "{}", refused.message);
    assert!(matches!(table.seats[1], Occupant::Free));
    assert_eq!(table.join(guest.hash(), true, now), Ok(Seat::new(1)));
    done(&mut table);
    table.attach(1, &host.hash(), now).unwrap();
    table.attach(2, &guest.hash(), now).unwrap();
    done(&mut table);
    // Whoever's turn it is may ask; everyone's view counts every seat's hints.
    let seat = table.state.as_ref().and_then(Panjpar::to_act).unwrap();
    let conn = seat.index() as ConnId + 1;
    let version = table.version();
    table.from_seat(conn, ClientMsg::Hint { version }, now);
    let did = done(&mut table);
    assert_eq!(frames_of_type(&did, conn, "hint").len(), 1, "{did:?}");
    let mut taken = serde_json::json!([0, 0]);
    taken[seat.index()] = 1.into();
    for other in [1, 2] {
        assert_eq!(
            whole_view(&table, Some(Seat::new(other - 1)))["hints_taken"],
            taken
        );
    }
    assert_eq!(
        whole_view(&table, None)["hints_taken"],
        taken,
        "a watcher too"
    );
    // The table's record keeps the offer: rebuilt, it still offers hints and asks a joiner to agree.
    let snapshot = table.snapshot();
    assert!(snapshot.hints);
    let copy = rebuilt::<Panjpar>(snapshot).unwrap();
    assert_eq!(whole_view(&copy, Some(Seat::new(0)))["hints_taken"], taken);
    // A friends table made without them offers none, and a joiner need agree to nothing.
    let plain = open::<Panjpar>(TableKind::Friends, length, Level::Standard, host.hash());
    assert!(!plain.snapshot().hints);
    assert!(plain.check_agreement(false).is_ok());
}

#[test]
fn the_coachs_word_is_told_only_once_the_store_holds_it() {
    let (mut table, now) = coached_table();
    assert!(to_my_turn(&mut table, now));
    // From here on the table stores each change before anyone hears of it.
    table.keeper = super::keeper::Keeper::new(true);
    let version = table.version();
    table.from_seat(1, ClientMsg::Hint { version }, now);
    let did = done(&mut table);
    assert!(did.iter().any(|d| matches!(d, Did::Stored(_))), "{did:?}");
    assert!(frames_of_type(&did, 1, "hint").is_empty(), "{did:?}");
    // Asked again while it is stored: still nothing, then answered once, once it is in.
    table.from_seat(1, ClientMsg::Hint { version }, now);
    assert!(frames_of_type(&done(&mut table), 1, "hint").is_empty());
    table.stored(StoreAnswer::Stored, now);
    let did = done(&mut table);
    assert_eq!(frames_of_type(&did, 1, "hint").len(), 1, "{did:?}");
    assert_eq!(last_view(&did, 1).unwrap()["hints_taken"][0], 1);

    table.keeper = super::keeper::Keeper::new(false);
    to_the_end(&mut table, now);
    table.keeper = super::keeper::Keeper::new(true);
    table.from_seat(1, ClientMsg::Analyse { deal: None }, now);
    let did = done(&mut table);
    assert!(did.iter().any(|d| matches!(d, Did::Stored(_))), "{did:?}");
    assert!(frames_of_type(&did, 1, "analysis").is_empty(), "{did:?}");
    // Asked again while it is stored: every decision judged, the analysis itself not yet told.
    table.from_seat(1, ClientMsg::Analyse { deal: None }, now);
    let did = done(&mut table);
    assert!(frames_of_type(&did, 1, "analysis").is_empty(), "{did:?}");
    let coming = frames_of_type(&did, 1, "analysing");
    assert_eq!(coming.len(), 1, "{did:?}");
    assert_eq!(coming[0]["done"], coming[0]["of"]);
    table.stored(StoreAnswer::Stored, now);
    let did = done(&mut table);
    assert_eq!(frames_of_type(&did, 1, "analysis").len(), 1, "{did:?}");
    // Once stored, asking again is answered with the kept analysis at once.
    table.from_seat(1, ClientMsg::Analyse { deal: None }, now);
    assert_eq!(frames_of_type(&done(&mut table), 1, "analysis").len(), 1);
}
