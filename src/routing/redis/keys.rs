//! Redis key and channel names, and the scripts that keep a lease honest.

use crate::table::TableId;

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

/// How many tables each table-hosting node has: a sorted set.
pub const LOAD: &str = "chaikhana:load";

/// The channel of frames and requests for a node's tables.
pub fn tables_channel(node: &str) -> String {
    format!("chaikhana:node:{node}:tables")
}

/// The channel of frames and answers for a node's sockets.
pub fn sockets_channel(node: &str) -> String {
    format!("chaikhana:node:{node}:sockets")
}

/// KEYS[1] the lease, KEYS[2] the snapshot, ARGV[1] this node, ARGV[2] the lease's time to live in
/// ms, ARGV[3] the snapshot's. Answers 1 when the lease is still this node's (and refreshed, with the
/// snapshot's time to live: a deal's actions are added to the snapshot without renewing it), 2 when it
/// was missing and is taken again (Redis lost it), 0 when another node holds it.
pub const REFRESH: &str = r#"
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  return 1
end
if not owner then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0
"#;

/// KEYS[1] the lease, ARGV[1] this node: lets the lease go if it is this node's.
pub const RELEASE: &str = r#"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"#;

/// KEYS[1] the lease, KEYS[2] the snapshot, ARGV[1] this node: a table closed for good. Forgets it,
/// unless another node owns it now.
pub const FORGET: &str = r#"
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] or not owner then
  redis.call('DEL', KEYS[1])
  redis.call('DEL', KEYS[2])
  return 1
end
return 0
"#;

/// An EVAL of one of the scripts above.
pub fn eval(script: &str, keys: &[String], args: &[&str]) -> redis::Cmd {
    let mut cmd = redis::cmd("EVAL");
    cmd.arg(script).arg(keys.len());
    for key in keys {
        cmd.arg(key);
    }
    for arg in args {
        cmd.arg(*arg);
    }
    cmd
}
