//! The node's two links to Redis: the pipe, which sends every command in the order it was given (so a
//! table's snapshot is stored before the frames that follow it are published, and a hand-over's final
//! snapshot before its lease is released), batching whatever is waiting into one round trip; and the
//! listener, subscribed to the node's two channels. Both retry with back-off while Redis is out of
//! reach.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use deadpool_redis::Pool;
use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot};

use crate::metrics::metrics;

/// Commands waiting for Redis, at most.
const QUEUE: usize = 16_384;
/// Commands sent in one round trip, at most.
const BATCH: usize = 256;
/// How long one round trip may take before Redis counts as out of reach.
pub const PATIENCE: Duration = Duration::from_secs(2);
const MAX_BACKOFF: Duration = Duration::from_secs(2);

struct Queued {
    cmd: redis::Cmd,
    done: Option<oneshot::Sender<Option<redis::Value>>>,
}

/// Commands to Redis, sent in order.
#[derive(Clone)]
pub struct Pipe {
    queue: mpsc::Sender<Queued>,
    up: Arc<AtomicBool>,
}

impl Pipe {
    /// Starts the task that sends the commands (on the current actix runtime).
    pub fn start(pool: Pool) -> Pipe {
        let (queue, waiting) = mpsc::channel(QUEUE);
        let up = Arc::new(AtomicBool::new(true));
        actix_rt::spawn(send_in_order(pool, waiting, up.clone()));
        Pipe { queue, up }
    }

    /// Whether the last round trip reached Redis.
    pub fn is_up(&self) -> bool {
        self.up.load(Ordering::Relaxed)
    }

    /// Sends a command whose answer nobody waits for; dropped (and counted) when Redis is out of
    /// reach or the queue is full: frames are delivered at most once.
    pub fn send(&self, cmd: redis::Cmd) {
        if !self.is_up() || self.queue.try_send(Queued { cmd, done: None }).is_err() {
            metrics().redis_errors.inc();
        }
    }

    /// Sends a command in order and answers its reply, or `None` if it did not reach Redis.
    pub fn run(&self, cmd: redis::Cmd) -> impl std::future::Future<Output = Option<redis::Value>> {
        let (done, answer) = oneshot::channel();
        let queued = self.queue.try_send(Queued {
            cmd,
            done: Some(done),
        });
        async move {
            queued.ok()?;
            answer.await.ok().flatten()
        }
    }
}

async fn send_in_order(pool: Pool, mut waiting: mpsc::Receiver<Queued>, up: Arc<AtomicBool>) {
    let mut backoff = Duration::from_millis(50);
    while let Some(first) = waiting.recv().await {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match waiting.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let mut pipe = redis::pipe();
        for queued in &mut batch {
            pipe.add_command(std::mem::replace(&mut queued.cmd, redis::Cmd::new()));
        }
        let started = Instant::now();
        let answer = tokio::time::timeout(PATIENCE, async {
            let mut conn = pool.get().await.map_err(|e| e.to_string())?;
            pipe.query_async::<Vec<redis::Value>>(&mut conn)
                .await
                .map_err(|e| e.to_string())
        })
        .await
        .unwrap_or_else(|_| Err("Redis did not answer in time".into()));
        match answer {
            Ok(values) => {
                metrics()
                    .redis_publish_seconds
                    .observe(started.elapsed().as_secs_f64());
                up.store(true, Ordering::Relaxed);
                backoff = Duration::from_millis(50);
                for (queued, value) in batch.into_iter().zip(values) {
                    if let Some(done) = queued.done {
                        let _ = done.send(Some(value));
                    }
                }
            }
            Err(e) => {
                metrics().redis_errors.inc();
                if up.swap(false, Ordering::Relaxed) {
                    tracing::warn!("Redis is out of reach ({e}); retrying with back-off");
                }
                drop(batch);
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
}

/// What the listener hands on: a message's channel and payload.
pub trait Hearer: Send + Sync + 'static {
    fn heard(&self, channel: &str, payload: &[u8]);
    /// The subscription is (again) in place, or has just been lost.
    fn listening(&self, now: bool);
}

/// Subscribes to `channels` and hands on every message, subscribing again with back-off whenever the
/// link drops.
pub async fn listen(client: redis::Client, channels: Vec<String>, hearer: Arc<dyn Hearer>) {
    let mut backoff = Duration::from_millis(100);
    loop {
        let subscribed = tokio::time::timeout(PATIENCE, async {
            let mut pubsub = client.get_async_pubsub().await?;
            for channel in &channels {
                pubsub.subscribe(channel).await?;
            }
            Ok::<_, redis::RedisError>(pubsub)
        })
        .await;
        match subscribed {
            Ok(Ok(pubsub)) => {
                backoff = Duration::from_millis(100);
                hearer.listening(true);
                let mut messages = pubsub.into_on_message();
                while let Some(message) = messages.next().await {
                    hearer.heard(message.get_channel_name(), message.get_payload_bytes());
                }
                tracing::warn!("lost the Redis subscription; subscribing again");
                hearer.listening(false);
            }
            Ok(Err(_)) | Err(_) => {
                metrics().redis_errors.inc();
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}
