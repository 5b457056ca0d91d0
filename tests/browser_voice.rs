//! Voice in Chromium with a fake microphone: two pages at a friends table switch voice on, their
//! WebRTC connection comes up and audio flows both ways; one switches off and both connections close.

mod chromium;
mod support;

use std::time::Duration;

use fantoccini::Client;
use serde_json::Value;

use chromium::*;
use support::TestServer;

/// Keeps every RTCPeerConnection the page makes in `window.peerConnections`, so the test can read
/// their state and statistics (the page's own code is untouched).
const RECORD_CONNECTIONS: &str = r#"
if (!window.peerConnections) {
  window.peerConnections = [];
  const Made = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Made {
    constructor(...args) { super(...args); window.peerConnections.push(this); }
  };
}
return true;
"#;

/// The audio bytes received so far on the page's open connections, summed.
const AUDIO_BYTES_RECEIVED: &str = r#"
let total = 0;
for (const pc of window.peerConnections.filter((p) => p.connectionState !== 'closed')) {
  const stats = await pc.getStats();
  stats.forEach((s) => { if (s.type === 'inbound-rtp' && s.kind === 'audio') total += s.bytesReceived; });
}
return total;
"#;

async fn audio_bytes(c: &Client) -> u64 {
    let script = format!("return (async () => {{ {AUDIO_BYTES_RECEIVED} }})();");
    eval(c, &script).await.as_u64().unwrap_or(0)
}

async fn voice_state_of(c: &Client, seat: u64) -> Value {
    eval(
        c,
        &format!(
            "return document.querySelector('.voice-seat[data-seat=\"{seat}\"]')?.dataset.state"
        ),
    )
    .await
}

#[actix_rt::test]
async fn two_browsers_at_a_friends_table_talk_then_one_switches_off() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = TestServer::start(|_| {});
    let host = driver.media_session(1280, 800).await;
    let guest = driver.media_session(390, 844).await;
    host.goto(&format!("{}/panjpar", server.base))
        .await
        .unwrap();
    click(&host, "#play-friends").await;
    let link = wait_for(
        &host,
        "return document.querySelector('#share-link')?.value",
        10,
    )
    .await;
    let link = link.as_str().unwrap().to_string();
    click(&host, "#go-to-table").await;
    guest.goto(&link).await.unwrap();
    for page in [&host, &guest] {
        wait_for(
            page,
            "return document.querySelector('.table')?.dataset.status === 'playing'",
            20,
        )
        .await;
        let switch = wait_for(
            page,
            "return document.querySelector('#voice-switch')?.textContent",
            10,
        )
        .await;
        assert_eq!(switch, "Voice: off", "voice starts off");
        eval(page, RECORD_CONNECTIONS).await;
    }
    assert!(click(&host, "#voice-switch").await);
    wait_for(
        &guest,
        "return document.querySelector('.voice-seat[data-seat=\"0\"]')?.dataset.state === 'on'",
        10,
    )
    .await;
    assert!(click(&guest, "#voice-switch").await);
    for page in [&host, &guest] {
        wait_for(
            page,
            "return window.peerConnections.some((pc) => pc.connectionState === 'connected')",
            30,
        )
        .await;
    }
    // Each page receives audio, and keeps receiving it.
    let before = [audio_bytes(&host).await, audio_bytes(&guest).await];
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let after = [audio_bytes(&host).await, audio_bytes(&guest).await];
    for page in 0..2 {
        assert!(
            after[page] > before[page] && before[page] > 0,
            "page {page}: audio bytes received went from {} to {}",
            before[page],
            after[page]
        );
    }
    assert!(
        ["connected", "talking"].contains(&voice_state_of(&host, 1).await.as_str().unwrap_or("")),
        "the guest shows as connected on the host's page"
    );
    // The fake microphone beeps: each page sees the other talking.
    for (page, other) in [(&host, 1), (&guest, 0)] {
        wait_for(
            page,
            &format!("return document.querySelector('.voice-seat[data-seat=\"{other}\"]')?.dataset.state === 'talking'"),
            10,
        )
        .await;
    }
    let offered = eval(&host, "return window.peerConnections.length").await;
    assert_eq!(offered, 1, "one connection for the pair");
    screenshot(&host, "voice-on-1280x800").await;
    screenshot(&guest, "voice-on-390x844").await;
    // Mute stops sending without hanging up.
    assert!(click(&guest, "#voice-mute").await);
    assert_eq!(voice_state_of(&guest, 1).await, "muted");
    // The guest switches off: both pages close their connection and show the guest's voice off.
    assert!(click(&guest, "#voice-switch").await);
    for page in [&host, &guest] {
        wait_for(
            page,
            "return window.peerConnections.every((pc) => pc.connectionState === 'closed')",
            10,
        )
        .await;
    }
    wait_for(
        &host,
        "return document.querySelector('.voice-seat[data-seat=\"1\"]')?.dataset.state === 'off'",
        10,
    )
    .await;
    let switch = eval(
        &guest,
        "return document.querySelector('#voice-switch').textContent",
    )
    .await;
    assert_eq!(switch, "Voice: off");
    host.close().await.unwrap();
    guest.close().await.unwrap();
}
