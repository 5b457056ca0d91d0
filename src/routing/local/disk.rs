//! The one-binary default keeps its tables on disk, in one redb file (`data_dir/tables.redb`), so that
//! neither a restart nor a crash ends a game.
//!
//! **Why redb.** It is a maintained embedded key-value store in pure Rust (nothing to build in C, as
//! SQLite would need), made for exactly this: ACID transactions over typed B-trees in one file, one
//! writer at a time beside any number of readers, and a file lock that stops a second process from
//! opening the same store. fjall (an LSM tree) would suit a write-heavy log as well, but a table's
//! record is read back whole on every wake, which a B-tree answers in one range.
//!
//! **How it is crash-safe.** Every write transaction is committed with redb's `Durability::Immediate`:
//! `commit` returns only once the new pages and the commit record have been written and `fsync`ed
//! (redb keeps two commit slots with checksums and flips between them, so a commit torn by a crash
//! leaves the previous one in place). A table acknowledges a move (and shows it to anyone) only once
//! the commit that holds it has returned; a commit that fails is answered `Failed` to every table in
//! it, and those tables pause and store themselves whole again until one succeeds (see
//! `table::core::storing`).
//!
//! **Group commit, through a log.** One writer thread (`writer`) takes every change queued, from
//! every table, appends them as rows of the `log` table in one transaction and commits once: one
//! `fsync` serves as many moves as arrived while the previous commit was syncing, each table's answer
//! waits for the commit holding its change, and the rows of one commit lie side by side, so a commit
//! writes a few pages, not one per table. About once a second the writer folds the logged changes
//! into their tables' own rows, many moves of a table at once, and empties the log in the same
//! commit; until then a read lays them over the rows (`log`). A store that stopped before folding
//! reads its log back when it opens. Changes of one table are applied in the order they were queued.
//!
//! **What it holds.** For each table its last whole snapshot (`records`: the game's name, a newline,
//! the snapshot's JSON) and the actions accepted since, one row each keyed by the version they made
//! (`played`); when it expires and when it last changed (`expires`, with the index `expiring` that
//! the sweeper reads in order); and, for thirty days after a table closed for good, why (`gone`), so
//! that its link can say so. The store's own format is recorded under `meta`, beside each snapshot's
//! own format number.
//!
//! **What it costs** is measured in `tests/perf/README.md` (commit latency, bytes per table, CPU per
//! action against keeping tables in memory).

use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::future::{BoxFuture, FutureExt};
use redb::{Database, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};
use tokio::sync::oneshot;

use crate::table::{Change, Gone, Snapshot, StoreAnswer, TableId, TableStore};

mod log;
mod writer;

use log::Unfolded;

const RECORDS: TableDefinition<&str, &[u8]> = TableDefinition::new("records");
const PLAYED: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("played");
/// A table's expiry and the time of its last change, both Unix ms.
const EXPIRES: TableDefinition<&str, (u64, u64)> = TableDefinition::new("expires");
const EXPIRING: TableDefinition<(u64, &str), ()> = TableDefinition::new("expiring");
/// Why a table closed for good, and until when that is kept (Unix ms).
const GONE: TableDefinition<&str, (&str, u64)> = TableDefinition::new("gone");
const META: TableDefinition<&str, u64> = TableDefinition::new("meta");
/// Changes committed and not yet folded into their tables' rows, in the order they came (see `log`).
const LOG: TableDefinition<u64, &[u8]> = TableDefinition::new("log");
/// The secrets this process keeps across restarts (the watch links' key).
const SECRETS: TableDefinition<&str, &str> = TableDefinition::new("secrets");

/// The layout of the store this release writes, under `meta`'s `format`.
pub const STORE_FORMAT: u64 = 1;

/// The name of the store's file in `data_dir`.
pub const FILE_NAME: &str = "tables.redb";

/// How long the reason a table closed for good is kept.
const GONE_KEPT: Duration = Duration::from_secs(30 * 86400);

/// A table's record as the store holds it.
pub struct Stored {
    pub snapshot: Snapshot,
    /// When it last changed (Unix ms).
    pub touched: u64,
}

/// What the store knows of a table id.
pub enum Found {
    Table(Box<Stored>),
    Gone(Gone),
    Nothing,
}

enum Job {
    Keep {
        id: TableId,
        change: Change,
        keep_for: Duration,
        answer: oneshot::Sender<StoreAnswer>,
    },
    Forget {
        id: TableId,
        gone: Option<Gone>,
        done: Option<oneshot::Sender<()>>,
    },
    /// Removes the reasons kept long enough.
    Sweep,
    /// Stops the writer (the store closes).
    Close,
}

/// The embedded store of this process's tables.
pub struct Disk {
    /// The database, until the store is closed.
    db: RwLock<Option<Arc<Database>>>,
    /// The changes logged and not yet folded, laid over what a read finds in the rows.
    unfolded: Arc<Mutex<Unfolded>>,
    jobs: mpsc::Sender<Job>,
    writer: Mutex<Option<std::thread::JoinHandle<()>>>,
}

/// The memory redb may keep of the store's pages: the tables awake are in memory anyway, and a
/// sleeping table should cost its bytes on disk, not in the process.
const CACHE_BYTES: usize = 16 << 20;

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn gone_name(gone: Gone) -> &'static str {
    match gone {
        Gone::Expired => "expired",
        Gone::Ended => "ended",
    }
}

impl Disk {
    /// Opens (or creates) the store in the folder `dir`, creating the folder, and starts its writer.
    pub fn open(dir: &Path) -> Result<Arc<Disk>, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the data folder {}: {e}", dir.display()))?;
        let path = dir.join(FILE_NAME);
        let db = redb::Builder::new()
            .set_cache_size(CACHE_BYTES)
            .create(&path)
            .map_err(|e| match e {
                redb::DatabaseError::DatabaseAlreadyOpen => format!(
                "the store {} is in use by another process (each process needs its own data_dir)",
                path.display()
            ),
                e => format!("cannot open the store {}: {e}", path.display()),
            })?;
        let db = Arc::new(db);
        prepare(&db).map_err(|e| format!("the store {} cannot be used: {e}", path.display()))?;
        let unfolded =
            Arc::new(Mutex::new(read_log(&db).map_err(|e| {
                format!("the store {} cannot be used: {e}", path.display())
            })?));
        let (jobs, queue) = mpsc::channel();
        let (writer, pending) = (db.clone(), unfolded.clone());
        let writer = std::thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || writer::write_all(&writer, &pending, queue))
            .map_err(|e| format!("cannot start the store's writer: {e}"))?;
        tracing::info!(store = %path.display(), "tables are kept on disk");
        Ok(Arc::new(Disk {
            db: RwLock::new(Some(db)),
            unfolded,
            jobs,
            writer: Mutex::new(Some(writer)),
        }))
    }

    /// The database, while the store is open.
    fn db(&self) -> Result<Arc<Database>, String> {
        let db = self.db.read().unwrap_or_else(|p| p.into_inner());
        db.clone().ok_or_else(|| "the store is closed".to_string())
    }

    /// Closes the store once the changes queued are committed, so that the next start opens it
    /// without recovering it (a blocking call, for the process's way out).
    pub fn close(&self) {
        let _ = self.jobs.send(Job::Close);
        let writer = self.writer.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(writer) = writer {
            let _ = writer.join();
        }
        let db = self.db.write().unwrap_or_else(|p| p.into_inner()).take();
        match db.map(Arc::try_unwrap) {
            Some(Ok(db)) => match db.close() {
                Ok(()) => tracing::info!("the table store is closed"),
                Err(e) => tracing::warn!("the table store did not close cleanly: {e}"),
            },
            Some(Err(_)) => tracing::warn!("the table store is still being read; left to recover"),
            None => {}
        }
    }

    /// What the store holds for `id` (a blocking read: call it off the tables' threads).
    pub fn find(&self, id: &TableId) -> Result<Found, String> {
        // The rows as they were when the changes still pending were: a fold moves both at once.
        let (read, pending) = {
            let unfolded = writer::lock(&self.unfolded);
            let read = self.db()?.begin_read().map_err(|e| e.to_string())?;
            (read, unfolded.tables.get(id.as_str()).cloned())
        };
        let stored = match pending.as_ref().and_then(|p| p.whole.as_ref()) {
            // A whole record pending replaces what the rows hold.
            Some(_) => None,
            None => stored_record(&read, id)?,
        };
        let (record, touched) = match &pending {
            Some(pending) => (pending.over(stored), pending.touched),
            None => {
                let touched = read
                    .open_table(EXPIRES)
                    .map_err(|e| e.to_string())?
                    .get(id.as_str())
                    .map_err(|e| e.to_string())?
                    .map_or(0, |at| at.value().1);
                (stored, touched)
            }
        };
        let Some(record) = record else {
            let gone = read.open_table(GONE).map_err(|e| e.to_string())?;
            let reason = gone.get(id.as_str()).map_err(|e| e.to_string())?;
            return Ok(match reason.map(|r| r.value().0.to_string()).as_deref() {
                Some("ended") => Found::Gone(Gone::Ended),
                Some(_) => Found::Gone(Gone::Expired),
                None => Found::Nothing,
            });
        };
        let text = record;
        let json = match text.iter().position(|b| *b == b'\n') {
            Some(newline) => &text[newline + 1..],
            None => return Err("a stored record without its game".into()),
        };
        let snapshot = Snapshot::from_stored(json)?;
        Ok(Found::Table(Box::new(Stored { snapshot, touched })))
    }

    /// The ids of the tables whose time is up at `now` (Unix ms), oldest first.
    pub fn expired(&self, now: u64) -> Result<Vec<TableId>, String> {
        let read = self.db()?.begin_read().map_err(|e| e.to_string())?;
        let expiring = read.open_table(EXPIRING).map_err(|e| e.to_string())?;
        let mut ids = Vec::new();
        for row in expiring.range(..(now, "")).map_err(|e| e.to_string())? {
            let (key, _) = row.map_err(|e| e.to_string())?;
            if let Some(id) = TableId::parse(key.value().1) {
                ids.push(id);
            }
        }
        // A table with changes pending has moved since its rows were written.
        let unfolded = writer::lock(&self.unfolded);
        ids.retain(|id| !unfolded.tables.contains_key(id.as_str()));
        Ok(ids)
    }

    /// The key of watch links, made on first start and kept, so that watch links outlive a restart.
    pub fn watch_key(&self) -> Result<crate::table::WatchKey, String> {
        let write = self.db()?.begin_write().map_err(|e| e.to_string())?;
        let hex = {
            let mut secrets = write.open_table(SECRETS).map_err(|e| e.to_string())?;
            let kept = secrets
                .get("watch_key")
                .map_err(|e| e.to_string())?
                .map(|k| k.value().to_string());
            match kept {
                Some(hex) => hex,
                None => {
                    let made = crate::table::WatchKey::random_hex();
                    secrets
                        .insert("watch_key", made.as_str())
                        .map_err(|e| e.to_string())?;
                    made
                }
            }
        };
        write.commit().map_err(|e| e.to_string())?;
        crate::table::WatchKey::from_hex(&hex)
    }

    /// Removes the reasons kept long enough for tables closed for good, if there are any (a commit
    /// is made only then).
    pub fn sweep(&self) -> Result<(), String> {
        let now = unix_ms();
        let read = self.db()?.begin_read().map_err(|e| e.to_string())?;
        let gone = read.open_table(GONE).map_err(|e| e.to_string())?;
        let mut rows = gone.iter().map_err(|e| e.to_string())?;
        if rows.any(|row| row.is_ok_and(|(_, why)| why.value().1 < now)) {
            let _ = self.jobs.send(Job::Sweep);
        }
        Ok(())
    }

    /// How many tables the store holds.
    pub fn tables(&self) -> Result<u64, String> {
        let read = self.db()?.begin_read().map_err(|e| e.to_string())?;
        let records = read.open_table(RECORDS).map_err(|e| e.to_string())?;
        records.len().map_err(|e| e.to_string())
    }

    /// Removes a table's record; `gone` says why it closed for good, kept for its link to say (none:
    /// the record is simply removed). Resolves once that is committed.
    pub fn forget(&self, id: &TableId, gone: Option<Gone>) -> oneshot::Receiver<()> {
        let (done, committed) = oneshot::channel();
        let _ = self.jobs.send(Job::Forget {
            id: id.clone(),
            gone,
            done: Some(done),
        });
        committed
    }

    fn queue(
        &self,
        id: &TableId,
        change: Change,
        keep_for: Duration,
    ) -> BoxFuture<'static, StoreAnswer> {
        let (answer, answered) = oneshot::channel();
        let job = Job::Keep {
            id: id.clone(),
            change,
            keep_for,
            answer,
        };
        if self.jobs.send(job).is_err() {
            return futures_util::future::ready(StoreAnswer::Failed).boxed();
        }
        async move { answered.await.unwrap_or(StoreAnswer::Failed) }.boxed()
    }
}

impl TableStore for Disk {
    fn keep(
        &self,
        id: &TableId,
        change: Change,
        keep_for: Duration,
    ) -> BoxFuture<'static, StoreAnswer> {
        self.queue(id, change, keep_for)
    }

    /// A table going to sleep stores itself whole; nothing else is to let go of here.
    fn hand_over(
        &self,
        id: &TableId,
        whole: Change,
        keep_for: Duration,
    ) -> BoxFuture<'static, StoreAnswer> {
        self.queue(id, whole, keep_for)
    }
}

/// A table's record as its rows hold it: `game\njson` and a line per action stored since.
fn stored_record(read: &redb::ReadTransaction, id: &TableId) -> Result<Option<Vec<u8>>, String> {
    let records = read.open_table(RECORDS).map_err(|e| e.to_string())?;
    let Some(record) = records.get(id.as_str()).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let mut text = record.value().to_vec();
    let played = read.open_table(PLAYED).map_err(|e| e.to_string())?;
    for row in played
        .range((id.as_str(), 0)..=(id.as_str(), u64::MAX))
        .map_err(|e| e.to_string())?
    {
        let (_, line) = row.map_err(|e| e.to_string())?;
        text.push(b'\n');
        text.extend_from_slice(line.value());
    }
    Ok(Some(text))
}

/// The changes a store left in its log (it stopped before folding them), read back in order.
fn read_log(db: &Database) -> Result<Unfolded, String> {
    let read = db.begin_read().map_err(|e| e.to_string())?;
    let rows = read.open_table(LOG).map_err(|e| e.to_string())?;
    let mut unfolded = Unfolded::default();
    for row in rows.iter().map_err(|e| e.to_string())? {
        let (key, row) = row.map_err(|e| e.to_string())?;
        unfolded.add(log::read(row.value())?, key.value());
        unfolded.next_row = key.value() + 1;
    }
    Ok(unfolded)
}

/// Makes every table of the store (so that readers find them) and checks its format.
fn prepare(db: &Database) -> Result<(), String> {
    let write = db.begin_write().map_err(|e| e.to_string())?;
    {
        write.open_table(RECORDS).map_err(|e| e.to_string())?;
        write.open_table(PLAYED).map_err(|e| e.to_string())?;
        write.open_table(EXPIRES).map_err(|e| e.to_string())?;
        write.open_table(EXPIRING).map_err(|e| e.to_string())?;
        write.open_table(GONE).map_err(|e| e.to_string())?;
        write.open_table(LOG).map_err(|e| e.to_string())?;
        let mut meta = write.open_table(META).map_err(|e| e.to_string())?;
        let format = meta
            .get("format")
            .map_err(|e| e.to_string())?
            .map(|f| f.value());
        match format {
            Some(format) if format > STORE_FORMAT => {
                return Err(format!(
                    "its format {format} is newer than this release's {STORE_FORMAT}"
                ))
            }
            Some(_) => {}
            None => {
                meta.insert("format", STORE_FORMAT)
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    write.commit().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::core::tests_support::{computer_table, play_and_change};
    use crate::table::Snapshot;

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
        let mut table = computer_table::<crate::games::panjpar::Panjpar>();
        let first = table.snapshot();
        let mut steps = Vec::new();
        for seed in 0..moves as u64 {
            if let Some(change) = play_and_change(&mut table, seed) {
                steps.push((change, table.snapshot()));
            }
        }
        (first, steps)
    }

    #[actix_rt::test]
    async fn a_table_written_whole_then_move_by_move_reads_back_as_itself() {
        let (disk, dir) = scratch();
        let id = TableId::random();
        let (first, steps) = table_after(40);
        let whole = Change::Whole {
            game: "panjpar",
            json: first.to_json(),
        };
        let day = Duration::from_secs(86400);
        assert_eq!(disk.keep(&id, whole, day).await, StoreAnswer::Stored);
        assert_eq!(stored(&disk, &id), first);
        for (change, after) in steps {
            assert_eq!(disk.keep(&id, change, day).await, StoreAnswer::Stored);
            assert_eq!(stored(&disk, &id), after);
        }
        // Lines for a table the store does not hold are refused, not guessed.
        let stray = Change::Played {
            lines: "\n[0,{},1]".into(),
            from: 1,
        };
        let other = TableId::random();
        assert_eq!(disk.keep(&other, stray, day).await, StoreAnswer::Missing);
        assert!(matches!(disk.find(&other).unwrap(), Found::Nothing));
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
}
