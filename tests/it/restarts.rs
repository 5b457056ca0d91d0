//! The single binary alone (no Redis) keeps every table across restarts and crashes (issue 41, "How
//! it is shown"), seen from outside the process: `chaikhana serve` on a data folder the test keeps,
//! stopped with SIGTERM or SIGKILL and started again on the same port and folder; its seats reconnect
//! with their tokens as a page does. After each life the store it left is read from a copy of its
//! file (`Disk::open` on the copy, so that the next life recovers the file itself): every action
//! acknowledged to a seat must be in the table's record at the version its acknowledgement gave,
//! and no seat may come back to a version below one it was shown.
//!
//! Also: a store file holding a snapshot of the first format (no `format`, `names`, `away`,
//! `given_away`) opens, and its seat's token takes the seat and plays on (the checked-in fixture in
//! `tests/fixtures/format-1-store/`, made by `make_the_format_1_fixture`).

use std::time::{Duration, Instant};

use rand::Rng as _;
use serde_json::{json, Value};

use chaikhana::routing::FILE_NAME;
use chaikhana::table::{Change, Snapshot, StoreAnswer, TableId, TableStore};

use crate::support::cluster::Node;
use crate::support::restarts::{check_acks, read_store, Alone, Player, Stop, Table};
use crate::support::{fresh_data_dir, heavy, rng, Seated};

/// The tables of the restart tests: one against the computer at every game, and Panjpar among
/// friends; each match long enough not to end under the test.
async fn open_tables(base: &str) -> Vec<Table> {
    vec![
        Table::open(base, "panjpar", "computer", json!(5)).await,
        Table::open(base, "pishe-pasha", "computer", json!(100)).await,
        Table::open(base, "ganjifa", "computer", json!(6)).await,
        Table::open(base, "panjpar", "friends", json!(5)).await,
    ]
}

fn name(table: &Table) -> String {
    format!("{} ({})", table.game, table.kind)
}

/// What the store held after one life.
struct Kept {
    /// Acknowledged actions found in the records, at their versions.
    found: usize,
    /// Tables whose record was ahead of everything their seats had been shown (a change written and
    /// not yet shown when the life ended).
    ahead: usize,
    /// Each table's stored version.
    versions: Vec<u64>,
}

/// Checks the record each table left in the store after one life against what its seats were shown
/// and acknowledged: it reaches every version shown, and holds every acknowledged action at the
/// version its acknowledgement gave, made by the same seat, the same action.
fn check_the_store(alone: &mut Alone, tables: &[Table], life: usize) -> Kept {
    let ids: Vec<&str> = tables.iter().map(Table::id).collect();
    let stored = alone.stored(&ids);
    let mut kept = Kept {
        found: 0,
        ahead: 0,
        versions: Vec::new(),
    };
    for (table, stored) in tables.iter().zip(stored) {
        let snapshot = stored.unwrap_or_else(|e| {
            panic!("after life {life}, {}: {e}", name(table));
        });
        assert!(
            snapshot.version >= table.highest(),
            "after life {life}, {} was shown v{} but its record ends at v{}",
            name(table),
            table.highest(),
            snapshot.version
        );
        let checked = check_acks(&table.acked(), &snapshot);
        assert!(
            checked.missing.is_empty(),
            "after life {life}, {}: {} acknowledged actions are not in the record:\n{}",
            name(table),
            checked.missing.len(),
            checked.missing.join("\n")
        );
        assert_eq!(
            checked.earlier_match,
            0,
            "after life {life}, {}: the record holds an earlier match than the seats played",
            name(table)
        );
        kept.found += checked.found;
        kept.ahead += usize::from(snapshot.version > table.highest());
        kept.versions.push(snapshot.version);
    }
    kept
}

/// Every seat of every table reconnects through `base` with its token, coming back at no lower a
/// version than it was shown nor than its table's record held: their versions, said as "shown->back".
async fn reconnect_all(tables: &mut [Table], base: &str, kept: &Kept) -> String {
    let mut back = Vec::new();
    for (table, stored) in tables.iter_mut().zip(&kept.versions) {
        let shown = table.highest();
        let lowest = table.reconnect(base).await;
        assert!(
            lowest >= *stored,
            "{} woke at v{lowest}, below the v{stored} of its record",
            name(table)
        );
        back.push(format!("v{shown}->v{lowest}"));
    }
    back.join(" ")
}

/// Panjpar, Pishe Pasha and Ganjifa against the computer and Panjpar among friends, each mid-deal:
/// five SIGTERMs then five SIGKILLs, each followed by a new life on the same folder. After each
/// life every acknowledged action is in the store; after each new start every seat reconnects by
/// itself with its token, comes back at no lower a version than it was shown, and play goes on.
#[actix_rt::test]
async fn tables_mid_deal_at_every_game_outlive_five_sigterms_and_five_sigkills() {
    let mut alone = Alone::start(&[]).await;
    let mut rng = rng(41);
    let mut tables = open_tables(&alone.base()).await;
    let stops = [[Stop::Term; 5], [Stop::Kill; 5]].concat();
    let mut checked = 0;
    for (life, stop) in (1..).zip(stops) {
        for table in tables.iter_mut() {
            table.play(rng.gen_range(1..=6), &mut rng).await;
        }
        let status = alone.stop(stop).await;
        if stop == Stop::Term {
            assert!(
                status.success(),
                "a SIGTERM stops the server cleanly: {status}"
            );
        }
        for table in tables.iter_mut() {
            table.until_closed().await;
        }
        let kept = check_the_store(&mut alone, &tables, life);
        checked = kept.found;
        alone.start_again().await;
        let back = reconnect_all(&mut tables, &alone.base(), &kept).await;
        eprintln!(
            "restarts: life {life} ended by {stop:?}; {} acknowledged actions in the store; {} \
             records ahead of what was shown; seats shown->back {back}",
            kept.found, kept.ahead
        );
    }
    // Play goes on after the last start, and what it adds is kept too.
    for table in tables.iter_mut() {
        table.play(5, &mut rng).await;
    }
    alone.stop(Stop::Term).await;
    for table in tables.iter_mut() {
        table.until_closed().await;
    }
    let found = check_the_store(&mut alone, &tables, 11).found;
    assert!(found > checked);
    for table in &tables {
        assert_eq!(table.rematches, 0, "{}: no match ended", name(table));
        for player in &table.players {
            assert_eq!(player.reconnects, 10, "{}", name(table));
        }
    }
    eprintln!(
        "restarts: 10 restarts (5 SIGTERM, 5 SIGKILL) of 4 tables; {found} acknowledged actions \
         all in the final store"
    );
}

/// How many times the process is killed while its seats play flat out.
const KILLS: usize = 20;

/// Seats play as fast as the server answers (the tables of the test above) while the process is
/// SIGKILLed at a seeded random moment, twenty times: the store then commits most of the time, so a
/// kill mostly strikes mid-commit, before or after the write it holds is durable, and before its
/// acknowledgement has gone out (each kill prints how much of its life the store spent committing,
/// and how many records were ahead of what their seats had been shown). After each kill the store must hold every action any seat
/// was acknowledged (at its version, the same seat, the same action) and every version any seat was
/// shown; then the process starts again and the seats reconnect and play on.
#[actix_rt::test]
async fn a_kill_between_the_write_and_the_acknowledgement_loses_nothing_acknowledged() {
    let _heavy = heavy().await;
    let mut alone = Alone::start(&[]).await;
    let mut rng = rng(4141);
    let mut tables = open_tables(&alone.base()).await;
    let (mut ahead_total, mut committing) = (0, Vec::new());
    let mut life = Instant::now();
    for kill in 1..=KILLS {
        let before: usize = tables.iter().map(|t| t.acked().len()).sum();
        let mut running = Vec::new();
        for (t, table) in tables.iter_mut().enumerate() {
            for player in table.players.drain(..) {
                let seed = (kill * 100 + t * 10) as u64 + player.seated.seat;
                running.push((t, actix_rt::spawn(player.flat_out(seed))));
            }
        }
        let wait = Duration::from_millis(rng.gen_range(50..1000));
        actix_rt::time::sleep(wait).await;
        // How much of its life the store spent committing: the odds that the kill strikes mid-commit.
        let metrics = alone.metrics().await;
        let busy = Node::metric(&metrics, "chaikhana_store_commit_seconds_sum");
        let commits = Node::metric(&metrics, "chaikhana_store_commits_total");
        let share = busy / life.elapsed().as_secs_f64();
        committing.push(share);
        alone.stop(Stop::Kill).await;
        for (t, task) in running {
            tables[t]
                .players
                .push(task.await.expect("a seat's task ends"));
        }
        let kept = check_the_store(&mut alone, &tables, kill);
        let acked: usize = tables.iter().map(|t| t.acked().len()).sum();
        let refused: Vec<String> = tables
            .iter()
            .flat_map(|t| &t.players)
            .flat_map(|p| p.refused.iter().map(|(code, n)| format!("{code}x{n}")))
            .collect();
        let over = tables
            .iter()
            .filter(|t| t.players[0].latest["status"] == "match-over")
            .count();
        eprintln!(
            "kill {kill} after {wait:?}: {commits} commits, committing {:.0}% of the life; {} \
             actions acknowledged in this life, all in the store ({} of the matches in play); {} of \
             {} records ahead of what their seats were shown; {over} matches over; refusals so far \
             {refused:?}",
            share * 100.0,
            acked - before,
            kept.found,
            kept.ahead,
            tables.len()
        );
        ahead_total += kept.ahead;
        life = Instant::now();
        alone.start_again().await;
        reconnect_all(&mut tables, &alone.base(), &kept).await;
        // A match that ended is started again, now that the store has been checked: a rematch
        // clears the record.
        for table in tables.iter_mut() {
            table.play(0, &mut rng).await;
        }
    }
    // Play goes on, one move at a time.
    for table in tables.iter_mut() {
        table.play(3, &mut rng).await;
    }
    let checked: usize = tables.iter().map(|t| t.acked().len() + t.let_go).sum();
    let rematches: usize = tables.iter().map(|t| t.rematches).sum();
    eprintln!(
        "kills: {KILLS} SIGKILLs under flat-out play; {checked} acknowledged actions, each checked \
         against the store after every kill until its match ended ({rematches} rematches); \
         {ahead_total} times a record was ahead of what its seats had been shown (a write not yet \
         acknowledged when the kill struck); the store was committing {:.0}% of each life on average",
        committing.iter().sum::<f64>() * 100.0 / committing.len() as f64
    );
}

/// Where the checked-in store of the first snapshot format is.
fn fixture_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format-1-store")
}

fn fixture_text(file: &str) -> String {
    std::fs::read_to_string(fixture_dir().join(file))
        .unwrap_or_else(|e| panic!("tests/fixtures/format-1-store/{file}: {e}"))
        .trim()
        .to_string()
}

/// A store file whose table's snapshot is of the first format (written without `format`, `names`,
/// `away` and `given_away`, with actions stored after it) opens: the seat's token takes its seat at
/// the version stored, and play goes on.
#[actix_rt::test]
async fn a_store_with_a_snapshot_of_the_first_format_opens_and_plays_on() {
    let table = fixture_text("table.txt");
    let token = fixture_text("token.txt");
    let version: u64 = fixture_text("version.txt").parse().expect("a version");
    let dir = fresh_data_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture_dir().join(FILE_NAME), dir.join(FILE_NAME)).expect("the fixture copies");
    // What the fixture holds, read as this release reads it: the first format, no names.
    let copy = fresh_data_dir();
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(fixture_dir().join(FILE_NAME), copy.join(FILE_NAME)).unwrap();
    let snapshot = read_store(&copy, &[&table])
        .remove(0)
        .expect("the fixture's table");
    let _ = std::fs::remove_dir_all(&copy);
    assert_eq!(
        snapshot.format, 1,
        "the fixture's snapshot is of the first format"
    );
    assert!(snapshot.names.is_empty() && snapshot.away.is_empty());
    assert_eq!(snapshot.version, version);

    let mut alone = Alone::start_in(dir, &[]).await;
    let base = alone.base();
    let seated = Seated {
        table: table.clone(),
        seat: 0,
        token,
    };
    let player = Player::connect(&base, seated).await;
    assert_eq!(player.latest["game"], "panjpar", "{}", player.latest);
    assert_eq!(player.latest["seat"], 0);
    let woke = player.version();
    assert!(
        woke >= version,
        "the table woke at v{woke}, below the v{version} stored"
    );
    let mut table = Table::of("panjpar", "computer", vec![player]);
    table.play(12, &mut rng(7)).await;
    alone.stop(Stop::Term).await;
    table.until_closed().await;
    let stored = alone
        .stored(&[table.id()])
        .remove(0)
        .expect("the table is stored");
    let checked = check_acks(&table.acked(), &stored);
    assert!(checked.missing.is_empty(), "{:?}", checked.missing);
    assert_eq!(checked.found, 12);
    eprintln!(
        "format 1: the fixture's table woke at v{woke} (stored v{version}) and played on to v{}",
        stored.version
    );
}

/// Makes the fixture of `a_store_with_a_snapshot_of_the_first_format_opens_and_plays_on`: a Panjpar
/// table against the computer, played mid-deal by this release, its record then written again as a
/// snapshot of the first format (the fields that format lacks taken out) followed by its last
/// actions as stored lines, kept for a century (the store sweeps expired tables), compacted, and
/// copied with its id, its seat's token and its version into `tests/fixtures/format-1-store/`.
/// Run with `cargo test --test it restarts::make_the_format_1_fixture -- --ignored`.
#[actix_rt::test]
#[ignore = "makes the checked-in fixture; run by hand"]
async fn make_the_format_1_fixture() {
    let mut alone = Alone::start(&[]).await;
    let base = alone.base();
    let mut table = Table::open(&base, "panjpar", "computer", json!(3)).await;
    table.play(6, &mut rng(1)).await;
    alone.stop(Stop::Term).await;
    table.until_closed().await;
    let id = table.id().to_string();
    let snapshot = read_store(&alone.dir, &[&id]).remove(0).expect("the table");

    // The last three actions go after the snapshot, as stored lines.
    let mut whole: Snapshot = snapshot.clone();
    let deal = whole.deals.last_mut().expect("a deal in play");
    let kept = deal.actions.len() - 3;
    let after: Vec<_> = deal.actions.split_off(kept);
    whole.version = after[0].2 - 1;
    assert_eq!(
        after.last().unwrap().2,
        snapshot.version,
        "actions end the record"
    );
    let mut json: Value = serde_json::to_value(&whole).unwrap();
    for field in ["format", "names", "away", "given_away"] {
        json.as_object_mut().unwrap().remove(field);
    }
    let lines: String = after
        .iter()
        .map(|(seat, action, made)| Snapshot::played_line(*seat, action, *made))
        .collect();

    let disk = chaikhana::routing::Disk::open(&alone.dir).expect("the store opens");
    let century = Duration::from_secs(100 * 365 * 86400);
    let table_id = TableId::parse(&id).unwrap();
    let whole = Change::Whole {
        game: "panjpar",
        json: json.to_string(),
    };
    assert_eq!(
        disk.keep(&table_id, whole, century).await,
        StoreAnswer::Stored
    );
    let played = Change::Played {
        lines,
        from: after[0].2,
    };
    assert_eq!(
        disk.keep(&table_id, played, century).await,
        StoreAnswer::Stored
    );
    drop(disk);
    let path = alone.dir.join(FILE_NAME);
    crate::support::restarts::released(&path);
    let mut db = redb::Database::open(&path).expect("the store opens");
    while db
        .compact(redb::CompactionMode::Maximum)
        .expect("the store compacts")
    {}
    drop(db);

    let again = read_store(&alone.dir, &[&id]).remove(0).expect("the table");
    assert_eq!(again.format, 1);
    assert_eq!(again.version, snapshot.version);
    let fixture = fixture_dir();
    std::fs::create_dir_all(&fixture).unwrap();
    std::fs::copy(&path, fixture.join(FILE_NAME)).unwrap();
    std::fs::write(fixture.join("table.txt"), format!("{id}\n")).unwrap();
    let token = &table.players[0].seated.token;
    std::fs::write(fixture.join("token.txt"), format!("{token}\n")).unwrap();
    std::fs::write(
        fixture.join("version.txt"),
        format!("{}\n", snapshot.version),
    )
    .unwrap();
}
