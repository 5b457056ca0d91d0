//! One `chaikhana serve` process of a cluster (or alone, to be measured): started around a Redis or
//! without one, its tables opened and joined over HTTP, its sockets, signals, `/readyz` and metrics.

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{free_port, wait_until, Redis};
use crate::support::process::{flat_out, metrics_of, serve_command, signal};
use crate::support::{join_table, open_table, Client, Seated};

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
        let data = crate::support::fresh_data_dir();
        let mut command = serve_command();
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
        let child = flat_out(
            command
                .env("CHAIKHANA_DATA_DIR", &data)
                .envs(settings.iter().copied())
                .env("CHAIKHANA_LISTEN", format!("127.0.0.1:{port}")),
        )
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
        open_table(&self.base, &body).await.0
    }

    pub async fn join(&self, table: &str) -> Seated {
        join_table(&self.base, table).await
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
        self::signal(self.child.id(), signal);
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
        metrics_of(&self.base).await
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
