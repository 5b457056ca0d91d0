//! The server's settings: config/default.toml (built into the binary) with every default, then an
//! optional file, then `CHAIKHANA_*` environment variables.

use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

/// The defaults, as shipped in config/default.toml.
pub const DEFAULTS: &str = include_str!("../config/default.toml");

/// What a process does when several share their tables through Redis: everything, only pages and
/// sockets, or only tables. Written in the settings as "all", "edge" or "tables".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    All,
    Edge,
    Tables,
}

impl Role {
    /// The role as the settings write it; nodes also tell each other their roles in these words.
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

    /// Whether it serves pages and sockets to browsers (a tables-only node serves health and
    /// metrics alone).
    pub fn serves_browsers(self) -> bool {
        self != Role::Tables
    }
}

/// Read by hand rather than derived, so that an operator who mistypes the role is told the three
/// words in plain terms.
impl<'de> Deserialize<'de> for Role {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Role, D::Error> {
        let written = String::deserialize(deserializer)?;
        [Role::All, Role::Edge, Role::Tables]
            .into_iter()
            .find(|role| role.as_str() == written)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "role is \"all\", \"edge\" or \"tables\", not \"{written}\""
                ))
            })
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub listen: String,
    /// Where `/metrics`, `/healthz` and `/readyz` are served apart from the site (empty: on `listen`).
    pub ops_listen: String,
    pub workers: usize,
    pub bot_delay_ms: u64,
    pub strong_budget_ms: u64,
    /// Threads of the thinking pool (0: the cores less one, at least one).
    pub thinking_threads: usize,
    /// The nice value of the thinking threads.
    pub thinking_nice: i32,
    /// The least a decision is given under load, in ms of CPU time.
    pub thinking_floor_ms: u64,
    /// Decisions waiting longer than this (ms) saturate the pool.
    pub thinking_saturated_ms: u64,
    /// How long (ms) a coach's study waits for moves before it goes ahead of them.
    pub coach_wait_ms: u64,
    pub offer_seat_after_secs: u64,
    pub sleep_after_secs: u64,
    pub friends_table_expiry_secs: u64,
    pub computer_table_expiry_secs: u64,
    pub finished_table_expiry_secs: u64,
    /// Where the one-binary default keeps its tables (empty: in memory only).
    pub data_dir: String,
    /// What to do at start with a damaged store file: "refuse" (stop, saying so) or "set-aside"
    /// (keep it beside, renamed, and start with an empty store).
    pub store_damaged: String,
    pub redis_url: String,
    /// A PEM file of the certificate authority a `rediss://` Redis's certificate is checked against
    /// (empty: the system's authorities).
    pub redis_ca_file: String,
    pub redis_lease_ms: u64,
    /// How many replicas must have a table's change before it is acknowledged (Redis's `WAIT`; 0:
    /// the primary's answer is enough).
    pub redis_min_replicas: u32,
    /// How long a change waits for those replicas before its table pauses, in ms.
    pub redis_replica_wait_ms: u64,
    pub role: Role,
    pub max_frame_bytes: usize,
    pub rate_per_second: u32,
    pub rate_burst: u32,
    pub read_bytes_per_second: u32,
    pub read_bytes_burst: u32,
    pub write_timeout_secs: u64,
    pub sockets_per_seat: usize,
    pub sockets_per_address: usize,
    pub sockets_per_node: usize,
    /// HTTP connections (not upgraded to a socket) one client address may hold, and this process.
    pub http_connections_per_address: usize,
    pub http_connections_per_node: usize,
    /// A request's head and body must arrive within this long of its first byte (see
    /// `server::request_clock`).
    pub request_deadline_secs: u64,
    /// And no slower than this, after its first second.
    pub request_min_bytes_per_second: u32,
    pub watchers_per_table: usize,
    /// 32 hex digits, or empty (see `table::WatchKey`).
    pub watch_secret: String,
    pub voice_rate_per_second: u32,
    pub voice_rate_burst: u32,
    pub voice_stun_urls: String,
    pub voice_turn_urls: String,
    pub voice_turn_username: String,
    pub voice_turn_credential: String,
    pub ping_interval_secs: u64,
    pub silence_timeout_secs: u64,
    pub hello_timeout_secs: u64,
    /// How long a deal waits for the numbers of the people seated (see `table::shuffle`).
    pub shuffle_wait_ms: u64,
    pub log_format: String,
    pub log_filter: String,
    pub site_origin: String,
    pub tables_per_minute: u32,
    /// Seats one client address may take through a table's link a minute (0: no limit).
    pub joins_per_minute: u32,
    /// A visitor waiting to be paired whose page has not asked for this long has left (seconds).
    pub pairing_gone_after_secs: u64,
    /// After this long waiting with nobody to play, the page offers the computer (seconds).
    pub pairing_offer_computer_secs: u64,
    /// An open table is listed while its host's page has said it is there within this long (seconds).
    pub open_table_fresh_secs: u64,
    /// "Your games" asked per client address a minute (0: no limit).
    pub your_games_per_minute: u32,
    /// CIDR blocks of the proxies whose `X-Forwarded-For` names the client (see
    /// `server::client_address`).
    pub trusted_proxies: String,
}

impl Settings {
    /// The defaults, then `file` if given, then the environment.
    pub fn load(file: Option<&Path>) -> Result<Settings, String> {
        Settings::load_with_env(file, std::env::vars())
    }

    /// The defaults, then `file`, then those of `env` that name a setting (`CHAIKHANA_` and the
    /// setting in capitals). Other `CHAIKHANA_*` variables, such as the test suite's, are not settings
    /// and are left alone; a file naming an unknown setting is refused.
    pub fn load_with_env(
        file: Option<&Path>,
        env: impl Iterator<Item = (String, String)>,
    ) -> Result<Settings, String> {
        let names = setting_names();
        let env: std::collections::HashMap<String, String> = env
            .filter(|(name, _)| {
                name.strip_prefix("CHAIKHANA_")
                    .is_some_and(|key| names.iter().any(|n| n.eq_ignore_ascii_case(key)))
            })
            .collect();
        let mut builder = config::Config::builder()
            .add_source(config::File::from_str(DEFAULTS, config::FileFormat::Toml));
        if let Some(path) = file {
            builder = builder.add_source(config::File::from(path).required(true));
        }
        let settings: Settings = builder
            .add_source(
                config::Environment::with_prefix("CHAIKHANA")
                    .try_parsing(true)
                    .source(Some(env)),
            )
            .build()
            .and_then(|c| c.try_deserialize())
            .map_err(|e| format!("the settings are not valid: {e}"))?;
        Ok(settings)
    }

    /// The defaults alone.
    pub fn defaults() -> Settings {
        toml_defaults()
    }

    pub fn bot_delay(&self) -> Duration {
        Duration::from_millis(self.bot_delay_ms)
    }

    /// How long a table with nobody connected stays in memory (at least a second).
    pub fn sleep_after(&self) -> Duration {
        Duration::from_secs(self.sleep_after_secs.max(1))
    }

    /// How long an open table stays listed after its host's page last said it was there.
    pub fn open_table_fresh(&self) -> Duration {
        Duration::from_secs(self.open_table_fresh_secs.max(1))
    }

    /// How long a waiting visitor's page may go without asking before it has left the queue.
    pub fn pairing_gone_after(&self) -> Duration {
        Duration::from_secs(self.pairing_gone_after_secs.max(1))
    }

    /// How long a seat is away before the others may offer it to someone else.
    pub fn offer_seat_after(&self) -> Duration {
        Duration::from_secs(self.offer_seat_after_secs)
    }

    /// How long a table's lease lasts unless refreshed (a setting under 300 ms counts as 300 ms).
    pub fn redis_lease(&self) -> Duration {
        Duration::from_millis(self.redis_lease_ms.max(300))
    }

    /// How long a change waits for its replicas (see `redis_min_replicas`): from 10 ms to 1.5 s, well
    /// inside the time after which a round trip counts Redis as out of reach.
    pub fn redis_replica_wait(&self) -> Duration {
        Duration::from_millis(self.redis_replica_wait_ms.clamp(10, 1500))
    }

    /// How long a seat's socket has to send its hello (at least a second).
    pub fn hello_timeout(&self) -> Duration {
        Duration::from_secs(self.hello_timeout_secs.max(1))
    }

    /// How often every socket is pinged (at least every second).
    pub fn ping_interval(&self) -> Duration {
        Duration::from_secs(self.ping_interval_secs.max(1))
    }

    /// How long a socket may stay silent before it is dropped (at least a second).
    pub fn silence_timeout(&self) -> Duration {
        Duration::from_secs(self.silence_timeout_secs.max(1))
    }

    /// The longest frame or message a socket reads at all; past it the socket closes with 1009.
    /// (Text up to `max_frame_bytes` is heard; longer, up to this, is answered with an error.)
    pub fn max_message_bytes(&self) -> usize {
        4 * self.max_frame_bytes.max(1024)
    }

    pub fn write_timeout(&self) -> Duration {
        Duration::from_secs(self.write_timeout_secs.max(1))
    }

    /// How long a request's head and body may take to arrive (at least a second).
    pub fn request_deadline(&self) -> Duration {
        Duration::from_secs(self.request_deadline_secs.max(1))
    }

    /// The HTTP connections this process may hold: the setting, or when it is 0 an eighth of the
    /// open-file limit (at least 64), beside the sockets of [`Settings::sockets_per_node`].
    pub fn http_connections_per_node(&self) -> usize {
        if self.http_connections_per_node > 0 {
            return self.http_connections_per_node;
        }
        (open_file_limit() / 8).max(64)
    }

    /// The sockets this process may hold: the setting, or when it is 0 what the open-file limit
    /// allows once Redis connections, log and listening sockets and files have their room.
    pub fn sockets_per_node(&self) -> usize {
        if self.sockets_per_node > 0 {
            return self.sockets_per_node;
        }
        let open_files = open_file_limit();
        // A socket is one descriptor; keep a tenth, and at least 256, for everything else.
        let room = (open_files / 10).max(256);
        open_files.saturating_sub(room).max(1)
    }
}

/// The files this process may open (a million when the limit is not known or there is none).
fn open_file_limit() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    let known = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    if known && limit.rlim_cur != libc::RLIM_INFINITY {
        usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
    } else {
        1 << 20
    }
}

/// Lifts this process's open-file limit to its hard limit: every socket is a file.
pub fn raise_open_file_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the struct given, nothing else.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// The names of the settings: the fields of [`Settings`], as serde's derive lists them. Only
/// `CHAIKHANA_` and one of these (in any case) is read from the environment.
fn setting_names() -> &'static [&'static str] {
    let mut names: &'static [&'static str] = &[];
    // Asking for the fields is all this deserializer does; the error it ends with is expected.
    let _ = Settings::deserialize(FieldNames(&mut names));
    names
}

/// A deserializer that only notes the field names the struct asks it for, and then refuses.
struct FieldNames<'a>(&'a mut &'static [&'static str]);

impl<'de> serde::Deserializer<'de> for FieldNames<'_> {
    type Error = serde::de::value::Error;

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(serde::de::Error::custom("only the field names were wanted"))
    }

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("only a struct has field names"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

fn toml_defaults() -> Settings {
    config::Config::builder()
        .add_source(config::File::from_str(DEFAULTS, config::FileFormat::Toml))
        .build()
        .and_then(|c| c.try_deserialize())
        .expect("config/default.toml holds every setting")
}

/// For a test: writes `text` into the file `name` of its own scratch folder
/// (`chaikhana-{folder}-{process id}` in the system's temporary folder), and answers the file's path.
#[cfg(test)]
pub(crate) fn scratch_file(folder: &str, name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chaikhana-{folder}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_hold_every_setting() {
        let settings = Settings::defaults();
        assert_eq!(settings.listen, "127.0.0.1:8080");
        assert_eq!(settings.bot_delay_ms, 800);
        assert_eq!(settings.offer_seat_after_secs, 600);
        assert_eq!(settings.sleep_after(), Duration::from_secs(120));
        assert_eq!(settings.data_dir, "chaikhana-data");
        assert_eq!(settings.max_frame_bytes, 8192);
        assert!(settings.redis_url.is_empty());
        assert_eq!(settings.http_connections_per_address, 64);
        assert!(settings.http_connections_per_node() >= 64);
        assert_eq!(settings.request_deadline(), Duration::from_secs(10));
        assert_eq!(settings.request_min_bytes_per_second, 1024);
    }

    #[test]
    fn a_file_overrides_the_defaults() {
        let path = scratch_file(
            "settings",
            "mine.toml",
            "bot_delay_ms = 5\nlisten = \"127.0.0.1:9999\"\n",
        );
        let settings = Settings::load(Some(&path)).unwrap();
        assert_eq!(settings.bot_delay_ms, 5);
        assert_eq!(settings.listen, "127.0.0.1:9999");
        assert_eq!(settings.sleep_after_secs, 120);
        std::fs::write(&path, "no_such_setting = 1\n").unwrap();
        assert!(Settings::load(Some(&path)).is_err());
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[test]
    fn the_environment_overrides_settings_and_ignores_other_variables() {
        let env = [
            ("CHAIKHANA_BOT_DELAY_MS", "7"),
            ("CHAIKHANA_LISTEN", "0.0.0.0:80"),
            ("CHAIKHANA_TEST_REQUIRE_ALL", "1"),
            ("HOME", "/root"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let settings = Settings::load_with_env(None, env.into_iter()).unwrap();
        assert_eq!(settings.bot_delay_ms, 7);
        assert_eq!(settings.listen, "0.0.0.0:80");
        // A list of URLs stays one string, and an empty one is allowed (the voice settings).
        let voice = [
            (
                "CHAIKHANA_VOICE_TURN_URLS",
                "turn:t.example:3478?transport=udp,turns:t.example:5349",
            ),
            ("CHAIKHANA_VOICE_STUN_URLS", ""),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let settings = Settings::load_with_env(None, voice.into_iter()).unwrap();
        assert_eq!(
            settings.voice_turn_urls,
            "turn:t.example:3478?transport=udp,turns:t.example:5349"
        );
        assert_eq!(settings.voice_stun_urls, "");
        let bad = [("CHAIKHANA_BOT_DELAY_MS".to_string(), "soon".to_string())];
        assert!(Settings::load_with_env(None, bad.into_iter()).is_err());
    }

    fn with_env(pairs: &[(&str, &str)]) -> Result<Settings, String> {
        let env = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        Settings::load_with_env(None, env.collect::<Vec<_>>().into_iter())
    }

    #[test]
    fn the_settings_read_from_the_environment_are_the_fields_and_the_files_keys() {
        let mut names: Vec<&str> = setting_names().to_vec();
        names.sort_unstable();
        let defaults = config::Config::builder()
            .add_source(config::File::from_str(DEFAULTS, config::FileFormat::Toml))
            .build()
            .unwrap()
            .try_deserialize::<std::collections::HashMap<String, config::Value>>()
            .unwrap();
        let mut keys: Vec<&str> = defaults.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(names, keys);
        // The last setting of the file, like every other, is read from its variable.
        let settings = with_env(&[("CHAIKHANA_TRUSTED_PROXIES", "10.0.0.0/8")]).unwrap();
        assert_eq!(settings.trusted_proxies, "10.0.0.0/8");
    }

    #[test]
    fn the_role_is_one_of_three() {
        assert_eq!(Settings::defaults().role, Role::All);
        for (written, role) in [
            ("all", Role::All),
            ("edge", Role::Edge),
            ("tables", Role::Tables),
        ] {
            assert_eq!(with_env(&[("CHAIKHANA_ROLE", written)]).unwrap().role, role);
            assert_eq!(role.as_str(), written);
        }
        let refused = with_env(&[("CHAIKHANA_ROLE", "everything")]).unwrap_err();
        assert!(
            refused.contains("\"tables\", not \"everything\""),
            "{refused}"
        );
        assert!(with_env(&[("CHAIKHANA_ROLE", "")]).is_err());
    }

    #[test]
    fn durations_come_in_the_units_the_settings_name() {
        let settings = with_env(&[
            ("CHAIKHANA_BOT_DELAY_MS", "250"),
            ("CHAIKHANA_SLEEP_AFTER_SECS", "90"),
            ("CHAIKHANA_REDIS_LEASE_MS", "100"),
            ("CHAIKHANA_PING_INTERVAL_SECS", "0"),
        ])
        .unwrap();
        assert_eq!(settings.bot_delay(), Duration::from_millis(250));
        assert_eq!(settings.sleep_after(), Duration::from_secs(90));
        assert_eq!(settings.offer_seat_after(), Duration::from_secs(600));
        assert_eq!(settings.redis_lease(), Duration::from_millis(300));
        assert_eq!(settings.ping_interval(), Duration::from_secs(1));
    }
}
