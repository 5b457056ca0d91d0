//! A redis-server of the test's own, in a folder of its own (keeping nothing, or an append-only file),
//! killed and brought back; and a table's record as its snapshot in Redis holds it.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use chaikhana::table::{Snapshot, TableRecord};

use super::{have_redis, steady_port, wait_until};

/// What a redis-server keeps on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persistence {
    /// Nothing: a restart loses everything.
    None,
    /// An append-only file synced every second, as `k8s/redis.yaml` runs it.
    AppendOnly,
}

/// A redis-server of the test's own, in a folder of its own.
pub struct Redis {
    child: Child,
    pub port: u16,
    persistence: Persistence,
    dir: PathBuf,
}

impl Redis {
    /// One that keeps nothing on disk, if redis-server is installed (else `None`, having said why).
    pub async fn if_installed() -> Option<Redis> {
        if have_redis() {
            Some(Redis::start().await)
        } else {
            None
        }
    }

    /// One that keeps nothing on disk.
    pub async fn start() -> Redis {
        Redis::keeping(Persistence::None).await
    }

    pub async fn keeping(persistence: Persistence) -> Redis {
        let port = steady_port();
        let dir =
            std::env::temp_dir().join(format!("chaikhana-redis-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder for redis-server");
        let child = Redis::spawn(port, persistence, &dir).await;
        Redis {
            child,
            port,
            persistence,
            dir,
        }
    }

    async fn spawn(port: u16, persistence: Persistence, dir: &std::path::Path) -> Child {
        let port_arg = port.to_string();
        let mut args = vec!["--port", &port_arg, "--dir", dir.to_str().unwrap()];
        args.extend(match persistence {
            Persistence::None => ["--save", "", "--appendonly", "no"],
            Persistence::AppendOnly => ["--appendonly", "yes", "--appendfsync", "everysec"],
        });
        let child = Command::new("redis-server")
            .args(&args)
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        wait_until("redis-server listens", || {
            std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
        })
        .await;
        child
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// SIGKILLs it: whatever it had not yet written to disk is lost.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Starts it again on the same port and folder, reading back whatever it kept.
    pub async fn back(&mut self) {
        self.child = Redis::spawn(self.port, self.persistence, &self.dir).await;
    }

    /// Kills it and starts it again on the same port.
    pub async fn restart(&mut self) {
        self.kill();
        actix_rt::time::sleep(Duration::from_millis(300)).await;
        self.back().await;
    }

    /// The table's record as its snapshot in Redis holds it: the truth any owner rebuilds from.
    pub fn record(&self, table: &str) -> Result<TableRecord, String> {
        let client = redis::Client::open(self.url()).map_err(|e| e.to_string())?;
        record_in(&client, table)
    }
}

/// The table's record as its snapshot in the Redis `client` reaches holds it.
pub fn record_in(client: &redis::Client, table: &str) -> Result<TableRecord, String> {
    let mut connection = client.get_connection().map_err(|e| e.to_string())?;
    let key = format!("chaikhana:snapshot:{table}");
    stored_record(&mut connection, &key, "Redis")
}

/// The table's record as the snapshot under `key` holds it, read through `connection` (a lone Redis,
/// a Cluster); `holder` names the Redis in the error when there is none.
pub fn stored_record(
    connection: &mut impl redis::ConnectionLike,
    key: &str,
    holder: &str,
) -> Result<TableRecord, String> {
    let stored: Option<Vec<u8>> = redis::cmd("GET")
        .arg(key)
        .query(connection)
        .map_err(|e| e.to_string())?;
    let stored = stored.ok_or(format!("{holder} holds no snapshot of the table"))?;
    // The game's name, a newline, then the snapshot as `Snapshot::from_stored` reads it.
    let newline = stored.iter().position(|b| *b == b'\n').unwrap_or(0);
    let snapshot = Snapshot::from_stored(&stored[newline + 1..]).map_err(|e| e.to_string())?;
    Ok(TableRecord {
        game: Box::leak(snapshot.game.into_boxed_str()),
        version: snapshot.version,
        deals: snapshot.deals,
    })
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
