//! The store's file: opening it (a damaged file is told from an empty one, and from one in use), its
//! tables made and its format checked, the log a stopped store left read back; and the database shared
//! by the readers and the writer, with the time the writer has been in a commit (a stalled disk).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use redb::{Database, ReadableDatabase, ReadableTable};

use super::log::{self, Unfolded};
use super::{StoreError, EXPIRES, EXPIRING, GONE, LOG, META, PLAYED, RECORDS, STORE_FORMAT};

/// The store's file and its database, shared by the readers and the writer. The database is taken
/// out while the writer reopens it after an I/O error (see `writer::heal`), and when the store closes.
pub(super) struct File {
    pub(super) path: PathBuf,
    pub(super) db: RwLock<Option<Arc<Database>>>,
    /// Since when the writer has been in a commit or a fold, if it is.
    pub(super) busy_since: Mutex<Option<Instant>>,
}

/// How long a commit (or a fold) may take before the store is said to be stalled: a disk that
/// stopped answering (frozen, or its `fsync` hung). Tables then pause, saying they wait for their
/// storage; new tables are refused; the node says it is not ready.
pub const STALLED_AFTER: Duration = Duration::from_secs(3);

impl File {
    /// The writer begins (`true`) or ends a commit or a fold.
    pub(super) fn working(&self, busy: bool) {
        *self.busy_since.lock().unwrap_or_else(|p| p.into_inner()) = busy.then(Instant::now);
        if !busy {
            crate::metrics::metrics().store_stalled.set(0);
        }
    }

    /// Whether the writer has been in one commit or fold for longer than `STALLED_AFTER` (said to
    /// the operator as `chaikhana_store_stalled`, and logged once a stall).
    pub(super) fn stalled(&self) -> bool {
        let since = *self.busy_since.lock().unwrap_or_else(|p| p.into_inner());
        let stalled = since.is_some_and(|since| since.elapsed() > STALLED_AFTER);
        if stalled && crate::metrics::metrics().store_stalled.get() == 0 {
            crate::metrics::metrics().store_stalled.set(1);
            tracing::error!(
                store = %self.path.display(),
                "the table store's disk has not finished a write for {} s: tables wait for it",
                STALLED_AFTER.as_secs()
            );
        }
        stalled
    }

    /// The database, while it is open.
    pub(super) fn db(&self) -> Result<Arc<Database>, StoreError> {
        let db = self.db.read().unwrap_or_else(|p| p.into_inner());
        db.clone().ok_or(StoreError::Closed)
    }

    /// Takes the database out: readers are refused until another is put back.
    pub(super) fn take(&self) -> Option<Arc<Database>> {
        self.db.write().unwrap_or_else(|p| p.into_inner()).take()
    }

    pub(super) fn put(&self, db: Database) {
        *self.db.write().unwrap_or_else(|p| p.into_inner()) = Some(Arc::new(db));
    }
}

/// Why a store file could not be opened.
#[derive(Debug)]
pub(super) enum Unopened {
    /// The file is there but is not a store this release can read: empty, cut short, overwritten.
    Damaged(String),
    /// Anything else (in use, not allowed, a newer format), said as a sentence.
    Other(String),
}

/// What to do with a damaged store file at start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damaged {
    /// Stop, saying what to do (the default: its tables may be restored from a backup).
    Refuse,
    /// Keep it beside, renamed, and start with an empty store (setting `store_damaged = "set-aside"`).
    SetAside,
}

/// Opens the database at `path`, makes its tables, checks its format, and reads back its log. A file
/// that is there but is not a store redb can read is `Damaged`: never taken for an empty store (redb
/// would make a new one in an empty file), and a panic in redb reading it is caught.
pub(super) fn open_file(path: &Path) -> Result<(Database, Unfolded), Unopened> {
    if std::fs::metadata(path).is_ok_and(|m| m.len() == 0) {
        return Err(Unopened::Damaged("the file is empty".into()));
    }
    let opened = std::panic::catch_unwind(|| open_redb(path));
    opened.unwrap_or_else(|_| Err(Unopened::Damaged("redb stopped reading it".into())))
}

fn open_redb(path: &Path) -> Result<(Database, Unfolded), Unopened> {
    use redb::{DatabaseError, StorageError};
    let db = redb::Builder::new()
        .set_cache_size(CACHE_BYTES)
        .create(path)
        .map_err(|e| match e {
            DatabaseError::DatabaseAlreadyOpen => Unopened::Other(format!(
                "the store {} is in use by another process (each process needs its own data_dir)",
                path.display()
            )),
            DatabaseError::Storage(StorageError::Corrupted(why)) => Unopened::Damaged(why),
            DatabaseError::RepairAborted => Unopened::Damaged("it could not be repaired".into()),
            e => Unopened::Other(format!("cannot open the store {}: {e}", path.display())),
        })?;
    let unusable = |e: StoreError| match e {
        StoreError::Redb(redb::Error::Corrupted(why)) => Unopened::Damaged(why),
        e => Unopened::Other(format!("the store {} cannot be used: {e}", path.display())),
    };
    prepare(&db).map_err(unusable)?;
    let unfolded = read_log(&db).map_err(unusable)?;
    Ok((db, unfolded))
}

impl Unopened {
    /// The sentence for the operator.
    pub(super) fn say(&self, path: &Path) -> String {
        match self {
            Unopened::Damaged(why) => format!(
                "the store {} is damaged ({why}) and was left as it is: restore it from a backup, or \
                 set store_damaged = \"set-aside\" to keep it beside, renamed, and start with an empty \
                 store (its tables are then lost)",
                path.display()
            ),
            Unopened::Other(sentence) => sentence.clone(),
        }
    }
}

/// The memory redb may keep of the store's pages: the tables awake are in memory anyway, and a
/// sleeping table should cost its bytes on disk, not in the process.
const CACHE_BYTES: usize = 16 << 20;

/// The changes a store left in its log (it stopped before folding them), read back in order.
fn read_log(db: &Database) -> Result<Unfolded, StoreError> {
    let read = db.begin_read()?;
    let rows = read.open_table(LOG)?;
    let mut unfolded = Unfolded::default();
    for row in rows.iter()? {
        let (key, row) = row?;
        unfolded.add(
            log::read(row.value()).map_err(StoreError::BadRow)?,
            key.value(),
        );
        unfolded.next_row = key.value() + 1;
    }
    Ok(unfolded)
}

/// Makes every table of the store (so that readers find them) and checks its format.
fn prepare(db: &Database) -> Result<(), StoreError> {
    let write = db.begin_write()?;
    {
        write.open_table(RECORDS)?;
        write.open_table(PLAYED)?;
        write.open_table(EXPIRES)?;
        write.open_table(EXPIRING)?;
        write.open_table(GONE)?;
        write.open_table(LOG)?;
        let mut meta = write.open_table(META)?;
        let format = meta.get("format")?.map(|f| f.value());
        match format {
            Some(format) if format > STORE_FORMAT => return Err(StoreError::NewerFormat(format)),
            Some(_) => {}
            None => {
                meta.insert("format", STORE_FORMAT)?;
            }
        }
    }
    write.commit().map_err(StoreError::from)
}
