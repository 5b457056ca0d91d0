//! The server's settings: config/default.toml (built into the binary) with every default, then an
//! optional file, then `CHAIKHANA_*` environment variables.

use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

/// The defaults, as shipped in config/default.toml.
pub const DEFAULTS: &str = include_str!("../config/default.toml");

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub listen: String,
    /// Where `/metrics`, `/healthz` and `/readyz` are served apart from the site (empty: on `listen`).
    pub ops_listen: String,
    pub workers: usize,
    pub bot_delay_ms: u64,
    pub strong_budget_ms: u64,
    pub seat_hold_secs: u64,
    pub idle_expiry_secs: u64,
    pub redis_url: String,
    /// A PEM file of the certificate authority a `rediss://` Redis's certificate is checked against
    /// (empty: the system's authorities).
    pub redis_ca_file: String,
    pub redis_lease_ms: u64,
    pub role: String,
    pub max_frame_bytes: usize,
    pub rate_per_second: u32,
    pub rate_burst: u32,
    pub read_bytes_per_second: u32,
    pub read_bytes_burst: u32,
    pub write_timeout_secs: u64,
    pub sockets_per_seat: usize,
    pub sockets_per_address: usize,
    pub sockets_per_node: usize,
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
        let settings: Vec<String> = DEFAULTS
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .filter_map(|line| line.split_once('=').map(|(key, _)| key.trim().to_string()))
            .collect();
        let env: std::collections::HashMap<String, String> = env
            .filter(|(name, _)| {
                name.strip_prefix("CHAIKHANA_")
                    .is_some_and(|key| settings.contains(&key.to_ascii_lowercase()))
            })
            .collect();
        let mut builder = config::Config::builder()
            .add_source(config::File::from_str(DEFAULTS, config::FileFormat::Toml));
        if let Some(path) = file {
            builder = builder.add_source(config::File::from(path).required(true));
        }
        builder
            .add_source(
                config::Environment::with_prefix("CHAIKHANA")
                    .try_parsing(true)
                    .source(Some(env)),
            )
            .build()
            .and_then(|c| c.try_deserialize())
            .map_err(|e| format!("the settings are not valid: {e}"))
    }

    /// The defaults alone.
    pub fn defaults() -> Settings {
        toml_defaults()
    }

    /// How long the strong computer thinks per decision.
    pub fn strong_budget(&self) -> crate::games::strong::Budget {
        crate::games::strong::Budget::Time(Duration::from_millis(self.strong_budget_ms))
    }

    pub fn bot_delay(&self) -> Duration {
        Duration::from_millis(self.bot_delay_ms)
    }

    pub fn seat_hold(&self) -> Duration {
        Duration::from_secs(self.seat_hold_secs)
    }

    pub fn idle_expiry(&self) -> Duration {
        Duration::from_secs(self.idle_expiry_secs)
    }

    /// The longest frame or message a socket reads at all; past it the socket closes with 1009.
    /// (Text up to `max_frame_bytes` is heard; longer, up to this, is answered with an error.)
    pub fn max_message_bytes(&self) -> usize {
        4 * self.max_frame_bytes.max(1024)
    }

    pub fn write_timeout(&self) -> Duration {
        Duration::from_secs(self.write_timeout_secs.max(1))
    }

    /// The sockets this process may hold: the setting, or when it is 0 what the open-file limit
    /// allows once Redis connections, log and listening sockets and files have their room.
    pub fn sockets_per_node(&self) -> usize {
        if self.sockets_per_node > 0 {
            return self.sockets_per_node;
        }
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the struct it is given.
        let known = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
        let open_files = if known && limit.rlim_cur != libc::RLIM_INFINITY {
            usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
        } else {
            1 << 20
        };
        // A socket is one descriptor; keep a tenth, and at least 256, for everything else.
        let room = (open_files / 10).max(256);
        open_files.saturating_sub(room).max(1)
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

fn toml_defaults() -> Settings {
    config::Config::builder()
        .add_source(config::File::from_str(DEFAULTS, config::FileFormat::Toml))
        .build()
        .and_then(|c| c.try_deserialize())
        .expect("config/default.toml holds every setting")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_hold_every_setting() {
        let settings = Settings::defaults();
        assert_eq!(settings.listen, "127.0.0.1:8080");
        assert_eq!(settings.bot_delay_ms, 800);
        assert_eq!(settings.seat_hold_secs, 60);
        assert_eq!(settings.max_frame_bytes, 8192);
        assert!(settings.redis_url.is_empty());
    }

    #[test]
    fn a_file_overrides_the_defaults() {
        let dir = std::env::temp_dir().join(format!("chaikhana-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("mine.toml");
        std::fs::write(&path, "bot_delay_ms = 5\nlisten = \"127.0.0.1:9999\"\n").unwrap();
        let settings = Settings::load(Some(&path)).unwrap();
        assert_eq!(settings.bot_delay_ms, 5);
        assert_eq!(settings.listen, "127.0.0.1:9999");
        assert_eq!(settings.seat_hold_secs, 60);
        std::fs::write(&path, "no_such_setting = 1\n").unwrap();
        assert!(Settings::load(Some(&path)).is_err());
        std::fs::remove_dir_all(&dir).ok();
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
}
