//! The embedded default: every table lives in this process, and is kept on disk in its embedded store
//! (see `disk`) unless `data_dir` is empty. A table nobody is connected to sleeps (its actor stops,
//! its record stays on disk) and the next request for it wakes it; a restart or a crash wakes each
//! table the same way, when it is next opened.

mod disk;

pub use disk::{Damaged, Disk, Found, Stored, FILE_NAME, STORE_FORMAT};

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use futures_util::future::{ready, BoxFuture, FutureExt};
use tokio::sync::oneshot;

use super::{configured_watch_key, table_config, OpenTable, Router};
use crate::catalog;
use crate::metrics::metrics;
use crate::settings::Settings;
use crate::table::{
    Change, Closing, Gone, TableConfig, TableHandle, TableId, TableRefusal, TableStore, WatchKey,
};

/// How often the store is swept of expired tables.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// An in-process address book of the tables living here.
#[derive(Clone, Default)]
pub struct LocalTables {
    tables: Arc<RwLock<HashMap<TableId, TableHandle>>>,
}

impl LocalTables {
    pub fn insert(&self, handle: TableHandle) {
        self.write().insert(handle.id.clone(), handle);
    }

    pub fn get(&self, id: &TableId) -> Option<TableHandle> {
        self.read().get(id).cloned()
    }

    /// What `f` makes of the table's handle, without a clone of it (cloning one allocates for each of
    /// its recipients): for the work done once per frame.
    pub fn with<R>(&self, id: &TableId, f: impl FnOnce(&TableHandle) -> R) -> Option<R> {
        self.read().get(id).map(f)
    }

    pub fn remove(&self, id: &TableId) -> Option<TableHandle> {
        self.write().remove(id)
    }

    pub fn len(&self) -> usize {
        self.read().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn all(&self) -> Vec<TableHandle> {
        self.read().values().cloned().collect()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<TableId, TableHandle>> {
        self.tables.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<TableId, TableHandle>> {
        self.tables.write().unwrap_or_else(|p| p.into_inner())
    }
}

/// Every table in this process.
pub struct LocalRouter {
    settings: Arc<Settings>,
    /// The quick pairing's queues and the open tables, in this process.
    lobby: Arc<crate::lobby::Hall>,
    /// The web server's workers, where tables are opened in turn: a table's sockets are served on its
    /// thread (see `server::socket`), so tables spread over the cores whichever connection asked for
    /// them (a proxy may send every request down one).
    workers: RwLock<Vec<actix::ArbiterHandle>>,
    next_worker: AtomicUsize,
    tables: LocalTables,
    /// The settings' watch key, or one made for this process (and kept in its store).
    watch_key: WatchKey,
    /// Where tables are kept; `None` keeps them in memory only.
    disk: Option<Arc<Disk>>,
    /// The tables being woken, each behind its own lock, so that one table wakes once.
    waking: Mutex<HashMap<TableId, Arc<tokio::sync::Mutex<()>>>>,
    /// The tables whose record was found damaged, said once each to the operator.
    damaged: Mutex<std::collections::HashSet<TableId>>,
    /// The tables closed for good whose record is still being removed from the store: a request
    /// meanwhile hears why, rather than waking the table again.
    closing: Arc<Mutex<HashMap<TableId, Gone>>>,
}

impl LocalRouter {
    /// The router, with its store opened in `data_dir` (none when that is empty).
    pub fn new(settings: Arc<Settings>) -> Result<LocalRouter, String> {
        let dir = settings.data_dir.trim();
        let damaged = match settings.store_damaged.as_str() {
            "refuse" => Damaged::Refuse,
            "set-aside" => Damaged::SetAside,
            other => {
                return Err(format!(
                    "store_damaged is \"refuse\" or \"set-aside\", not \"{other}\""
                ))
            }
        };
        let disk = (!dir.is_empty())
            .then(|| Disk::open_with(std::path::Path::new(dir), damaged))
            .transpose()?;
        let tables = LocalTables::default();
        if let Some(disk) = &disk {
            sweep_now_and_then(disk.clone(), tables.clone());
        }
        let watch_key = match (configured_watch_key(&settings), &disk) {
            (Some(key), _) => key,
            (None, Some(disk)) => disk
                .watch_key()
                .map_err(|e| format!("the watch key cannot be read from the store: {e}"))?,
            (None, None) => WatchKey::random(),
        };
        Ok(LocalRouter {
            lobby: Arc::new(crate::lobby::Hall::new(
                settings.pairing_gone_after(),
                settings.open_table_fresh(),
            )),
            watch_key,
            settings,
            workers: RwLock::default(),
            next_worker: AtomicUsize::new(0),
            tables,
            disk,
            waking: Mutex::default(),
            damaged: Mutex::default(),
            closing: Arc::default(),
        })
    }

    /// Why the table `id` closed for good, while its record is still being removed.
    fn closed_for_good(&self, id: &TableId) -> Option<TableRefusal> {
        lock(&self.closing).get(id).map(|gone| refusal_for(*gone))
    }

    /// The store, if tables are kept on disk.
    pub fn disk(&self) -> Option<&Arc<Disk>> {
        self.disk.as_ref()
    }

    /// How a table here behaves: it leaves the address book when it stops, and its record leaves the
    /// store when it closes for good.
    fn config(&self) -> TableConfig {
        let tables = self.tables.clone();
        let disk = self.disk.clone();
        let closed = self.closing.clone();
        let on_closed = Arc::new(move |id: &TableId, closing: Closing| {
            tables.remove(id);
            if let (Some(disk), Closing::Closed(gone)) = (&disk, closing) {
                lock(&closed).insert(id.clone(), gone);
                let forgotten = disk.forget(id, Some(gone));
                let (closed, id) = (closed.clone(), id.clone());
                actix_rt::spawn(async move {
                    let _ = forgotten.await;
                    lock(&closed).remove(&id);
                });
            }
            if closing == Closing::Asleep {
                metrics().tables_slept.inc();
            }
        });
        let store = self.disk.clone().map(|d| d as Arc<dyn TableStore>);
        table_config(&self.settings, on_closed, store)
    }

    /// Runs `open` on the worker whose turn it is (or here, with none), answering what it made.
    async fn on_a_worker<T: Send + 'static>(
        &self,
        open: impl Fn() -> Result<T, String> + Send + Clone + 'static,
    ) -> Result<T, String> {
        let (tell, told) = oneshot::channel();
        let there = open.clone();
        match self.next_worker() {
            Some(worker) => {
                worker.spawn(async move {
                    let _ = tell.send(there());
                });
            }
            // (Dropped here, so that the answer below is heard as "not opened there".)
            None => drop(tell),
        }
        // No worker yet, or one that has stopped (restarted after a panic) and dropped the job:
        // the table opens here.
        match told.await {
            Ok(opened) => opened,
            Err(_) => open(),
        }
    }

    /// Wakes the table `id` from the store: read, rebuilt on a worker, and in the address book.
    async fn wake(&self, id: &TableId) -> Result<TableHandle, TableRefusal> {
        let Some(disk) = self.disk.clone() else {
            return Err(TableRefusal::not_found());
        };
        let one = lock(&self.waking).entry(id.clone()).or_default().clone();
        let _one_at_a_time = one.lock().await;
        let woken = self.wake_from(&disk, id).await;
        lock(&self.waking).remove(id);
        woken
    }

    async fn wake_from(&self, disk: &Arc<Disk>, id: &TableId) -> Result<TableHandle, TableRefusal> {
        if let Some(handle) = self.tables.get(id).filter(|h| h.join.connected()) {
            return Ok(handle);
        }
        if let Some(refusal) = self.closed_for_good(id) {
            return Err(refusal);
        }
        let began = Instant::now();
        let found = {
            let (disk, id) = (disk.clone(), id.clone());
            actix_web::rt::task::spawn_blocking(move || disk.find(&id)).await
        };
        let stored = match found {
            Ok(Ok(Found::Table(stored))) => stored,
            Ok(Ok(Found::Gone(gone))) => return Err(refusal_for(gone)),
            Ok(Ok(Found::Nothing)) => return Err(TableRefusal::not_found()),
            Ok(Err(e)) if e.damaged() => {
                // Said once per table: its record stays as it is for an operator to restore.
                if lock(&self.damaged).insert(id.clone()) {
                    metrics().store_damaged_tables.inc();
                    tracing::error!(table = %id, "the table's record in the store is damaged ({e}); it stays unavailable until the store is restored from a backup");
                }
                return Err(TableRefusal::unavailable());
            }
            Ok(Err(e)) => {
                metrics().store_errors.inc();
                tracing::error!(table = %id, "cannot read the table from the store: {e}");
                return Err(TableRefusal::unavailable());
            }
            Err(_) => return Err(TableRefusal::unavailable()),
        };
        let config = self.config();
        let (game, snapshot, table) = (stored.snapshot.game.clone(), stored.snapshot, id.clone());
        let handle = self
            .on_a_worker(move || {
                catalog::find(&game)
                    .and_then(|g| g.rebuild(table.clone(), snapshot.clone(), config.clone()))
            })
            .await
            .map_err(|e| {
                tracing::error!(table = %id, "cannot rebuild the table from its record: {e}");
                TableRefusal::unavailable()
            })?;
        self.tables.insert(handle.clone());
        metrics().tables_woken.inc();
        metrics()
            .wake_seconds
            .observe(began.elapsed().as_secs_f64());
        Ok(handle)
    }

    /// The worker whose turn it is to hold a table, if any has started.
    fn next_worker(&self) -> Option<actix::ArbiterHandle> {
        let workers = self.workers.read().unwrap_or_else(|p| p.into_inner());
        let turn = self.next_worker.fetch_add(1, Ordering::Relaxed);
        workers.get(turn % workers.len().max(1)).cloned()
    }
}

/// What a request for a table closed for good hears.
fn refusal_for(gone: Gone) -> TableRefusal {
    match gone {
        Gone::Ended => TableRefusal::match_ended(),
        Gone::Expired => TableRefusal::table_expired(),
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// Opens a table on the thread this runs on: its handle and first snapshot.
fn open_here(
    request: &OpenTable,
    config: TableConfig,
) -> Result<(TableHandle, crate::table::Snapshot), String> {
    catalog::find(&request.game).and_then(|game| game.open(request, config))
}

/// Removes the tables whose time is up from the store, now and every [`SWEEP_EVERY`], skipping those
/// awake (they close themselves), and counts the tables asleep.
fn sweep_now_and_then(disk: Arc<Disk>, tables: LocalTables) {
    let sweep = move || loop {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        match disk.expired(now) {
            Ok(ids) => {
                for id in ids.iter().filter(|id| tables.get(id).is_none()) {
                    tracing::info!(table = %id, "a sleeping table expires");
                    metrics()
                        .tables_expired
                        .with_label_values(&["expired"])
                        .inc();
                    drop(disk.forget(id, Some(Gone::Expired)));
                }
            }
            Err(e) => {
                metrics().store_errors.inc();
                tracing::error!("cannot sweep the table store: {e}");
            }
        }
        if let Err(e) = disk.sweep() {
            tracing::error!("cannot sweep the table store: {e}");
        }
        if let Ok(stored) = disk.tables() {
            let asleep = stored.saturating_sub(tables.len() as u64);
            metrics().tables_asleep.set(asleep as i64);
        }
        std::thread::sleep(SWEEP_EVERY);
    };
    let _ = std::thread::Builder::new()
        .name("store-sweeper".into())
        .spawn(sweep);
}

impl Router for LocalRouter {
    fn open(&self, request: OpenTable) -> BoxFuture<'_, Result<TableId, TableRefusal>> {
        let config = self.config();
        let disk = self.disk.clone();
        let fits = request.fits_here();
        let expiry = crate::routing::expiry(&self.settings);
        let keep_for = match request.kind {
            crate::table::TableKind::Friends => expiry.friends,
            crate::table::TableKind::Computer => expiry.computer,
        };
        async move {
            fits?;
            if !self.store_open() {
                return Err(TableRefusal::store_closed());
            }
            let opened = self
                .on_a_worker(move || {
                    let (handle, snapshot) = open_here(&request, config.clone())?;
                    // Queued on the table's own thread before its actor runs: its first record
                    // reaches the store before anything the table stores itself.
                    let first = disk.as_ref().map(|disk| {
                        let whole = Change::Whole {
                            game: handle.game,
                            json: snapshot.to_json(),
                        };
                        disk.keep(&handle.id, whole, keep_for)
                    });
                    Ok((handle, first))
                })
                .await;
            let (handle, first) = opened.map_err(TableRefusal::bad_request)?;
            let id = handle.id.clone();
            self.tables.insert(handle);
            // The link is given out once the table is on disk; a table that could not be stored
            // is given to nobody, so it stops at once rather than wait in memory for ever.
            if let Some(first) = first {
                if first.await != crate::table::StoreAnswer::Stored {
                    if let Some(keep) = self.tables.remove(&id).and_then(|h| h.keep) {
                        keep.do_send(crate::table::OwnerOrder::Lost);
                    }
                    return Err(TableRefusal::unavailable());
                }
            }
            Ok(id)
        }
        .boxed()
    }

    fn find<'a>(&'a self, id: &'a TableId) -> BoxFuture<'a, Result<TableHandle, TableRefusal>> {
        if let Some(handle) = self.tables.get(id).filter(|h| h.join.connected()) {
            return ready(Ok(handle)).boxed();
        }
        self.wake(id).boxed()
    }

    fn stored<'a>(
        &'a self,
        id: &'a TableId,
    ) -> BoxFuture<'a, Result<(crate::table::Snapshot, u64), TableRefusal>> {
        async move {
            let Some(disk) = self.disk.clone() else {
                // Kept in memory only: a table is listed only while it is open.
                return Err(TableRefusal::unavailable());
            };
            if let Some(refusal) = self.closed_for_good(id) {
                return Err(refusal);
            }
            let read = {
                let id = id.clone();
                actix_web::rt::task::spawn_blocking(move || disk.find(&id)).await
            };
            match read {
                Ok(Ok(Found::Table(stored))) => Ok((stored.snapshot, stored.touched)),
                Ok(Ok(Found::Gone(gone))) => Err(refusal_for(gone)),
                Ok(Ok(Found::Nothing)) => Err(TableRefusal::not_found()),
                Ok(Err(_)) | Err(_) => Err(TableRefusal::unavailable()),
            }
        }
        .boxed()
    }

    fn store_open(&self) -> bool {
        self.disk.as_ref().is_none_or(|disk| disk.is_open())
    }

    fn open_tables(&self) -> usize {
        self.tables.len()
    }

    fn worker_started(&self) {
        if let Some(worker) = actix::Arbiter::try_current() {
            let mut workers = self.workers.write().unwrap_or_else(|p| p.into_inner());
            workers.push(worker);
        }
    }

    fn hand_over(&self) -> BoxFuture<'_, ()> {
        ready(()).boxed()
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        let Some(disk) = self.disk.clone() else {
            return ready(()).boxed();
        };
        async move {
            let _ = actix_web::rt::task::spawn_blocking(move || disk.close()).await;
        }
        .boxed()
    }

    fn lobby(&self) -> Arc<dyn crate::lobby::Lobby> {
        self.lobby.clone()
    }

    fn watch_key(&self) -> BoxFuture<'_, Result<WatchKey, TableRefusal>> {
        ready(Ok(self.watch_key.clone())).boxed()
    }
}
