//! The node's two links to Redis: the pipe, which sends every command in the order it was given (so a
//! table's snapshot is stored before the frames that follow it are published, and a hand-over's final
//! snapshot before its lease is released), batching whatever is waiting into one round trip; and the
//! listener, subscribed to the node's two channels. Both retry with back-off while Redis is out of
//! reach.
//!
//! Messages published while a round trip is under way are gathered by channel: each channel gets one
//! `PUBLISH` per round trip carrying all its messages in order (a bundle, see [`super::between_nodes::bundle`]),
//! sent after the batch's other commands. A table waits for its snapshot's reply before it makes the
//! frames that follow, so no frame is ever published ahead of the change it shows.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot};

use super::between_nodes;
use super::link::{Link, Redis, Routed, Unanswered, PATIENCE};
use crate::metrics::metrics;

/// Commands waiting for Redis, at most.
const QUEUE: usize = 16_384;
/// Commands sent in one round trip, at most.
const BATCH: usize = 256;
const MAX_BACKOFF: Duration = Duration::from_secs(2);

enum Work {
    Command(redis::Cmd),
    /// A command sent to the node that holds `key` (on a Redis Cluster; elsewhere, as any other).
    At {
        cmd: redis::Cmd,
        key: String,
    },
    /// A message for a channel, published with the others for the same channel in its batch.
    Publish {
        channel: String,
        message: Vec<u8>,
    },
}

/// Who hears a command's reply (`None` when it did not reach Redis).
enum Reply {
    Nobody,
    Waiting(oneshot::Sender<Option<redis::Value>>),
    /// Called on the pipe's own task, so that nobody has to wake for a reply that rarely matters.
    Call(Box<dyn FnOnce(Option<redis::Value>) + Send>),
}

struct Queued {
    work: Work,
    reply: Reply,
}

/// A pipe for each thread that talks to Redis, started on first use: a table, its store and the
/// stand-ins for its guests' sockets hand commands to a task on their own thread and hear the replies
/// there, without waking another thread. What must reach Redis in order goes through one pipe (one
/// table's changes and frames, a stand-in's frames and close), or waits for the reply of what must
/// go first (frames for the snapshot's, a lease's release for the final snapshot's).
#[derive(Clone)]
pub struct ThreadPipes {
    redis: Redis,
    /// Tells this node's pipes apart from another's in the same process.
    key: usize,
    all: Arc<Mutex<Vec<Pipe>>>,
}

static NEXT_PIPES: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static HERE: RefCell<HashMap<usize, Pipe>> = RefCell::new(HashMap::new());
}

impl ThreadPipes {
    pub fn new(redis: Redis) -> ThreadPipes {
        ThreadPipes {
            redis,
            key: NEXT_PIPES.fetch_add(1, Ordering::Relaxed),
            all: Arc::default(),
        }
    }

    /// The pipe of the current thread (which must run an actix arbiter).
    pub fn this_thread(&self) -> Pipe {
        HERE.with(|here| {
            here.borrow_mut()
                .entry(self.key)
                .or_insert_with(|| {
                    let pipe = Pipe::start(self.redis.clone());
                    self.all
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(pipe.clone());
                    pipe
                })
                .clone()
        })
    }

    /// A round trip through every thread's pipe: answers once everything queued on them so far has
    /// reached Redis, or failed (then `false`). A pipe that found Redis out of reach takes commands
    /// again once such a round trip gets through.
    pub async fn flush(&self) -> bool {
        let all = self.all.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let pings: Vec<_> = all.iter().map(|p| p.run(redis::cmd("PING"))).collect();
        let answers = futures_util::future::join_all(pings).await;
        answers.iter().all(Option::is_some)
    }
}

/// Commands to Redis, sent in order.
#[derive(Clone)]
pub struct Pipe {
    queue: mpsc::Sender<Queued>,
    up: Arc<AtomicBool>,
}

impl Pipe {
    /// Starts the task that sends the commands, with a connection of its own, on the current actix
    /// runtime (where the connection's own task runs too).
    pub fn start(redis: Redis) -> Pipe {
        let (queue, waiting) = mpsc::channel(QUEUE);
        let up = Arc::new(AtomicBool::new(true));
        actix_rt::spawn(send_in_order(redis, waiting, up.clone()));
        Pipe { queue, up }
    }

    /// Whether the last round trip reached Redis.
    pub fn is_up(&self) -> bool {
        self.up.load(Ordering::Relaxed)
    }

    /// Sends a command whose answer nobody waits for; dropped (and counted) when Redis is out of
    /// reach or the queue is full: frames are delivered at most once.
    pub fn send(&self, cmd: redis::Cmd) {
        self.forget(Work::Command(cmd));
    }

    /// Publishes a message nobody waits for, as [`Pipe::send`] does.
    pub fn publish(&self, channel: String, message: Vec<u8>) {
        self.forget(Work::Publish { channel, message });
    }

    fn forget(&self, work: Work) {
        let queued = Queued {
            work,
            reply: Reply::Nobody,
        };
        if !self.is_up() || self.queue.try_send(queued).is_err() {
            metrics().redis_errors.inc();
        }
    }

    /// Publishes a message in order and calls `then` with the reply (how many nodes heard it, or
    /// `None` if it did not reach Redis) on the pipe's task: it must be quick and must not block.
    pub fn publish_then(
        &self,
        channel: String,
        message: Vec<u8>,
        then: impl FnOnce(Option<redis::Value>) + Send + 'static,
    ) {
        let queued = Queued {
            work: Work::Publish { channel, message },
            reply: Reply::Call(Box::new(then)),
        };
        if let Err(refused) = self.queue.try_send(queued) {
            metrics().redis_errors.inc();
            let queued = match refused {
                mpsc::error::TrySendError::Full(q) | mpsc::error::TrySendError::Closed(q) => q,
            };
            if let Reply::Call(then) = queued.reply {
                then(None);
            }
        }
    }

    /// Sends a command in order and answers its reply, or `None` if it did not reach Redis.
    pub fn run(&self, cmd: redis::Cmd) -> impl std::future::Future<Output = Option<redis::Value>> {
        self.answered(Work::Command(cmd))
    }

    /// The same, for a command without a key of its own that must reach the node holding `key` on a
    /// Redis Cluster (a `WAIT` for a table's write).
    pub fn run_at(
        &self,
        cmd: redis::Cmd,
        key: String,
    ) -> impl std::future::Future<Output = Option<redis::Value>> {
        self.answered(Work::At { cmd, key })
    }

    /// Publishes a message in order and answers how many nodes heard it (the reply to `PUBLISH`),
    /// or `None` if it did not reach Redis.
    pub fn publish_heard(
        &self,
        channel: String,
        message: Vec<u8>,
    ) -> impl std::future::Future<Output = Option<redis::Value>> {
        self.answered(Work::Publish { channel, message })
    }

    fn answered(&self, work: Work) -> impl std::future::Future<Output = Option<redis::Value>> {
        let (done, answer) = oneshot::channel();
        let queued = self.queue.try_send(Queued {
            work,
            reply: Reply::Waiting(done),
        });
        async move {
            queued.ok()?;
            answer.await.ok().flatten()
        }
    }
}

impl Reply {
    fn hear(self, value: Option<redis::Value>) {
        match self {
            Reply::Nobody => {}
            Reply::Waiting(done) => {
                let _ = done.send(value);
            }
            Reply::Call(then) => then(value),
        }
    }
}

/// One round trip's commands: the queued ones in order (each with the key whose node it must reach,
/// if it has none of its own), then one publish per channel. Answers, for each queued item, the index
/// of the reply that is its own.
fn round_trip(batch: &mut [Queued], publish: &str) -> (Vec<Routed>, Vec<usize>) {
    let mut commands = Vec::with_capacity(batch.len());
    // Each item's reply: its command's place, or its channel's place among the channels.
    let mut places = Vec::with_capacity(batch.len());
    let mut channels: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
    for queued in batch.iter_mut() {
        match std::mem::replace(&mut queued.work, Work::Command(redis::Cmd::new())) {
            Work::Command(cmd) => {
                places.push(Ok(commands.len()));
                commands.push((cmd, None));
            }
            Work::At { cmd, key } => {
                places.push(Ok(commands.len()));
                commands.push((cmd, Some(key)));
            }
            Work::Publish { channel, message } => {
                let at = match channels.iter().position(|(c, _)| *c == channel) {
                    Some(at) => at,
                    None => {
                        channels.push((channel, Vec::new()));
                        channels.len() - 1
                    }
                };
                channels[at].1.push(message);
                places.push(Err(at));
            }
        }
    }
    let published = commands.len();
    for (channel, messages) in channels {
        let mut cmd = redis::cmd(publish);
        cmd.arg(channel).arg(between_nodes::bundle(messages));
        commands.push((cmd, None));
    }
    let replies = places
        .into_iter()
        .map(|place: Result<usize, usize>| place.unwrap_or_else(|channel| published + channel))
        .collect();
    (commands, replies)
}

async fn send_in_order(redis: Redis, mut waiting: mpsc::Receiver<Queued>, up: Arc<AtomicBool>) {
    let mut backoff = Duration::from_millis(50);
    let mut link: Option<Link> = None;
    let publish = redis.layout().publish();
    while let Some(first) = waiting.recv().await {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match waiting.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let (commands, replies) = round_trip(&mut batch, publish);
        let started = Instant::now();
        let answer = tokio::time::timeout(PATIENCE, async {
            let conn = match &mut link {
                Some(conn) => conn,
                None => link.insert(redis.link().await?),
            };
            conn.send(commands).await
        })
        .await
        .unwrap_or_else(|_| Err(Unanswered::TooLate));
        match answer {
            Ok(heard) => {
                if heard.stale {
                    // The next round trip finds the primary again and loads the scripts; what was
                    // refused here is answered as refused, and retried by whoever sent it.
                    tracing::warn!(
                        "Redis answered as a replica or without our scripts; connecting afresh"
                    );
                    link = None;
                }
                let values = heard.replies;
                metrics()
                    .redis_publish_seconds
                    .observe(started.elapsed().as_secs_f64());
                up.store(true, Ordering::Relaxed);
                backoff = Duration::from_millis(50);
                for (queued, reply) in batch.into_iter().zip(replies) {
                    queued.reply.hear(values.get(reply).cloned().flatten());
                }
            }
            Err(e) => {
                // The next round trip connects afresh.
                link = None;
                metrics().redis_errors.inc();
                if up.swap(false, Ordering::Relaxed) {
                    tracing::warn!("Redis is out of reach ({e}); retrying with back-off");
                }
                for queued in batch {
                    queued.reply.hear(None);
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
}

/// What the listener hands on: a message's channel and payload.
pub trait Subscriber: Send + Sync + 'static {
    fn message(&self, channel: &str, payload: &[u8]);
    /// The subscription is (again) in place, or has just been lost.
    fn subscribed(&self, now: bool);
}

/// Subscribes to `channels` and hands on every message, subscribing again with back-off whenever the
/// link drops.
pub async fn listen(redis: Redis, channels: Vec<String>, subscriber: Arc<dyn Subscriber>) {
    if let Redis::Cluster(seeds) = &redis {
        return super::sharded::listen(seeds.clone(), channels, subscriber).await;
    }
    let mut backoff = Duration::from_millis(100);
    loop {
        let subscribed = tokio::time::timeout(PATIENCE, async {
            let mut pubsub = redis.pubsub().await?;
            for channel in &channels {
                pubsub.subscribe(channel).await?;
            }
            Ok::<_, redis::RedisError>(pubsub)
        })
        .await;
        match subscribed {
            Ok(Ok(pubsub)) => {
                backoff = Duration::from_millis(100);
                subscriber.subscribed(true);
                let mut messages = pubsub.into_on_message();
                while let Some(message) = messages.next().await {
                    subscriber.message(message.get_channel_name(), message.get_payload_bytes());
                }
                tracing::warn!("lost the Redis subscription; subscribing again");
                subscriber.subscribed(false);
            }
            Ok(Err(_)) | Err(_) => {
                metrics().redis_errors.inc();
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}
