//! The table core driven by its events alone, as its shell drives it, with no actix and no clock: each
//! test says what happens and checks what the core asks its shell to do. What it shows each socket is
//! read as the frames the table's presenter writes of it, as the actor's does.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;

use super::*;
use crate::protocol::ClientMsg;
use crate::table::present::{self, Presenter};
use crate::table::{Snapshot, TableRefusal, Token};
use chaikhana_rules::cards::{deal_rng, DealRng};
use chaikhana_rules::games::panjpar::Panjpar;

mod away;
mod coaching;
mod computers;
mod views;

/// A table's policy for unit tests: computers at once, seats held a minute.
pub(super) fn policy() -> TablePolicy {
    TablePolicy {
        bot_delay: Duration::from_millis(1),
        strong_budget: chaikhana_rules::game::DEFAULT_BUDGET,
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
    /// A study of the coach's was asked (and, in these tests, thought at once).
    Studies(super::Study),
}

thread_local! {
    /// Each table's presenter, by the table's id, as its actor would hold it.
    static PRESENTERS: RefCell<BTreeMap<TableId, Presenter>> = RefCell::default();
}

/// A frame's JSON, read.
fn read(text: Option<&str>) -> serde_json::Value {
    serde_json::from_str(text.unwrap()).unwrap()
}

/// What the table asked of its shell since the last call, what it shows each socket written by its
/// presenter.
fn done<G: Game>(table: &mut TableCore<G>) -> Vec<Did> {
    let mut effects = Vec::new();
    table.move_effects(&mut effects);
    let mut studies = Vec::new();
    let mut did = PRESENTERS.with_borrow_mut(|presenters| {
        let presenter = presenters.entry(table.id().clone()).or_default();
        let mut did = Vec::new();
        for effect in effects {
            match effect {
                Effect::Show(showing) => presenter.show(&showing, |conn, frame| {
                    did.push(Did::Sent(conn, read(frame.text_payload())));
                }),
                Effect::Send(conn, notice) => {
                    let frame = presenter.tell(conn, &notice);
                    did.push(Did::Sent(conn, read(frame.text_payload())));
                }
                Effect::Replay(conn, replay) => {
                    let frame = present::replay(&replay);
                    did.push(Did::Sent(conn, read(frame.text_payload())));
                }
                Effect::Forget(conn) => presenter.forget(conn),
                Effect::Close(conn, why) => {
                    presenter.forget(conn);
                    let (code, _) = present::hangup(why);
                    did.push(Did::Closed(conn, code));
                }
                Effect::Store(change) => {
                    did.push(Did::Stored(matches!(change, Change::Whole { .. })))
                }
                Effect::HandOver(_) => did.push(Did::HandedOver),
                Effect::Wake(after, timer) => did.push(Did::Woken(after, timer)),
                Effect::Think {
                    version,
                    play_after,
                    ..
                } => did.push(Did::Thinks(version, play_after)),
                Effect::Study { study, judge, seed } => {
                    did.push(Did::Studies(study));
                    studies.push((study, judge, seed));
                }
                Effect::Seated(_) => did.push(Did::Seated),
                Effect::Stop(closing) => did.push(Did::Stopped(closing)),
            }
        }
        did
    });
    // The coach's studies are thought at once, as an idle pool would, and their answers heard.
    for (study, judge, seed) in studies {
        use rand::SeedableRng;
        let judgement = judge(&mut chaikhana_rules::game::BotRng::seed_from_u64(seed));
        table.studied(study, judgement);
        did.extend(done(table));
    }
    did
}

/// The whole view `seat` (none: a watcher) is shown now, as the table's presenter writes it: the
/// same, byte for byte, as a presenter that has written nothing yet writes it.
fn whole_view<G: Game>(table: &TableCore<G>, seat: Option<Seat>) -> serde_json::Value {
    // A socket of its own, forgotten once written.
    const ALONE: ConnId = ConnId::MAX;
    let showing = table.whole_view(ALONE, seat);
    let write = |presenter: &mut Presenter| {
        let mut text = None;
        presenter.show(&showing, |_, frame| {
            text = frame.text_payload().map(str::to_string);
        });
        presenter.forget(ALONE);
        text.unwrap()
    };
    let kept = PRESENTERS.with_borrow_mut(|p| write(p.entry(table.id().clone()).or_default()));
    assert_eq!(
        kept,
        write(&mut Presenter::new()),
        "parts kept and parts written afresh"
    );
    read(Some(&kept))
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
pub(super) fn friends_dealt(keeps: bool) -> (TableCore<Panjpar>, Instant, [TokenHash; 2]) {
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
    assert_eq!(table.join(guest.hash(), false, now), Ok(Seat::new(1)));
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

#[test]
fn a_stranger_at_a_full_table_is_told_whether_its_match_is_over() {
    let (mut table, now, _) = friends_dealt(false);
    let stranger = Token::random().hash();
    assert_eq!(
        table.join(stranger.clone(), false, now),
        Err(TableRefusal::full())
    );
    let mut rng = deal_rng(5);
    while table.matchup.winners().is_none() {
        match table.state.as_ref().and_then(Panjpar::to_act) {
            Some(seat) => play_one(&mut table, seat, &mut rng),
            None => table.start_deal(),
        }
    }
    assert_eq!(
        table.join(stranger, false, now),
        Err(TableRefusal::match_over())
    );
}

/// The socket whose turn it is, and the first action its view offers.
pub(super) fn turn(table: &mut TableCore<Panjpar>) -> (ConnId, serde_json::Value) {
    let seat = table.state.as_ref().and_then(Panjpar::to_act).unwrap();
    let view = whole_view(table, Some(seat));
    (seat.index() as ConnId + 1, view["actions"][0].clone())
}

pub(super) fn action(version: u64, action: serde_json::Value) -> ClientMsg {
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
