//! Redis processes of a test's own: a primary with replicas watched by Sentinels, or a Redis Cluster;
//! and the check that every action the players saw acknowledged is in the table's record. Used by
//! `redis_sentinel` and `redis_cluster`.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use std::cell::RefCell;
use std::rc::Rc;

use chaikhana::table::TableRecord;
use serde_json::json;

use super::cluster::{friends_across_for, have_redis, steady_port, wait_for, wait_until, Node};
use super::players::{self, Journal, Players};

/// The name the test's Sentinels monitor the primary by.
pub const PRIMARY_NAME: &str = "chaikhana";

/// A folder of the test's own, removed at the end.
pub struct Folder(pub PathBuf);

impl Folder {
    pub fn new(name: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!("chaikhana-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder for the test");
        Folder(dir)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One `redis-server` (or `redis-sentinel`) process, on a port and in a folder of its own, started
/// from a config file it may rewrite (Sentinels and cluster nodes do).
pub struct Proc {
    child: Option<Child>,
    pub port: u16,
    program: &'static str,
    config: PathBuf,
}

impl Proc {
    /// Writes `config` (the port and folder are added) and starts `program` on it.
    pub async fn start(program: &'static str, folder: &Folder, config: &str) -> Proc {
        let port = steady_port();
        let dir = folder.0.join(port.to_string());
        std::fs::create_dir_all(&dir).expect("a folder for the process");
        let path = dir.join("redis.conf");
        let text = format!("port {port}\ndir {}\n{config}\n", dir.display());
        std::fs::write(&path, text).expect("the config is written");
        let mut proc = Proc {
            child: None,
            port,
            program,
            config: path,
        };
        proc.back().await;
        proc
    }

    /// SIGKILLs it.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on its port, folder and (perhaps rewritten) config.
    pub async fn back(&mut self) {
        let child = Command::new(self.program)
            .arg(&self.config)
            .stdout(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{} starts: {e}", self.program));
        self.child = Some(child);
        let port = self.port;
        wait_until("a Redis process listens", || {
            std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
        })
        .await;
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// One command, answered as `T`.
    pub fn ask<T: redis::FromRedisValue>(&self, cmd: &redis::Cmd) -> Result<T, String> {
        let client = redis::Client::open(self.url()).map_err(|e| e.to_string())?;
        let mut connection = client
            .get_connection_with_timeout(Duration::from_secs(1))
            .map_err(|e| e.to_string())?;
        cmd.query(&mut connection).map_err(|e| e.to_string())
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

/// What every data node of these tests keeps: an append-only file synced every second, as the k8s
/// manifests run Redis.
const DATA: &str = "appendonly yes\nappendfsync everysec\nsave \"\"";

/// A primary, its replicas and three Sentinels watching it, quick to fail over (a primary silent for
/// a second is down).
pub struct SentinelSet {
    pub folder: Folder,
    pub primary: Proc,
    pub replicas: Vec<Proc>,
    pub sentinels: Vec<Proc>,
}

impl SentinelSet {
    pub async fn start(replicas: usize) -> SentinelSet {
        let folder = Folder::new("sentinel");
        let primary = Proc::start("redis-server", &folder, DATA).await;
        let mut started = Vec::new();
        for _ in 0..replicas {
            let config = format!("{DATA}\nreplicaof 127.0.0.1 {}", primary.port);
            started.push(Proc::start("redis-server", &folder, &config).await);
        }
        let monitor = format!(
            "sentinel monitor {PRIMARY_NAME} 127.0.0.1 {} 2\n\
             sentinel down-after-milliseconds {PRIMARY_NAME} 1000\n\
             sentinel failover-timeout {PRIMARY_NAME} 5000\n\
             sentinel parallel-syncs {PRIMARY_NAME} 1",
            primary.port
        );
        let mut sentinels = Vec::new();
        for _ in 0..3 {
            sentinels.push(Proc::start("redis-sentinel", &folder, &monitor).await);
        }
        let set = SentinelSet {
            folder,
            primary,
            replicas: started,
            sentinels,
        };
        set.wait_for_replicas(replicas).await;
        set
    }

    /// The URL the nodes are given.
    pub fn url(&self) -> String {
        let hosts: Vec<String> = self
            .sentinels
            .iter()
            .map(|s| format!("127.0.0.1:{}", s.port))
            .collect();
        format!("redis+sentinel://{}/{PRIMARY_NAME}", hosts.join(","))
    }

    /// The port of the primary the Sentinels name now (the first that answers).
    pub fn primary_port(&self) -> Option<u16> {
        let mut ask = redis::cmd("SENTINEL");
        ask.arg("get-master-addr-by-name").arg(PRIMARY_NAME);
        self.sentinels.iter().find_map(|sentinel| {
            let (_, port): (String, u16) = sentinel.ask(&ask).ok()?;
            Some(port)
        })
    }

    /// Waits until the primary has `count` replicas online, and every Sentinel has seen them.
    pub async fn wait_for_replicas(&self, count: usize) {
        let started = Instant::now();
        loop {
            let mut info = redis::cmd("INFO");
            info.arg("replication");
            let online = self
                .primary
                .ask::<String>(&info)
                .map(|text| text.matches("state=online").count())
                .unwrap_or(0);
            let mut seen = redis::cmd("SENTINEL");
            seen.arg("replicas").arg(PRIMARY_NAME);
            let all_seen = self.sentinels.iter().all(|s| {
                s.ask::<Vec<redis::Value>>(&seen)
                    .is_ok_and(|replicas| replicas.len() >= count)
            });
            if online >= count && all_seen {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the replicas did not come online ({online} of {count})"
            );
            actix_rt::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The data node on `port`, primary or replica.
    pub fn data_node(&mut self, port: u16) -> &mut Proc {
        if self.primary.port == port {
            return &mut self.primary;
        }
        self.replicas
            .iter_mut()
            .find(|r| r.port == port)
            .expect("a data node on that port")
    }
}

/// Every acknowledged action the record does not hold at the version its acknowledgement gave, as
/// the seat that sent it.
pub fn lost(journal: &Journal, record: &TableRecord) -> Vec<String> {
    let recorded = |version: u64| {
        record
            .deals
            .iter()
            .flat_map(|deal| &deal.actions)
            .find(|(_, _, made)| *made == version)
    };
    let mut lost = Vec::new();
    for ack in &journal.acks {
        let Some(sent) = journal.sent.get(&ack.id) else {
            lost.push(format!("seat {} acked an unknown id {}", ack.seat, ack.id));
            continue;
        };
        match recorded(ack.version) {
            Some((seat, action, _))
                if seat.index() as u64 == sent.seat && *action == sent.action => {}
            found => lost.push(format!(
                "seat {} acked at v{} for {} (sent on v{}); the record (to v{}) has {:?} there",
                sent.seat, ack.version, sent.action, sent.on, record.version, found
            )),
        }
    }
    lost
}

/// Three primaries, each with one replica, made into a Redis Cluster with `redis-cli --cluster
/// create`; a primary silent for a second is failed over.
pub struct ClusterSet {
    pub folder: Folder,
    pub nodes: Vec<Proc>,
}

impl ClusterSet {
    pub async fn start() -> ClusterSet {
        let folder = Folder::new("cluster");
        let config = format!(
            "{DATA}\ncluster-enabled yes\ncluster-config-file nodes.conf\ncluster-node-timeout 1000"
        );
        let mut nodes = Vec::new();
        for _ in 0..6 {
            nodes.push(Proc::start("redis-server", &folder, &config).await);
        }
        let mut create = Command::new("redis-cli");
        create.arg("--cluster").arg("create");
        for node in &nodes {
            create.arg(format!("127.0.0.1:{}", node.port));
        }
        let made = create
            .args(["--cluster-replicas", "1", "--cluster-yes"])
            .stdout(Stdio::null())
            .status()
            .expect("redis-cli runs");
        assert!(made.success(), "redis-cli --cluster create failed");
        let set = ClusterSet { folder, nodes };
        set.wait_until_whole().await;
        set
    }

    /// The URL the nodes are given.
    pub fn url(&self) -> String {
        let seeds: Vec<String> = self
            .nodes
            .iter()
            .take(3)
            .map(|n| format!("127.0.0.1:{}", n.port))
            .collect();
        format!("redis+cluster://{}", seeds.join(","))
    }

    /// Waits until every node that answers says the Cluster serves every slot, and every primary
    /// has its replica online.
    pub async fn wait_until_whole(&self) {
        let started = Instant::now();
        let mut info = redis::cmd("CLUSTER");
        info.arg("INFO");
        let mut replication = redis::cmd("INFO");
        replication.arg("replication");
        loop {
            let whole = self.nodes.iter().all(|node| {
                let served = node
                    .ask::<String>(&info)
                    .map_or(true, |text| text.contains("cluster_state:ok"));
                let replicated = node.ask::<String>(&replication).map_or(true, |text| {
                    !text.contains("role:master") || text.contains("state=online")
                });
                served && replicated
            });
            if whole {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the Cluster never served every slot with a replica each"
            );
            actix_rt::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The port of the primary serving `key`'s slot, as the first node that answers sees it.
    pub fn primary_of(&self, key: &str) -> Option<u16> {
        let mut keyslot = redis::cmd("CLUSTER");
        keyslot.arg("KEYSLOT").arg(key);
        let mut nodes = redis::cmd("CLUSTER");
        nodes.arg("NODES");
        self.nodes.iter().find_map(|node| {
            let slot: u16 = node.ask(&keyslot).ok()?;
            let text: String = node.ask(&nodes).ok()?;
            text.lines().find_map(|line| serving(line, slot))
        })
    }

    pub fn node(&mut self, port: u16) -> &mut Proc {
        self.nodes
            .iter_mut()
            .find(|n| n.port == port)
            .expect("a node on that port")
    }

    /// The table's record as its snapshot in the Cluster holds it.
    pub fn record(&self, table: &str) -> Result<TableRecord, String> {
        let seeds: Vec<String> = self.nodes.iter().map(Proc::url).collect();
        let client = redis::cluster::ClusterClient::new(seeds).map_err(|e| e.to_string())?;
        let mut connection = client.get_connection().map_err(|e| e.to_string())?;
        let key = format!("chaikhana:{{{table}}}:snapshot");
        super::cluster::stored_record(&mut connection, &key, "the Cluster")
    }
}

/// The port of the node a `CLUSTER NODES` line names, if it is a live primary serving `slot`.
fn serving(line: &str, slot: u16) -> Option<u16> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let flags = fields.get(2)?;
    if !flags.contains("master") || flags.contains("fail") {
        return None;
    }
    let serves = fields.iter().skip(8).any(|range| {
        let (from, to) = range.split_once('-').unwrap_or((range, range));
        matches!((from.parse::<u16>(), to.parse::<u16>()), (Ok(f), Ok(t)) if f <= slot && slot <= t)
    });
    if !serves {
        return None;
    }
    let address = fields.get(1)?.split('@').next()?;
    address.rsplit_once(':')?.1.parse().ok()
}

/// A failover test's match: a friends Panjpar match with a seat on each of two nodes that wait for a
/// replica's copy of every action (`redis_min_replicas = 1`), played on by its players until
/// [`Failover::BEFORE`] is acknowledged, when the test strikes.
pub struct Failover {
    pub table: String,
    pub journal: Rc<RefCell<Journal>>,
    players: Players,
    struck: Option<(Instant, u64)>,
    _nodes: [Node; 2],
}

impl Failover {
    /// The version the fault strikes at, mid-deal.
    pub const BEFORE: u64 = 6;
    /// How many versions play must move on after the fault.
    pub const AFTER: u64 = 20;
    /// How soon after the fault play must resume.
    pub const RESUME: Duration = Duration::from_secs(10);

    /// This failover test's go: `None` (said why) unless redis-server and `tool` are installed, else
    /// its turn alone among the heavy tests, held while the guard lives, since the failover's time is
    /// measured.
    pub async fn turn(
        tool: &str,
        needed_for: &str,
    ) -> Option<tokio::sync::MutexGuard<'static, ()>> {
        if !(have_redis() && super::have_program(tool, needed_for)) {
            return None;
        }
        Some(super::heavy().await)
    }

    pub async fn start(redis_url: &str) -> Failover {
        let settings = [("CHAIKHANA_REDIS_MIN_REPLICAS", "1")];
        let owner = Node::start_with(redis_url, "all", &settings).await;
        let guest = Node::start_with(redis_url, "all", &settings).await;
        let before = Failover::BEFORE;
        let (seated, clients) = friends_across_for(&owner, &guest, json!(5)).await;
        let table = seated[0].table.clone();
        let homes = [&owner, &guest].map(|node| Rc::new(RefCell::new(node.base.clone())));
        let journal = Rc::new(RefCell::new(Journal::default()));
        let players = Players::seat(seated, clients, &homes, &journal, 1);
        assert!(
            wait_for(Duration::from_secs(30), || journal.borrow().acked_up_to()
                >= before)
            .await,
            "play never reached v{before}"
        );
        Failover {
            table,
            journal,
            players,
            struck: None,
            _nodes: [owner, guest],
        }
    }

    /// Marks the moment `what` strikes (just before the test does it).
    pub fn strike(&mut self, what: &str) -> Instant {
        players::trace("the test:", what, "");
        let now = Instant::now();
        self.struck = Some((now, self.journal.borrow().highest()));
        now
    }

    /// Lets play go [`Failover::AFTER`] versions on from where it is now (or to the match's end).
    pub async fn play_on(&mut self) -> u64 {
        let after = Failover::AFTER;
        let from = self.journal.borrow().highest();
        wait_for(Duration::from_secs(30), || {
            let journal = self.journal.borrow();
            journal.over || journal.acked_up_to() >= from + after
        })
        .await;
        from
    }

    /// Stops the players, prints the figures of the failover called `name` and checks its promises:
    /// every acknowledged action is in `record`, play resumed within [`Failover::RESUME`] of the
    /// strike and went [`Failover::AFTER`] versions on from `from`.
    pub async fn check(self, name: &str, record: &TableRecord, failover: Duration, from: u64) {
        let (after, resume) = (Failover::AFTER, Failover::RESUME);
        self.players.stop().await;
        let (struck, struck_at) = self.struck.expect("the test struck");
        let journal = self.journal.borrow();
        let lost = lost(&journal, record);
        let resumed = journal.resumed_after(struck, struck);
        eprintln!(
            "{name} failover: failover_ms={} resumed_after_kill_ms={} acked={} lost={} \
             struck_at=v{struck_at} last_version=v{} {}",
            failover.as_millis(),
            resumed.map_or("never".into(), |d| d.as_millis().to_string()),
            journal.acks.len(),
            lost.len(),
            journal.acked_up_to(),
            journal.note(),
        );
        assert!(lost.is_empty(), "acknowledged actions lost: {lost:#?}");
        let resumed = resumed.expect("play resumed");
        assert!(
            resumed <= resume,
            "play resumed only {resumed:?} after the kill"
        );
        assert!(
            journal.over || journal.acked_up_to() >= from + after,
            "play moved on only to v{}",
            journal.acked_up_to()
        );
    }
}
