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
//! **Group commit.** One writer thread takes every change queued, from every table, applies them all in
//! one transaction and commits once: one `fsync` serves as many moves as arrived while the previous
//! commit was syncing, and each table's answer waits for the commit holding its change. Changes of
//! one table are applied in the order they were queued.
//!
//! **What it holds.** For each table its last whole snapshot (`records`: the game's name, a newline,
//! the snapshot's JSON) and the actions accepted since, one row each keyed by the version they made
//! (`played`), so that a move writes one small row rather than the whole record; when it expires and
//! when it last changed (`expires`, with the index `expiring` that the sweeper reads in order); and,
//! for thirty days after a table closed for good, why (`gone`), so that its link can say so. The
//! store's own format is recorded under `meta`, beside each snapshot's own format number.
//!
//! **What it costs** is measured in `tests/perf/README.md` (commit latency, bytes per table, CPU per
//! action against keeping tables in memory).

use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::future::{BoxFuture, FutureExt};
use redb::{Database, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};
use tokio::sync::oneshot;

use crate::metrics::metrics;
use crate::table::{Change, Gone, Snapshot, StoreAnswer, TableId, TableStore};

const RECORDS: TableDefinition<&str, &[u8]> = TableDefinition::new("records");
const PLAYED: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("played");
/// A table's expiry and the time of its last change, both Unix ms.
const EXPIRES: TableDefinition<&str, (u64, u64)> = TableDefinition::new("expires");
const EXPIRING: TableDefinition<(u64, &str), ()> = TableDefinition::new("expiring");
/// Why a table closed for good, and until when that is kept (Unix ms).
const GONE: TableDefinition<&str, (&str, u64)> = TableDefinition::new("gone");
const META: TableDefinition<&str, u64> = TableDefinition::new("meta");
/// The secrets this process keeps across restarts (the watch links' key).
const SECRETS: TableDefinition<&str, &str> = TableDefinition::new("secrets");

/// The layout of the store this release writes, under `meta`'s `format`.
pub const STORE_FORMAT: u64 = 1;

/// The name of the store's file in `data_dir`.
pub const FILE_NAME: &str = "tables.redb";

/// How long the reason a table closed for good is kept.
const GONE_KEPT: Duration = Duration::from_secs(30 * 86400);

/// A table's expiry is written again only when it moves by more than this: most moves then write one
/// row, and "last move" is told to the minute.
const EXPIRY_STEP: u64 = 60_000;

/// The most changes one commit takes.
const BATCH: usize = 1024;

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
        let (jobs, queue) = mpsc::channel();
        let writer = db.clone();
        let writer = std::thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || write_all(&writer, queue))
            .map_err(|e| format!("cannot start the store's writer: {e}"))?;
        tracing::info!(store = %path.display(), "tables are kept on disk");
        Ok(Arc::new(Disk {
            db: RwLock::new(Some(db)),
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
        let read = self.db()?.begin_read().map_err(|e| e.to_string())?;
        let records = read.open_table(RECORDS).map_err(|e| e.to_string())?;
        let Some(record) = records.get(id.as_str()).map_err(|e| e.to_string())? else {
            let gone = read.open_table(GONE).map_err(|e| e.to_string())?;
            let reason = gone.get(id.as_str()).map_err(|e| e.to_string())?;
            return Ok(match reason.map(|r| r.value().0.to_string()).as_deref() {
                Some("ended") => Found::Gone(Gone::Ended),
                Some(_) => Found::Gone(Gone::Expired),
                None => Found::Nothing,
            });
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
        let touched = read
            .open_table(EXPIRES)
            .map_err(|e| e.to_string())?
            .get(id.as_str())
            .map_err(|e| e.to_string())?
            .map_or(0, |at| at.value().1);
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

/// Makes every table of the store (so that readers find them) and checks its format.
fn prepare(db: &Database) -> Result<(), String> {
    let write = db.begin_write().map_err(|e| e.to_string())?;
    {
        write.open_table(RECORDS).map_err(|e| e.to_string())?;
        write.open_table(PLAYED).map_err(|e| e.to_string())?;
        write.open_table(EXPIRES).map_err(|e| e.to_string())?;
        write.open_table(EXPIRING).map_err(|e| e.to_string())?;
        write.open_table(GONE).map_err(|e| e.to_string())?;
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

/// The writer: takes every job queued, applies them in one transaction, commits, answers.
fn write_all(db: &Database, queue: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(BATCH);
    let mut closing = false;
    while !closing {
        let Ok(first) = queue.recv() else { break };
        batch.push(first);
        while batch.len() < BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        if let Some(at) = batch.iter().position(|job| matches!(job, Job::Close)) {
            // What was queued after the close is answered as not stored.
            for job in batch.drain(at..) {
                if let Job::Keep { answer, .. } = job {
                    let _ = answer.send(StoreAnswer::Failed);
                }
            }
            closing = true;
        }
        if batch.is_empty() {
            continue;
        }
        let began = Instant::now();
        let answers = commit(db, &mut batch);
        let m = metrics();
        match answers {
            Ok(answers) => {
                m.store_commits.inc();
                m.store_commit_seconds
                    .observe(began.elapsed().as_secs_f64());
                m.store_changes_per_commit.observe(answers.len() as f64);
                for (answer, said) in answers {
                    let _ = answer.send(said);
                }
            }
            Err(e) => {
                m.store_errors.inc();
                tracing::error!("a commit of the table store failed: {e}");
                for job in batch.drain(..) {
                    if let Job::Keep { answer, .. } = job {
                        let _ = answer.send(StoreAnswer::Failed);
                    }
                }
            }
        }
        batch.clear();
    }
}

type Answers = Vec<(oneshot::Sender<StoreAnswer>, StoreAnswer)>;

/// Applies the jobs in one write transaction and commits it: the answer for each change, once the
/// commit has returned. On an error nothing of the batch is stored (the jobs stay in `batch`).
fn commit(db: &Database, batch: &mut Vec<Job>) -> Result<Answers, String> {
    let now = unix_ms();
    let write = db.begin_write().map_err(|e| e.to_string())?;
    let mut said = Vec::with_capacity(batch.len());
    {
        let mut tables = Tables {
            records: write.open_table(RECORDS).map_err(|e| e.to_string())?,
            played: write.open_table(PLAYED).map_err(|e| e.to_string())?,
            expires: write.open_table(EXPIRES).map_err(|e| e.to_string())?,
            expiring: write.open_table(EXPIRING).map_err(|e| e.to_string())?,
            gone: write.open_table(GONE).map_err(|e| e.to_string())?,
        };
        for job in batch.iter() {
            match job {
                Job::Keep {
                    id,
                    change,
                    keep_for,
                    ..
                } => said.push(tables.keep(id, change, *keep_for, now)?),
                Job::Forget { id, gone, .. } => tables.forget(id, *gone, now)?,
                Job::Sweep => tables.sweep_gone(now)?,
                Job::Close => {}
            }
        }
    }
    write.commit().map_err(|e| e.to_string())?;
    let answers = batch
        .drain(..)
        .filter_map(|job| match job {
            Job::Keep { answer, .. } => Some(answer),
            Job::Forget { done, .. } => {
                done.map(|done| done.send(()));
                None
            }
            Job::Sweep | Job::Close => None,
        })
        .zip(said)
        .collect();
    Ok(answers)
}

/// The store's tables open in one write transaction.
struct Tables<'t> {
    records: redb::Table<'t, &'static str, &'static [u8]>,
    played: redb::Table<'t, (&'static str, u64), &'static [u8]>,
    expires: redb::Table<'t, &'static str, (u64, u64)>,
    expiring: redb::Table<'t, (u64, &'static str), ()>,
    gone: redb::Table<'t, &'static str, (&'static str, u64)>,
}

impl Tables<'_> {
    fn keep(
        &mut self,
        id: &TableId,
        change: &Change,
        keep_for: Duration,
        now: u64,
    ) -> Result<StoreAnswer, String> {
        let id = id.as_str();
        match change {
            Change::Whole { game, json } => {
                let mut record = Vec::with_capacity(game.len() + 1 + json.len());
                record.extend_from_slice(game.as_bytes());
                record.push(b'\n');
                record.extend_from_slice(json.as_bytes());
                self.records
                    .insert(id, record.as_slice())
                    .map_err(|e| e.to_string())?;
                self.drop_played(id)?;
            }
            Change::Played { lines, from } => {
                if self.records.get(id).map_err(|e| e.to_string())?.is_none() {
                    return Ok(StoreAnswer::Missing);
                }
                let lines = lines.split('\n').filter(|line| !line.is_empty());
                for (line, made) in lines.zip(*from..) {
                    self.played
                        .insert((id, made), line.as_bytes())
                        .map_err(|e| e.to_string())?;
                }
            }
        }
        let until = now.saturating_add(keep_for.as_millis().min(u64::MAX as u128) as u64);
        self.set_expiry(id, until, now)?;
        Ok(StoreAnswer::Stored)
    }

    fn drop_played(&mut self, id: &str) -> Result<(), String> {
        self.played
            .retain_in((id, 0)..=(id, u64::MAX), |_, _| false)
            .map_err(|e| e.to_string())
    }

    fn set_expiry(&mut self, id: &str, until: u64, now: u64) -> Result<(), String> {
        let old = self
            .expires
            .get(id)
            .map_err(|e| e.to_string())?
            .map(|at| at.value());
        if let Some((old_until, _)) = old {
            if old_until.abs_diff(until) < EXPIRY_STEP {
                return Ok(());
            }
            self.expiring
                .remove((old_until, id))
                .map_err(|e| e.to_string())?;
        }
        self.expires
            .insert(id, (until, now))
            .map_err(|e| e.to_string())?;
        self.expiring
            .insert((until, id), ())
            .map_err(|e| e.to_string())?;
        Ok(())
    }

    fn forget(&mut self, id: &TableId, gone: Option<Gone>, now: u64) -> Result<(), String> {
        let id = id.as_str();
        self.records.remove(id).map_err(|e| e.to_string())?;
        self.drop_played(id)?;
        let old = self
            .expires
            .remove(id)
            .map_err(|e| e.to_string())?
            .map(|at| at.value());
        if let Some((until, _)) = old {
            self.expiring
                .remove((until, id))
                .map_err(|e| e.to_string())?;
        }
        if let Some(gone) = gone {
            let until = now + GONE_KEPT.as_millis() as u64;
            self.gone
                .insert(id, (gone_name(gone), until))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn sweep_gone(&mut self, now: u64) -> Result<(), String> {
        self.gone
            .retain(|_, (_, until)| until >= now)
            .map_err(|e| e.to_string())
    }
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
    fn the_watch_key_is_made_once_and_kept() {
        let (disk, dir) = scratch();
        let table = TableId::random();
        let link = disk.watch_key().unwrap().watch_id(&table);
        assert_eq!(disk.watch_key().unwrap().watch_id(&table), link);
        drop(disk);
        std::fs::remove_dir_all(dir).ok();
    }
}
