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
//! the snapshot's JSON) and the actions accepted since, as rows of one or more lines keyed by the
//! version the first made, a row for each fold (`played`); when it expires and when it last changed
//! (`expires`, with the index `expiring` that the sweeper reads in order); and, for thirty days after
//! a table closed for good, why (`gone`), so that its link can say so. The store's own format is
//! recorded under `meta`, beside each snapshot's own format number.
//!
//! **What a move costs.** Measured with `tests/perf/store-profile.sh`, `tests/perf/store-cpu.sh` and
//! `chaikhana-loadgen store-floor` (figures and dates in `tests/perf/log/2026-12.md`):
//! - A commit costs about the same however many changes it holds: on this project's virtual machine
//!   100-130 µs of CPU with its `fsync` (one `fdatasync` and about eight page writes), of which redb's
//!   own work is 16-26 µs (the same commit without `fsync`); the rest is the kernel's writing and the
//!   virtual disk's notifications, and waking after the sync. Under 100 Panjpar tables played flat
//!   out a commit serves about 23 changes, so the writer thread costs 7-16 µs per move, as the disk
//!   is quick or slow.
//! - Everything else a stored move costs on the tables' threads (its line, the message to the writer
//!   and its answer, the timer of a stalled disk) is about 1 µs of self time. The rest of the
//!   difference measured against tables in memory is not work but waiting: a move waits about a
//!   commit and a half for its `fsync` before it is shown, so the same tables play fewer moves a
//!   second, the threads sleep and wake more often per move, and each move's work runs on colder
//!   caches.
//! - Gathering changes for a moment before each commit (tried at 0.2-2 ms) made each commit serve two
//!   to four times as many, but the moves waited longer, fewer were played a second, and the CPU per
//!   move did not fall: the writer commits as soon as the previous commit returns.
//! - Each row a fold writes holds a table's moves since the last fold, not one move, and the log is
//!   emptied by deleting its table, so a fold costs per table, not per move.
//! - A logged row is the table's own text (its snapshot's JSON, its actions' lines) behind a short
//!   header: a binary encoding would save little of the commit's cost and add a conversion per move.

use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::future::{BoxFuture, FutureExt};
use redb::{Database, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};
use tokio::sync::oneshot;

use crate::table::{Change, Gone, Snapshot, StoreAnswer, TableId, TableStore};

mod error;
mod file;
mod log;
mod writer;

pub use error::StoreError;
use file::{open_file, File, Unopened};
pub use file::{Damaged, STALLED_AFTER};

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
    file: Arc<File>,
    /// The changes logged and not yet folded, laid over what a read finds in the rows.
    unfolded: Arc<Mutex<Unfolded>>,
    jobs: mpsc::Sender<Job>,
    writer: Mutex<Option<std::thread::JoinHandle<()>>>,
}

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
    /// Opens (or creates) the store in the folder `dir`, creating the folder, and starts its writer; a
    /// damaged store file is refused.
    pub fn open(dir: &Path) -> Result<Arc<Disk>, String> {
        Disk::open_with(dir, Damaged::Refuse)
    }

    /// [`Disk::open`], doing with a damaged store file as `damaged` says.
    pub fn open_with(dir: &Path, damaged: Damaged) -> Result<Arc<Disk>, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the data folder {}: {e}", dir.display()))?;
        let path = dir.join(FILE_NAME);
        let (db, unfolded) = match open_file(&path) {
            Err(Unopened::Damaged(why)) if damaged == Damaged::SetAside => {
                let aside = path.with_extension(format!("redb.damaged-{}", unix_ms()));
                std::fs::rename(&path, &aside)
                    .map_err(|e| format!("cannot set {} aside: {e}", path.display()))?;
                tracing::warn!(store = %path.display(), aside = %aside.display(), "the store was damaged ({why}): it is kept beside, and tables start afresh");
                open_file(&path).map_err(|e| e.say(&path))?
            }
            opened => opened.map_err(|e| e.say(&path))?,
        };
        let file = Arc::new(File {
            path: path.clone(),
            db: RwLock::new(Some(Arc::new(db))),
            busy_since: Mutex::new(None),
        });
        let unfolded = Arc::new(Mutex::new(unfolded));
        let (jobs, queue) = mpsc::channel();
        let (writer, pending) = (file.clone(), unfolded.clone());
        let writer = std::thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || writer::write_all(&writer, &pending, queue))
            .map_err(|e| format!("cannot start the store's writer: {e}"))?;
        crate::metrics::metrics().store_open.set(1);
        tracing::info!(store = %path.display(), "tables are kept on disk");
        Ok(Arc::new(Disk {
            file,
            unfolded,
            jobs,
            writer: Mutex::new(Some(writer)),
        }))
    }

    /// The database, while the store is open.
    fn db(&self) -> Result<Arc<Database>, StoreError> {
        self.file.db()
    }

    /// Whether the store takes changes now: not while it is reopened after an I/O error, nor while
    /// a commit has stalled (`STALLED_AFTER`).
    pub fn is_open(&self) -> bool {
        self.file.db().is_ok() && !self.file.stalled()
    }

    /// Closes the store once the changes queued are committed, so that the next start opens it
    /// without recovering it (a blocking call, for the process's way out).
    pub fn close(&self) {
        let _ = self.jobs.send(Job::Close);
        let writer = self.writer.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(writer) = writer {
            let _ = writer.join();
        }
        match self.file.take().map(Arc::try_unwrap) {
            Some(Ok(db)) => match db.close() {
                Ok(()) => tracing::info!("the table store is closed"),
                Err(e) => tracing::warn!("the table store did not close cleanly: {e}"),
            },
            Some(Err(_)) => tracing::warn!("the table store is still being read; left to recover"),
            None => {}
        }
    }

    /// What the store holds for `id` (a blocking read: call it off the tables' threads). A panic in
    /// redb reading a damaged page is caught, and said as a row that cannot be read.
    pub fn find(&self, id: &TableId) -> Result<Found, StoreError> {
        let read = std::panic::AssertUnwindSafe(|| self.find_rows(id));
        std::panic::catch_unwind(read)
            .unwrap_or_else(|_| Err(StoreError::BadRow("redb stopped reading its pages".into())))
    }

    fn find_rows(&self, id: &TableId) -> Result<Found, StoreError> {
        // The rows as they were when the changes still pending were: a fold moves both at once.
        let (read, pending) = {
            let unfolded = writer::lock(&self.unfolded);
            let read = self.db()?.begin_read()?;
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
                    .open_table(EXPIRES)?
                    .get(id.as_str())?
                    .map_or(0, |at| at.value().1);
                (stored, touched)
            }
        };
        let Some(record) = record else {
            let gone = read.open_table(GONE)?;
            let reason = gone.get(id.as_str())?;
            return Ok(match reason.map(|r| r.value().0.to_string()).as_deref() {
                Some("ended") => Found::Gone(Gone::Ended),
                Some(_) => Found::Gone(Gone::Expired),
                None => Found::Nothing,
            });
        };
        let text = record;
        let json = match text.iter().position(|b| *b == b'\n') {
            Some(newline) => &text[newline + 1..],
            None => {
                return Err(StoreError::BadRow(
                    "a stored record without its game".into(),
                ))
            }
        };
        let snapshot =
            Snapshot::from_stored(json).map_err(|e| StoreError::BadRow(e.to_string()))?;
        Ok(Found::Table(Box::new(Stored { snapshot, touched })))
    }

    /// The ids of the tables whose time is up at `now` (Unix ms), oldest first.
    pub fn expired(&self, now: u64) -> Result<Vec<TableId>, StoreError> {
        let read = self.db()?.begin_read()?;
        let expiring = read.open_table(EXPIRING)?;
        let mut ids = Vec::new();
        for row in expiring.range(..(now, ""))? {
            let (key, _) = row?;
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
    pub fn watch_key(&self) -> Result<crate::table::WatchKey, StoreError> {
        let write = self.db()?.begin_write()?;
        let hex = {
            let mut secrets = write.open_table(SECRETS)?;
            let kept = secrets.get("watch_key")?.map(|k| k.value().to_string());
            match kept {
                Some(hex) => hex,
                None => {
                    let made = crate::table::WatchKey::random_hex();
                    secrets.insert("watch_key", made.as_str())?;
                    made
                }
            }
        };
        write.commit()?;
        crate::table::WatchKey::from_hex(&hex).map_err(StoreError::BadRow)
    }

    /// Removes the reasons kept long enough for tables closed for good, if there are any (a commit
    /// is made only then).
    pub fn sweep(&self) -> Result<(), StoreError> {
        let now = unix_ms();
        let read = self.db()?.begin_read()?;
        let gone = read.open_table(GONE)?;
        let mut rows = gone.iter()?;
        if rows.any(|row| row.is_ok_and(|(_, why)| why.value().1 < now)) {
            let _ = self.jobs.send(Job::Sweep);
        }
        Ok(())
    }

    /// How many tables the store holds.
    pub fn tables(&self) -> Result<u64, StoreError> {
        let read = self.db()?.begin_read()?;
        let records = read.open_table(RECORDS)?;
        records.len().map_err(StoreError::from)
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
        // A stalled store takes nothing more: the table pauses and tries again later.
        if self.file.stalled() {
            return futures_util::future::ready(StoreAnswer::Failed).boxed();
        }
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
        // A change whose commit stalls is answered as not stored (the table pauses, saying so, and
        // stores itself whole again once the store takes changes); the commit, if it ever returns,
        // only stores what the table will store again.
        async move {
            match tokio::time::timeout(STALLED_AFTER, answered).await {
                Ok(answer) => answer.unwrap_or(StoreAnswer::Failed),
                Err(_) => StoreAnswer::Failed,
            }
        }
        .boxed()
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
fn stored_record(
    read: &redb::ReadTransaction,
    id: &TableId,
) -> Result<Option<Vec<u8>>, StoreError> {
    let records = read.open_table(RECORDS)?;
    let Some(record) = records.get(id.as_str())? else {
        return Ok(None);
    };
    let mut text = record.value().to_vec();
    let played = read.open_table(PLAYED)?;
    for row in played.range((id.as_str(), 0)..=(id.as_str(), u64::MAX))? {
        let (_, line) = row?;
        text.push(b'\n');
        text.extend_from_slice(line.value());
    }
    Ok(Some(text))
}

#[cfg(test)]
mod tests;
