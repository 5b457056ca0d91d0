//! The lobby in Redis (see `crate::lobby`): every node's visitors wait in the same queues and read
//! the same list, and a node that dies loses none of them. Each change is one script, so that two
//! nodes pairing the same queue at once never take a ticket twice. Every key carries the hash tag
//! `{lobby}`, so that on a Redis Cluster they share one slot and a script may touch any of them.
//!
//! A ticket is a hash (`…:t:TICKET`: its game, length, queue, wait, state, formation, place) whose
//! time to live its page renews by asking; its queue a sorted set (`…:q:GAME:LENGTH`) of tickets by
//! the time they entered; a browser's ticket a key (`…:b:BROWSER`). A listing is a hash (`…:l:TABLE`)
//! in its game's sorted set (`…:open:GAME`) by the time it was listed.

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::{BoxFuture, FutureExt};

use super::keys::Script;
use super::node::Node;
use crate::lobby::{
    length_key, length_of_key, random_id, Asked, Entering, Formation, Listing, Lobby, Place,
    Standing, FORMING_LIMIT, LISTED_AT_MOST, LISTED_PER_ADDRESS, PLACE_KEPT, QUEUE_READ,
};
use crate::table::{TableRefusal, TokenHash};

const PREFIX: &str = "chaikhana:{lobby}:";

fn ticket_key(ticket: &str) -> String {
    format!("{PREFIX}t:{ticket}")
}

fn listing_key(table: &str) -> String {
    format!("{PREFIX}l:{table}")
}

fn open_key(game: &str) -> String {
    format!("{PREFIX}open:{game}")
}

/// The listings of one client address.
fn by_key(address: &str) -> String {
    format!("{PREFIX}by:{address}")
}

fn ms(d: Duration) -> String {
    d.as_millis().to_string()
}

/// KEYS[1] the ticket. ARGV[1] "enter" or "ask", ARGV[2] the ticket (its name, see `ticket_name`), ARGV[3] now (ms), ARGV[4] how
/// long an unasked ticket stays (ms), ARGV[5] how long a formation may take (ms), ARGV[6] how many of
/// the queue are read, ARGV[7] an id for a formation made now; entering, ARGV[8] the game, ARGV[9] the
/// length, ARGV[10] how many make a table, ARGV[11] the browser, ARGV[12] the hash of the seat token
/// it is to hold. Answers `gone`, `seated PLACE`, `forming`, `waiting LIVE SINCE DROPPED GAME LENGTH`,
/// or `form ID DROPPED GAME LENGTH STANDING LEFT SINCE` and then each ticket taken with its wait and
/// its seat token's hash.
pub static WAIT: Script = Script::new(
    r#"
local P = 'chaikhana:{lobby}:'
local t, ticket, now, gone = KEYS[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
if ARGV[1] == 'enter' then
  local b = P .. 'b:' .. ARGV[11]
  local old = redis.call('GET', b)
  if old and old ~= ticket then
    local oq = redis.call('HGET', P .. 't:' .. old, 'queue')
    if oq then redis.call('ZREM', oq, old) end
    redis.call('DEL', P .. 't:' .. old)
  end
  local q = P .. 'q:' .. ARGV[8] .. ':' .. ARGV[9]
  redis.call('HSET', t, 'state', 'waiting', 'since', ARGV[3], 'queue', q, 'game', ARGV[8],
    'length', ARGV[9], 'needed', ARGV[10], 'browser', ARGV[11], 'key', ARGV[12])
  redis.call('ZADD', q, ARGV[3], ticket)
  redis.call('SET', b, ticket, 'PX', gone)
end
local state = redis.call('HGET', t, 'state')
if not state then return {'gone'} end
if state == 'seated' then return {'seated', redis.call('HGET', t, 'place')} end
redis.call('PEXPIRE', t, gone)
redis.call('PEXPIRE', P .. 'b:' .. redis.call('HGET', t, 'browser'), gone)
local q = redis.call('HGET', t, 'queue')
local since = redis.call('HGET', t, 'since')
if state == 'forming' then
  if now - tonumber(redis.call('HGET', t, 'formed')) < tonumber(ARGV[5]) then return {'forming'} end
  redis.call('HSET', t, 'state', 'waiting')
  redis.call('ZADD', q, since, ticket)
end
local needed = tonumber(redis.call('HGET', t, 'needed'))
local live, dropped = {}, 0
for _, m in ipairs(redis.call('ZRANGE', q, 0, tonumber(ARGV[6]) - 1)) do
  local s = redis.call('HGET', P .. 't:' .. m, 'state')
  if s == 'waiting' then
    table.insert(live, m)
  else
    redis.call('ZREM', q, m)
    if not s then dropped = dropped + 1 end
  end
end
local game, length = redis.call('HGET', t, 'game'), redis.call('HGET', t, 'length')
if #live < needed then return {'waiting', tostring(#live), since, tostring(dropped), game, length} end
local answer = {'form', ARGV[7], tostring(dropped), game, length, 'waiting', tostring(#live - needed),
  since}
for i = 1, needed do
  local m = live[i]
  local e = P .. 't:' .. m
  if m == ticket then answer[6] = 'forming' end
  redis.call('HSET', e, 'state', 'forming', 'formation', ARGV[7], 'formed', ARGV[3])
  redis.call('ZREM', q, m)
  table.insert(answer, m)
  table.insert(answer, redis.call('HGET', e, 'since'))
  table.insert(answer, redis.call('HGET', e, 'key'))
end
return answer
"#,
);

/// KEYS the tickets of a formation; ARGV[1] "seat" or "unform", ARGV[2] the formation's id; seating,
/// ARGV[3] how long a place is kept (ms) and ARGV[4…] each ticket's place; unforming, ARGV[3…] the
/// tickets. Seats them all, or none (answering 0) when any left or waits again; unforming puts those
/// still in the formation back in their queue, with their old waits.
pub static FORMED: Script = Script::new(
    r#"
if ARGV[1] == 'seat' then
  for _, e in ipairs(KEYS) do
    if redis.call('HGET', e, 'state') ~= 'forming' or redis.call('HGET', e, 'formation') ~= ARGV[2] then
      return 0
    end
  end
  for i, e in ipairs(KEYS) do
    redis.call('HSET', e, 'state', 'seated', 'place', ARGV[i + 3])
    redis.call('PEXPIRE', e, ARGV[3])
  end
  return 1
end
for i, e in ipairs(KEYS) do
  if redis.call('HGET', e, 'state') == 'forming' and redis.call('HGET', e, 'formation') == ARGV[2] then
    redis.call('HSET', e, 'state', 'waiting')
    redis.call('ZADD', redis.call('HGET', e, 'queue'), redis.call('HGET', e, 'since'), ARGV[i + 2])
  end
end
return 1
"#,
);

/// KEYS[1] the ticket, ARGV[1] the ticket: it leaves its queue unless it is seated (answers 1 if it
/// was waiting).
pub static LEAVE: Script = Script::new(
    r#"
local s = redis.call('HGET', KEYS[1], 'state')
if not s or s == 'seated' then return 0 end
redis.call('ZREM', redis.call('HGET', KEYS[1], 'queue'), ARGV[1])
redis.call('DEL', 'chaikhana:{lobby}:b:' .. redis.call('HGET', KEYS[1], 'browser'))
redis.call('DEL', KEYS[1])
return 1
"#,
);

/// KEYS[1] a listing (or, for "listed", a game's list); ARGV[1] what to do.
/// "list": ARGV[2] the listing's JSON, ARGV[3] its host, ARGV[4] now, ARGV[5] its seats, ARGV[6] its
/// game's list, ARGV[7] its table, ARGV[8] how long it lasts unrefreshed (ms), ARGV[9] its seats
/// taken, ARGV[10] the set of its address's listings, ARGV[11] how many an address may have: answers 0
/// (nothing listed) when the address has that many.
/// "host": ARGV[2] the host, ARGV[3] "close" or "here", ARGV[4] now, ARGV[5] how long it lasts.
/// "took": a seat was taken; the listing goes once all are.
/// "listed": ARGV[2] how many at most, ARGV[3] how many of the list are read at most (those gone are
/// taken out as they are met): each listing's JSON and seats taken.
pub static LISTING: Script = Script::new(
    r#"
local mode, l = ARGV[1], KEYS[1]
local function forget(listing)
  local f = redis.call('HMGET', listing, 'open', 'by', 'table')
  if f[1] then redis.call('ZREM', f[1], f[3]) end
  if f[2] then redis.call('ZREM', f[2], f[3]) end
  redis.call('DEL', listing)
end
if mode == 'list' then
  local by = ARGV[10]
  redis.call('ZREMRANGEBYSCORE', by, '-inf', tonumber(ARGV[4]) - tonumber(ARGV[8]))
  if redis.call('ZCARD', by) >= tonumber(ARGV[11]) then return 0 end
  redis.call('HSET', l, 'listing', ARGV[2], 'host', ARGV[3], 'refreshed', ARGV[4], 'taken', ARGV[9],
    'seats', ARGV[5], 'open', ARGV[6], 'table', ARGV[7], 'by', by)
  redis.call('PEXPIRE', l, ARGV[8])
  redis.call('ZADD', ARGV[6], ARGV[4], ARGV[7])
  redis.call('ZADD', by, ARGV[4], ARGV[7])
  redis.call('PEXPIRE', by, ARGV[8])
  return 1
end
if mode == 'host' then
  if redis.call('HGET', l, 'host') ~= ARGV[2] then return 0 end
  if ARGV[3] == 'close' then
    forget(l)
  else
    redis.call('HSET', l, 'refreshed', ARGV[4])
    redis.call('PEXPIRE', l, ARGV[5])
    local by = redis.call('HGET', l, 'by')
    redis.call('ZADD', by, ARGV[4], redis.call('HGET', l, 'table'))
    redis.call('PEXPIRE', by, ARGV[5])
  end
  return 1
end
if mode == 'took' then
  if redis.call('EXISTS', l) == 0 then return 0 end
  local taken = redis.call('HINCRBY', l, 'taken', 1)
  if taken >= tonumber(redis.call('HGET', l, 'seats')) then forget(l) end
  return 1
end
local answer = {}
for _, table_id in ipairs(redis.call('ZRANGE', l, 0, tonumber(ARGV[3]) - 1)) do
  local fields = redis.call('HMGET', 'chaikhana:{lobby}:l:' .. table_id, 'listing', 'taken')
  if not fields[1] then
    redis.call('ZREM', l, table_id)
  elseif #answer < 2 * tonumber(ARGV[2]) then
    table.insert(answer, fields[1])
    table.insert(answer, fields[2])
  end
end
return answer
"#,
);

/// The lobby of a node with Redis.
pub struct RedisLobby {
    node: Arc<Node>,
    gone_after: Duration,
    /// How long a listing lasts after its host last said it was there.
    fresh: Duration,
}

impl RedisLobby {
    pub fn new(node: Arc<Node>) -> RedisLobby {
        let gone_after = node.settings.pairing_gone_after();
        let fresh = node.settings.open_table_fresh();
        RedisLobby {
            node,
            gone_after,
            fresh,
        }
    }

    async fn wait(&self, ticket: &str, entering: Option<&Entering>, now: u64) -> Answered {
        let now = now.to_string();
        let (gone, forming, read) = (
            ms(self.gone_after),
            ms(FORMING_LIMIT),
            QUEUE_READ.to_string(),
        );
        let formation = random_id();
        let mode = if entering.is_some() { "enter" } else { "ask" };
        let mut args = vec![mode, ticket, &now, &gone, &forming, &read, &formation];
        let (length, needed, key);
        if let Some(e) = entering {
            (length, needed, key) = (
                length_key(&e.length),
                e.needed.to_string(),
                hash_text(&e.key),
            );
            args.extend([e.game, &length, &needed, &e.browser, &key]);
        }
        let key = ticket_key(ticket);
        let answer: Vec<String> = self
            .node
            .query_at(WAIT.call(std::slice::from_ref(&key), &args), &key)
            .await?;
        read_wait(&answer).ok_or_else(|| {
            tracing::error!(?answer, "the lobby's script answered what it never says");
            TableRefusal::unavailable()
        })
    }

    async fn listing(&self, key: String, args: &[&str]) -> Result<i64, TableRefusal> {
        self.node
            .query_at(LISTING.call(std::slice::from_ref(&key), args), &key)
            .await
    }
}

type Answered = Result<Asked, TableRefusal>;

/// What the wait script answered.
fn read_wait(answer: &[String]) -> Option<Asked> {
    let n = |i: usize| answer.get(i).and_then(|s| s.parse::<u64>().ok());
    let queue = |at: usize| Some((answer.get(at)?.clone(), length_of_key(answer.get(at + 1)?)?));
    Some(match answer.first()?.as_str() {
        "gone" => Asked::only(Standing::Gone),
        "forming" => Asked::only(Standing::Forming),
        "seated" => Asked::only(Standing::Seated(serde_json::from_str(answer.get(1)?).ok()?)),
        "waiting" => Asked {
            standing: Standing::Waiting {
                waiting: n(1)? as usize,
                since: n(2)?,
            },
            formed: None,
            queue: Some(queue(4)?),
            dropped: n(3)? as usize,
        },
        "form" => {
            let taken = answer.get(8..)?;
            let (game, length) = queue(3)?;
            Asked {
                standing: match answer.get(5)?.as_str() {
                    "forming" => Standing::Forming,
                    _ => Standing::Waiting {
                        waiting: n(6)? as usize,
                        since: n(7)?,
                    },
                },
                formed: Some(Formation {
                    id: answer.get(1)?.clone(),
                    game: game.clone(),
                    length,
                    tickets: taken.iter().step_by(3).cloned().collect(),
                    since: taken
                        .iter()
                        .skip(1)
                        .step_by(3)
                        .map(|s| s.parse().ok())
                        .collect::<Option<_>>()?,
                    keys: taken
                        .iter()
                        .skip(2)
                        .step_by(3)
                        .map(|s| serde_json::from_str(s).ok())
                        .collect::<Option<_>>()?,
                    left: n(6)? as usize,
                }),
                queue: Some((game, length)),
                dropped: n(2)? as usize,
            }
        }
        _ => return None,
    })
}

/// A token hash as the lobby keeps it.
fn hash_text(host: &TokenHash) -> String {
    serde_json::to_string(host).unwrap_or_default()
}

impl Lobby for RedisLobby {
    fn enter<'a>(
        &'a self,
        ticket: &'a str,
        entering: &'a Entering,
        now: u64,
    ) -> BoxFuture<'a, Answered> {
        self.wait(ticket, Some(entering), now).boxed()
    }

    fn ask<'a>(&'a self, ticket: &'a str, now: u64) -> BoxFuture<'a, Answered> {
        self.wait(ticket, None, now).boxed()
    }

    fn seat<'a>(
        &'a self,
        formation: &'a Formation,
        places: &'a [Place],
    ) -> BoxFuture<'a, Result<bool, TableRefusal>> {
        async move {
            let keys: Vec<String> = formation.tickets.iter().map(|t| ticket_key(t)).collect();
            let kept = ms(PLACE_KEPT);
            let places: Vec<String> = places
                .iter()
                .map(|p| serde_json::to_string(p).unwrap_or_default())
                .collect();
            let mut args = vec!["seat", formation.id.as_str(), kept.as_str()];
            args.extend(places.iter().map(String::as_str));
            let seated: i64 = self
                .node
                .query_at(FORMED.call(&keys, &args), &keys[0])
                .await?;
            Ok(seated == 1)
        }
        .boxed()
    }

    fn unform<'a>(&'a self, formation: &'a Formation) -> BoxFuture<'a, Result<(), TableRefusal>> {
        async move {
            let keys: Vec<String> = formation.tickets.iter().map(|t| ticket_key(t)).collect();
            let mut args = vec!["unform", formation.id.as_str()];
            args.extend(formation.tickets.iter().map(String::as_str));
            self.node
                .query_at::<i64>(FORMED.call(&keys, &args), &keys[0])
                .await?;
            Ok(())
        }
        .boxed()
    }

    fn leave<'a>(&'a self, ticket: &'a str) -> BoxFuture<'a, Result<bool, TableRefusal>> {
        async move {
            let key = ticket_key(ticket);
            let left: i64 = self
                .node
                .query_at(LEAVE.call(std::slice::from_ref(&key), &[ticket]), &key)
                .await?;
            Ok(left == 1)
        }
        .boxed()
    }

    fn list<'a>(
        &'a self,
        listing: &'a Listing,
        host: &'a TokenHash,
        by: &'a str,
    ) -> BoxFuture<'a, Result<bool, TableRefusal>> {
        async move {
            let json = serde_json::to_string(listing).unwrap_or_default();
            let (host, since) = (hash_text(host), listing.since.to_string());
            let (seats, open, kept, taken) = (
                listing.seats.to_string(),
                open_key(&listing.game),
                ms(self.fresh),
                listing.taken.to_string(),
            );
            let (by, most) = (by_key(by), LISTED_PER_ADDRESS.to_string());
            let args = [
                "list",
                &json,
                &host,
                &since,
                &seats,
                &open,
                &listing.table,
                &kept,
                &taken,
                &by,
                &most,
            ];
            Ok(self.listing(listing_key(&listing.table), &args).await? == 1)
        }
        .boxed()
    }

    fn host<'a>(
        &'a self,
        table: &'a str,
        host: &'a TokenHash,
        close: bool,
        now: u64,
    ) -> BoxFuture<'a, Result<bool, TableRefusal>> {
        async move {
            let (host, now, kept) = (hash_text(host), now.to_string(), ms(self.fresh));
            let what = if close { "close" } else { "here" };
            let args = ["host", &host, what, &now, &kept];
            Ok(self.listing(listing_key(table), &args).await? == 1)
        }
        .boxed()
    }

    fn took_seat<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<(), TableRefusal>> {
        async move {
            self.listing(listing_key(table), &["took"]).await?;
            Ok(())
        }
        .boxed()
    }

    fn listed<'a>(
        &'a self,
        game: &'a str,
        _now: u64,
    ) -> BoxFuture<'a, Result<Vec<Listing>, TableRefusal>> {
        async move {
            let key = open_key(game);
            let (most, read) = (LISTED_AT_MOST.to_string(), (4 * LISTED_AT_MOST).to_string());
            let args = ["listed", most.as_str(), read.as_str()];
            let answer: Vec<String> = self
                .node
                .query_at(LISTING.call(std::slice::from_ref(&key), &args), &key)
                .await?;
            Ok(answer
                .chunks(2)
                .filter_map(|pair| {
                    let mut listing: Listing = serde_json::from_str(pair.first()?).ok()?;
                    listing.taken = pair.get(1)?.parse().ok()?;
                    Some(listing)
                })
                .collect())
        }
        .boxed()
    }
}
