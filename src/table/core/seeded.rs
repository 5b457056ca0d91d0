//! A table replayed from its seed and a list of events answers the same, byte for byte: the core takes
//! its entropy once (the seed) and the time with each event, so nothing else can change what it says.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use super::tests::{clock, moment, policy};
use super::*;
use crate::protocol::ClientMsg;
use crate::table::present::{self, Presenter};
use crate::table::Token;
use chaikhana_rules::games::panjpar::Panjpar;

/// One event of the shell, at its time after the table was made.
#[derive(Clone, Debug)]
enum Event {
    Join(TokenHash),
    Attach(ConnId, TokenHash),
    /// A frame from a socket, as the page wrote it.
    Frame(ConnId, String),
    Timer(Timer),
    Stored,
    Tick,
    Detach(ConnId),
    Watch(ConnId),
}

/// A Panjpar friends table that stores its changes, seeded with `seed`, and everything it answered so
/// far, written out: each frame's bytes (as its presenter writes them), every other effect and every
/// count.
struct Run {
    table: TableCore<Panjpar>,
    presenter: Presenter,
    started: Instant,
    out: String,
    /// Whether a change waits for the store's answer.
    storing: bool,
    /// Timers asked for and not yet run.
    timers: Vec<Timer>,
}

impl Run {
    fn new(seed: [u8; 32], started: Instant) -> Run {
        let id = TableId::parse("seededtableseededtable").unwrap();
        let length = MatchLength::DealsWon(2);
        let table = TableCore::new(
            id,
            TableKind::Friends,
            length,
            Level::Standard,
            host(),
            policy(),
            true,
            clock(started),
            seed,
        )
        .unwrap();
        let mut run = Run {
            table,
            presenter: Presenter::new(),
            started,
            out: String::new(),
            storing: false,
            timers: Vec::new(),
        };
        run.table.start();
        run.write_out();
        run
    }

    fn apply(&mut self, at: Duration, event: &Event) {
        let now = self.started + at;
        let table = &mut self.table;
        match event.clone() {
            Event::Join(key) => {
                let seat = table.join(key, false, now);
                writeln!(self.out, "join: {seat:?}").unwrap();
            }
            Event::Attach(conn, key) => {
                let seat = table.attach(conn, &key, now);
                writeln!(self.out, "attach {conn}: {seat:?}").unwrap();
            }
            Event::Frame(conn, text) => {
                table.from_seat(conn, ClientMsg::parse(&text).unwrap(), now)
            }
            Event::Timer(timer) => table.timer(timer, now),
            Event::Stored => table.stored(StoreAnswer::Stored, now),
            Event::Tick => table.tick(now),
            Event::Detach(conn) => table.detach(conn, now),
            Event::Watch(conn) => {
                let watching = table.watch(conn);
                writeln!(self.out, "watch {conn}: {watching:?}").unwrap();
            }
        }
        self.write_out();
    }

    /// Writes out what the table asked of its shell and what it counted.
    fn write_out(&mut self) {
        let mut effects = Vec::new();
        self.table.move_effects(&mut effects);
        for effect in effects {
            match effect {
                Effect::Show(showing) => {
                    let out = &mut self.out;
                    self.presenter.show(&showing, |conn, frame| {
                        let text = frame.text_payload().unwrap();
                        writeln!(out, "send {conn}: {text}").unwrap();
                    });
                }
                Effect::Send(conn, notice) => {
                    let frame = self.presenter.tell(conn, &notice);
                    let text = frame.text_payload().unwrap();
                    writeln!(self.out, "send {conn}: {text}").unwrap();
                }
                Effect::Replay(conn, replay) => {
                    let frame = present::replay(&replay);
                    let text = frame.text_payload().unwrap();
                    writeln!(self.out, "send {conn}: {text}").unwrap();
                }
                Effect::Forget(conn) => {
                    self.presenter.forget(conn);
                    writeln!(self.out, "forget {conn}").unwrap();
                }
                Effect::Store(change) => {
                    self.storing = true;
                    writeln!(self.out, "store: {change:?}").unwrap();
                }
                Effect::Wake(after, timer) => {
                    self.timers.push(timer);
                    writeln!(self.out, "wake {after:?}: {timer:?}").unwrap();
                }
                other => writeln!(self.out, "{other:?}").unwrap(),
            }
        }
        let mut counts = Vec::new();
        self.table.move_counts(&mut counts);
        for count in counts {
            writeln!(self.out, "count: {count:?}").unwrap();
        }
    }
}

fn host() -> TokenHash {
    Token::from_client("the-host-of-the-seeded-table").hash()
}

fn guest() -> TokenHash {
    Token::from_client("the-guest-of-the-seeded-table").hash()
}

/// Plays a friends match from `seed` as two pages would (each seat's first legal action, the next
/// deal asked by both, every change stored), with a watcher who leaves and another who comes, a
/// phrase, resyncs and replays, and answers the events it took and what the table said.
fn play(seed: [u8; 32], started: Instant) -> (Vec<(Duration, Event)>, String) {
    let mut run = Run::new(seed, started);
    let mut events = Vec::new();
    let mut at = Duration::ZERO;
    let mut next = |run: &mut Run, event: Event| {
        at += Duration::from_millis(250);
        run.apply(at, &event);
        events.push((at, event));
    };
    next(&mut run, Event::Attach(1, host()));
    next(&mut run, Event::Join(guest()));
    next(&mut run, Event::Attach(2, guest()));
    next(
        &mut run,
        Event::Frame(2, r#"{"type":"name","name":"Leyla"}"#.into()),
    );
    next(&mut run, Event::Watch(5));
    next(
        &mut run,
        Event::Frame(1, r#"{"type":"phrase","id":"hello"}"#.into()),
    );
    for step in 0..400 {
        if run.storing {
            run.storing = false;
            next(&mut run, Event::Stored);
            continue;
        }
        if let Some(timer) = run.timers.pop() {
            next(&mut run, Event::Timer(timer));
            continue;
        }
        if step == 120 {
            next(&mut run, Event::Detach(5));
            next(&mut run, Event::Watch(6));
        }
        if step % 50 == 7 {
            next(&mut run, Event::Frame(1, r#"{"type":"resync"}"#.into()));
            next(&mut run, Event::Tick);
        }
        let version = run.table.version();
        let state = run.table.state.as_ref().unwrap();
        match Panjpar::to_act(state) {
            Some(seat) => {
                let action = Panjpar::legal_actions(state, seat).remove(0);
                let frame = serde_json::json!({
                    "type": "action", "version": version, "id": format!("a{step}"), "action": action,
                });
                next(
                    &mut run,
                    Event::Frame(seat.index() as ConnId + 1, frame.to_string()),
                );
            }
            None if run.table.matchup.winners().is_some() => break,
            None => {
                let frame = format!(r#"{{"type":"next-deal","version":{version}}}"#);
                next(&mut run, Event::Frame(1, frame.clone()));
                next(&mut run, Event::Frame(2, frame));
            }
        }
    }
    for (conn, ask) in [
        (1, r#"{"type":"replay","step":2}"#),
        (6, r#"{"type":"replay","deal":0,"step":0}"#),
        (2, r#"{"type":"replay","deal":1,"step":5}"#),
    ] {
        next(&mut run, Event::Frame(conn, ask.into()));
    }
    next(&mut run, Event::Detach(2));
    assert!(
        run.table.matchup.winners().is_some(),
        "the match was played out"
    );
    (events, run.out)
}

/// The same table answers the same events again.
fn replay(seed: [u8; 32], started: Instant, events: &[(Duration, Event)]) -> String {
    let mut run = Run::new(seed, started);
    for (at, event) in events {
        run.apply(*at, event);
    }
    run.out
}

#[test]
fn a_table_replayed_from_its_seed_and_events_says_the_same_byte_for_byte() {
    let started = moment();
    let seed = [7; 32];
    let (events, first) = play(seed, started);
    assert!(first.contains("count: Accepted") && first.contains("count: MatchFinished"));
    let again = replay(seed, started, &events);
    assert_eq!(first.len(), again.len());
    assert!(first == again, "the same seed and events, another answer");
    // The seed is what deals: another one commits to another order.
    let other = replay([8; 32], started, &events);
    assert_ne!(first, other);
}
