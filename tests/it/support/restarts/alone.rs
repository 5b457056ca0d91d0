//! A `chaikhana serve` process alone over a data folder the test keeps across its lives: started,
//! stopped with SIGTERM or SIGKILL, started again on the same port and folder; and its store read
//! from a copy once the process is dead.

use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use chaikhana::routing::{Disk, Found, FILE_NAME};
use chaikhana::table::{Snapshot, TableId};

use super::{Stop, PATIENCE};
use crate::support::cluster::steady_port;
use crate::support::process::{flat_out, metrics_of, serve_command, signal};

/// A `chaikhana serve` process alone, on a port and a data folder it keeps from one life to the next.
pub struct Alone {
    child: Option<Child>,
    pub port: u16,
    /// Its `data_dir`.
    pub dir: PathBuf,
    settings: Vec<(String, String)>,
    /// How many times it has been started.
    pub lives: usize,
    /// Copies of the store read so far.
    reads: usize,
}

impl Alone {
    /// Starts the server on a fresh data folder, with more settings as `CHAIKHANA_*` variables.
    pub async fn start(settings: &[(&str, &str)]) -> Alone {
        Alone::start_in(crate::support::fresh_data_dir(), settings).await
    }

    /// Starts the server on the data folder `dir` (which may hold a store already).
    pub async fn start_in(dir: PathBuf, settings: &[(&str, &str)]) -> Alone {
        let mut alone = Alone {
            child: None,
            port: steady_port(),
            dir,
            settings: settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            lives: 0,
            reads: 0,
        };
        alone.start_again().await;
        alone
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The file the current (or last) life writes its output to.
    fn log(&self) -> PathBuf {
        let mut name = self.dir.file_name().unwrap_or_default().to_owned();
        name.push(format!("-life-{}.log", self.lives));
        self.dir.with_file_name(name)
    }

    /// The end of the last life's output, to say why something went wrong.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.log()).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    }

    /// Starts a new life on the same folder, and waits until it listens: on the same port, unless
    /// another process took it meanwhile (then `base` changes).
    pub async fn start_again(&mut self) {
        assert!(self.child.is_none(), "the server is still running");
        if std::net::TcpListener::bind(("127.0.0.1", self.port)).is_err() {
            self.port = steady_port();
        }
        self.lives += 1;
        let log = std::fs::File::create(self.log()).expect("a log file");
        let child = flat_out(&mut serve_command())
            .env("CHAIKHANA_READ_BYTES_PER_SECOND", "1073741824")
            .env("CHAIKHANA_READ_BYTES_BURST", "1073741824")
            .env("CHAIKHANA_TABLES_PER_MINUTE", "0")
            .env("CHAIKHANA_LOG_FILTER", "chaikhana=info")
            .envs(self.settings.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .env("CHAIKHANA_DATA_DIR", &self.dir)
            .env("CHAIKHANA_LISTEN", format!("127.0.0.1:{}", self.port))
            .stdout(Stdio::from(log))
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        self.child = Some(child);
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            if let Some(status) = self.child.as_mut().and_then(|c| c.try_wait().ok()?) {
                panic!(
                    "life {} of the server ended before it listened ({status}):\n{}",
                    self.lives,
                    self.log_tail()
                );
            }
            assert!(
                started.elapsed() < PATIENCE,
                "life {} of the server did not listen:\n{}",
                self.lives,
                self.log_tail()
            );
            actix_rt::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The process's metrics, in the Prometheus text format.
    pub async fn metrics(&self) -> String {
        metrics_of(&self.base()).await
    }

    /// Ends this life with `stop` and waits until the process has gone.
    pub async fn stop(&mut self, stop: Stop) -> ExitStatus {
        let mut child = self.child.take().expect("the server is running");
        signal(child.id(), stop.signal());
        let started = Instant::now();
        loop {
            if let Some(status) = child.try_wait().expect("the child can be waited for") {
                return status;
            }
            if started.elapsed() > PATIENCE {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "life {} of the server did not stop on {stop:?}:\n{}",
                    self.lives,
                    self.log_tail()
                );
            }
            actix_rt::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// What the store holds for each of `tables`, read while the process is dead from a copy of its
    /// file: the copy is opened (and recovered, after a SIGKILL) as a new life would open the store,
    /// and the file itself stays exactly as the last life left it.
    pub fn stored(&mut self, tables: &[&str]) -> Vec<Result<Snapshot, String>> {
        assert!(
            self.child.is_none(),
            "the store is read once the process is dead"
        );
        self.reads += 1;
        let mut name = self.dir.file_name().unwrap_or_default().to_owned();
        name.push(format!("-read-{}", self.reads));
        let copy = self.dir.with_file_name(name);
        let _ = std::fs::remove_dir_all(&copy);
        std::fs::create_dir_all(&copy).expect("a folder for the copy");
        std::fs::copy(self.dir.join(FILE_NAME), copy.join(FILE_NAME)).expect("the store is copied");
        let found = read_store(&copy, tables);
        let _ = std::fs::remove_dir_all(&copy);
        found
    }
}

impl Drop for Alone {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        // A failed test leaves the folder and the logs to be looked at.
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
            for life in 1..=self.lives {
                let mut name = self.dir.file_name().unwrap_or_default().to_owned();
                name.push(format!("-life-{life}.log"));
                let _ = std::fs::remove_file(self.dir.with_file_name(name));
            }
        }
    }
}

/// What the store in the folder `dir` holds for each of `tables` (nothing running may hold it).
pub fn read_store(dir: &Path, tables: &[&str]) -> Vec<Result<Snapshot, String>> {
    let disk = match Disk::open(dir) {
        Ok(disk) => disk,
        Err(e) => return tables.iter().map(|_| Err(e.clone())).collect(),
    };
    let found = tables
        .iter()
        .map(|table| {
            let id = TableId::parse(table).ok_or(format!("{table} is not a table id"))?;
            match disk.find(&id).map_err(|e| e.to_string())? {
                Found::Table(stored) => Ok(stored.snapshot),
                Found::Gone(gone) => Err(format!("the store says table {table} is gone: {gone:?}")),
                Found::Nothing => Err(format!("the store holds nothing for table {table}")),
            }
        })
        .collect();
    drop(disk);
    released(&dir.join(FILE_NAME));
    found
}

/// Waits until nothing in this process holds the store file `path` open (a `Disk`'s writer thread
/// lets it go once it sees its queue close).
pub fn released(path: &Path) {
    let started = Instant::now();
    loop {
        match redb::Database::open(path) {
            Ok(_) => return,
            Err(redb::DatabaseError::DatabaseAlreadyOpen) => {
                assert!(
                    started.elapsed() < PATIENCE,
                    "{} stays open",
                    path.display()
                );
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
}
