//! The listener on a Redis Cluster: the node's channels are sharded channels (`SSUBSCRIBE`), each
//! held by the primary of its slot. The redis crate's `ClusterConnection` takes subscriptions only
//! over RESP3, handing their messages to a push sender, and announces a lost link with a
//! `disconnection` push. Then the listener drops that connection and subscribes with a new client,
//! which asks the Cluster where each slot is now: the crate's own resubscription could go back to a
//! primary that died before the Cluster promoted its replica. Meanwhile the node's sockets at other
//! nodes' tables reconnect, as they do when the subscription to one Redis drops, since messages sent
//! meanwhile are gone.

use std::sync::Arc;
use std::time::Duration;

use redis::{PushInfo, PushKind, Value};

use super::bus::Subscriber;
use super::link::PATIENCE;
use crate::metrics::metrics;

const MAX_BACKOFF: Duration = Duration::from_secs(2);

/// Subscribes to `channels` on the Cluster reached from `seeds` and hands on every message.
pub async fn listen(
    seeds: Arc<Vec<String>>,
    channels: Vec<String>,
    subscriber: Arc<dyn Subscriber>,
) {
    let mut backoff = Duration::from_millis(100);
    loop {
        let (pushes, mut heard) = tokio::sync::mpsc::unbounded_channel::<PushInfo>();
        let subscribed = tokio::time::timeout(PATIENCE, async {
            let client =
                redis::cluster::ClusterClientBuilder::new(seeds.iter().map(String::as_str))
                    .use_protocol(redis::ProtocolVersion::RESP3)
                    .push_sender(pushes)
                    .build()?;
            let mut connection = client.get_async_connection().await?;
            for channel in &channels {
                connection.ssubscribe(channel).await?;
            }
            Ok::<_, redis::RedisError>(connection)
        })
        .await;
        let connection = match subscribed {
            Ok(Ok(connection)) => connection,
            Ok(Err(e)) => {
                metrics().redis_errors.inc();
                tracing::debug!("cannot subscribe on the Redis Cluster: {e}");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
            Err(_) => {
                metrics().redis_errors.inc();
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        };
        backoff = Duration::from_millis(100);
        subscriber.subscribed(true);
        while let Some(push) = heard.recv().await {
            match push.kind {
                PushKind::SMessage => {
                    if let [Value::BulkString(channel), Value::BulkString(payload), ..] =
                        push.data.as_slice()
                    {
                        if let Ok(channel) = std::str::from_utf8(channel) {
                            subscriber.message(channel, payload);
                        }
                    }
                }
                PushKind::Disconnection => {
                    // The crate would subscribe again on the topology it knows, which may still
                    // name the primary that died: a new client learns the Cluster afresh.
                    tracing::warn!("lost a Redis Cluster subscription; subscribing afresh");
                    break;
                }
                PushKind::SSubscribe => subscriber.subscribed(true),
                _ => {}
            }
        }
        // The connection's end closed the channel of pushes: subscribe afresh.
        drop(connection);
        subscriber.subscribed(false);
    }
}
