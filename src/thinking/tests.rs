//! The pool's promises, shown with searches that count, wait and tell: no more at once than its
//! threads, a table's decisions one at a time, stale ones dropped, tables first come first served,
//! shares of the budget under load, and saturation.

use std::sync::atomic::AtomicUsize;
use std::sync::mpsc::{channel, Receiver, Sender};

use super::*;
use crate::settings::Settings;

/// Long enough for a thread that could start something to have started it.
const SETTLE: Duration = Duration::from_millis(100);
/// Longer than any test waits for what must happen.
const PATIENCE: Duration = Duration::from_secs(10);

fn pool(threads: usize) -> Pool {
    shaped(threads, PATIENCE)
}

/// A pool of `threads` whose studies wait `study_wait` for the moves at most.
fn shaped(threads: usize, study_wait: Duration) -> Pool {
    Pool::new(Shape {
        threads,
        nice: 0,
        floor: Duration::from_millis(20),
        saturated_after: Duration::from_secs(1),
        study_wait,
    })
}

/// A decision of `asker`'s at the version it is at now, whose thinking runs `think`.
fn decision(asker: &Asker, think: impl FnOnce(Allowance) + Send + 'static) -> Decision {
    let version = asker.version.load(Ordering::Acquire);
    let budget = chaikhana_rules::game::DEFAULT_BUDGET;
    Decision::new(asker, version, "test", "strong", budget, think)
}

/// A decision that tells `events` it began (with `name`), waits until `gate` opens, and tells it ended.
fn held(asker: &Asker, name: &'static str, events: &Sender<String>) -> (Decision, Sender<()>) {
    let (open, gate) = channel::<()>();
    let events = events.clone();
    let decision = decision(asker, move |_| {
        events.send(format!("{name} began")).unwrap();
        let _ = gate.recv_timeout(PATIENCE);
        events.send(format!("{name} ended")).unwrap();
    });
    (decision, open)
}

/// A decision that only tells `events` it ran, with `name`.
fn told(asker: &Asker, name: &'static str, events: &Sender<String>) -> Decision {
    let events = events.clone();
    decision(asker, move |_| events.send(name.to_string()).unwrap())
}

fn next(events: &Receiver<String>) -> String {
    events
        .recv_timeout(PATIENCE)
        .expect("the pool thinks what it is asked")
}

fn nothing_more(events: &Receiver<String>) {
    if let Ok(event) = events.recv_timeout(SETTLE) {
        panic!("nothing more should have happened, but: {event}");
    }
}

#[test]
fn the_pool_never_thinks_more_decisions_at_once_than_it_has_threads() {
    for threads in [1, 3] {
        let pool = pool(threads);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let (done, finished) = channel();
        for _ in 0..40 {
            let (running, most, done) = (running.clone(), most.clone(), done.clone());
            // Each decision from a table of its own: only the pool's size holds them back.
            pool.ask(decision(&Asker::new(), move |_| {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(3));
                running.fetch_sub(1, Ordering::SeqCst);
                done.send(()).unwrap();
            }));
        }
        for _ in 0..40 {
            finished.recv_timeout(PATIENCE).unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), threads);
        // The last decisions told they ended a moment before their threads let them go.
        let since = Instant::now();
        while pool.load().thinking > 0 && since.elapsed() < PATIENCE {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!((pool.load().waiting, pool.load().thinking), (0, 0));
    }
}

#[test]
fn a_tables_second_decision_waits_behind_its_first_while_other_tables_go_on() {
    let pool = pool(2);
    let (events, heard) = channel();
    let table = Asker::new();
    let other = Asker::new();
    let (first, open_first) = held(&table, "first", &events);
    pool.ask(first);
    assert_eq!(next(&heard), "first began");
    pool.ask(told(&table, "second", &events));
    pool.ask(told(&other, "other table", &events));
    // The second thread is free, but the table's second decision waits: the other table's goes by.
    assert_eq!(next(&heard), "other table");
    nothing_more(&heard);
    assert_eq!(pool.load().waiting, 1);
    open_first.send(()).unwrap();
    assert_eq!(next(&heard), "first ended");
    assert_eq!(next(&heard), "second");
}

#[test]
fn a_decision_stale_by_its_turn_is_dropped_unthought() {
    let pool = pool(1);
    let (events, heard) = channel();
    let (gate, open) = held(&Asker::new(), "gate", &events);
    pool.ask(gate);
    assert_eq!(next(&heard), "gate began");
    let moved = Asker::new();
    moved.moved_to(4);
    pool.ask(told(&moved, "asked on 4", &events));
    let stopped = Asker::new();
    pool.ask(told(&stopped, "of a stopped table", &events));
    let kept = Asker::new();
    kept.moved_to(9);
    pool.ask(told(&kept, "still on 9", &events));
    // While they wait, one table moves on and another stops.
    moved.moved_to(5);
    stopped.gone();
    let dropped_before = metrics().thinking_dropped.get();
    open.send(()).unwrap();
    assert_eq!(next(&heard), "gate ended");
    assert_eq!(next(&heard), "still on 9");
    nothing_more(&heard);
    assert!(metrics().thinking_dropped.get() >= dropped_before + 2);
    // A decision asked on the version its table is at is thought.
    pool.ask(told(&moved, "asked on 5", &events));
    assert_eq!(next(&heard), "asked on 5");
}

#[test]
fn tables_are_served_first_come_first_served() {
    let pool = pool(1);
    let (events, heard) = channel();
    let (gate, open) = held(&Asker::new(), "gate", &events);
    pool.ask(gate);
    assert_eq!(next(&heard), "gate began");
    let names = ["a", "b", "c", "d", "e", "f"];
    let tables: Vec<Asker> = names.iter().map(|_| Asker::new()).collect();
    // Asked in a shuffled order of tables: served in the order asked, whatever the table.
    let order = [3, 0, 5, 1, 4, 2];
    for &i in &order {
        pool.ask(told(&tables[i], names[i], &events));
    }
    open.send(()).unwrap();
    assert_eq!(next(&heard), "gate ended");
    let served: Vec<String> = order.iter().map(|_| next(&heard)).collect();
    let asked: Vec<String> = order.iter().map(|&i| names[i].to_string()).collect();
    assert_eq!(served, asked);
}

/// A study of `asker`'s that only tells `events` it ran, with `name`.
fn studied(asker: &Asker, name: &'static str, events: &Sender<String>) -> Decision {
    let events = events.clone();
    let budget = chaikhana_rules::game::Budget::Samples(1);
    Decision::study(asker, "test", budget, move |allowance| {
        assert_eq!(allowance, Allowance::WHOLE, "a study is never cut");
        events.send(name.to_string()).unwrap();
    })
}

#[test]
fn studies_wait_behind_every_move_asked_and_hold_no_tables_turn() {
    let (pool, open, heard) = one_thread_held();
    // Every name below is heard in the order it is thought.
    let events = channel();
    let table = Asker::new();
    pool.ask(studied(&table, "study 1", &events.0));
    pool.ask(told(&Asker::new(), "move a", &events.0));
    pool.ask(studied(&Asker::new(), "study 2", &events.0));
    pool.ask(told(&table, "move b", &events.0));
    let load = pool.load();
    assert_eq!((load.waiting, load.studies), (2, 2));
    open.send(()).unwrap();
    assert_eq!(next(&heard), "gate ended");
    let order: Vec<String> = (0..4).map(|_| next(&events.1)).collect();
    assert_eq!(order, ["move a", "move b", "study 1", "study 2"]);
    // A move asked while a study is being thought is the next thing thought.
    let (gate, opened) = {
        let (tx, rx) = channel::<()>();
        let events = events.0.clone();
        let study = Decision::study(
            &table,
            "test",
            chaikhana_rules::game::Budget::Samples(1),
            move |_| {
                events.send("long study began".into()).unwrap();
                let _ = rx.recv_timeout(PATIENCE);
            },
        );
        (study, tx)
    };
    pool.ask(gate);
    assert_eq!(next(&events.1), "long study began");
    pool.ask(studied(&Asker::new(), "study 3", &events.0));
    pool.ask(told(&table, "move c", &events.0));
    opened.send(()).unwrap();
    assert_eq!(next(&events.1), "move c");
    assert_eq!(next(&events.1), "study 3");
}

#[test]
fn a_study_goes_before_moves_only_while_every_one_would_still_be_shown_when_due() {
    let (pool, open, heard) = one_thread_held();
    let events = channel();
    let now = Instant::now();
    // Two moves due to be shown in 2 s: a study of 200 ms fits before them.
    let later = |name| told(&Asker::new(), name, &events.0).shown_at(now + Duration::from_secs(2));
    pool.ask(later("move a"));
    pool.ask(later("move b"));
    pool.ask(studied(&Asker::new(), "study 1", &events.0));
    open.send(()).unwrap();
    assert_eq!(next(&heard), "gate ended");
    let order: Vec<String> = (0..3).map(|_| next(&events.1)).collect();
    assert_eq!(order, ["study 1", "move a", "move b"]);
    // One to be shown at once leaves no room: the study waits behind it.
    let (gate, open) = held(&Asker::new(), "gate", &events.0);
    pool.ask(gate);
    assert_eq!(next(&events.1), "gate began");
    pool.ask(studied(&Asker::new(), "study 2", &events.0));
    pool.ask(told(&Asker::new(), "move c", &events.0));
    open.send(()).unwrap();
    assert_eq!(next(&events.1), "gate ended");
    let order: Vec<String> = (0..2).map(|_| next(&events.1)).collect();
    assert_eq!(order, ["move c", "study 2"]);
    // The slack is worked out from the budgets ahead: a study that would make a move late waits.
    let shape = pool.shape();
    let mut queue = Queue::default();
    let due = now + Duration::from_millis(500);
    queue
        .waiting
        .push_back(told(&Asker::new(), "m", &events.0).shown_at(due));
    let budget = |ms| Duration::from_millis(ms);
    assert!(
        queue.slack_for(budget(50), &shape, now),
        "50 ms twice, then 200 ms: 300 ms"
    );
    assert!(
        !queue.slack_for(budget(200), &shape, now),
        "200 ms twice, then 200 ms: 600 ms"
    );
}

#[test]
fn a_study_that_waited_its_while_goes_ahead_of_moves_with_no_time_to_spare_one_at_a_time() {
    let wait = Duration::from_millis(150);
    let pool = shaped(1, wait);
    let (events, heard) = channel();
    let (gate, open) = held(&Asker::new(), "gate", &events);
    pool.ask(gate);
    assert_eq!(next(&heard), "gate began");
    pool.ask(studied(&Asker::new(), "study x", &events));
    pool.ask(studied(&Asker::new(), "study y", &events));
    pool.ask(told(&Asker::new(), "move c", &events));
    pool.ask(told(&Asker::new(), "move d", &events));
    std::thread::sleep(wait * 2);
    open.send(()).unwrap();
    assert_eq!(next(&heard), "gate ended");
    let order: Vec<String> = (0..4).map(|_| next(&heard)).collect();
    // The first study is owed its turn; the second, though it waited as long, is not until another
    // while has passed, and by then the moves are thought.
    assert_eq!(order, ["study x", "move c", "move d", "study y"]);
}

#[test]
fn a_study_of_a_table_that_stopped_is_dropped() {
    let (pool, open, heard) = one_thread_held();
    let (events, studies) = channel();
    let gone = Asker::new();
    pool.ask(studied(&gone, "gone", &events));
    pool.ask(studied(&Asker::new(), "kept", &events));
    gone.gone();
    open.send(()).unwrap();
    assert_eq!(next(&heard), "gate ended");
    assert_eq!(next(&studies), "kept");
    nothing_more(&studies);
}

#[test]
fn a_long_queue_shortens_each_decision_down_to_the_floor() {
    let pool = pool(2);
    let shared = &pool.shared;
    assert_eq!(shared.allowance(0), Allowance::WHOLE);
    assert_eq!(shared.allowance(2), Allowance::WHOLE);
    let floor = Duration::from_millis(20);
    let whole = chaikhana_rules::game::Budget::Time(Duration::from_millis(200));
    let at = |waiting| whole.allowed(shared.allowance(waiting));
    assert_eq!(
        at(4),
        chaikhana_rules::game::Budget::Time(Duration::from_millis(100))
    );
    assert_eq!(
        at(8),
        chaikhana_rules::game::Budget::Time(Duration::from_millis(50))
    );
    assert_eq!(at(1000), chaikhana_rules::game::Budget::Time(floor));
    // A budget in samples is never cut: the same seed gives the same choice.
    let samples = chaikhana_rules::game::Budget::Samples(30);
    assert_eq!(samples.allowed(shared.allowance(1000)), samples);
}

/// A one-thread pool whose thread is held by a decision until the sender is used (or dropped), and
/// the receiver that decision tells it began and ended.
fn one_thread_held() -> (Pool, Sender<()>, Receiver<String>) {
    let pool = pool(1);
    let (events, heard) = channel();
    let (gate, open) = held(&Asker::new(), "gate", &events);
    pool.ask(gate);
    assert_eq!(next(&heard), "gate began");
    (pool, open, heard)
}

/// The decisions of `game` (at the strong level) counted as shortened so far.
fn shortened(game: &str) -> u64 {
    metrics()
        .thinking_shortened
        .with_label_values(&[game, "strong"])
        .get()
}

#[test]
fn decisions_behind_a_long_queue_are_given_less_and_counted() {
    let (pool, open, _heard) = one_thread_held();
    let (given, allowances) = channel();
    for _ in 0..5 {
        let given = given.clone();
        pool.ask(decision(&Asker::new(), move |allowed| {
            given.send(allowed).unwrap()
        }));
    }
    let counted = || shortened("test");
    let before = counted();
    open.send(()).unwrap();
    let shares: Vec<bool> = (0..5)
        .map(|_| allowances.recv_timeout(PATIENCE).unwrap().shortens())
        .collect();
    // Four others wait behind the first (one thread): shortened; the last ones have the pool alone.
    assert_eq!(shares, [true, true, true, false, false]);
    assert!(counted() >= before + 3);
}

#[test]
fn a_budget_the_pool_cannot_cut_is_not_counted_as_shortened() {
    let (pool, open, _heard) = one_thread_held();
    let (given, allowances) = channel();
    let floor = Duration::from_millis(20);
    // Samples are never cut; a time budget at the floor already cannot be cut further.
    for budget in [Budget::Samples(30), Budget::Time(floor)] {
        for _ in 0..3 {
            let asker = Asker::new();
            let version = asker.version.load(Ordering::Acquire);
            let given = given.clone();
            pool.ask(Decision::new(
                &asker,
                version,
                "test-uncut",
                "strong",
                budget,
                move |allowed| given.send(allowed).unwrap(),
            ));
        }
    }
    let counted = || shortened("test-uncut");
    open.send(()).unwrap();
    let shortened = (0..6)
        .filter(|_| allowances.recv_timeout(PATIENCE).unwrap().shortens())
        .count();
    assert!(shortened >= 3, "the queue gave shares: {shortened}");
    assert_eq!(counted(), 0);
}

#[test]
fn decisions_waiting_longer_than_the_limit_saturate_the_pool() {
    let pool = Pool::new(Shape {
        threads: 1,
        nice: 0,
        floor: Duration::from_millis(20),
        saturated_after: Duration::from_millis(50),
        study_wait: PATIENCE,
    });
    let (events, heard) = channel();
    let (gate, open) = held(&Asker::new(), "gate", &events);
    pool.ask(gate);
    assert_eq!(next(&heard), "gate began");
    assert!(!pool.load().saturated, "one decision thought, none waiting");
    pool.ask(told(&Asker::new(), "waiting", &events));
    std::thread::sleep(Duration::from_millis(80));
    let load = pool.load();
    assert!(load.saturated, "{load:?}");
    assert_eq!((load.waiting, load.thinking), (1, 1));
    open.send(()).unwrap();
    assert_eq!(next(&heard), "gate ended");
    assert_eq!(next(&heard), "waiting");
    // Nothing waits now: not saturated, though the last decision waited long.
    assert!(!pool.load().saturated);
}

#[test]
fn a_thinking_thread_runs_at_the_lower_priority_it_was_given() {
    let pool = Pool::new(Shape {
        threads: 1,
        nice: 7,
        floor: Duration::ZERO,
        saturated_after: Duration::from_secs(1),
        study_wait: PATIENCE,
    });
    let (said, niceness) = channel();
    pool.ask(decision(&Asker::new(), move |_| {
        // SAFETY: getpriority only reads this thread's nice value.
        let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) };
        said.send(nice).unwrap();
    }));
    // SAFETY: as above, of this thread.
    let here = unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) };
    // Lowered to 7, or left where it was if that was lower still.
    assert_eq!(niceness.recv_timeout(PATIENCE).unwrap(), here.max(7));
}

#[test]
fn a_search_that_panics_costs_its_decision_not_the_thread() {
    let pool = pool(1);
    let (events, heard) = channel();
    pool.ask(decision(&Asker::new(), |_| panic!("a search gone wrong")));
    pool.ask(told(&Asker::new(), "after", &events));
    assert_eq!(next(&heard), "after");
}

#[test]
fn the_thinking_pool_has_the_cores_less_one_by_default_and_at_least_one_thread() {
    let shape = Shape::default();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(shape.threads, cores.saturating_sub(1).max(1));
    assert_eq!(shape.nice, 10);
    assert_eq!(shape.floor, Duration::from_millis(20));
    assert_eq!(shape.saturated_after, Duration::from_secs(1));
    let env = [
        ("CHAIKHANA_THINKING_THREADS", "3"),
        ("CHAIKHANA_THINKING_NICE", "-5"),
        ("CHAIKHANA_THINKING_FLOOR_MS", "5"),
    ]
    .map(|(k, v)| (k.to_string(), v.to_string()));
    let settings = Settings::load_with_env(None, env.into_iter()).unwrap();
    let shape = Shape::from_settings(&settings);
    assert_eq!(shape.threads, 3);
    assert_eq!(shape.nice, 0, "a thread may not raise its priority");
    assert_eq!(shape.floor, Duration::from_millis(5));
}
