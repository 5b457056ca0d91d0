//! Computers at the table, and the shell's own cases: a socket too slow, a node handing the table over.

use super::*;

/// A one-deal Panjpar table against the computer at `level`, started, its person's socket 1
/// attached.
fn computer_table(level: Level) -> (TableCore<Panjpar>, Instant) {
    let now = moment();
    let player = Token::random();
    let mut table = open::<Panjpar>(
        TableKind::Computer,
        MatchLength::DealsWon(1),
        level,
        player.hash(),
    );
    table.start();
    table.attach(1, &player.hash(), now).unwrap();
    (table, now)
}

#[test]
fn a_computer_moves_on_its_timer_and_only_at_the_version_it_was_set_for() {
    let (mut table, now) = computer_table(Level::Standard);
    let mut closed = 0;
    for _ in 0..30 {
        let did = done(&mut table);
        let woken = did.iter().find_map(|d| match d {
            Did::Woken(after, Timer::Computer { seat, version }) => Some((*after, *seat, *version)),
            _ => None,
        });
        let Some((after, seat, version)) = woken else {
            if table.state.as_ref().and_then(Panjpar::to_act) != Some(Seat::new(0)) {
                break;
            }
            let (_, chosen) = turn(&mut table);
            table.from_seat(1, action(table.version(), chosen), now);
            continue;
        };
        assert_eq!((after, seat), (expected_delay(&table), Seat::new(1)));
        closed += usize::from(after > policy().bot_delay);
        table.timer(
            Timer::Computer {
                seat,
                version: version - 1,
            },
            now,
        );
        assert!(done(&mut table).is_empty(), "a timer of an older version");
        table.timer(Timer::Computer { seat, version }, now);
        assert_eq!(table.version(), version + 1);
    }
    assert!(table.record()[0].actions.len() > 2);
    assert!(closed > 0, "no computer moved after a battle had ended");
}

/// The delay a computer's move at `table` waits: three after a battle ended, one otherwise.
fn expected_delay(table: &TableCore<Panjpar>) -> Duration {
    let closed = Panjpar::round_closed(table.state.as_ref().unwrap());
    policy().bot_delay * if closed { 3 } else { 1 }
}

#[test]
fn a_strong_computer_thinks_at_once_inside_the_move_delay_and_is_asked_once_a_version() {
    let (mut table, now) = computer_table(Level::Strong);
    let mut thoughts = 0;
    for _ in 0..40 {
        let did = done(&mut table);
        assert!(
            !did.iter()
                .any(|d| matches!(d, Did::Woken(_, Timer::Computer { .. }))),
            "a strong computer waits for no timer before thinking: {did:?}"
        );
        let asked: Vec<_> = did
            .iter()
            .filter_map(|d| match d {
                Did::Thinks(version, after) => Some((*version, *after)),
                _ => None,
            })
            .collect();
        let Some(&(version, after)) = asked.first() else {
            if table.state.as_ref().and_then(Panjpar::to_act) != Some(Seat::new(0)) {
                break;
            }
            let (_, chosen) = turn(&mut table);
            table.from_seat(1, action(table.version(), chosen), now);
            continue;
        };
        assert_eq!(asked.len(), 1, "one search per change: {did:?}");
        assert_eq!((version, after), (table.version(), expected_delay(&table)));
        table.wake_computer();
        assert!(done(&mut table).is_empty(), "asked twice on one version");
        let seat = Seat::new(1);
        let legal = Panjpar::legal_actions(table.state.as_ref().unwrap(), seat);
        table.thought(seat, version - 1, legal[0]);
        assert!(done(&mut table).is_empty(), "a thought on an older version");
        table.thought(seat, version, legal[0]);
        assert_eq!(table.version(), version + 1);
        thoughts += 1;
    }
    assert!(thoughts > 1, "the computer was asked {thoughts} times");
}

#[test]
fn a_socket_that_cannot_keep_up_is_closed_and_its_seat_shown_as_gone() {
    let (mut table, now) = friends_at_play(false);
    table.socket_too_slow(2, now);
    let did = done(&mut table);
    assert!(matches!(did[..], [Did::Closed(2, 1008)]), "{did:?}");
    table.from_seat(1, ClientMsg::Resync {}, now);
    let did = done(&mut table);
    assert_eq!(last_view(&did, 1).unwrap()["seats"][1]["connected"], false);
    assert!(sent_to(&did, 2).is_empty());
}

#[test]
fn a_draining_node_hands_the_table_over_and_stops_without_closing_its_sockets() {
    let (mut table, _) = friends_at_play(true);
    table.hand_over();
    assert!(matches!(done(&mut table)[..], [Did::HandedOver]));
    table.handed_over(StoreAnswer::Stored);
    assert!(matches!(
        done(&mut table)[..],
        [Did::Stopped(Closing::HandedOver)]
    ));
}

/// A guided one-deal Panjpar table against the computer whose computer guesses first (the first
/// seat to guess is drawn at random: tables are opened until it is), and what it did on starting.
fn guided_with_the_computer_first() -> (TableCore<Panjpar>, Instant, Vec<Did>) {
    for _ in 0..64 {
        let now = moment();
        let player = Token::random();
        let mut table = open::<Panjpar>(
            TableKind::Computer,
            MatchLength::DealsWon(1),
            Level::Standard,
            player.hash(),
        )
        .guided(true);
        table.start();
        table.attach(1, &player.hash(), now).unwrap();
        let did = done(&mut table);
        if table.state.as_ref().and_then(Panjpar::to_act) == Some(Seat::new(1)) {
            return (table, now, did);
        }
    }
    panic!("the computer never guessed first");
}

/// Whether `did` has a timer set that `wanted` says yes to.
fn woken(did: &[Did], wanted: fn(&Timer) -> bool) -> bool {
    did.iter()
        .any(|d| matches!(d, Did::Woken(_, timer) if wanted(timer)))
}

#[test]
fn a_guided_tables_computer_waits_for_the_guides_first_words_or_its_wait() {
    let computer = |t: &Timer| matches!(t, Timer::Computer { .. });
    let (mut table, now, did) = guided_with_the_computer_first();
    assert!(!woken(&did, computer), "a held computer was woken: {did:?}");
    assert!(woken(&did, |t| matches!(t, Timer::GuideWait)), "{did:?}");
    // The page says its guide has spoken: the computer moves after its delay, once.
    table.from_seat(1, ClientMsg::GuideShown {}, now);
    assert!(woken(&done(&mut table), computer));
    table.from_seat(1, ClientMsg::GuideShown {}, now);
    table.timer(Timer::GuideWait, now);
    assert!(done(&mut table).is_empty(), "released twice");
    // A page that never says so holds the computer until the wait is over.
    let (mut table, now, _) = guided_with_the_computer_first();
    table.timer(Timer::GuideWait, now);
    assert!(woken(&done(&mut table), computer));
}
