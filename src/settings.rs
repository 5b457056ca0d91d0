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
    pub bot_delay_ms: u64,
    pub seat_hold_secs: u64,
    pub idle_expiry_secs: u64,
    pub redis_url: String,
    pub max_frame_bytes: usize,
    pub rate_per_second: u32,
    pub rate_burst: u32,
    pub ping_interval_secs: u64,
    pub silence_timeout_secs: u64,
    pub log_format: String,
    pub log_filter: String,
}

impl Settings {
    /// The defaults, then `file` if given, then the environment.
    pub fn load(file: Option<&Path>) -> Result<Settings, String> {
        let mut builder = config::Config::builder()
            .add_source(config::File::from_str(DEFAULTS, config::FileFormat::Toml));
        if let Some(path) = file {
            builder = builder.add_source(config::File::from(path).required(true));
        }
        // `CHAIKHANA_TEST_REQUIRE_ALL` belongs to the test suites (CI sets it), not to the server.
        let environment: config::Map<String, String> = std::env::vars()
            .filter(|(name, _)| name != "CHAIKHANA_TEST_REQUIRE_ALL")
            .collect();
        builder
            .add_source(
                config::Environment::with_prefix("CHAIKHANA")
                    .source(Some(environment))
                    .try_parsing(true),
            )
            .build()
            .and_then(|c| c.try_deserialize())
            .map_err(|e| format!("the settings are not valid: {e}"))
    }

    /// The defaults alone.
    pub fn defaults() -> Settings {
        toml_defaults()
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
}
