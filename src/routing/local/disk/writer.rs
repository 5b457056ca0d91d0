//! The store's one writer thread. It takes every job queued, appends the changes to the log in one
//! transaction and commits it (with `fsync`) before answering any of them: one commit serves every
//! table whose change arrived meanwhile. About once a second, and when the store closes, it folds the
//! logged changes into their tables' rows in one more commit (see `log`).
//!
//! **Healing.** After an I/O error (a full disk, a device gone for a moment) redb refuses every
//! transaction until the database is closed and opened again. So when a commit or a fold fails, the
//! writer takes the database out of the readers' hands, closes it and opens the file again, with a
//! back-off, until it opens (`heal`). Meanwhile each change queued is answered `Failed` at once: its
//! table stays paused and sends itself whole again (see `table::core::storing`), so play resumes by
//! itself within a retry of the disk coming back, and nothing that was acknowledged was ever anything
//! but committed. Failures are logged once, then once every `QUIET` while they go on.

use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use redb::{Database, ReadableTable};
use tokio::sync::oneshot;

use super::file::open_file;
use super::log::{self, Entry, Unfolded};
use super::{gone_name, unix_ms, Job, EXPIRES, EXPIRING, GONE, GONE_KEPT, LOG, PLAYED, RECORDS};
use super::{File, StoreError};
use crate::metrics::metrics;
use crate::table::{Change, Gone, StoreAnswer};

/// The most changes one commit takes.
const BATCH: usize = 1024;

/// How long a change stays in the log before it is folded, and how many may wait.
const FOLD_EVERY: Duration = Duration::from_secs(1);
const FOLD_AT: usize = 8192;

/// A table's expiry is written again only when it moves by more than this: most folds then write no
/// expiry, and "last move" is told to the minute.
const EXPIRY_STEP: u64 = 60_000;

pub(super) fn lock(unfolded: &Mutex<Unfolded>) -> MutexGuard<'_, Unfolded> {
    unfolded.lock().unwrap_or_else(|p| p.into_inner())
}

/// The longest wait between two attempts to open the store again, and how often a failure that
/// lasts is logged again.
const BACK_OFF_MAX: Duration = Duration::from_secs(2);
const QUIET: Duration = Duration::from_secs(30);

/// A write transaction, committed with `fsync` (redb's default, `Durability::Immediate`). Built with
/// the feature `unsynced-store`, for a benchmark only, it commits without: the load's cost with the
/// disk's share taken out (tests/perf/store-cpu.sh). Nothing acknowledged by such a build is durable.
fn begin(db: &Database) -> Result<redb::WriteTransaction, StoreError> {
    #[allow(unused_mut)]
    let mut write = db.begin_write()?;
    #[cfg(feature = "unsynced-store")]
    write.set_durability(redb::Durability::None)?;
    Ok(write)
}

/// Writes until the store closes (or every sender has gone).
pub(super) fn write_all(file: &File, unfolded: &Mutex<Unfolded>, queue: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(BATCH);
    let mut closing = false;
    while !closing {
        match queue.recv_timeout(FOLD_EVERY) {
            Ok(first) => batch.push(first),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => closing = true,
        }
        while !batch.is_empty() && batch.len() < BATCH {
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
        let Ok(db) = file.db() else {
            fail(&mut batch);
            continue;
        };
        let mut failed = None;
        file.working(true);
        if !batch.is_empty() {
            failed = commit_and_answer(&db, unfolded, &mut batch).err();
        }
        let due = {
            let shared = lock(unfolded);
            shared.count >= FOLD_AT || shared.since.is_some_and(|t| t.elapsed() >= FOLD_EVERY)
        };
        if failed.is_none() && (due || closing) {
            if let Err(e) = fold(&db, unfolded) {
                metrics().store_errors.inc();
                if let Some(unsaid) = loudly() {
                    tracing::error!(unsaid, "folding the table store's log failed: {e}");
                }
                failed = Some(e);
            }
        }
        file.working(false);
        drop(db);
        if failed.is_some() && !closing {
            closing = heal(file, unfolded, &queue);
        }
    }
}

/// Whether to log a failure of the store now: the first, then one every `QUIET` while they go on
/// (a full disk fails every commit for as long as it is full), with how many were not logged since.
fn loudly() -> Option<u64> {
    thread_local! {
        static SAID: std::cell::Cell<(Option<Instant>, u64)> = const { std::cell::Cell::new((None, 0)) };
    }
    SAID.with(|said| {
        let (last, unsaid) = said.get();
        if last.is_some_and(|at| at.elapsed() < QUIET) {
            said.set((last, unsaid + 1));
            return None;
        }
        said.set((Some(Instant::now()), 0));
        Some(unsaid)
    })
}

/// Answers every change of `batch` as not stored.
fn fail(batch: &mut Vec<Job>) {
    for job in batch.drain(..) {
        if let Job::Keep { answer, .. } = job {
            let _ = answer.send(StoreAnswer::Failed);
        }
    }
}

/// Closes the store's database and opens its file again, trying with a back-off until it opens;
/// changes queued meanwhile are answered `Failed` (their tables try again), the other jobs wait for
/// the store. Returns whether the store was closed meanwhile.
fn heal(file: &File, unfolded: &Mutex<Unfolded>, queue: &mpsc::Receiver<Job>) -> bool {
    let began = Instant::now();
    // Readers are refused from now on; the last one lets go of the database within a read.
    if let Some(mut db) = file.take() {
        while let Err(held) = Arc::try_unwrap(db) {
            db = held;
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    metrics().store_open.set(0);
    if let Some(unsaid) = loudly() {
        tracing::warn!(
            unsaid,
            "the table store is opened again after an error; its tables pause until it is back"
        );
    }
    let mut wait = Duration::from_millis(50);
    let mut waiting = Vec::new();
    loop {
        match open_file(&file.path) {
            Ok((db, log)) => {
                // What the file holds is what was committed: its log is the changes pending.
                *lock(unfolded) = log;
                file.put(db);
                metrics().store_open.set(1);
                metrics().store_reopens.inc();
                tracing::info!(after = ?began.elapsed(), "the table store is open again");
                break;
            }
            Err(e) => {
                metrics().store_errors.inc();
                if let Some(unsaid) = loudly() {
                    let e = e.say(&file.path);
                    tracing::error!(unsaid, for_ = ?began.elapsed(), "the table store cannot be opened again yet: {e}");
                }
            }
        }
        std::thread::sleep(wait);
        wait = (wait * 2).min(BACK_OFF_MAX);
        while let Ok(job) = queue.try_recv() {
            match job {
                Job::Keep { answer, .. } => drop(answer.send(StoreAnswer::Failed)),
                Job::Close => return true,
                other => waiting.push(other),
            }
        }
    }
    // The other jobs (a table forgotten, a sweep) are carried out now the store is back.
    if !waiting.is_empty() {
        let _ = commit_and_answer(&file.db().expect("just opened"), unfolded, &mut waiting);
    }
    false
}

fn commit_and_answer(
    db: &Database,
    unfolded: &Mutex<Unfolded>,
    batch: &mut Vec<Job>,
) -> Result<(), StoreError> {
    let began = Instant::now();
    let m = metrics();
    match commit(db, unfolded, batch) {
        Ok(answers) => {
            m.store_commits.inc();
            m.store_commit_seconds
                .observe(began.elapsed().as_secs_f64());
            m.store_changes_per_commit.observe(answers.len() as f64);
            for (answer, said) in answers {
                let _ = answer.send(said);
            }
            batch.clear();
            Ok(())
        }
        Err(e) => {
            m.store_errors.inc();
            if let Some(unsaid) = loudly() {
                tracing::error!(unsaid, "a commit of the table store failed: {e}");
            }
            fail(batch);
            Err(e)
        }
    }
}

type Answers = Vec<(oneshot::Sender<StoreAnswer>, StoreAnswer)>;

/// Logs the batch's changes (and carries out its other jobs) in one write transaction and commits it:
/// the answer for each change, once the commit has returned, and the changes are then pending. On an
/// error nothing of the batch is stored (the jobs stay in `batch`).
fn commit(
    db: &Database,
    unfolded: &Mutex<Unfolded>,
    batch: &mut Vec<Job>,
) -> Result<Answers, StoreError> {
    let now = unix_ms();
    let write = begin(db)?;
    let mut said = Vec::with_capacity(batch.len());
    let mut staged: Vec<(Entry, u64)> = Vec::new();
    let mut forgotten: Vec<String> = Vec::new();
    // Tables whose record was looked up and found.
    let mut found: Vec<String> = Vec::new();
    let next_row = {
        let shared = lock(unfolded);
        let mut next_row = shared.next_row;
        let mut log_rows = write.open_table(LOG)?;
        let mut tables = Tables::open(&write)?;
        for job in batch.iter() {
            match job {
                Job::Keep {
                    id,
                    change,
                    keep_for,
                    ..
                } => {
                    let id = id.as_str();
                    if let Change::Played { .. } = change {
                        // Lines for a record the store does not hold are refused, not guessed.
                        let kept = !forgotten.iter().any(|f| f == id)
                            && (shared.recorded.contains(id) || shared.has_whole(id));
                        let known =
                            kept || staged.iter().any(|(e, _)| e.id == id && e.whole.is_some());
                        if !known {
                            if tables.records.get(id)?.is_none() {
                                said.push(StoreAnswer::Missing);
                                continue;
                            }
                            found.push(id.to_string());
                        }
                    }
                    let until =
                        now.saturating_add(keep_for.as_millis().min(u64::MAX as u128) as u64);
                    let (row, entry) = log::row(id, change, until, now);
                    log_rows.insert(next_row, row.as_slice())?;
                    staged.push((entry, next_row));
                    next_row += 1;
                    said.push(StoreAnswer::Stored);
                }
                Job::Forget { id, gone, .. } => {
                    // Its logged rows go with it, lest a fold or a restart bring it back.
                    let id = id.as_str();
                    let pending = shared.tables.get(id).map(|p| p.rows.as_slice());
                    let staged_rows = staged.iter().filter(|(e, _)| e.id == id).map(|(_, r)| r);
                    for row in pending.unwrap_or_default().iter().chain(staged_rows) {
                        log_rows.remove(*row)?;
                    }
                    staged.retain(|(e, _)| e.id != id);
                    forgotten.push(id.to_string());
                    tables.forget(id, *gone, now)?;
                }
                Job::Sweep => tables.sweep_gone(now)?,
                Job::Close => {}
            }
        }
        next_row
    };
    write.commit()?;
    {
        let mut shared = lock(unfolded);
        shared.recorded.extend(found);
        for id in &forgotten {
            shared.recorded.remove(id);
            if let Some(pending) = shared.tables.remove(id) {
                shared.count = shared.count.saturating_sub(pending.rows.len());
            }
        }
        for (entry, row) in staged {
            shared.add(entry, row);
        }
        shared.next_row = next_row;
    }
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

/// Folds every pending change into its table's rows and empties the log, in one commit. Readers wait
/// meanwhile (they lay the pending changes over the rows, so both must move together).
pub(super) fn fold(db: &Database, unfolded: &Mutex<Unfolded>) -> Result<(), StoreError> {
    let mut shared = lock(unfolded);
    if shared.count == 0 {
        return Ok(());
    }
    let write = begin(db)?;
    {
        let mut tables = Tables::open(&write)?;
        for (id, pending) in &shared.tables {
            let id = id.as_str();
            if let Some(whole) = &pending.whole {
                tables.records.insert(id, whole.as_slice())?;
                tables.drop_played(id)?;
            }
            // The lines of one fold are one row, keyed by the version the first made: a read joins
            // the rows with newlines, so a row of several lines reads as they did one by one, and a
            // fold writes a row per table, not one per move.
            if let Some(from) = pending.from {
                let lines = &pending.lines;
                tables
                    .played
                    .insert((id, from), lines.strip_prefix(b"\n").unwrap_or(lines))?;
            }
            tables.set_expiry(id, pending.until, pending.touched)?;
        }
        // Every row is folded now (those of tables forgotten went with them).
        // Deleting the log whole frees its pages at once, where removing its rows one by one
        // would walk and rebalance the tree for each.
        write.delete_table(LOG)?;
        write.open_table(LOG)?;
    }
    write.commit()?;
    metrics().store_commits.inc();
    shared.folded();
    Ok(())
}

/// The store's tables open in one write transaction.
struct Tables<'t> {
    records: redb::Table<'t, &'static str, &'static [u8]>,
    played: redb::Table<'t, (&'static str, u64), &'static [u8]>,
    expires: redb::Table<'t, &'static str, (u64, u64)>,
    expiring: redb::Table<'t, (u64, &'static str), ()>,
    gone: redb::Table<'t, &'static str, (&'static str, u64)>,
}

impl<'t> Tables<'t> {
    fn open(write: &'t redb::WriteTransaction) -> Result<Tables<'t>, StoreError> {
        Ok(Tables {
            records: write.open_table(RECORDS)?,
            played: write.open_table(PLAYED)?,
            expires: write.open_table(EXPIRES)?,
            expiring: write.open_table(EXPIRING)?,
            gone: write.open_table(GONE)?,
        })
    }

    fn drop_played(&mut self, id: &str) -> Result<(), StoreError> {
        self.played
            .retain_in((id, 0)..=(id, u64::MAX), |_, _| false)
            .map_err(StoreError::from)
    }

    fn set_expiry(&mut self, id: &str, until: u64, now: u64) -> Result<(), StoreError> {
        let old = self.expires.get(id)?.map(|at| at.value());
        if let Some((old_until, _)) = old {
            if old_until.abs_diff(until) < EXPIRY_STEP {
                return Ok(());
            }
            self.expiring.remove((old_until, id))?;
        }
        self.expires.insert(id, (until, now))?;
        self.expiring.insert((until, id), ())?;
        Ok(())
    }

    fn forget(&mut self, id: &str, gone: Option<Gone>, now: u64) -> Result<(), StoreError> {
        self.records.remove(id)?;
        self.drop_played(id)?;
        let old = self.expires.remove(id)?.map(|at| at.value());
        if let Some((until, _)) = old {
            self.expiring.remove((until, id))?;
        }
        if let Some(gone) = gone {
            let until = now + GONE_KEPT.as_millis() as u64;
            self.gone.insert(id, (gone_name(gone), until))?;
        }
        Ok(())
    }

    fn sweep_gone(&mut self, now: u64) -> Result<(), StoreError> {
        self.gone
            .retain(|_, (_, until)| until >= now)
            .map_err(StoreError::from)
    }
}
