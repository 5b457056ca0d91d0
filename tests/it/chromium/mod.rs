//! Debian's Chromium driven through chromedriver: one chromedriver per test, headless, a fresh profile.
//! Without chromedriver or chromium the suite says why and skips, unless `CHAIKHANA_TEST_REQUIRE_ALL=1`.

#![allow(dead_code)]

mod evidence;
mod page;
pub mod proxy;
mod sight;
mod site;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;

use chaikhana::settings::Settings;

use crate::support::cluster::free_port;
use crate::support::{self, have_program, on_path, wait_listening, TestServer};

pub use evidence::*;
pub use page::*;
pub use sight::*;
pub use site::*;

/// The port of the chromedriver started last (there is one at a time, see `support::heavy`), for
/// the command fantoccini does not wrap (`console_errors`).
static DRIVER_PORT: std::sync::atomic::AtomicU16 = std::sync::atomic::AtomicU16::new(0);

pub struct Driver {
    child: Child,
    port: u16,
    profiles: Vec<PathBuf>,
    /// A browser test runs alone among the heavy ones (see `support::heavy`).
    _heavy: tokio::sync::MutexGuard<'static, ()>,
}

impl Drop for Driver {
    /// Stops chromedriver and every browser it started. A test that panicked never closed its
    /// browsers, and chromedriver's end does not end them: each is found by its own profile folder.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        for p in &self.profiles {
            let _ = Command::new("pkill")
                .args([
                    "-KILL",
                    "-f",
                    "--",
                    &format!("--user-data-dir={}", p.display()),
                ])
                .status();
            let _ = std::fs::remove_dir_all(p);
        }
    }
}

/// What every browser test starts from: a chromedriver (its turn among the heavy tests taken) and a
/// server tuned by `tune`; `None`, having said why, when the browser is not installed.
pub async fn stage(tune: impl FnOnce(&mut Settings)) -> Option<(Driver, TestServer)> {
    let driver = driver().await?;
    Some((driver, TestServer::start(tune)))
}

/// `stage(tune)` for a test, or the test's end (a skip, said by `stage`) when the browser is not
/// installed: `let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);`
macro_rules! staged {
    ($tune:expr) => {
        match $crate::chromium::stage($tune).await {
            Some(staged) => staged,
            None => return,
        }
    };
}
pub(crate) use staged;

/// Starts chromedriver once this test's turn among the heavy ones has come, or returns `None`
/// (having said why) when the browser is not installed.
pub async fn driver() -> Option<Driver> {
    let heavy = support::heavy().await;
    let needed_for = "the browser tests (apt-get install -y chromium chromium-driver)";
    let browser = if on_path("chromium-browser") {
        "chromium-browser"
    } else {
        "chromium"
    };
    if !have_program("chromedriver", needed_for) || !have_program(browser, needed_for) {
        return None;
    }
    let port = free_port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    wait_listening(port, "chromedriver");
    DRIVER_PORT.store(port, std::sync::atomic::Ordering::SeqCst);
    Some(Driver {
        child,
        port,
        profiles: Vec::new(),
        _heavy: heavy,
    })
}

impl Driver {
    /// A new headless browser session with its own profile (so its own localStorage).
    pub async fn session(&mut self, width: u32, height: u32) -> Client {
        self.session_with(width, height, &[]).await
    }

    /// A session with a fake microphone that is granted without asking (for the voice tests).
    pub async fn media_session(&mut self, width: u32, height: u32) -> Client {
        let media = [
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
        ];
        self.session_with(width, height, &media).await
    }

    /// A session with a fake microphone whose use the browser refuses, as if the player had said no.
    pub async fn refusing_media_session(&mut self, width: u32, height: u32) -> Client {
        let media = [
            "--use-fake-device-for-media-stream",
            "--deny-permission-prompts",
        ];
        self.session_with(width, height, &media).await
    }

    /// A reduced-motion session when `reduced`, else a plain one.
    pub async fn motion_session(&mut self, reduced: bool, width: u32, height: u32) -> Client {
        if reduced {
            self.reduced_motion_session(width, height).await
        } else {
            self.session(width, height).await
        }
    }

    /// A session whose browser asks pages for reduced motion (`prefers-reduced-motion: reduce`).
    pub async fn reduced_motion_session(&mut self, width: u32, height: u32) -> Client {
        self.session_with(width, height, &["--force-prefers-reduced-motion"])
            .await
    }

    /// A session whose page viewport, not its window, is `width` x `height`: headless Chromium's
    /// window keeps some of its height for itself, which would leave a landscape phone a sliver.
    pub async fn viewport_session(&mut self, width: u32, height: u32) -> Client {
        let client = self.session(width, height).await;
        let inner = eval(&client, "return [innerWidth, innerHeight]").await;
        let side = |i: usize, wanted: u32| {
            let got = inner[i].as_u64().expect("the viewport's size") as u32;
            (2 * wanted).saturating_sub(got)
        };
        client
            .set_window_size(side(0, width), side(1, height))
            .await
            .expect("window size");
        client
    }

    /// A phone: a `width` x `height` viewport at three device pixels to the CSS pixel, touch events
    /// and no mouse hover, and a phone's user agent (Chrome's device emulation), so the pages see
    /// what they see on a phone in a hand.
    pub async fn touch_session(&mut self, width: u32, height: u32) -> Client {
        let phone = json!({
            "deviceMetrics": { "width": width, "height": height, "pixelRatio": 3.0, "touch": true, "mobile": true },
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36",
        });
        self.session_with_options(width, height, &[], Some(phone))
            .await
    }

    /// A phone held upright (390x844) with touch and a phone's user agent.
    pub async fn phone_session(&mut self) -> Client {
        self.touch_session(390, 844).await
    }

    /// A session with these Chromium flags added.
    async fn session_with(&mut self, width: u32, height: u32, extra: &[&str]) -> Client {
        self.session_with_options(width, height, extra, None).await
    }

    /// A session with these Chromium flags added and, when given, Chrome's device emulation.
    async fn session_with_options(
        &mut self,
        width: u32,
        height: u32,
        extra: &[&str],
        emulation: Option<serde_json::Value>,
    ) -> Client {
        let profile = std::env::temp_dir().join(format!(
            "chaikhana-chromium-{}-{}-{}",
            std::process::id(),
            self.port,
            self.profiles.len()
        ));
        let _ = std::fs::remove_dir_all(&profile);
        self.profiles.push(profile.clone());
        let args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-dev-shm-usage".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.display()),
        ];
        let args: Vec<String> = args
            .into_iter()
            .chain(extra.iter().map(|a| a.to_string()))
            .collect();
        let mut caps = serde_json::Map::new();
        let mut options = json!({ "args": args });
        if let Some(emulation) = emulation {
            options["mobileEmulation"] = emulation;
        }
        caps.insert("goog:chromeOptions".into(), options);
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a browser session");
        client
            .set_window_size(width, height)
            .await
            .expect("window size");
        client
    }
}
