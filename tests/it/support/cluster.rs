//! Several `chaikhana serve` processes around a real `redis-server`, on loopback: the processes, a
//! friends table with its seats on different nodes, and a TCP proxy that can cut a node off from
//! Redis.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use chaikhana::table::{Snapshot, TableRecord};

use crate::support::{action, choose, post, Client, Rng, Seated};

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A free port below the range the system hands out to outgoing connections, so that while a restarted
/// redis-server is down no other process's connection can take its port (seen on a busy machine).
pub fn steady_port() -> u16 {
    // Tests run side by side: each call starts its search somewhere else. A Cluster node also binds
    // its port + 10000 (the cluster bus), so both must be free, and both stay below 32768, where
    // Linux starts choosing the local ports of outgoing connections, which could take the bus's.
    static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let start = std::process::id().wrapping_mul(31).wrapping_add(call * 101);
    let free = |port: u16| TcpListener::bind(("127.0.0.1", port)).is_ok();
    (0..2_700)
        .map(|i| 20_000 + (start.wrapping_add(i) % 2_700) as u16)
        .find(|port| free(*port) && free(port + 10_000))
        .expect("a free port from 20000 to 22699 with its cluster bus port free")
}

pub fn have_redis() -> bool {
    crate::support::have_program("redis-server", "apt-get install redis-server")
}

pub async fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < Duration::from_secs(10), "{what}");
        actix_rt::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether `done` comes true within `patience` (asked every 10 ms).
pub async fn wait_for(patience: Duration, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while !done() {
        if started.elapsed() > patience {
            return false;
        }
        actix_rt::time::sleep(Duration::from_millis(10)).await;
    }
    true
}

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

/// The server the nodes run: this build's, or the one `CHAIKHANA_TEST_SERVER` names (an older build,
/// say, to see which of these tests it fails).
fn server_binary() -> String {
    std::env::var("CHAIKHANA_TEST_SERVER")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_chaikhana").to_string())
}

/// One `chaikhana serve` process.
pub struct Node {
    child: Child,
    pub base: String,
}

impl Node {
    pub async fn start(redis: &Redis, role: &str) -> Node {
        Node::start_on(&redis.url(), role).await
    }

    /// Two nodes of `role` sharing `redis`.
    pub async fn pair(redis: &Redis, role: &str) -> (Node, Node) {
        (
            Node::start(redis, role).await,
            Node::start(redis, role).await,
        )
    }

    /// A node reaching Redis at `redis_url` (perhaps through a [`Proxy`]). With
    /// `CHAIKHANA_TEST_NODE_LOGS` set to a folder, each node writes its debug log there.
    pub async fn start_on(redis_url: &str, role: &str) -> Node {
        Node::start_with(redis_url, role, &[]).await
    }

    /// The same, with more settings as `CHAIKHANA_*` variables.
    pub async fn start_with(redis_url: &str, role: &str, settings: &[(&str, &str)]) -> Node {
        let mut all = vec![
            ("CHAIKHANA_REDIS_URL", redis_url),
            ("CHAIKHANA_ROLE", role),
            ("CHAIKHANA_REDIS_LEASE_MS", "2000"),
        ];
        all.extend_from_slice(settings);
        Node::spawn(&all, None).await
    }

    /// A node alone, without Redis: a server in a process of its own, for a test that measures
    /// that process (the tests' own process holds every other test's servers too).
    pub async fn alone(settings: &[(&str, &str)]) -> Node {
        Node::spawn(settings, None).await
    }

    /// A node alone that may open no more than `open_files` files (its soft and hard limit), so that
    /// in a test of a flood its caps are what hold, not the machine's limit.
    pub async fn alone_with_open_files(settings: &[(&str, &str)], open_files: u64) -> Node {
        Node::spawn(settings, Some(open_files)).await
    }

    async fn spawn(settings: &[(&str, &str)], open_files: Option<u64>) -> Node {
        let port = free_port();
        let logs = std::env::var("CHAIKHANA_TEST_NODE_LOGS").ok();
        let data = super::fresh_data_dir();
        let mut command = Command::new(server_binary());
        if let Some(open_files) = open_files {
            use std::os::unix::process::CommandExt;
            let limit = libc::rlimit {
                rlim_cur: open_files as libc::rlim_t,
                rlim_max: open_files as libc::rlim_t,
            };
            // SAFETY: between fork and exec only setrlimit runs, on a struct of the parent's.
            unsafe {
                command.pre_exec(move || {
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                        Ok(())
                    } else {
                        Err(std::io::Error::last_os_error())
                    }
                });
            }
        }
        let child = command
            .arg("serve")
            .env("CHAIKHANA_DATA_DIR", &data)
            .envs(settings.iter().copied())
            .env("CHAIKHANA_LISTEN", format!("127.0.0.1:{port}"))
            .env("CHAIKHANA_BOT_DELAY_MS", "1")
            // The test clients add no number to the shuffles: deal at once.
            .env("CHAIKHANA_SHUFFLE_WAIT_MS", "0")
            .env("CHAIKHANA_RATE_PER_SECOND", "10000")
            .env("CHAIKHANA_JOINS_PER_MINUTE", "0")
            .env("CHAIKHANA_RATE_BURST", "10000")
            .env(
                "CHAIKHANA_LOG_FILTER",
                if logs.is_some() {
                    "chaikhana=debug"
                } else {
                    "warn"
                },
            )
            .stdout(match &logs {
                Some(dir) => Stdio::from(
                    std::fs::File::create(format!("{dir}/node-{port}.log")).expect("a log file"),
                ),
                None => Stdio::null(),
            })
            .spawn()
            .expect("the server starts");
        wait_until("the node listens", || {
            std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
        })
        .await;
        // Its first lease round has put it in the load figure.
        actix_rt::time::sleep(Duration::from_millis(300)).await;
        Node {
            child,
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    pub fn addr(&self) -> std::net::SocketAddr {
        self.base
            .trim_start_matches("http://")
            .parse()
            .expect("a node's address")
    }

    /// The process's resident memory, in bytes.
    pub fn resident_bytes(&self) -> u64 {
        self.status("VmRSS:") * 1024
    }

    /// The process's threads.
    pub fn threads(&self) -> u64 {
        self.status("Threads:")
    }

    /// The first number of the line of `/proc/<pid>/status` that starts with `field`.
    fn status(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc is readable");
        status
            .lines()
            .find_map(|line| line.strip_prefix(field))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("{field} is listed"))
    }

    pub async fn open(&self, game: &str, opponents: &str, length: Value) -> Seated {
        let body = json!({ "game": game, "opponents": opponents, "length": length });
        let (status, answer) = post(&self.base, "/api/tables", &body.to_string()).await;
        assert_eq!(status, 201, "{answer}");
        Seated::from_answer(answer["table"].as_str().unwrap(), &answer)
    }

    pub async fn join(&self, table: &str) -> Seated {
        let (status, answer) = post(&self.base, &format!("/api/tables/{table}/join"), "").await;
        assert_eq!(status, 201, "{answer}");
        Seated::from_answer(table, &answer)
    }

    pub async fn connect(&self, seated: &Seated) -> Client {
        Client::connect(&self.base, &seated.table, &seated.token)
            .await
            .expect("the socket opens")
    }

    /// Connects, trying again until the table is reachable (while it moves to another node).
    pub async fn reconnect(&self, seated: &Seated) -> Client {
        let started = Instant::now();
        loop {
            match Client::connect(&self.base, &seated.table, &seated.token).await {
                Ok(client) => return client,
                Err(e) => assert!(started.elapsed() < Duration::from_secs(10), "{e}"),
            }
            actix_rt::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn get(&self, path: &str) -> u16 {
        awc::Client::new()
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .map(|r| r.status().as_u16())
            .unwrap_or(0)
    }

    /// Sends the process a signal, as `kill` names it ("-KILL", "-TERM", "-STOP", "-CONT").
    pub fn signal(&self, signal: &str) {
        Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("kill runs");
    }

    pub fn metric(text: &str, name: &str) -> f64 {
        text.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0)
    }

    /// What the node's `/readyz` says: how many tables live in its process.
    pub async fn tables(&self) -> u64 {
        self.readyz().await["tables"]
            .as_u64()
            .expect("readyz counts its tables")
    }

    /// The node's `/readyz` answer (200 or not).
    pub async fn readyz(&self) -> Value {
        let mut response = awc::Client::new()
            .get(format!("{}/readyz", self.base))
            .send()
            .await
            .expect("readyz answers");
        serde_json::from_slice(&response.body().await.unwrap()).expect("readyz answers JSON")
    }

    pub async fn metrics(&self) -> String {
        let mut response = awc::Client::new()
            .get(format!("{}/metrics", self.base))
            .send()
            .await
            .expect("metrics answer");
        String::from_utf8_lossy(&response.body().await.unwrap()).into_owned()
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A TCP proxy in front of Redis for one node. Cut, it drops every connection it carries and takes
/// new ones without ever answering (a partition, not a refusal: the node's commands hang until its
/// own patience runs out); healed, it lets the held ones go and carries new ones again.
pub struct Proxy {
    pub port: u16,
    state: Arc<Mutex<Carried>>,
    accepting: tokio::task::JoinHandle<()>,
}

#[derive(Default)]
struct Carried {
    cut: bool,
    pipes: Vec<tokio::task::AbortHandle>,
    held: Vec<tokio::net::TcpStream>,
}

impl Proxy {
    pub async fn start(upstream: u16) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("the proxy listens");
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(Carried::default()));
        let carried = state.clone();
        let accepting = actix_rt::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                let mut carried = carried.lock().unwrap();
                if carried.cut {
                    carried.held.push(inbound);
                    continue;
                }
                carried.pipes.retain(|p| !p.is_finished());
                let pipe = actix_rt::spawn(Proxy::carry(inbound, upstream));
                carried.pipes.push(pipe.abort_handle());
            }
        });
        Proxy {
            port,
            state,
            accepting,
        }
    }

    async fn carry(mut inbound: tokio::net::TcpStream, upstream: u16) {
        if let Ok(mut outbound) = tokio::net::TcpStream::connect(("127.0.0.1", upstream)).await {
            let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
        }
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub fn cut(&self) {
        let mut carried = self.state.lock().unwrap();
        carried.cut = true;
        for pipe in carried.pipes.drain(..) {
            pipe.abort();
        }
    }

    pub fn heal(&self) {
        let mut carried = self.state.lock().unwrap();
        carried.cut = false;
        carried.held.clear();
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accepting.abort();
        self.cut();
    }
}

/// A friends Panjpar table opened on `host`, its second player joined through `guest`; the clients
/// connect to the node each joined through.
pub async fn friends_across(host: &Node, guest: &Node) -> (Vec<Seated>, Vec<Client>) {
    friends_across_for(host, guest, json!(1)).await
}

/// The same, for a match of `length` (deals to win).
pub async fn friends_across_for(
    host: &Node,
    guest: &Node,
    length: Value,
) -> (Vec<Seated>, Vec<Client>) {
    let first = host.open("panjpar", "friends", length).await;
    let second = guest.join(&first.table).await;
    let clients = vec![host.connect(&first).await, guest.connect(&second).await];
    (vec![first, second], clients)
}

/// Plays until the table's version reaches `until` (mid-deal); answers every seat's last view.
pub async fn play_until(clients: &mut [Client], rng: &mut Rng, until: u64) -> Vec<Value> {
    let mut target = 1;
    loop {
        let mut views = Vec::new();
        for client in clients.iter_mut() {
            views.push(loop {
                let view = client.next_of("view").await;
                if view["version"].as_u64().unwrap() >= target {
                    break view;
                }
            });
        }
        if target >= until && views[0]["status"] == "playing" {
            return views;
        }
        let acting = (0..clients.len())
            .find(|i| !views[*i]["actions"].as_array().unwrap().is_empty())
            .expect("a seat acts mid-deal");
        let chosen = choose(&views[acting], rng);
        clients[acting].send(action(target, "x", &chosen)).await;
        target += 1;
    }
}

/// The latest view each client gets within the time left, at the version wanted.
pub async fn view_at(client: &mut Client, version: u64) -> Value {
    loop {
        let view = client.next_of("view").await;
        if view["version"].as_u64() == Some(version) {
            return view;
        }
        assert!(
            view["version"].as_u64().unwrap() < version,
            "a version went missing: {view}"
        );
    }
}
