//! A page driven as a person would: gone to, scripts run in it, waited on until something is true,
//! its controls found and clicked (a folded header unfolded first), its texts read.

use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::error::CmdError;
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use crate::support::Seated;

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

/// Once the board is drawn and the control `css` is shown, clicks it.
pub async fn click_when_shown(client: &Client, css: &str, seconds: u64) {
    let shown = format!(
        "const e = document.querySelector({}); return !!document.querySelector('.table') && !!e && !e.hidden",
        json!(css)
    );
    wait_for(client, &shown, seconds).await;
    assert!(click(client, css).await, "{css} could not be clicked");
}

/// The table id of the page's address (/t/{id}).
pub async fn table_of(client: &Client) -> String {
    let path = eval(client, "return location.pathname").await;
    let path = path.as_str().expect("a path");
    path.strip_prefix("/t/").expect("a table page").to_string()
}

/// Sends `key` to `element`, as one press of it; `Err` when the element went stale meanwhile.
pub async fn key_press(element: &Element, key: Key) -> Result<(), CmdError> {
    element.send_keys(&char::from(key).to_string()).await
}
