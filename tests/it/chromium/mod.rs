//! Debian's Chromium driven through chromedriver: one chromedriver per test, headless, a fresh profile.
//! Without chromedriver or chromium the suite says why and skips, unless `CHAIKHANA_TEST_REQUIRE_ALL=1`.

#![allow(dead_code)]

pub mod proxy;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

use chaikhana::settings::Settings;

use crate::support::cluster::free_port;
use crate::support::{self, have_program, on_path, wait_listening, Seated, TestServer};

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

    /// A session with these Chromium flags added.
    async fn session_with(&mut self, width: u32, height: u32, extra: &[&str]) -> Client {
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
        caps.insert("goog:chromeOptions".into(), json!({ "args": args }));
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

/// Opens the table's page in `client` as the seat `seated` (its token kept in the page's storage,
/// as the page keeps it after taking the seat itself).
pub async fn open_as_seat(client: &Client, base: &str, seated: &Seated) {
    client.goto(&format!("{base}/")).await.unwrap();
    let keep = format!(
        "localStorage.setItem({}, {}); return true",
        json!(seated.table),
        json!(seated.token)
    );
    eval(client, &keep).await;
    client
        .goto(&format!("{base}/t/{}", seated.table))
        .await
        .unwrap();
}

/// Goes to `path` of the site at `base`.
pub async fn go(client: &Client, base: &str, path: &str) {
    client
        .goto(&format!("{base}{path}"))
        .await
        .unwrap_or_else(|e| panic!("{base}{path} opens: {e}"));
}

/// Runs a script in the page and returns its value.
pub async fn eval(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap_or(Value::Null)
}

/// Waits until `script` returns something truthy, and returns it.
pub async fn wait_for(client: &Client, script: &str, seconds: u64) -> Value {
    let started = Instant::now();
    loop {
        let value = eval(client, script).await;
        let truthy = !matches!(value, Value::Null | Value::Bool(false))
            && value != json!("")
            && value != json!(0);
        if truthy {
            return value;
        }
        assert!(
            started.elapsed() < Duration::from_secs(seconds),
            "waited {seconds}s for: {script}"
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Waits until no card is travelling (motion.js), as a player waits for the cards to land: a click
/// aimed at a card still on its way would land beside it.
pub async fn settle(client: &Client) {
    wait_for(
        client,
        "return document.getAnimations().every(a => a.constructor !== Animation || a.playState !== 'running')",
        10,
    )
    .await;
}

pub async fn find(client: &Client, css: &str) -> Option<Element> {
    client.find(Locator::Css(css)).await.ok()
}

/// Clicks the first element matching `css`; false when there is none or it went stale. A control
/// folded under the table page's "More" (a phone's header) is reached as a person would: "More" first.
pub async fn click(client: &Client, css: &str) -> bool {
    let unfold = format!(
        "const e = document.querySelector({}); const more = e && e.closest('#more'); \
         if (more && getComputedStyle(more).display === 'none') document.getElementById('more-toggle').click(); \
         return true",
        json!(css)
    );
    eval(client, &unfold).await;
    match find(client, css).await {
        Some(e) => e.click().await.is_ok(),
        None => false,
    }
}

/// A script that says what a board offers now: `none` before the table is drawn, `over` once the
/// match is, `next` while a next deal is offered, else the first of the game's `own` lines that
/// returns, else `wait`.
pub fn board_state(own: &str) -> String {
    format!(
        "const t = document.querySelector('.table');\n\
         if (!t) return 'none';\n\
         if (t.dataset.status === 'match-over') return 'over';\n\
         if (document.querySelector('#next-deal')) return 'next';\n\
         {}\nreturn 'wait';",
        own.trim()
    )
}

/// How the page may not scroll, for [`out_of_sight`].
#[derive(Clone, Copy)]
pub enum Scroll {
    Down,
    Sideways,
    Either,
}

/// What of the hand and the action bar lies outside the first screen (or is missing), or how the page
/// scrolls that `scroll` forbids; with `flat_is_out`, a hand or bar of no height counts as out of
/// sight. Empty when all is in sight.
pub async fn out_of_sight(client: &Client, scroll: Scroll, flat_is_out: bool) -> String {
    let (down, sideways) = match scroll {
        Scroll::Down => (true, false),
        Scroll::Sideways => (false, true),
        Scroll::Either => (true, true),
    };
    let script = r#"
const [down, sideways, flatIsOut] = arguments;
const out = [];
for (const sel of ['[data-area=hand]', '[data-area=actions]']) {
  const e = document.querySelector(sel);
  if (!e) { out.push(sel + ' missing'); continue; }
  const r = e.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5 || (flatIsOut && r.height === 0)) {
    out.push(`${sel} at ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)} in ${innerWidth}x${innerHeight}`);
  }
}
const page = document.scrollingElement;
if (down && page.scrollHeight > innerHeight + 1) out.push(`the page is ${page.scrollHeight}px tall`);
if (sideways && page.scrollWidth > innerWidth + 1) out.push(`the page is ${page.scrollWidth}px wide`);
return out.join('; ');
"#;
    let args = vec![json!(down), json!(sideways), json!(flat_is_out)];
    let said = client.execute(script, args).await.expect("the script runs");
    said.as_str().unwrap_or_default().to_string()
}

/// What of the deal's result panel (`#result`: who won, why, the scores) is not in sight: outside the
/// first screen, or cut off by a box around it that scrolls or clips (the panel's own included).
/// Empty when the whole of it can be read without scrolling.
pub async fn result_out_of_sight(client: &Client) -> String {
    let script = r#"
const result = document.querySelector('#result');
if (!result) return '#result missing';
// The part of the screen a box leaves its contents: the screen, cut by every ancestor that clips.
const clip = (e) => {
  let c = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
  for (let a = e.parentElement; a; a = a.parentElement) {
    const style = getComputedStyle(a);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const r = a.getBoundingClientRect();
    c = { top: Math.max(c.top, r.top), left: Math.max(c.left, r.left), bottom: Math.min(c.bottom, r.bottom), right: Math.min(c.right, r.right) };
  }
  return c;
};
const out = [];
for (const e of [result, ...result.querySelectorAll('*')]) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  const c = clip(e);
  if (r.top < c.top - 0.5 || r.left < c.left - 0.5 || r.bottom > c.bottom + 0.5 || r.right > c.right + 0.5) {
    out.push(`${e.tagName.toLowerCase()}.${e.className} at ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)} in ${Math.round(c.left)},${Math.round(c.top)} to ${Math.round(c.right)},${Math.round(c.bottom)}`);
  }
}
return out.join('; ');
"#;
    let said = client
        .execute(script, vec![])
        .await
        .expect("the script runs");
    said.as_str().unwrap_or_default().to_string()
}

/// The end of a guided deal: the guide says the deal is over, the result panel is whole in sight with
/// the guide above it, no error was logged, and the picture is kept in docs/screenshots as `picture`.
pub async fn guided_deal_over(client: &Client, picture: &str) {
    assert_eq!(
        wait_for_text(client, GUIDE_HEADING, 10).await,
        "The deal is over",
        "{picture}"
    );
    assert_eq!(result_out_of_sight(client).await, "", "{picture}");
    docs_screenshot(client, picture).await;
    assert_no_console_error(client, "in a guided deal").await;
}

/// Waits for the table page to say which computer it plays against: the level's name, and the
/// sentence shown.
pub async fn level_shown(client: &Client) -> (String, String) {
    let shown = wait_for(
        client,
        "const l = document.querySelector('#level-shown'); return l && [l.dataset.level, l.textContent]",
        20,
    )
    .await;
    let part = |i: usize| shown[i].as_str().unwrap_or_default().to_string();
    (part(0), part(1))
}

/// Waits until the table's status is `status`.
pub async fn wait_for_status(client: &Client, status: &str, seconds: u64) {
    let script = format!("return document.querySelector('.table')?.dataset.status === '{status}'");
    wait_for(client, &script, seconds).await;
}

/// Waits until an element matching `css` has text, and returns it.
pub async fn text_of(client: &Client, css: &str, seconds: u64) -> String {
    let script = format!("return document.querySelector({})?.textContent", json!(css));
    let text = wait_for(client, &script, seconds).await;
    text.as_str().unwrap_or_default().to_string()
}

/// Clicks a control that the page may be drawing anew just then (the computers keep playing, a
/// replay's bar is redrawn at each step): tries again on a fresh element until it takes.
pub async fn press(client: &Client, css: &str) {
    for _ in 0..50 {
        if click(client, css).await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("could not click {css}");
}

/// Writes a screenshot into docs/screenshots/, where the README links it, as well as target/.
/// The cards are let land first (see [`settle`]), so that none is caught on its way.
pub async fn docs_screenshot(client: &Client, name: &str) {
    settle(client).await;
    screenshot(client, name).await;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
    std::fs::create_dir_all(&dir).expect("the docs screenshot folder");
    let png = client.screenshot().await.expect("a screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("the screenshot is written");
}

/// Fails on any console error the browser logged since the last look.
pub async fn assert_no_console_error(client: &Client, when: &str) {
    let errors = console_errors(client).await;
    assert!(errors.is_empty(), "console errors {when}: {errors:?}");
}

/// Writes a screenshot under target/screenshots/.
pub async fn screenshot(client: &Client, name: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    let png = client.screenshot().await.expect("a screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("the screenshot is written");
}

/// Runs `script` in every page this session opens from now on, before the page's own scripts
/// (Chrome's `Page.addScriptToEvaluateOnNewDocument`, through chromedriver's endpoint for Chrome's
/// DevTools commands, which fantoccini does not wrap).
pub async fn before_every_page(c: &Client, script: &str) {
    let session = c.session_id().await.unwrap().expect("a session");
    let port = DRIVER_PORT.load(std::sync::atomic::Ordering::SeqCst);
    let answer = awc::Client::new()
        .post(format!(
            "http://127.0.0.1:{port}/session/{session}/goog/cdp/execute"
        ))
        .timeout(Duration::from_secs(20))
        .send_json(&json!({
            "cmd": "Page.addScriptToEvaluateOnNewDocument",
            "params": { "source": script },
        }))
        .await
        .expect("chromedriver answers the DevTools command");
    assert!(answer.status().is_success(), "{answer:?}");
}

/// The browser's console errors since the last call, from chromedriver's log endpoint (which
/// fantoccini does not wrap): every SEVERE entry, from every page the session visited; a console
/// error, an uncaught exception and a failed load all come as one.
pub async fn console_errors(c: &Client) -> Vec<String> {
    let session = c.session_id().await.unwrap().expect("a session");
    let port = DRIVER_PORT.load(std::sync::atomic::Ordering::SeqCst);
    let mut answer = awc::Client::new()
        .post(format!("http://127.0.0.1:{port}/session/{session}/se/log"))
        .timeout(Duration::from_secs(20))
        .send_json(&json!({ "type": "browser" }))
        .await
        .expect("chromedriver answers the log request");
    let log: Value = answer
        .json()
        .limit(16 << 20)
        .await
        .expect("the log is JSON");
    log["value"]
        .as_array()
        .expect("log entries")
        .iter()
        .filter(|e| e["level"] == "SEVERE")
        .map(|e| e["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Asserts that the page's deal check, under the board, passed on the last deal and says the deal was
/// shuffled with this page's own number (the server must let each deal wait for the page's number:
/// `shuffle_wait_ms`).
pub async fn assert_fair_deal(c: &Client) {
    let check = wait_for(
        c,
        "const m = document.querySelector('#deal-check'); return m && m.dataset.state && m.dataset.state + ': ' + m.textContent + ' ' + m.title",
        10,
    )
    .await;
    let check = check.as_str().unwrap_or_default();
    assert!(
        check.starts_with("fair: ✓ Fair deal: shuffled with your number"),
        "{check}"
    );
    assert!(
        check.contains("nobody could choose this deal alone"),
        "{check}"
    );
}

/// Waits until `script` returns a string that is not empty, and returns it.
pub async fn wait_for_text(client: &Client, script: &str, seconds: u64) -> String {
    let value = wait_for(client, script, seconds).await;
    value
        .as_str()
        .unwrap_or_else(|| panic!("{script} returned {value}, not text"))
        .to_string()
}

/// What the banner over the page says once it is shown.
pub async fn banner(client: &Client, seconds: u64) -> String {
    let shown = "const b = document.querySelector('#banner'); return !b.hidden && b.textContent";
    wait_for_text(client, shown, seconds).await
}

/// From a game's landing page, "Play with friends": the link to share, once the page gives it.
pub async fn friends_link(client: &Client) -> String {
    click(client, "#play-friends").await;
    let shared = "return document.querySelector('#share-link')?.value";
    wait_for_text(client, shared, 10).await
}

/// Opens a one-deal Panjpar table against the computer from `base`'s landing page, waits for the
/// board, and answers the table's id.
pub async fn open_panjpar_computer_table(c: &Client, base: &str) -> String {
    go(c, base, "/panjpar").await;
    click(c, "input[name=length][value='1']").await;
    click(c, "#play-computer").await;
    wait_for(
        c,
        "return location.pathname.startsWith('/t/') && document.querySelector('.table')",
        20,
    )
    .await;
    let path = eval(c, "return location.pathname").await;
    path.as_str().unwrap().trim_start_matches("/t/").to_string()
}

/// A script giving the guided deal's panel heading (guide.js), or "" while the panel is not shown.
pub const GUIDE_HEADING: &str =
    "const g = document.getElementById('guide'); return g && !g.hidden ? g.querySelector('h2')?.textContent || '' : ''";

/// Once the board is drawn and the control `css` is shown, clicks it.
pub async fn click_when_shown(client: &Client, css: &str, seconds: u64) {
    let shown = format!(
        "const e = document.querySelector({}); return !!document.querySelector('.table') && !!e && !e.hidden",
        json!(css)
    );
    wait_for(client, &shown, seconds).await;
    assert!(click(client, css).await, "{css} could not be clicked");
}

/// Every deal of the server waits for the page's number, as on the site, so that every deal (the
/// first included) is shuffled with it and the page's deal check can say so ([`assert_fair_deal`]).
pub fn pages_shuffle(settings: &mut Settings) {
    settings.shuffle_wait_ms = 60_000;
}
