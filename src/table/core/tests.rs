//! The table core driven by its events alone, as its shell drives it, with no actix and no clock: each
//! test says what happens and checks what the core asks its shell to do.

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;

use super::views::Written;
use super::*;
use crate::cards::{deal_rng, DealRng};
use crate::games::panjpar::Panjpar;
use crate::protocol::ClientMsg;
use crate::table::{Snapshot, TableRefusal, Token};

/// A table's policy for unit tests: computers at once, seats held a minute.
pub(super) fn policy() -> TablePolicy {
    TablePolicy {
        bot_delay: Duration::from_millis(1),
        strong_budget: crate::games::strong::DEFAULT_BUDGET,
        sleep_after: Duration::from_secs(120),
        expiry: Expiry {
            friends: Duration::from_secs(14 * 86400),
            computer: Duration::from_secs(7 * 86400),
            finished: Duration::from_secs(86400),
        },
        offer_after: Duration::from_secs(600),
        sockets_per_seat: 4,
        watchers_per_table: 50,
        shuffle_wait: Duration::ZERO,
    }
}

/// A new table with nothing stored, its creator holding `creator`.
pub(super) fn open<G: Game>(
    kind: TableKind,
    length: MatchLength,
    level: Level,
    creator: TokenHash,
) -> TableCore<G> {
    let id = TableId::random();
    TableCore::new(
        id,
        kind,
        length,
        level,
        creator,
        policy(),
        false,
        clock(moment()),
        crate::table::entropy(),
    )
    .unwrap()
}

/// A moment for a test's table to start at, read outside the core (which reads no clock).
pub(super) use crate::table::test_moment as moment;

/// The shell's clock at `at`, the wall clock as it might read then.
pub(super) fn clock(at: Instant) -> Clock {
    Clock {
        at,
        unix_ms: 1_800_000_000_000,
    }
}

/// A table rebuilt from `snapshot`, with nothing stored.
pub(super) fn rebuilt<G: Game>(snapshot: Snapshot) -> Result<TableCore<G>, String> {
    TableCore::rebuild(
        TableId::random(),
        snapshot,
        policy(),
        false,
        clock(moment()),
        crate::table::entropy(),
    )
}

/// Plays `actions` random legal actions (dealing again when a deal ends, a new match when one does).
pub(super) fn play<G: Game>(table: &mut TableCore<G>, actions: usize, seed: u64) {
    let mut rng = deal_rng(seed);
    for _ in 0..actions {
        let to_act = table.state.as_ref().and_then(G::to_act);
        let Some(seat) = to_act else {
            if table.matchup.winners().is_some() {
                table.matchup = Match::new(table.length, G::SEATS, &mut rng);
            }
            table.start_deal();
            continue;
        };
        play_one(table, seat, &mut rng);
    }
}

/// Plays one legal action of `seat`, chosen at random, as the table does with one it accepts.
pub(super) fn play_one<G: Game>(table: &mut TableCore<G>, seat: Seat, rng: &mut DealRng) {
    let state = table.state.as_mut().unwrap();
    let action = G::legal_actions(state, seat).choose(rng).cloned().unwrap();
    G::apply(state, seat, &action).unwrap();
    table.accepted(seat, action);
}

/// What the shell was asked to do, each frame read as JSON.
#[derive(Debug)]
enum Did {
    Sent(ConnId, serde_json::Value),
    Closed(ConnId, u16),
    Stored(bool),
    HandedOver,
    Woken(Duration, Timer),
    /// A search asked on this version, to be played no sooner than this.
    Thinks(u64, Duration),
    Seated,
    Stopped(Closing),
}

fn done<G: Game>(table: &mut TableCore<G>) -> Vec<Did> {
    let read = |frame: &Frame| serde_json::from_str(frame.text_payload().unwrap()).unwrap();
    let mut effects = Vec::new();
    table.move_effects(&mut effects);
    let effects = effects.into_iter();
    effects
        .map(|effect| match effect {
            Effect::Send(conn, frame) => Did::Sent(conn, read(&frame)),
            Effect::Close(conn, code, _) => Did::Closed(conn, code),
            Effect::Store(change) => Did::Stored(matches!(change, Change::Whole { .. })),
            Effect::HandOver(_) => Did::HandedOver,
            Effect::Wake(after, timer) => Did::Woken(after, timer),
            Effect::Think {
                version,
                play_after,
                ..
            } => Did::Thinks(version, play_after),
            Effect::Seated => Did::Seated,
            Effect::Stop(closing) => Did::Stopped(closing),
        })
        .collect()
}

/// The frames sent to `conn`, in order.
fn sent_to(did: &[Did], conn: ConnId) -> Vec<&serde_json::Value> {
    let frames = did.iter().filter_map(|d| match d {
        Did::Sent(to, frame) if *to == conn => Some(frame),
        _ => None,
    });
    frames.collect()
}

/// The last view `conn` was sent.
fn last_view(did: &[Did], conn: ConnId) -> Option<serde_json::Value> {
    let frames = sent_to(did, conn).into_iter();
    frames.rev().find(|f| f["type"] == "view").cloned()
}

/// A Panjpar friends table with both seats taken and a socket each (1 for seat 0, 2 for seat 1),
/// dealt; `keeps`: whether its changes go to a store.
fn friends_at_play(keeps: bool) -> (TableCore<Panjpar>, Instant) {
    let (mut table, now, [host, guest]) = friends_dealt(keeps);
    table.attach(1, &host, now).unwrap();
    table.attach(2, &guest, now).unwrap();
    let did = done(&mut table);
    assert_eq!(last_view(&did, 1).unwrap()["seat"], 0);
    assert_eq!(last_view(&did, 2).unwrap()["seat"], 1);
    (table, now)
}

/// A Panjpar friends table with both seats taken and dealt, no socket attached yet; the seats' tokens.
fn friends_dealt(keeps: bool) -> (TableCore<Panjpar>, Instant, [TokenHash; 2]) {
    let now = moment();
    let (host, guest) = (Token::random(), Token::random());
    let id = TableId::random();
    let kind = TableKind::Friends;
    let length = MatchLength::DealsWon(3);
    let mut table = TableCore::new(
        id,
        kind,
        length,
        Level::Standard,
        host.hash(),
        policy(),
        keeps,
        clock(now),
        crate::table::entropy(),
    )
    .unwrap();
    table.start();
    assert!(done(&mut table).is_empty(), "a table waiting for its guest");
    assert_eq!(table.join(guest.hash(), now), Ok(Seat::new(1)));
    // The seat, then the deal dealt once it is taken, each stored before anyone hears of it.
    let mut did = Vec::new();
    loop {
        let batch = done(&mut table);
        let storing = batch.iter().any(|d| matches!(d, Did::Stored(true)));
        did.extend(batch);
        if !storing {
            break;
        }
        table.stored(StoreAnswer::Stored, now);
    }
    assert!(did.iter().any(|d| matches!(d, Did::Seated)), "{did:?}");
    assert_eq!(table.version(), 1, "dealt once every seat is taken");
    (table, now, [host.hash(), guest.hash()])
}

/// The socket whose turn it is, and the first action its view offers.
fn turn(table: &mut TableCore<Panjpar>) -> (ConnId, serde_json::Value) {
    let seat = table.state.as_ref().and_then(Panjpar::to_act).unwrap();
    let (frame, _) = table.whole_view(Some(seat));
    let view: serde_json::Value = serde_json::from_str(frame.text_payload().unwrap()).unwrap();
    (seat.index() as ConnId + 1, view["actions"][0].clone())
}

fn action(version: u64, action: serde_json::Value) -> ClientMsg {
    let id = Some("a".to_string());
    ClientMsg::Action {
        version,
        id,
        action,
    }
}

#[test]
fn an_action_is_acknowledged_in_its_sockets_view_and_every_seat_is_sent_its_own_view() {
    let (mut table, now) = friends_at_play(false);
    let mut without_head = 0;
    for _ in 0..20 {
        let version = table.version();
        let (mover, chosen) = turn(&mut table);
        let other = 3 - mover;
        table.from_seat(mover, action(version, chosen), now);
        let did = done(&mut table);
        let to_mover = sent_to(&did, mover);
        assert_eq!(to_mover.len(), 1, "one frame answers the mover: {did:?}");
        assert_eq!(to_mover[0]["type"], "view");
        assert_eq!(to_mover[0]["version"], version + 1);
        assert_eq!(to_mover[0]["ack"], serde_json::json!({ "id": "a" }));
        let to_other = sent_to(&did, other);
        assert_eq!(to_other.len(), 1, "the other seat is sent its view only");
        // The head (the seat among it) comes again only when it changes, or after a seats frame.
        let seat = to_other[0].get("seat");
        assert!(seat.is_none_or(|s| *s == other - 1), "{}", to_other[0]);
        without_head += usize::from(seat.is_none());
        assert!(to_other[0].get("ack").is_none(), "{}", to_other[0]);
        if to_other[0].get("status").is_some_and(|s| s != "playing") {
            break;
        }
    }
    assert!(without_head > 0, "every view carried the head");
}

#[test]
fn only_the_socket_that_acted_hears_its_action_answered() {
    let (mut table, now, tokens) = friends_dealt(false);
    table.attach(1, &tokens[0], now).unwrap();
    table.attach(2, &tokens[1], now).unwrap();
    done(&mut table);
    // The seat to act has a second socket (another tab), 3.
    let (acting, chosen) = turn(&mut table);
    table.attach(3, &tokens[acting as usize - 1], now).unwrap();
    done(&mut table);
    let version = table.version();
    table.from_seat(acting, action(version, chosen), now);
    let did = done(&mut table);
    for conn in [1, 2, 3] {
        let frames = sent_to(&did, conn);
        assert_eq!(frames.len(), 1, "{conn}: {did:?}");
        assert_eq!(frames[0]["version"], version + 1);
        assert_eq!(frames[0].get("ack").is_some(), conn == acting, "{conn}");
    }
    let mut answered = sent_to(&did, acting)[0].clone();
    answered.as_object_mut().unwrap().remove("ack");
    assert_eq!(
        &answered,
        sent_to(&did, 3)[0],
        "the same view for one seat's tabs"
    );
}

#[test]
fn a_stale_or_refused_action_changes_nothing_and_a_stale_one_is_answered_with_the_view() {
    let (mut table, now) = friends_at_play(false);
    let version = table.version();
    let (mover, chosen) = turn(&mut table);
    table.from_seat(mover, action(version - 1, chosen.clone()), now);
    let did = done(&mut table);
    let frames = sent_to(&did, mover);
    assert_eq!(frames[0]["code"], "stale-version");
    assert_eq!(frames[1]["type"], "view");
    assert_eq!(frames[1]["version"], version);
    // Out of turn, and not an action of the game at all.
    let idle = 3 - mover;
    table.from_seat(idle, action(version, chosen), now);
    table.from_seat(
        mover,
        action(version, serde_json::json!({"type": "no"})),
        now,
    );
    let did = done(&mut table);
    assert_eq!(sent_to(&did, idle)[0]["type"], "error");
    assert_eq!(sent_to(&did, mover)[0]["code"], "bad-action");
    assert_eq!(table.version(), version);
    assert_eq!(table.record().last().unwrap().actions.len(), 0);
}

#[test]
fn with_a_store_nothing_is_shown_until_stored_and_a_failed_store_pauses_until_it_is() {
    let (mut table, now) = friends_at_play(true);
    let version = table.version();
    let (mover, chosen) = turn(&mut table);
    table.from_seat(mover, action(version, chosen), now);
    assert!(
        matches!(done(&mut table)[..], [Did::Stored(false)]),
        "only the action's line goes, and nobody hears of it yet"
    );
    table.stored(StoreAnswer::Failed, now);
    let did = done(&mut table);
    assert_eq!(sent_to(&did, 1)[0]["code"], "unavailable");
    assert_eq!(sent_to(&did, 2)[0]["code"], "unavailable");
    assert!(matches!(did.last(), Some(Did::Woken(_, Timer::PauseRetry))));
    assert!(last_view(&did, 1).is_none(), "the change is not shown");
    // Paused: play is refused, talk is not.
    let (next, chosen) = turn(&mut table);
    table.from_seat(next, action(version + 1, chosen), now);
    table.from_seat(1, ClientMsg::Name { name: "Ali".into() }, now);
    let did = done(&mut table);
    assert_eq!(sent_to(&did, next)[0]["code"], "unavailable");
    assert_eq!(sent_to(&did, 1).last().unwrap()["type"], "seats");
    // The retry sends the whole table, and once it is stored the action is acknowledged.
    table.timer(Timer::PauseRetry, now);
    assert!(matches!(done(&mut table)[..], [Did::Stored(true)]));
    table.stored(StoreAnswer::Stored, now);
    let did = done(&mut table);
    let answer = last_view(&did, mover).unwrap();
    assert_eq!(
        (&answer["ack"]["id"], &answer["version"]),
        (&serde_json::json!("a"), &serde_json::json!(version + 1))
    );
    assert_eq!(last_view(&did, 3 - mover).unwrap()["version"], version + 1);
    // A store that says another owner holds the table stops it.
    let (mover, chosen) = turn(&mut table);
    table.from_seat(mover, action(version + 1, chosen), now);
    done(&mut table);
    table.stored(StoreAnswer::Fenced, now);
    let did = done(&mut table);
    assert!(matches!(did[..], [Did::Stopped(Closing::Lost)]), "{did:?}");
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
    assert_eq!(seats[1]["offerable"], false);
    assert_eq!(seats[0]["away_since"], serde_json::Value::Null);
    // Far past the old minute's hold, and a day later: the seat is still its player's.
    for later in [Duration::from_secs(61), Duration::from_secs(86400)] {
        table.tick(now + later);
        done(&mut table);
        assert!(table.seats[1].holds(&guest));
    }
    assert_eq!(
        table.join(Token::random().hash(), now),
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
    assert_eq!(table.join(newcomer.clone(), later), Ok(Seat::new(1)));
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
        assert_eq!((after, seat), (policy().bot_delay, Seat::new(1)));
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
        assert_eq!((version, after), (table.version(), policy().bot_delay));
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

/// Lays a view over the page's last one, as a page does: what it leaves out is kept, `ack` is not,
/// and the deal view's fields are laid over the last deal view's.
fn lay_over(page: &mut serde_json::Value, view: &serde_json::Value) {
    let page = page.as_object_mut().unwrap();
    page.remove("ack");
    let fields = view.as_object().unwrap();
    for (key, value) in fields {
        match (page.get_mut(key), value) {
            (Some(serde_json::Value::Object(deal)), serde_json::Value::Object(news))
                if key == "view" =>
            {
                deal.extend(news.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            _ => {
                page.insert(key.clone(), value.clone());
            }
        }
    }
}

#[test]
fn a_view_leaves_out_what_its_socket_has_and_laid_over_the_last_one_is_the_whole_view() {
    let (mut table, now, tokens) = friends_dealt(false);
    table.attach(1, &tokens[0], now).unwrap();
    table.attach(2, &tokens[1], now).unwrap();
    let mut did = done(&mut table);
    let mut pages = [serde_json::json!({}), serde_json::json!({})];
    let (mut views, mut without_match, mut without_trump) = (0, 0, 0);
    let (mut without_head, mut heads_at_a_deals_end) = (0, 0);
    for step in 0..300 {
        for conn in [1, 2] {
            let page = &mut pages[conn as usize - 1];
            for frame in sent_to(&did, conn) {
                // Who is connected also comes in `seats` frames, which a page lays over its view.
                if frame["type"] == "seats" {
                    page["seats"] = frame["seats"].clone();
                    page["watching"] = frame["watching"].clone();
                }
                if frame["type"] != "view" {
                    continue;
                }
                let view = frame;
                views += 1;
                without_match += usize::from(view.get("match").is_none());
                without_trump += usize::from(view["view"].get("trump").is_none());
                let was_playing = page.get("status").is_some_and(|s| s == "playing");
                match view.get("status") {
                    None => without_head += 1,
                    Some(status) if was_playing && *status != "playing" => {
                        heads_at_a_deals_end += 1;
                        assert!(view["outcome"].is_object(), "step {step}: {view}");
                    }
                    Some(_) => {}
                }
                lay_over(page, view);
            }
            let seat = Some(Seat::new(conn as usize - 1));
            let (whole, _) = table.whole_view(seat);
            // The parts kept from earlier views are the ones a table with nothing kept writes.
            let kept = std::mem::replace(&mut table.written, Written::new(Panjpar::SEATS));
            let (fresh, _) = table.whole_view(seat);
            table.written = kept;
            assert_eq!(whole.text_payload(), fresh.text_payload(), "step {step}");
            let whole: serde_json::Value =
                serde_json::from_str(whole.text_payload().unwrap()).unwrap();
            lay_over(page, &serde_json::json!({}));
            assert_eq!(*page, whole, "step {step}, socket {conn}");
        }
        // A seat adds its number to the coming deal's shuffle: the shuffle part changes mid-deal.
        if step % 5 == 2 {
            let commitment = table.shuffle.commitment().to_string();
            let value = "0123456789abcdef0123456789abcdef".to_string();
            table.from_seat(1, ClientMsg::Contribute { commitment, value }, now);
        }
        // A name changes the seats: they come in a `seats` frame, and again in the next view.
        if step % 7 == 3 {
            table.from_seat(
                1,
                ClientMsg::Name {
                    name: format!("Ali {step}"),
                },
                now,
            );
        }
        let version = table.version();
        match table.state.as_ref().and_then(Panjpar::to_act) {
            Some(_) => {
                let (mover, chosen) = turn(&mut table);
                table.from_seat(mover, action(version, chosen), now);
            }
            None if table.matchup.winners().is_some() => {
                for conn in [1, 2] {
                    table.from_seat(
                        conn,
                        ClientMsg::Rematch {
                            version,
                            level: None,
                        },
                        now,
                    );
                }
            }
            None => {
                for conn in [1, 2] {
                    table.from_seat(conn, ClientMsg::NextDeal { version }, now);
                }
            }
        }
        did = done(&mut table);
    }
    assert!(
        without_match > views / 2,
        "{without_match} of {views} views"
    );
    // The trump is the same all deal long: a deal view sends it once per socket and deal or so.
    assert!(
        without_trump > views * 3 / 4,
        "{without_trump} of {views} views"
    );
    // The head changes at a deal's end and start, and when a seats frame may have been dropped.
    assert!(without_head > views / 2, "{without_head} of {views} views");
    assert!(heads_at_a_deals_end > 0, "no deal ended in {views} views");
}

#[test]
fn after_a_seats_frame_the_next_view_carries_the_seats_again() {
    let (mut table, now) = friends_at_play(false);
    let play = |table: &mut TableCore<Panjpar>| {
        let (mover, chosen) = turn(table);
        table.from_seat(mover, action(table.version(), chosen), now);
        done(table)
    };
    // Both pages have the seats as they are, so a move's views leave them out.
    play(&mut table);
    let did = play(&mut table);
    assert!(last_view(&did, 1).unwrap().get("seats").is_none());
    // A watcher comes and goes: two `seats` frames, which may be dropped when frames pile up, and
    // the seats end as they were.
    table.watch(9).unwrap();
    table.detach(9, now);
    done(&mut table);
    let did = play(&mut table);
    for conn in [1, 2] {
        let view = last_view(&did, conn).unwrap();
        assert!(view.get("seats").is_some(), "{conn}: {view}");
        // How many watch comes in the head, and in the seats frames.
        assert_eq!(view["watching"], 0, "{conn}: {view}");
        assert_eq!(view["seat"], conn - 1, "{conn}: {view}");
        assert!(view.get("match").is_none(), "{conn}: {view}");
    }
}

#[test]
fn a_view_sent_to_one_socket_alone_is_whole() {
    let (mut table, now) = friends_at_play(false);
    let (mover, chosen) = turn(&mut table);
    table.from_seat(mover, action(table.version(), chosen), now);
    let did = done(&mut table);
    assert!(last_view(&did, mover).unwrap().get("match").is_none());
    table.from_seat(mover, ClientMsg::Resync {}, now);
    let version = table.version();
    let (next, chosen) = turn(&mut table);
    table.from_seat(next, action(version - 1, chosen), now);
    let did = done(&mut table);
    for conn in [mover, next] {
        let view = last_view(&did, conn).unwrap();
        for part in [
            "table", "seats", "match", "deal", "shuffle", "status", "seat", "outcome",
        ] {
            assert!(view.get(part).is_some(), "{part} to {conn}: {view}");
        }
    }
}
