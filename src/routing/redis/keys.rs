//! Redis key and channel names, and the scripts that keep a lease honest.
//!
//! A script is sent by its SHA1 (`EVALSHA`), not whole: sent whole with every write, as `EVAL` does,
//! its text would travel and be hashed by Redis each time. Every pipe's link loads them all when it
//! connects (`SCRIPT LOAD`, which the crate's Cluster connection sends to every primary), and a link
//! whose Redis answers `NOSCRIPT` (its scripts flushed, a replica promoted with none) is dropped so
//! that the next one loads them again (`super::bus`). The command is built here because the crate
//! keeps its own `EVALSHA` command to itself (`ScriptInvocation::eval_cmd` is crate-private), and a
//! pipe needs it as a command to route and batch.
//!
//! On one Redis (or a primary with Sentinels) a table's keys are `chaikhana:lease:T` and so on. On a
//! Redis Cluster every key of a table carries the table's id as a hash tag (`chaikhana:{T}:lease`), so
//! that its lease, holder and snapshot share one hash slot and each script touches one slot; the
//! node channels are sharded channels (`SPUBLISH`, `SSUBSCRIBE`). [`Layout`] says which.

use std::sync::OnceLock;

use crate::table::TableId;

/// How keys and channels are laid out: for one Redis, or for a Redis Cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub cluster: bool,
}

impl Layout {
    pub fn lease(self, table: &TableId) -> String {
        if self.cluster {
            format!("chaikhana:{{{table}}}:lease")
        } else {
            lease(table)
        }
    }

    pub fn snapshot(self, table: &TableId) -> String {
        if self.cluster {
            format!("chaikhana:{{{table}}}:snapshot")
        } else {
            snapshot(table)
        }
    }

    pub fn holder(self, table: &TableId) -> String {
        if self.cluster {
            format!("chaikhana:{{{table}}}:holder")
        } else {
            holder(table)
        }
    }

    /// Why a table closed for good, kept a while after its other keys have gone.
    pub fn gone(self, table: &TableId) -> String {
        if self.cluster {
            format!("chaikhana:{{{table}}}:gone")
        } else {
            format!("chaikhana:gone:{table}")
        }
    }

    /// The command that publishes to a node channel.
    pub fn publish(self) -> &'static str {
        if self.cluster {
            "SPUBLISH"
        } else {
            "PUBLISH"
        }
    }

    /// The `PUBSUB` subcommand that counts a node channel's subscribers.
    pub fn numsub(self) -> &'static str {
        if self.cluster {
            "SHARDNUMSUB"
        } else {
            "NUMSUB"
        }
    }
}

/// How long the reason a table closed is kept.
pub const GONE_KEPT: std::time::Duration = std::time::Duration::from_secs(30 * 86400);

/// Writes why a table closed for good (see [`Layout::gone`]), to be kept [`GONE_KEPT`] unless a
/// time is added to the command.
pub fn gone(layout: &Layout, table: &TableId, why: crate::table::Gone) -> redis::Cmd {
    let mut cmd = redis::cmd("SET");
    let reason = match why {
        crate::table::Gone::Expired => "expired",
        crate::table::Gone::Ended => "ended",
    };
    cmd.arg(layout.gone(table)).arg(reason);
    cmd
}

/// Which node owns a table: its id, with a time to live the owner keeps refreshing.
pub fn lease(table: &TableId) -> String {
    format!("chaikhana:lease:{table}")
}

/// A table's snapshot: its game, a newline, and the snapshot's JSON; then a line for each action
/// accepted since the snapshot was written (`Snapshot::from_stored` reads it).
pub fn snapshot(table: &TableId) -> String {
    format!("chaikhana:snapshot:{table}")
}

/// Present while the node lives (it refreshes it with its leases); its value is the node's role.
pub fn alive(node: &str) -> String {
    format!("chaikhana:alive:{node}")
}

/// The site's watch key (see `table::WatchKey`), made by the first node that needs it.
pub const WATCH_KEY: &str = "chaikhana:watch-key";

/// How many tables each table-hosting node has: a sorted set.
pub const LOAD: &str = "chaikhana:load";

/// The table-hosting nodes whose thinking pool is saturated (see `crate::thinking`): a set, kept with
/// [`LOAD`], that places no new strong computer table on them.
pub const SATURATED: &str = "chaikhana:thinking-saturated";

/// The channel of frames and requests for a node's tables.
pub fn tables_channel(node: &str) -> String {
    format!("chaikhana:node:{node}:tables")
}

/// The channel of frames and answers for a node's sockets.
pub fn sockets_channel(node: &str) -> String {
    format!("chaikhana:node:{node}:sockets")
}

/// The token of the owner the table was last given to: kept as long as the snapshot, while the lease
/// itself expires. A node whose lease ran out takes it again only if nobody else was given the table
/// since (see `REFRESH`).
pub fn holder(table: &TableId) -> String {
    format!("chaikhana:holder:{table}")
}

/// The token of a table's owner: its node, a colon, and how many owners the table has had (its
/// epoch). Every write of an owner carries it and is refused inside Redis unless the lease holds it.
pub fn token(node: &str, epoch: u64) -> String {
    format!("{node}:{epoch}")
}

/// The node a lease's token names.
pub fn node_of(token: &str) -> &str {
    token.split(':').next().unwrap_or(token)
}

/// KEYS[1] the lease, KEYS[2] the holder, KEYS[3] the snapshot; ARGV[1] the node taking the table,
/// ARGV[2] the lease's time to live in ms, ARGV[3] the snapshot's. Gives an ownerless table with a
/// snapshot to the node under the next epoch and answers its token; answers "" when another node
/// holds the lease and "-" when there is no snapshot.
pub static ADOPT: Script = Script::new(
    r#"
if redis.call('EXISTS', KEYS[1]) == 1 then return '' end
if redis.call('EXISTS', KEYS[3]) == 0 then return '-' end
local last = redis.call('GET', KEYS[2])
local epoch = 1
if last then epoch = (tonumber(string.match(last, ':(%d+)$')) or 0) + 1 end
local token = ARGV[1] .. ':' .. epoch
redis.call('SET', KEYS[2], token, 'PX', ARGV[3])
redis.call('SET', KEYS[1], token, 'PX', ARGV[2])
return token
"#,
);

/// Refreshes the leases of several tables: for the i-th, KEYS[3i-2] its lease, KEYS[3i-1] its
/// snapshot, KEYS[3i] its holder and ARGV[i+2] its owner's token; ARGV[1] the lease's time to live in
/// ms, ARGV[2] the snapshot's. Answers one number per table: 1 when the lease is still the token's
/// (refreshed, with the snapshot's time to live: a deal's actions are added to the snapshot without
/// renewing it); 2 when it had run out (or Redis lost it) and nobody else was given the table since,
/// so it is taken again (the owner then stores the whole table, which Redis may have lost too); 0 when
/// another owner has it: the table is lost to this one.
pub static REFRESH: Script = Script::new(
    r#"
local answers = {}
for i = 1, #ARGV - 2 do
  local lease, snapshot, holder = KEYS[3 * i - 2], KEYS[3 * i - 1], KEYS[3 * i]
  local token = ARGV[i + 2]
  local owner = redis.call('GET', lease)
  if owner == token then
    redis.call('PEXPIRE', lease, ARGV[1])
    redis.call('PEXPIRE', snapshot, ARGV[2])
    redis.call('PEXPIRE', holder, ARGV[2])
    answers[i] = 1
  elseif owner then
    answers[i] = 0
  else
    local last = redis.call('GET', holder)
    if last and last ~= token then
      answers[i] = 0
    else
      redis.call('SET', lease, token, 'PX', ARGV[1])
      redis.call('SET', holder, token, 'PX', ARGV[2])
      answers[i] = 2
    end
  end
end
return answers
"#,
);

/// KEYS[1] the snapshot, KEYS[2] the lease, KEYS[3] the holder; ARGV[1] the owner's token, ARGV[2]
/// "whole" or "played", ARGV[3] the text, ARGV[4] the snapshot's time to live in ms, ARGV[5] the
/// lease's. The fenced write of a table's change: refused (-1) unless the lease holds the token, so an
/// owner that lost its table (paused, cut off, outlived by its lease) can never overwrite the next
/// owner's. A lease that ran out (or that Redis lost) with nobody else given the table since is taken
/// again first, as the lease round would. A whole snapshot replaces the key; played lines are appended
/// to it, or refused (0) when the snapshot is gone (Redis lost it) so that the owner stores the whole
/// table instead. Answers 1 when stored.
pub static STORE: Script = Script::new(
    r#"
local owner = redis.call('GET', KEYS[2])
if owner ~= ARGV[1] then
  if owner then return -1 end
  local last = redis.call('GET', KEYS[3])
  if last and last ~= ARGV[1] then return -1 end
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[5])
  redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[4])
end
if ARGV[2] == 'whole' then
  redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
  return 1
end
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('APPEND', KEYS[1], ARGV[3])
return 1
"#,
);

/// KEYS[1] the lease, ARGV[1] the owner's token: lets the lease go if the token still holds it.
pub static RELEASE: Script = Script::new(
    r#"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"#,
);

/// KEYS[1] the lease, KEYS[2] the snapshot, KEYS[3] the holder; ARGV[1] the owner's token: a table
/// closed for good. Forgets it, unless another owner has been given it since.
pub static FORGET: Script = Script::new(
    r#"
local last = redis.call('GET', KEYS[3])
if last == ARGV[1] or not last then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
  return 1
end
return 0
"#,
);

/// One of the scripts above: its text, and the crate's script (which holds its hash) made from it on
/// first use.
pub struct Script {
    body: &'static str,
    made: OnceLock<redis::Script>,
}

/// Every script, as a link loads them.
pub static SCRIPTS: [&Script; 9] = [
    &ADOPT,
    &REFRESH,
    &STORE,
    &RELEASE,
    &FORGET,
    &super::lobby::WAIT,
    &super::lobby::FORMED,
    &super::lobby::LEAVE,
    &super::lobby::LISTING,
];

impl Script {
    pub const fn new(body: &'static str) -> Script {
        Script {
            body,
            made: OnceLock::new(),
        }
    }

    /// The script run on `keys` and `args`, by its hash.
    pub fn call(&self, keys: &[String], args: &[&str]) -> redis::Cmd {
        let mut cmd = redis::cmd("EVALSHA");
        cmd.arg(self.script().get_hash()).arg(keys.len());
        for key in keys {
            cmd.arg(key);
        }
        for arg in args {
            cmd.arg(*arg);
        }
        cmd
    }

    /// The crate's script, which loads itself.
    pub fn script(&self) -> &redis::Script {
        self.made.get_or_init(|| redis::Script::new(self.body))
    }
}
