//! What a browser test keeps and looks into besides the page: screenshots (under target/, and for the
//! README in docs/screenshots/), the console's errors, and scripts run before every page, through
//! chromedriver's own endpoints.

use std::path::PathBuf;
use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use super::{settle, DRIVER_PORT};

/// Writes a screenshot into docs/screenshots/, where the README links it, as well as target/.
/// The cards are let land first (see [`settle`]), so that none is caught on its way.
pub async fn docs_screenshot(client: &Client, name: &str) {
    settle(client).await;
    screenshot(client, name).await;
    screenshot_into(client, "docs/screenshots", name).await;
}

/// Fails on any console error the browser logged since the last look.
pub async fn assert_no_console_error(client: &Client, when: &str) {
    let errors = console_errors(client).await;
    assert!(errors.is_empty(), "console errors {when}: {errors:?}");
}

/// Writes a screenshot under target/screenshots/.
pub async fn screenshot(client: &Client, name: &str) {
    screenshot_into(client, "target/screenshots", name).await;
}

/// Writes a screenshot as `{name}.png` into `folder` of the project.
async fn screenshot_into(client: &Client, folder: &str, name: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(folder);
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    let png = client.screenshot().await.expect("a screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("the screenshot is written");
}

/// A POST to chromedriver's `command` for this session (one that fantoccini does not wrap), to be
/// sent within 20 s.
async fn session_command(c: &Client, command: &str) -> awc::ClientRequest {
    let session = c.session_id().await.unwrap().expect("a session");
    let port = DRIVER_PORT.load(std::sync::atomic::Ordering::SeqCst);
    awc::Client::new()
        .post(format!(
            "http://127.0.0.1:{port}/session/{session}/{command}"
        ))
        .timeout(Duration::from_secs(20))
}

/// Runs `script` in every page this session opens from now on, before the page's own scripts
/// (Chrome's `Page.addScriptToEvaluateOnNewDocument`).
pub async fn before_every_page(c: &Client, script: &str) {
    devtools(
        c,
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": script }),
    )
    .await;
}

/// Sends one of Chrome's DevTools commands (`cmd` with `params`) to this session's page, through
/// chromedriver's endpoint for them, which fantoccini does not wrap.
pub async fn devtools(c: &Client, cmd: &str, params: Value) {
    let answer = session_command(c, "goog/cdp/execute")
        .await
        .send_json(&json!({ "cmd": cmd, "params": params }))
        .await
        .expect("chromedriver answers the DevTools command");
    assert!(answer.status().is_success(), "{cmd}: {answer:?}");
}

/// The browser's console errors since the last call, from chromedriver's log endpoint (which
/// fantoccini does not wrap): every SEVERE entry, from every page the session visited; a console
/// error, an uncaught exception and a failed load all come as one.
pub async fn console_errors(c: &Client) -> Vec<String> {
    let mut answer = session_command(c, "se/log")
        .await
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
