//! Where the node's Redis is, as `redis_url` names it: one Redis (`redis://`, `rediss://`), the
//! primary a set of Sentinels names (`redis+sentinel://`), or a Redis Cluster (`redis+cluster://`).
//! With Sentinels, every new connection asks them again which node is the primary (the redis crate's
//! `Sentinel`, which also checks that the node it names calls itself primary); the pipes and the
//! listener connect afresh after any error, so a failover is followed without restarting the node.
//! On a Cluster the crate's `ClusterConnection` follows slot moves and failovers itself.
//!
//! `redis+sentinel://[:password@]host:port[,host:port...]/primary-name`: the Sentinels, and the name
//! they know the primary by. The password, if any, is the primary's and the Sentinels'.
//! `redis+cluster://[:password@]host:port[,host:port...]`: some of the Cluster's nodes, to learn the
//! rest from.

use std::sync::Arc;
use std::time::Duration;

use redis::sentinel::{Sentinel, SentinelNodeConnectionInfo};

use redis::cluster_routing::{Route, RoutingInfo, SingleNodeRoutingInfo, SlotAddr};

use super::client;
use super::keys::{self, Layout};
use crate::settings::Settings;

/// How long one round trip may take before Redis counts as out of reach.
pub const PATIENCE: Duration = Duration::from_secs(2);

const SENTINEL_SCHEME: &str = "redis+sentinel://";
const CLUSTER_SCHEME: &str = "redis+cluster://";

/// A command of a round trip, with the key whose node it must reach on a Cluster when it has no key
/// of its own.
pub type Routed = (redis::Cmd, Option<String>);

/// The node's Redis, however it is reached.
#[derive(Clone)]
pub enum Redis {
    /// One Redis at a fixed address.
    Single(Box<redis::Client>),
    /// The primary the Sentinels name at the time of connecting.
    Sentinel(Arc<Sentinels>),
    /// A Redis Cluster, from its seed nodes (`redis://` URLs).
    Cluster(Arc<Vec<String>>),
}

/// A connection of a pipe.
pub enum Link {
    Node(redis::aio::MultiplexedConnection),
    Cluster(redis::cluster_async::ClusterConnection),
}

pub struct Sentinels {
    /// The crate's Sentinel keeps a connection to each Sentinel and needs `&mut` to ask.
    sentinel: tokio::sync::Mutex<Sentinel>,
    primary: String,
    node: SentinelNodeConnectionInfo,
}

/// The Sentinels and primary name of a `redis+sentinel://` URL.
#[derive(Debug, PartialEq)]
pub struct SentinelUrl {
    pub sentinels: Vec<String>,
    pub primary: String,
    pub password: Option<String>,
}

impl SentinelUrl {
    /// `None` when the URL is not a Sentinel one. The errors never repeat the URL, which may hold a
    /// password.
    pub fn parse(url: &str) -> Option<Result<SentinelUrl, String>> {
        let rest = url.strip_prefix(SENTINEL_SCHEME)?;
        Some(SentinelUrl::parse_rest(rest))
    }

    fn parse_rest(rest: &str) -> Result<SentinelUrl, String> {
        let (authority, primary) = rest.split_once('/').ok_or(
            "a redis+sentinel:// URL ends with /primary-name (the name the Sentinels monitor)",
        )?;
        let primary = primary.trim_end_matches('/');
        if primary.is_empty() || primary.contains('/') {
            return Err("a redis+sentinel:// URL ends with /primary-name".into());
        }
        let (password, hosts) = match authority.rsplit_once('@') {
            Some((user, hosts)) => {
                let password = user.split_once(':').map_or(user, |(_, p)| p);
                (Some(password.to_string()).filter(|p| !p.is_empty()), hosts)
            }
            None => (None, authority),
        };
        let sentinels: Vec<String> = hosts
            .split(',')
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .map(str::to_string)
            .collect();
        if sentinels.is_empty() {
            return Err("a redis+sentinel:// URL names at least one Sentinel (host:port)".into());
        }
        for sentinel in &sentinels {
            let port = sentinel.rsplit_once(':').map(|(_, p)| p);
            if port.is_none_or(|p| p.parse::<u16>().is_err()) {
                return Err("each Sentinel of a redis+sentinel:// URL is host:port".into());
            }
        }
        Ok(SentinelUrl {
            sentinels,
            primary: primary.to_string(),
            password,
        })
    }

    fn sentinel_urls(&self) -> Vec<String> {
        node_urls(&self.sentinels, self.password.as_deref())
    }
}

fn node_urls(hosts: &[String], password: Option<&str>) -> Vec<String> {
    let login = password.map_or(String::new(), |p| format!(":{p}@"));
    hosts
        .iter()
        .map(|host| format!("redis://{login}{host}"))
        .collect()
}

/// The seed nodes of a `redis+cluster://` URL, as `redis://` URLs; `None` when it is not one.
pub fn cluster_seeds(url: &str) -> Option<Result<Vec<String>, String>> {
    let rest = url.strip_prefix(CLUSTER_SCHEME)?;
    // The same shape as a Sentinel URL, without the primary's name.
    let parsed = SentinelUrl::parse_rest(&format!("{}/-", rest.trim_end_matches('/')));
    Some(
        parsed
            .map(|p| node_urls(&p.sentinels, p.password.as_deref()))
            .map_err(|e| {
                e.replace("redis+sentinel://", "redis+cluster://")
                    .replace("Sentinel", "node")
            }),
    )
}

/// Checks `redis_url` when the settings are read.
pub fn check_url(url: &str) -> Result<(), String> {
    if let Some(seeds) = cluster_seeds(url) {
        return seeds.map(|_| ());
    }
    match SentinelUrl::parse(url) {
        Some(parsed) => parsed.map(|_| ()),
        None => redis::IntoConnectionInfo::into_connection_info(url)
            .map(|_| ())
            .map_err(|e| format!("redis_url is not a Redis URL: {e}")),
    }
}

impl Redis {
    /// The Redis `settings` name.
    pub fn from_settings(settings: &Settings) -> Result<Redis, String> {
        let tls = !settings.redis_ca_file.trim().is_empty();
        if let Some(seeds) = cluster_seeds(&settings.redis_url) {
            let seeds = seeds.map_err(|e| format!("redis_url: {e}"))?;
            if tls {
                return Err(
                    "redis_ca_file is set with a redis+cluster:// URL: TLS to a Cluster \
                            is not supported; leave redis_ca_file empty"
                        .into(),
                );
            }
            return Ok(Redis::Cluster(Arc::new(seeds)));
        }
        let Some(parsed) = SentinelUrl::parse(&settings.redis_url) else {
            return client::client(settings).map(|c| Redis::Single(Box::new(c)));
        };
        let parsed = parsed.map_err(|e| format!("redis_url: {e}"))?;
        if tls {
            return Err(
                "redis_ca_file is set with a redis+sentinel:// URL: TLS to Sentinels is not \
                 supported; leave redis_ca_file empty"
                    .into(),
            );
        }
        let sentinel = Sentinel::build(parsed.sentinel_urls())
            .map_err(|e| format!("redis_url: the Sentinels: {e}"))?;
        let mut login = redis::RedisConnectionInfo::default();
        if let Some(password) = &parsed.password {
            login = login.set_password(password);
        }
        Ok(Redis::Sentinel(Arc::new(Sentinels {
            sentinel: tokio::sync::Mutex::new(sentinel),
            primary: parsed.primary,
            node: SentinelNodeConnectionInfo::default().set_redis_connection_info(login),
        })))
    }

    /// How keys and channels are laid out on this Redis.
    pub fn layout(&self) -> Layout {
        Layout {
            cluster: matches!(self, Redis::Cluster(_)),
        }
    }

    /// A client for the primary now (on a Cluster, for its first seed: see [`Redis::link`]).
    pub async fn primary(&self) -> redis::RedisResult<redis::Client> {
        match self {
            Redis::Single(client) => Ok(client.as_ref().clone()),
            Redis::Cluster(seeds) => redis::Client::open(seeds[0].as_str()),
            Redis::Sentinel(sentinels) => {
                let mut sentinel = sentinels.sentinel.lock().await;
                sentinel
                    .async_master_for(&sentinels.primary, Some(&sentinels.node))
                    .await
            }
        }
    }

    /// A pipe's connection: to the primary now, or to the whole Cluster. Its replies may take as long
    /// as the pipe's own patience: the crate's default (half a second) would cut off a `WAIT` for the
    /// replicas, or a large batch. Every script of `keys` is loaded on it first (on every primary of a
    /// Cluster).
    pub async fn link(&self) -> redis::RedisResult<Link> {
        if let Redis::Cluster(seeds) = self {
            let client =
                redis::cluster::ClusterClientBuilder::new(seeds.iter().map(String::as_str))
                    .response_timeout(PATIENCE)
                    .build()?;
            let mut connection = client.get_async_connection().await?;
            load_scripts(&mut connection).await?;
            return Ok(Link::Cluster(connection));
        }
        let config = redis::AsyncConnectionConfig::new().set_response_timeout(Some(PATIENCE));
        let mut connection = self
            .primary()
            .await?
            .get_multiplexed_async_connection_with_config(&config)
            .await?;
        load_scripts(&mut connection).await?;
        Ok(Link::Node(connection))
    }

    /// A subscriber's connection to the primary now.
    pub async fn pubsub(&self) -> redis::RedisResult<redis::aio::PubSub> {
        self.primary().await?.get_async_pubsub().await
    }
}

async fn load_scripts(connection: &mut impl redis::aio::ConnectionLike) -> redis::RedisResult<()> {
    for script in keys::SCRIPTS {
        script.script().load_async(connection).await?;
    }
    Ok(())
}

/// What one round trip heard.
pub struct Heard {
    /// Each command's reply, or `None` when it failed on its own (a command Redis refuses leaves the
    /// others alone).
    pub replies: Vec<Option<redis::Value>>,
    /// Whether a reply says the link must be made again: `READONLY` (a primary demoted by a
    /// failover keeps its clients and refuses their writes) or `NOSCRIPT` (Redis has lost the scripts
    /// the link loaded).
    pub stale: bool,
}

/// Why a command sent to Redis brought back no answer to use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unanswered {
    /// No link to Redis, or the round trip broke.
    OutOfReach,
    /// The round trip took longer than its patience.
    TooLate,
    /// Redis refused it, or answered in another shape than was asked for: its words.
    Refused(String),
    /// A script answered fewer values than the tables it was given.
    ShortAnswer,
    /// Its call was never made.
    NotAsked,
}

impl From<redis::RedisError> for Unanswered {
    fn from(e: redis::RedisError) -> Unanswered {
        Unanswered::Refused(e.to_string())
    }
}

impl std::fmt::Display for Unanswered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unanswered::OutOfReach => f.write_str("Redis is out of reach"),
            Unanswered::TooLate => f.write_str("Redis did not answer in time"),
            Unanswered::Refused(words) => f.write_str(words),
            Unanswered::ShortAnswer => f.write_str("an answer for each lease was missing"),
            Unanswered::NotAsked => f.write_str("not asked"),
        }
    }
}

/// Whether a reply's error code means the link must be made again (see [`Heard::stale`]).
fn stale(code: &str) -> bool {
    matches!(code, "READONLY" | "NOSCRIPT")
}

impl Link {
    /// One round trip's commands, each answered its reply; an error when none got through.
    pub async fn send(&mut self, commands: Vec<Routed>) -> Result<Heard, Unanswered> {
        match self {
            Link::Node(connection) => {
                let mut pipe = redis::pipe();
                pipe.ignore_errors();
                for (cmd, _) in commands {
                    pipe.add_command(cmd);
                }
                let values: Vec<redis::Value> = pipe.query_async(connection).await?;
                let stale = values
                    .iter()
                    .any(|v| matches!(v, redis::Value::ServerError(e) if stale(e.code())));
                Ok(Heard {
                    replies: values.into_iter().map(Some).collect(),
                    stale,
                })
            }
            // A pipeline may not cross slots on a Cluster: each command goes on its own, all at once.
            Link::Cluster(connection) => {
                let sent = commands.into_iter().map(|(cmd, at)| {
                    let mut connection = connection.clone();
                    async move {
                        match at {
                            Some(key) => {
                                let route = Route::with_key(key, SlotAddr::Master);
                                let to = RoutingInfo::SingleNode(
                                    SingleNodeRoutingInfo::SpecificNode(route),
                                );
                                connection.route_command(cmd, to).await
                            }
                            None => cmd.query_async::<redis::Value>(&mut connection).await,
                        }
                    }
                });
                let answers = futures_util::future::join_all(sent).await;
                if let Some(Err(e)) = answers.first() {
                    if answers.iter().all(Result::is_err) {
                        return Err(Unanswered::Refused(e.to_string()));
                    }
                }
                let stale = answers
                    .iter()
                    .any(|a| matches!(a, Err(e) if e.code().is_some_and(stale)));
                let replies = answers
                    .into_iter()
                    .map(|answer| {
                        answer
                            .map_err(|e| tracing::debug!("a Redis command failed: {e}"))
                            .ok()
                    })
                    .collect();
                Ok(Heard { replies, stale })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_unanswered_says_why_in_words_without_the_url() {
        assert_eq!(Unanswered::OutOfReach.to_string(), "Redis is out of reach");
        assert_eq!(
            Unanswered::TooLate.to_string(),
            "Redis did not answer in time"
        );
        let refused = Unanswered::from(redis::RedisError::from((
            redis::ErrorKind::UnexpectedReturnType,
            "WRONGTYPE",
        )));
        assert!(matches!(&refused, Unanswered::Refused(words) if words.contains("WRONGTYPE")));
    }

    #[test]
    fn a_sentinel_url_names_sentinels_and_a_primary() {
        let parsed = SentinelUrl::parse("redis+sentinel://:pw@s1:26379,s2:26380/mymaster")
            .unwrap()
            .unwrap();
        assert_eq!(parsed.sentinels, ["s1:26379", "s2:26380"]);
        assert_eq!(parsed.primary, "mymaster");
        assert_eq!(parsed.password.as_deref(), Some("pw"));
        assert_eq!(
            parsed.sentinel_urls(),
            ["redis://:pw@s1:26379", "redis://:pw@s2:26380"]
        );
        assert!(SentinelUrl::parse("redis://s1:6379").is_none());
        for wrong in [
            "redis+sentinel://s1:26379",
            "redis+sentinel://s1:26379/",
            "redis+sentinel:///mymaster",
            "redis+sentinel://s1/mymaster",
            "redis+sentinel://:secret@s1:x/mymaster",
        ] {
            let refused = SentinelUrl::parse(wrong).unwrap().unwrap_err();
            assert!(!refused.contains("secret"), "{refused}");
        }
        assert!(check_url("redis+sentinel://s1:26379/mymaster").is_ok());
        assert!(check_url("http://s1").is_err());
        assert_eq!(
            cluster_seeds("redis+cluster://a:7000,b:7001/")
                .unwrap()
                .unwrap(),
            ["redis://a:7000", "redis://b:7001"]
        );
        assert!(cluster_seeds("redis+cluster://a").unwrap().is_err());
        assert!(check_url("redis+cluster://a:7000").is_ok());
    }
}
