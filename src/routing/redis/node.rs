//! One node of several: its tables, its sockets at tables elsewhere, its leases and its load.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use actix::{Actor, Addr};
use futures_util::future::{ready, BoxFuture, FutureExt};
use tokio::sync::oneshot;

use super::bus::{self, Hearer, Pipes, PATIENCE};
use super::keys;
use super::remote::{Relocate, RemoteSocket, RemoteTable};
use super::wire::{self, Answer, Ask, Note, ToSockets, ToTables};
use crate::games;
use crate::metrics::metrics;
use crate::routing::{table_config, LocalTables, OpenTable};
use crate::settings::Settings;
use crate::table::{
    Attach, Change, CheckToken, Closing, ConnId, Detach, FromSeat, Join, Keep, Kept, Outbound,
    Snapshot, SocketOut, TableConfig, TableHandle, TableId, TableKeeper, TableRefusal,
};
use crate::wire::Frame;

/// What a node does: everything, only pages and sockets, or only tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    All,
    Edge,
    Tables,
}

impl Role {
    pub fn parse(text: &str) -> Result<Role, String> {
        match text {
            "all" => Ok(Role::All),
            "edge" => Ok(Role::Edge),
            "tables" => Ok(Role::Tables),
            other => Err(format!(
                "role is \"all\", \"edge\" or \"tables\", not \"{other}\""
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::All => "all",
            Role::Edge => "edge",
            Role::Tables => "tables",
        }
    }

    pub fn hosts_tables(self) -> bool {
        self != Role::Edge
    }
}

/// Where a table is, seen from this node.
#[derive(Clone)]
pub enum Route {
    Here(TableHandle),
    There(String),
}

/// A socket of another node at a table here.
struct Guest {
    table: TableId,
    conn: ConnId,
    relay: Addr<RemoteSocket>,
}

/// Connection ids given to other nodes' sockets here, apart from this node's own.
const GUEST_IDS: ConnId = 1 << 62;

pub struct Node {
    pub id: String,
    /// Threads for the tables opened or rebuilt at another node's request (those opened through this
    /// node's own HTTP routes live on the web server's workers).
    arbiters: Vec<actix::Arbiter>,
    next_arbiter: AtomicU64,
    /// The thread of each table living on one of `arbiters`: the stand-ins for its guests' sockets
    /// start there too, so that the table hands them frames without waking another thread.
    homes: Mutex<HashMap<TableId, usize>>,
    role: Role,
    settings: Arc<Settings>,
    pool: deadpool_redis::Pool,
    pipes: Pipes,
    lease: Duration,
    tables: LocalTables,
    /// Stand-ins for tables on other nodes, for this node's sockets.
    proxies: Mutex<HashMap<TableId, (TableHandle, Addr<RemoteTable>)>>,
    /// This node's sockets at tables on other nodes.
    sockets: Mutex<HashMap<ConnId, SocketOut>>,
    pending: Mutex<HashMap<u64, oneshot::Sender<Answer>>>,
    guests: Mutex<HashMap<(String, ConnId), Guest>>,
    next: AtomicU64,
    draining: AtomicBool,
    /// Held by each round of lease refreshing, and by a hand-over from its start: a refresh in flight
    /// would take a released lease again.
    lease_round: tokio::sync::Mutex<()>,
    me: Weak<Node>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl Node {
    pub fn start(settings: Arc<Settings>) -> Result<Arc<Node>, String> {
        let role = Role::parse(&settings.role)?;
        let client = redis::Client::open(settings.redis_url.as_str())
            .map_err(|e| format!("redis_url is not a Redis URL: {e}"))?;
        let pool = deadpool_redis::Config::from_url(settings.redis_url.as_str())
            .create_pool(Some(deadpool_redis::Runtime::Tokio1))
            .map_err(|e| format!("cannot make the Redis pool: {e}"))?;
        let id = format!("{:016x}", rand::random::<u64>());
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let node = Arc::new_cyclic(|me| Node {
            id: id.clone(),
            arbiters: (0..threads).map(|_| actix::Arbiter::new()).collect(),
            next_arbiter: AtomicU64::new(0),
            homes: Mutex::default(),
            role,
            lease: Duration::from_millis(settings.redis_lease_ms.max(300)),
            settings,
            pipes: Pipes::new(client.clone()),
            pool,
            tables: LocalTables::default(),
            proxies: Mutex::default(),
            sockets: Mutex::default(),
            pending: Mutex::default(),
            guests: Mutex::default(),
            next: AtomicU64::new(1),
            draining: AtomicBool::new(false),
            lease_round: tokio::sync::Mutex::new(()),
            me: me.clone(),
        });
        let channels = vec![keys::tables_channel(&id), keys::sockets_channel(&id)];
        actix_rt::spawn(bus::listen(client, channels, node.clone()));
        actix_rt::spawn(node.clone().keep_leases());
        tracing::info!(node = %id, role = role.as_str(), "routing through Redis");
        Ok(node)
    }

    pub fn open_tables(&self) -> usize {
        self.tables.len()
    }

    fn draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// One Redis command outside the pipe (reads, and lease taking, where order does not matter).
    async fn query<T: redis::FromRedisValue>(&self, cmd: redis::Cmd) -> Result<T, TableRefusal> {
        let answer = tokio::time::timeout(PATIENCE, async {
            let mut conn = self.pool.get().await.map_err(|e| e.to_string())?;
            cmd.query_async::<T>(&mut conn)
                .await
                .map_err(|e| e.to_string())
        })
        .await
        .unwrap_or_else(|_| Err("Redis did not answer in time".into()));
        answer.map_err(|e| {
            metrics().redis_errors.inc();
            tracing::debug!("a Redis command failed: {e}");
            TableRefusal::unavailable()
        })
    }

    /// How a table hosted here behaves, storing its snapshots through this node.
    fn table_config(&self) -> TableConfig {
        let me = self.me.clone();
        let on_closed = Arc::new(move |id: &TableId, closing: Closing| {
            if let Some(node) = me.upgrade() {
                node.table_stopped(id, closing);
            }
        });
        let store: Arc<dyn TableKeeper> = Arc::new(Store {
            pipes: self.pipes.clone(),
            ttl: self.snapshot_ttl(),
            node: self.id.clone(),
        });
        table_config(&self.settings, on_closed, Some(store))
    }

    /// A snapshot outlives an idle table a little, and then goes.
    fn snapshot_ttl(&self) -> u64 {
        (self.settings.idle_expiry() + Duration::from_secs(600)).as_millis() as u64
    }

    fn lease_ms(&self) -> String {
        self.lease.as_millis().to_string()
    }

    fn table_stopped(&self, id: &TableId, closing: Closing) {
        self.tables.remove(id);
        lock(&self.homes).remove(id);
        let guest_nodes = self.forget_guests_of(id);
        match closing {
            Closing::Closed => {
                let keys = [keys::lease(id), keys::snapshot(id)];
                self.pipes
                    .here()
                    .send(keys::eval(keys::FORGET, &keys, &[self.id.as_str()]));
            }
            // Its final snapshot is stored and its lease released, through this same pipe: the nodes
            // with sockets at it hear only then that it has moved.
            Closing::HandedOver => {
                for node in guest_nodes {
                    self.tell_moved(&node, id);
                }
                metrics().tables_handed_over.inc();
            }
        }
    }

    fn tell_moved(&self, node: &str, table: &TableId) {
        self.tell_sockets(
            node,
            &ToSockets::Note(Note::Moved {
                table: table.clone(),
            }),
        );
    }

    fn forget_guests_of(&self, id: &TableId) -> HashSet<String> {
        let mut nodes = HashSet::new();
        lock(&self.guests).retain(|(node, _), guest| {
            if &guest.table == id {
                nodes.insert(node.clone());
                false
            } else {
                true
            }
        });
        nodes
    }

    /// Hosts a table opened here: its lease and first snapshot are queued (on the table's thread's
    /// pipe) before anything the table itself stores or says. Answers once they are stored.
    fn host(
        &self,
        handle: TableHandle,
        snapshot: &Snapshot,
    ) -> impl std::future::Future<Output = Option<redis::Value>> {
        let mut lease = redis::cmd("SET");
        lease
            .arg(keys::lease(&handle.id))
            .arg(&self.id)
            .arg("PX")
            .arg(self.lease_ms());
        self.pipes.here().send(lease);
        let stored = self.pipes.here().run(stored_snapshot(
            &handle.id,
            &snapshot.game,
            &snapshot.to_json(),
            self.snapshot_ttl(),
        ));
        self.tables.insert(handle);
        stored
    }

    /// Opens a table on this node; answers its id once its lease and snapshot are stored, so that
    /// any node finds it as soon as the id is out (a Redis out of reach does not stop it opening).
    async fn open_here(&self, order: OpenTable) -> Result<TableId, TableRefusal> {
        if self.draining() || !self.role.hosts_tables() {
            return Err(TableRefusal::unavailable());
        }
        let (handle, snapshot) = games::open_table(
            &order.game,
            order.kind,
            order.level,
            order.length,
            order.creator,
            self.table_config(),
        )
        .map_err(TableRefusal::bad_request)?;
        let id = handle.id.clone();
        self.host(handle, &snapshot).await;
        Ok(id)
    }

    /// Opens a table here or on the table-hosting node with the fewest tables.
    pub async fn open(self: Arc<Self>, order: OpenTable) -> Result<TableId, TableRefusal> {
        games::match_length(&order.game, None).map_err(TableRefusal::bad_request)?;
        let (host, fewest) = self.quietest_host().await?;
        let stay = self.role.hosts_tables()
            && !self.draining()
            && (host.is_none() || self.tables.len() as u64 <= fewest);
        if stay {
            return self.open_here(order).await;
        }
        let Some(host) = host else {
            return Err(TableRefusal::unavailable());
        };
        match self.ask(&host, |ask| ToTables::Open { ask, order }).await? {
            Answer::Opened { table } => Ok(table),
            Answer::Refused { refusal } => Err(refusal),
            _ => Err(TableRefusal::unavailable()),
        }
    }

    /// The living table-hosting node (other than this one) with the fewest tables, and how many.
    async fn quietest_host(&self) -> Result<(Option<String>, u64), TableRefusal> {
        let mut cmd = redis::cmd("ZRANGE");
        cmd.arg(keys::LOAD).arg(0).arg(-1).arg("WITHSCORES");
        let loads: Vec<(String, u64)> = self.query(cmd).await?;
        for (node, load) in loads {
            if node == self.id {
                continue;
            }
            let mut exists = redis::cmd("EXISTS");
            exists.arg(keys::alive(&node));
            if self.query::<bool>(exists).await? {
                return Ok((Some(node), load));
            }
            let mut gone = redis::cmd("ZREM");
            gone.arg(keys::LOAD).arg(&node);
            self.pipes.here().send(gone);
        }
        Ok((None, 0))
    }

    /// The table, wherever it lives: a handle to it here, or to this node's stand-in for it.
    pub async fn find(self: Arc<Self>, id: TableId) -> Result<TableHandle, TableRefusal> {
        if let Some(handle) = self.tables.get(&id) {
            return Ok(handle);
        }
        if let Some((handle, _)) = lock(&self.proxies).get(&id) {
            return Ok(handle.clone());
        }
        match self.route(&id).await? {
            Route::Here(handle) => Ok(handle),
            Route::There(owner) => {
                let game = self.game_of(&id).await?;
                let mut proxies = lock(&self.proxies);
                let (handle, _) = proxies.entry(id.clone()).or_insert_with(|| {
                    let addr =
                        RemoteTable::new(id.clone(), self.clone(), Route::There(owner)).start();
                    (TableHandle::new(id, game, &addr), addr)
                });
                Ok(handle.clone())
            }
        }
    }

    /// The game a table plays, from the head of its snapshot.
    async fn game_of(&self, id: &TableId) -> Result<&'static str, TableRefusal> {
        let mut cmd = redis::cmd("GETRANGE");
        cmd.arg(keys::snapshot(id)).arg(0).arg(31);
        let head: Vec<u8> = self.query(cmd).await?;
        let name = head.split(|b| *b == b'\n').next().unwrap_or_default();
        games::NAMES
            .iter()
            .find(|n| n.as_bytes() == name)
            .copied()
            .ok_or_else(TableRefusal::not_found)
    }

    /// The table's snapshot, if it has one.
    pub async fn snapshot(&self, id: &TableId) -> Result<Option<Snapshot>, TableRefusal> {
        let mut cmd = redis::cmd("GET");
        cmd.arg(keys::snapshot(id));
        let stored: Option<Vec<u8>> = self.query(cmd).await?;
        let Some(stored) = stored else {
            return Ok(None);
        };
        let json = match stored.iter().position(|b| *b == b'\n') {
            Some(newline) => &stored[newline + 1..],
            None => return Ok(None),
        };
        Snapshot::from_stored(json).map(Some).map_err(|e| {
            tracing::error!(table = %id, "{e}");
            TableRefusal::unavailable()
        })
    }

    /// Where the table lives now. A lease held by a node that no longer listens is waited out; a table
    /// with a snapshot and no lease is rebuilt here (or, on a node hosting no tables, by the quietest
    /// node that does).
    pub async fn route(self: &Arc<Self>, id: &TableId) -> Result<Route, TableRefusal> {
        let deadline = Instant::now() + self.lease + PATIENCE;
        while Instant::now() < deadline {
            if let Some(handle) = self.tables.get(id) {
                return Ok(Route::Here(handle));
            }
            let mut get = redis::cmd("GET");
            get.arg(keys::lease(id));
            let owner: Option<String> = self.query(get).await?;
            match owner {
                Some(owner) if owner != self.id => {
                    let mut listeners = redis::cmd("PUBSUB");
                    listeners.arg("NUMSUB").arg(keys::tables_channel(&owner));
                    let (_, count): (String, u64) = self.query(listeners).await?;
                    if count > 0 {
                        tracing::debug!(table = %id, %owner, "the table lives on another node");
                        return Ok(Route::There(owner));
                    }
                    tracing::debug!(table = %id, %owner, "waiting out the lease of a node gone");
                }
                Some(_) => {}
                None => {
                    if let Some(route) = self.adopt(id).await? {
                        return Ok(route);
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err(TableRefusal::unavailable())
    }

    /// Takes over a table without an owner: `None` when another node was quicker (look again).
    async fn adopt(self: &Arc<Self>, id: &TableId) -> Result<Option<Route>, TableRefusal> {
        let mut exists = redis::cmd("EXISTS");
        exists.arg(keys::snapshot(id));
        if !self.query::<bool>(exists).await? {
            return Err(self.missing().await);
        }
        if !self.role.hosts_tables() || self.draining() {
            let (Some(host), _) = self.quietest_host().await? else {
                return Err(TableRefusal::unavailable());
            };
            let table = id.clone();
            return match self
                .ask(&host, |ask| ToTables::Adopt { ask, table })
                .await?
            {
                Answer::Adopted => Ok(None),
                Answer::Refused { refusal } => Err(refusal),
                _ => Err(TableRefusal::unavailable()),
            };
        }
        let mut take = redis::cmd("SET");
        take.arg(keys::lease(id))
            .arg(&self.id)
            .arg("NX")
            .arg("PX")
            .arg(self.lease_ms());
        let taken: Option<String> = self.query(take).await?;
        if taken.is_none() {
            tracing::debug!(table = %id, "another node took the table first");
            return Ok(None);
        }
        let Some(snapshot) = self.snapshot(id).await? else {
            return Err(TableRefusal::not_found());
        };
        let version = snapshot.version;
        let handle =
            games::rebuild_table(id.clone(), snapshot, self.table_config()).map_err(|e| {
                tracing::error!(table = %id, "cannot rebuild the table: {e}");
                TableRefusal::unavailable()
            })?;
        self.tables.insert(handle.clone());
        metrics().tables_recovered.inc();
        tracing::info!(table = %id, version, "rebuilt a table from its snapshot");
        Ok(Some(Route::Here(handle)))
    }

    /// Why a table has neither lease nor snapshot: it has closed, unless Redis has just restarted
    /// empty and its owner has not yet stored it again (then it is only out of reach for a moment).
    async fn missing(&self) -> TableRefusal {
        let mut info = redis::cmd("INFO");
        info.arg("server");
        let Ok(text) = self.query::<String>(info).await else {
            return TableRefusal::unavailable();
        };
        let uptime = text
            .lines()
            .find_map(|l| l.strip_prefix("uptime_in_seconds:"))
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(u64::MAX);
        if Duration::from_secs(uptime) < self.lease * 3 + Duration::from_secs(5) {
            TableRefusal::unavailable()
        } else {
            TableRefusal::not_found()
        }
    }

    /// Asks the node `owner` something and waits for its answer; refused as unavailable when nobody
    /// listens there or no answer comes in time.
    pub async fn ask(
        &self,
        owner: &str,
        make: impl FnOnce(Ask) -> ToTables,
    ) -> Result<Answer, TableRefusal> {
        let req = self.next.fetch_add(1, Ordering::Relaxed);
        let (tell, told) = oneshot::channel();
        lock(&self.pending).insert(req, tell);
        let message = make(Ask {
            from: self.id.clone(),
            req,
        });
        let payload = serde_json::to_vec(&message).expect("requests always serialize");
        let heard = self
            .pipes
            .here()
            .publish_heard(keys::tables_channel(owner), payload)
            .await;
        let answer = match heard {
            Some(redis::Value::Int(n)) if n > 0 => tokio::time::timeout(PATIENCE, told)
                .await
                .ok()
                .and_then(Result::ok),
            _ => None,
        };
        lock(&self.pending).remove(&req);
        answer.ok_or_else(TableRefusal::unavailable)
    }

    /// Publishes to a table's owner without waiting; `unheard` runs (on the pipe's task) if nobody
    /// listens there.
    pub fn tell_owner(
        &self,
        owner: &str,
        message: &ToTables,
        unheard: impl FnOnce() + Send + 'static,
    ) {
        let payload = serde_json::to_vec(message).expect("requests always serialize");
        self.pipes
            .here()
            .publish_then(keys::tables_channel(owner), payload, move |heard| {
                if matches!(heard, Some(redis::Value::Int(0))) {
                    unheard();
                }
            });
    }

    /// Publishes to another node's sockets.
    pub fn tell_sockets(&self, node: &str, message: &ToSockets) {
        self.pipes
            .here()
            .publish(keys::sockets_channel(node), message.encode());
    }

    /// Publishes a frame's text to one of another node's sockets.
    pub fn relay_frame(&self, node: &str, conn: ConnId, text: &str) {
        self.pipes
            .here()
            .publish(keys::sockets_channel(node), wire::frame_message(conn, text));
    }

    pub fn add_socket(&self, conn: ConnId, out: SocketOut) {
        lock(&self.sockets).insert(conn, out);
    }

    pub fn socket(&self, conn: ConnId) -> Option<SocketOut> {
        lock(&self.sockets).get(&conn).cloned()
    }

    pub fn remove_socket(&self, conn: ConnId) {
        lock(&self.sockets).remove(&conn);
    }

    pub fn forget_proxy(&self, id: &TableId) {
        lock(&self.proxies).remove(id);
    }

    /// A request for one of this node's tables.
    fn serve(self: Arc<Self>, request: ToTables) {
        match request {
            ToTables::FromSeat {
                from,
                table,
                conn,
                msg,
            } => {
                let guest = lock(&self.guests)
                    .get(&(from.clone(), conn))
                    .map(|g| g.conn);
                match (guest, self.tables.get(&table)) {
                    (Some(local), Some(handle)) => {
                        if handle
                            .from_seat
                            .try_send(FromSeat { conn: local, msg })
                            .is_err()
                        {
                            let text = crate::protocol::ServerMsg::Error {
                                code: "busy",
                                message: "The table is busy; try again in a moment.",
                                id: None,
                            }
                            .to_text();
                            self.tell_sockets(&from, &ToSockets::Frame { conn, text });
                        }
                    }
                    // Handed over while this node drains: the socket's node finds it again.
                    _ if self.draining() => self.tell_moved(&from, &table),
                    // The table moved or this node was restarted: the socket reconnects and finds it.
                    _ => self.tell_sockets(
                        &from,
                        &ToSockets::Note(Note::Close {
                            conn,
                            code: 1012,
                            reason: "the table moved; reconnecting".into(),
                        }),
                    ),
                }
            }
            ToTables::Detach { from, table, conn } => {
                let guest = lock(&self.guests).remove(&(from, conn));
                if let (Some(guest), Some(handle)) = (guest, self.tables.get(&table)) {
                    handle.detach.do_send(Detach { conn: guest.conn });
                }
            }
            request => {
                // Answered on one of the node's table threads, where a table it opens will live; a
                // request about a table living on one of them is answered on the table's own.
                let home = match &request {
                    ToTables::Join { table, .. }
                    | ToTables::CheckToken { table, .. }
                    | ToTables::Attach { table, .. } => lock(&self.homes).get(table).copied(),
                    _ => None,
                };
                let turn = home.unwrap_or_else(|| {
                    self.next_arbiter.fetch_add(1, Ordering::Relaxed) as usize % self.arbiters.len()
                });
                let arbiter = self.arbiters[turn].handle();
                arbiter.spawn(async move { self.answer(request, turn).await });
            }
        }
    }

    /// Answers a request on the table thread `turn`.
    async fn answer(self: Arc<Self>, request: ToTables, turn: usize) {
        let (ask, answer) = match request {
            ToTables::Open { ask, order } => {
                let answer = match self.open_here(order).await {
                    Ok(table) => {
                        lock(&self.homes).insert(table.clone(), turn);
                        Answer::Opened { table }
                    }
                    Err(refusal) => Answer::Refused { refusal },
                };
                (ask, answer)
            }
            ToTables::Adopt { ask, table } => {
                let answer = if self.draining() || !self.role.hosts_tables() {
                    Answer::Refused {
                        refusal: TableRefusal::unavailable(),
                    }
                } else {
                    match self.route(&table).await {
                        Ok(route) => {
                            if matches!(route, Route::Here(_)) {
                                lock(&self.homes).entry(table).or_insert(turn);
                            }
                            Answer::Adopted
                        }
                        Err(refusal) => Answer::Refused { refusal },
                    }
                };
                (ask, answer)
            }
            ToTables::Join { ask, table, key } => {
                let answer = match self.tables.get(&table) {
                    Some(handle) => seat_answer(handle.join.send(Join(key)).await),
                    None => refused_here(),
                };
                (ask, answer)
            }
            ToTables::CheckToken { ask, table, key } => {
                let answer = match self.tables.get(&table) {
                    Some(handle) => seat_answer(handle.check_token.send(CheckToken(key)).await),
                    None => refused_here(),
                };
                (ask, answer)
            }
            ToTables::Attach {
                ask,
                table,
                conn,
                key,
            } => {
                let answer = match self.tables.get(&table) {
                    Some(handle) => self.attach_guest(&ask.from, handle, conn, key).await,
                    None => refused_here(),
                };
                (ask, answer)
            }
            ToTables::FromSeat { .. } | ToTables::Detach { .. } => return,
        };
        self.tell_sockets(
            &ask.from.clone(),
            &ToSockets::Note(Note::Answer {
                req: ask.req,
                answer,
            }),
        );
    }

    async fn attach_guest(
        self: &Arc<Self>,
        from: &str,
        handle: TableHandle,
        conn: ConnId,
        key: crate::table::TokenHash,
    ) -> Answer {
        let local = GUEST_IDS | self.next.fetch_add(1, Ordering::Relaxed);
        let relay = RemoteSocket::new(self.clone(), from.to_string(), conn).start();
        lock(&self.guests).insert(
            (from.to_string(), conn),
            Guest {
                table: handle.id.clone(),
                conn: local,
                relay: relay.clone(),
            },
        );
        let attach = Attach {
            key,
            conn: local,
            out: SocketOut::Relay(relay.recipient()),
        };
        let answer = seat_answer(handle.attach.send(attach).await);
        if !matches!(answer, Answer::Seat { .. }) {
            lock(&self.guests).remove(&(from.to_string(), conn));
        }
        answer
    }

    fn deliver_frame(&self, conn: ConnId, text: &str) {
        if let Some(out) = self.socket(conn) {
            if out.try_send(Outbound::Frame(Frame::text(text))).is_err() {
                metrics().outbound_overflows.inc();
            }
        }
    }

    /// A frame or note for this node's sockets.
    fn deliver(&self, message: ToSockets) {
        match message {
            ToSockets::Frame { conn, text } => self.deliver_frame(conn, &text),
            ToSockets::Note(Note::Close { conn, code, reason }) => {
                if let Some(out) = lock(&self.sockets).remove(&conn) {
                    out.do_send(Outbound::Close(code, reason.into()));
                }
            }
            ToSockets::Note(Note::Answer { req, answer }) => {
                if let Some(tell) = lock(&self.pending).remove(&req) {
                    let _ = tell.send(answer);
                }
            }
            ToSockets::Note(Note::Moved { table }) => {
                tracing::debug!(table = %table, "the table's owner handed it over");
                if let Some((_, addr)) = lock(&self.proxies).get(&table) {
                    addr.do_send(Relocate);
                }
            }
        }
    }

    /// Keeps this node's leases, liveness and load fresh; notices leases lost and nodes gone.
    async fn keep_leases(self: Arc<Self>) {
        let every = self.lease / 3;
        let mut was_up = true;
        loop {
            // A round trip through every pipe too, so that each notices Redis is back.
            let refreshed = {
                let _round = self.lease_round.lock().await;
                self.refresh().await.is_ok()
            };
            let up = refreshed && self.pipes.flush().await;
            if up && !was_up {
                tracing::info!("Redis is back: storing every table again");
                for handle in self.tables.all() {
                    if let Some(keep) = &handle.keep {
                        keep.do_send(Keep::Save);
                    }
                }
            }
            was_up = up;
            tokio::time::sleep(every).await;
        }
    }

    async fn refresh(&self) -> Result<(), TableRefusal> {
        let mut alive = redis::cmd("SET");
        alive
            .arg(keys::alive(&self.id))
            .arg(self.role.as_str())
            .arg("PX")
            .arg(self.lease_ms());
        self.query::<()>(alive).await?;
        if self.role.hosts_tables() && !self.draining() {
            let mut load = redis::cmd("ZADD");
            load.arg(keys::LOAD).arg(self.tables.len()).arg(&self.id);
            self.query::<()>(load).await?;
        }
        if self.draining() {
            // The hand-over lets the leases go.
            return Ok(());
        }
        let snapshot_ttl = self.snapshot_ttl().to_string();
        for handle in self.tables.all() {
            let refresh = keys::eval(
                keys::REFRESH,
                &[keys::lease(&handle.id), keys::snapshot(&handle.id)],
                &[
                    self.id.as_str(),
                    self.lease_ms().as_str(),
                    snapshot_ttl.as_str(),
                ],
            );
            let kept: i64 = self.query(refresh).await?;
            let Some(keep) = &handle.keep else { continue };
            match kept {
                2 => keep.do_send(Keep::Save),
                0 => {
                    self.tables.remove(&handle.id);
                    keep.do_send(Keep::Lost);
                }
                _ => {}
            }
        }
        let guest_nodes: HashSet<String> = lock(&self.guests)
            .keys()
            .map(|(node, _)| node.clone())
            .collect();
        for node in guest_nodes {
            let mut exists = redis::cmd("EXISTS");
            exists.arg(keys::alive(&node));
            if !self.query::<bool>(exists).await? {
                self.drop_guests_of(&node);
            }
        }
        Ok(())
    }

    /// A node with sockets here has gone: its sockets leave their tables.
    fn drop_guests_of(&self, node: &str) {
        let gone: Vec<Guest> = {
            let mut guests = lock(&self.guests);
            let keys: Vec<(String, ConnId)> =
                guests.keys().filter(|(n, _)| n == node).cloned().collect();
            keys.into_iter().filter_map(|k| guests.remove(&k)).collect()
        };
        for guest in gone {
            if let Some(handle) = self.tables.get(&guest.table) {
                handle.detach.do_send(Detach { conn: guest.conn });
            }
            drop(guest.relay);
        }
    }

    /// Drains: takes no more tables, and has each table store itself a last time, let its lease go,
    /// tell the nodes with sockets at it to find it again, and stop.
    pub async fn hand_over(self: Arc<Self>) {
        self.draining.store(true, Ordering::SeqCst);
        // A refresh under way finishes first (it could take a released lease again); none starts
        // after, as they see the drain.
        let _round = self.lease_round.lock().await;
        let mut leave = redis::cmd("ZREM");
        leave.arg(keys::LOAD).arg(&self.id);
        self.pipes.here().send(leave);
        for handle in self.tables.all() {
            if let Some(keep) = &handle.keep {
                keep.do_send(Keep::HandOver);
            }
        }
        while !self.tables.is_empty() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // Everything queued reaches Redis before the sockets close (unless Redis does not answer).
        let flushed = tokio::time::timeout(Duration::from_secs(3), self.pipes.flush()).await;
        if !matches!(flushed, Ok(true)) {
            tracing::warn!("not every command of the hand-over was confirmed by Redis");
        }
    }
}

fn seat_answer(
    answer: Result<Result<crate::cards::Seat, TableRefusal>, actix::MailboxError>,
) -> Answer {
    match answer {
        Ok(Ok(seat)) => Answer::Seat { seat },
        Ok(Err(refusal)) => Answer::Refused { refusal },
        Err(_) => refused_here(),
    }
}

/// The table is not (or no longer) here: the asker finds it again.
fn refused_here() -> Answer {
    Answer::Refused {
        refusal: TableRefusal::unavailable(),
    }
}

impl Hearer for Node {
    fn heard(&self, channel: &str, payload: &[u8]) {
        let Some(node) = self.me.upgrade() else {
            return;
        };
        let Some(messages) = wire::unbundle(payload) else {
            tracing::warn!("an unreadable bundle from another node");
            return;
        };
        let for_tables = channel.ends_with(":tables");
        for payload in messages {
            if for_tables {
                match serde_json::from_slice::<ToTables>(payload) {
                    Ok(request) => node.clone().serve(request),
                    Err(e) => tracing::warn!("an unreadable request from another node: {e}"),
                }
            } else if let Some((conn, text)) = wire::frame_in(payload) {
                self.deliver_frame(conn, text);
            } else if let Some(message) = ToSockets::decode(payload) {
                self.deliver(message);
            }
        }
    }

    fn listening(&self, now: bool) {
        if now {
            return;
        }
        // Frames can no longer reach this node: its sockets at tables elsewhere reconnect (and show
        // it), and other nodes' sockets here leave their tables.
        let sockets: Vec<SocketOut> = lock(&self.sockets).drain().map(|(_, out)| out).collect();
        for out in sockets {
            out.do_send(Outbound::Close(
                1012,
                "lost the link to the table; reconnecting".into(),
            ));
        }
        lock(&self.proxies).clear();
        let nodes: HashSet<String> = lock(&self.guests)
            .keys()
            .map(|(node, _)| node.clone())
            .collect();
        for node in nodes {
            self.drop_guests_of(&node);
        }
    }
}

/// Stores snapshots through the node's pipe: a whole snapshot replaces the key, and the actions
/// accepted since are appended to it (so one read gets both, and a rebuild is exact).
struct Store {
    pipes: Pipes,
    ttl: u64,
    /// The node whose lease a hand-over lets go.
    node: String,
}

impl Store {
    /// The command that stores a change, and how long the lines it adds are (for an addition).
    fn command(id: &TableId, change: Change, ttl: u64) -> (redis::Cmd, Option<i64>) {
        match change {
            Change::Whole { game, json } => (stored_snapshot(id, game, &json, ttl), None),
            Change::Played(lines) => {
                let mut append = redis::cmd("APPEND");
                append.arg(keys::snapshot(id)).arg(&lines);
                (append, Some(lines.len() as i64))
            }
        }
    }
}

impl TableKeeper for Store {
    fn keep(&self, id: &TableId, change: Change) -> BoxFuture<'static, Kept> {
        let pipe = self.pipes.here();
        if !pipe.is_up() {
            return ready(Kept::Failed).boxed();
        }
        let (cmd, added) = Store::command(id, change, self.ttl);
        pipe.run(cmd)
            .map(move |answer| match (answer, added) {
                (None, _) => Kept::Failed,
                // Appended to nothing: the snapshot had gone (Redis lost it). The table stores itself
                // whole at once, over these lines.
                (Some(redis::Value::Int(length)), Some(added)) if length == added => Kept::Missing,
                (Some(_), _) => {
                    metrics().snapshots_written.inc();
                    Kept::Stored
                }
            })
            .boxed()
    }

    fn hand_over(&self, id: &TableId, whole: Change) -> BoxFuture<'static, Kept> {
        let pipe = self.pipes.here();
        let (cmd, _) = Store::command(id, whole, self.ttl);
        // One pipe: the release reaches Redis after the snapshot.
        let stored = pipe.run(cmd);
        let released = pipe.run(keys::eval(
            keys::RELEASE,
            &[keys::lease(id)],
            &[self.node.as_str()],
        ));
        async move {
            let stored = stored.await;
            released.await;
            match stored {
                Some(_) => Kept::Stored,
                None => Kept::Failed,
            }
        }
        .boxed()
    }
}

/// Stores a snapshot: the game's name, a newline, the JSON (the actions accepted later follow it).
fn stored_snapshot(id: &TableId, game: &str, json: &str, ttl: u64) -> redis::Cmd {
    let mut set = redis::cmd("SET");
    set.arg(keys::snapshot(id))
        .arg(format!("{game}\n{json}"))
        .arg("PX")
        .arg(ttl);
    set
}
