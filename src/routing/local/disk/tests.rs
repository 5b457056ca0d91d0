//! The store on disk: opened by one process at a time, read back after a stop, its watch key kept.

use super::*;
use crate::table::core::tests_support::{computer_table, play_and_change};
use crate::table::Snapshot;
use std::time::Instant;

/// A store in a folder of its own.
fn scratch() -> (Arc<Disk>, std::path::PathBuf) {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("chaikhana-disk-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    (Disk::open(&dir).unwrap(), dir)
}

fn stored(disk: &Disk, id: &TableId) -> Snapshot {
    match disk.find(id).unwrap() {
        Found::Table(stored) => stored.snapshot,
        _ => panic!("the table is stored"),
    }
}

/// A Panjpar computer table's snapshot after `moves` random moves, and the lines each move adds.
fn table_after(moves: usize) -> (Snapshot, Vec<(Change, Snapshot)>) {
    let mut table = computer_table::<chaikhana_rules::games::panjpar::Panjpar>();
    let first = table.snapshot();
    let mut steps = Vec::new();
    for seed in 0..moves as u64 {
        if let Some(change) = play_and_change(&mut table, seed) {
            steps.push((change, table.snapshot()));
        }
    }
    (first, steps)
}

/// A day, as long as the tables of these tests are kept.
const DAY: Duration = Duration::from_secs(86400);

/// A new Panjpar table stored whole in `disk`: its id, its snapshot, and the changes (with the
/// snapshot each makes) of 40 random moves, not yet stored.
async fn stored_whole(disk: &Disk) -> (TableId, Snapshot, Vec<(Change, Snapshot)>) {
    let id = TableId::random();
    let (first, steps) = table_after(40);
    let whole = Change::Whole {
        game: "panjpar",
        json: first.to_json(),
    };
    assert_eq!(disk.keep(&id, whole, DAY).await, StoreAnswer::Stored);
    (id, first, steps)
}

#[actix_rt::test]
async fn a_table_written_whole_then_move_by_move_reads_back_as_itself() {
    let (disk, dir) = scratch();
    let (id, first, steps) = stored_whole(&disk).await;
    assert_eq!(stored(&disk, &id), first);
    for (change, after) in steps {
        assert_eq!(disk.keep(&id, change, DAY).await, StoreAnswer::Stored);
        assert_eq!(stored(&disk, &id), after);
    }
    // Lines for a table the store does not hold are refused, not guessed.
    let stray = Change::Played {
        lines: "\n[0,{},1]".into(),
        from: 1,
    };
    let other = TableId::random();
    assert_eq!(disk.keep(&other, stray, DAY).await, StoreAnswer::Missing);
    assert!(matches!(disk.find(&other).unwrap(), Found::Nothing));
    drop(disk);
    std::fs::remove_dir_all(dir).ok();
}

/// Moves folded while others wait in the log: a fold writes each table's moves as one row, and the
/// rows of several folds and the log read back as the table move by move, after a restart too. A
/// table forgotten takes no more lines, though the writer knew it held a record.
#[actix_rt::test]
async fn moves_folded_a_row_at_a_time_read_back_and_a_forgotten_table_takes_no_more_lines() {
    let (disk, dir) = scratch();
    let (id, first, steps) = stored_whole(&disk).await;
    let mut last = first;
    for (n, (change, after)) in steps.into_iter().enumerate() {
        assert_eq!(disk.keep(&id, change, DAY).await, StoreAnswer::Stored);
        if n % 7 == 6 {
            writer::fold(&disk.db().unwrap(), &disk.unfolded).unwrap();
            let rows = disk.db().unwrap().begin_read().unwrap();
            let played = rows.open_table(PLAYED).unwrap();
            assert!(played.len().unwrap() >= 1, "the moves folded are rows");
        }
        assert_eq!(stored(&disk, &id), after);
        last = after;
    }
    disk.close();
    drop(disk);
    let disk = Disk::open(&dir).unwrap();
    assert_eq!(stored(&disk, &id), last);
    let played = disk.db().unwrap().begin_read().unwrap();
    let rows = played.open_table(PLAYED).unwrap().len().unwrap();
    assert!(rows <= 12, "a row per fold, not per move: {rows}");
    disk.forget(&id, None).await.unwrap();
    let stray = Change::Played {
        lines: "\n[0,{},99]".into(),
        from: 99,
    };
    assert_eq!(disk.keep(&id, stray, DAY).await, StoreAnswer::Missing);
    disk.close();
    drop(disk);
    std::fs::remove_dir_all(dir).ok();
}

#[actix_rt::test]
async fn a_table_closed_for_good_leaves_its_reason_and_expired_ones_are_found_in_order() {
    let (disk, dir) = scratch();
    let (first, _) = table_after(0);
    let (soon, later) = (TableId::random(), TableId::random());
    for (id, ms) in [(&soon, 1), (&later, 86_400_000)] {
        let whole = Change::Whole {
            game: "panjpar",
            json: first.to_json(),
        };
        let kept = disk.keep(id, whole, Duration::from_millis(ms)).await;
        assert_eq!(kept, StoreAnswer::Stored);
    }
    let now = unix_ms() + 10;
    // A table's expiry reaches its rows when its changes are folded, within a second or two.
    let began = std::time::Instant::now();
    while disk.expired(now).unwrap().is_empty() && began.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(disk.expired(now).unwrap(), vec![soon.clone()]);
    assert_eq!(disk.tables().unwrap(), 2);
    disk.forget(&soon, Some(Gone::Expired)).await.unwrap();
    assert!(matches!(
        disk.find(&soon).unwrap(),
        Found::Gone(Gone::Expired)
    ));
    assert!(disk.expired(now).unwrap().is_empty());
    disk.forget(&later, Some(Gone::Ended)).await.unwrap();
    assert!(matches!(
        disk.find(&later).unwrap(),
        Found::Gone(Gone::Ended)
    ));
    assert_eq!(disk.tables().unwrap(), 0);
    drop(disk);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_store_is_opened_by_one_process_at_a_time_and_a_newer_format_is_refused() {
    let (disk, dir) = scratch();
    let again = Disk::open(&dir).err().expect("the same store twice");
    assert!(again.contains("in use"), "{again}");
    drop(disk);
    // The writer thread holds the database until its queue closes.
    std::thread::sleep(Duration::from_millis(100));
    let db = Database::create(dir.join(FILE_NAME)).unwrap();
    let write = db.begin_write().unwrap();
    write
        .open_table(META)
        .unwrap()
        .insert("format", STORE_FORMAT + 1)
        .unwrap();
    write.commit().unwrap();
    drop(db);
    let newer = Disk::open(&dir).err().expect("a store of a later release");
    assert!(newer.contains("newer"), "{newer}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn changes_left_in_the_log_by_a_store_that_stopped_are_read_back_when_it_opens() {
    let (disk, dir) = scratch();
    disk.close();
    drop(disk);
    let id = TableId::random();
    let (first, steps) = table_after(12);
    let whole = Change::Whole {
        game: "panjpar",
        json: first.to_json(),
    };
    let db = Database::create(dir.join(FILE_NAME)).unwrap();
    let write = db.begin_write().unwrap();
    {
        let mut rows = write.open_table(LOG).unwrap();
        let changes = std::iter::once(&whole).chain(steps.iter().map(|(c, _)| c));
        for (key, change) in changes.enumerate() {
            let (row, _) = log::row(id.as_str(), change, u64::MAX, 1);
            rows.insert(key as u64, row.as_slice()).unwrap();
        }
    }
    write.commit().unwrap();
    drop(db);
    let disk = Disk::open(&dir).unwrap();
    let last = steps.last().map_or(first, |(_, after)| after.clone());
    assert_eq!(stored(&disk, &id), last);
    // Folded and closed, it reads the same from its rows alone.
    disk.close();
    drop(disk);
    let disk = Disk::open(&dir).unwrap();
    assert_eq!(stored(&disk, &id), last);
    disk.close();
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_watch_key_is_made_once_and_kept() {
    let (disk, dir) = scratch();
    let table = TableId::random();
    let link = disk.watch_key().unwrap().watch_id(&table);
    assert_eq!(disk.watch_key().unwrap().watch_id(&table), link);
    drop(disk);
    std::fs::remove_dir_all(dir).ok();
}

/// A way to damage a store's file.
type Damage = fn(&std::path::Path);

#[actix_rt::test]
async fn an_empty_cut_short_or_overwritten_store_is_refused_with_a_sentence_or_set_aside() {
    let damages: [(&str, Damage); 3] = [
        ("empty", |file| {
            std::fs::File::create(file).map(drop).unwrap()
        }),
        ("cut short", |file| {
            let len = std::fs::metadata(file).unwrap().len();
            let cut = std::fs::OpenOptions::new().write(true).open(file).unwrap();
            cut.set_len(len / 3).unwrap();
        }),
        ("overwritten after its header", |file| {
            let len = std::fs::metadata(file).unwrap().len() as usize;
            let mut bytes = std::fs::read(file).unwrap();
            bytes[4096.min(len)..].fill(0);
            std::fs::write(file, bytes).unwrap();
        }),
    ];
    for (how, damage) in damages {
        let (disk, dir) = scratch();
        let (first, _) = table_after(8);
        let whole = Change::Whole {
            game: "panjpar",
            json: first.to_json(),
        };
        assert_eq!(
            disk.keep(&TableId::random(), whole, DAY).await,
            StoreAnswer::Stored
        );
        disk.close();
        drop(disk);
        let file = dir.join(FILE_NAME);
        damage(&file);
        let refused = Disk::open(&dir)
            .err()
            .unwrap_or_else(|| panic!("{how}: opened"));
        assert!(refused.contains("is damaged"), "{how}: {refused}");
        assert!(refused.contains("backup"), "{how}: {refused}");
        // Nothing was changed: refused again, the same way.
        assert_eq!(Disk::open(&dir).err().as_deref(), Some(refused.as_str()));
        // Asked to, the store is kept beside and the tables start afresh.
        let fresh = Disk::open_with(&dir, Damaged::SetAside).unwrap();
        assert_eq!(fresh.tables().unwrap(), 0, "{how}");
        let aside = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(Result::ok)
            .any(|e| e.file_name().to_string_lossy().contains("damaged"));
        assert!(aside, "{how}: the damaged file is kept");
        fresh.close();
        std::fs::remove_dir_all(dir).ok();
    }
}

#[test]
fn a_record_that_does_not_read_is_said_to_be_damaged() {
    let (disk, dir) = scratch();
    disk.close();
    drop(disk);
    let id = TableId::random();
    let db = Database::create(dir.join(FILE_NAME)).unwrap();
    let write = db.begin_write().unwrap();
    write
        .open_table(RECORDS)
        .unwrap()
        .insert(id.as_str(), b"a record without its game".as_slice())
        .unwrap();
    write.commit().unwrap();
    drop(db);
    let disk = Disk::open(&dir).unwrap();
    let read = disk.find(&id).err().expect("a damaged record");
    assert!(read.damaged(), "{read}");
    assert!(!StoreError::Closed.damaged());
    disk.close();
    std::fs::remove_dir_all(dir).ok();
}

#[actix_rt::test]
async fn a_commit_that_stalls_pauses_its_table_and_the_store_takes_changes_again_once_it_returns() {
    // The disk stops answering: here, another write transaction holds the database, so the
    // writer's next commit waits on it as it would on a hung fsync.
    let (disk, dir) = scratch();
    let id = TableId::random();
    let (first, _) = table_after(0);
    let whole = || Change::Whole {
        game: "panjpar",
        json: first.to_json(),
    };
    let db = disk.db().unwrap();
    let held = std::thread::spawn(move || {
        let hold = db.begin_write().unwrap();
        std::thread::sleep(STALLED_AFTER + Duration::from_secs(2));
        drop(hold);
    });
    std::thread::sleep(Duration::from_millis(100));
    assert!(disk.is_open());
    // Not stored within the deadline: the table hears it was not (it pauses, saying so).
    assert_eq!(disk.keep(&id, whole(), DAY).await, StoreAnswer::Failed);
    assert!(!disk.is_open(), "a stalled store takes no changes");
    // The gauge is the process's: another test's store may set it back to 0 as its own commit ends,
    // and this stalled store sets it again each time it is asked.
    let asked = Instant::now();
    while disk.is_open() || crate::metrics::metrics().store_stalled.get() != 1 {
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "the stall is said"
        );
        std::thread::yield_now();
    }
    // Meanwhile a change is refused at once, never queued behind the stalled one.
    let began = Instant::now();
    assert_eq!(disk.keep(&id, whole(), DAY).await, StoreAnswer::Failed);
    assert!(began.elapsed() < Duration::from_secs(1));
    held.join().unwrap();
    // Once the disk answers, the store takes changes again by itself.
    let began = Instant::now();
    while !disk.is_open() {
        assert!(
            began.elapsed() < Duration::from_secs(5),
            "the store is open again"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(disk.keep(&id, whole(), DAY).await, StoreAnswer::Stored);
    assert_eq!(stored(&disk, &id), first);
    drop(disk);
    std::fs::remove_dir_all(dir).ok();
}
