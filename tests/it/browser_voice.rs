//! Voice in Chromium with a fake microphone: two pages at a friends table switch voice on, their
//! WebRTC connection comes up and audio flows both ways; one switches off and both connections close.
//! Three pages at a Ganjifa table connect as a mesh, and a page that closes ends its connections. A
//! refused microphone is said in a sentence and leaves voice off. With a TURN server in the settings
//! (Debian's coturn, started by the test), the audio can go through its relay.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::Value;

use crate::chromium::*;
use crate::support::cluster::free_port;
use crate::support::{have_program, wait_listening, TestServer};

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

/// For each of the page's connections still open, the audio bytes it has received so far.
const AUDIO_BYTES_RECEIVED: &str = r#"
return (async () => {
  const open = window.peerConnections.filter((p) => p.connectionState !== 'closed');
  const bytes = [];
  for (const pc of open) {
    let total = 0;
    (await pc.getStats()).forEach((s) => {
      if (s.type === 'inbound-rtp' && s.kind === 'audio') total += s.bytesReceived;
    });
    bytes.push(total);
  }
  return bytes;
})();
"#;

async fn audio_bytes(c: &Client) -> Vec<u64> {
    let bytes = eval(c, AUDIO_BYTES_RECEIVED).await;
    bytes
        .as_array()
        .map(|a| a.iter().map(|b| b.as_u64().unwrap_or(0)).collect())
        .unwrap_or_default()
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

async fn wait_for_voice_state(c: &Client, seat: u64, state: &str) {
    wait_for(
        c,
        &format!("return document.querySelector('.voice-seat[data-seat=\"{seat}\"]')?.dataset.state === '{state}'"),
        // Whether a seat is talking comes from the audio's level in the page, which a loaded machine
        // can take longer than 15 s to show (the CI run of 5974861 waited in vain once).
        30,
    )
    .await;
}

/// Opens a friends table of `game` on the first page and seats the others through its link; returns
/// once every page shows the deal, with voice off and its connections recorded.
async fn seat_pages(server: &TestServer, game: &str, pages: &[&Client]) {
    let host = pages[0];
    go(host, &server.base, &format!("/{game}")).await;
    let link = friends_link(host).await;
    click(host, "#go-to-table").await;
    wait_for(host, "return document.querySelector('.table')", 10).await;
    for guest in &pages[1..] {
        guest.goto(&link).await.unwrap();
        wait_for(guest, "return document.querySelector('.table')", 10).await;
    }
    for page in pages {
        wait_for_status(page, "playing", 20).await;
        let switch = text_of(page, "#voice-switch", 10).await;
        assert_eq!(switch, "Voice: off", "voice starts off");
        eval(page, RECORD_CONNECTIONS).await;
    }
}

/// Waits until the page has `count` connections open, every one connected.
async fn wait_connected(c: &Client, count: usize) {
    wait_for(
        c,
        &format!(
            "const open = window.peerConnections.filter((pc) => pc.connectionState !== 'closed');
             return open.length === {count} && open.every((pc) => pc.connectionState === 'connected');"
        ),
        30,
    )
    .await;
}

/// Checks that every open connection of each page has received audio and keeps receiving it.
async fn assert_audio_flows(pages: &[&Client]) {
    // A connection can report itself connected a moment before its first audio packet arrives (more so
    // through a relay on a busy machine): wait for the first bytes, then watch them grow.
    let mut before = Vec::new();
    for page in pages {
        let waiting = Instant::now();
        let mut bytes = audio_bytes(page).await;
        while bytes.contains(&0) && waiting.elapsed() < Duration::from_secs(10) {
            tokio::time::sleep(Duration::from_millis(100)).await;
            bytes = audio_bytes(page).await;
        }
        before.push(bytes);
    }
    let started = Instant::now();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for (n, page) in pages.iter().enumerate() {
        let after = audio_bytes(page).await;
        assert_eq!(
            after.len(),
            before[n].len(),
            "page {n}: connections changed"
        );
        for (was, is) in before[n].iter().zip(&after) {
            assert!(
                *was > 0 && is > was,
                "page {n}: audio bytes received went from {was} to {is}"
            );
            // For the README's figure of what one direction of one pair costs (not asserted).
            let kbits = (is - was) as f64 * 8.0 / 1000.0 / started.elapsed().as_secs_f64();
            eprintln!("page {n}: receiving audio at about {kbits:.0} kbit/s");
        }
    }
}

#[actix_rt::test]
async fn two_browsers_at_a_friends_table_talk_then_one_switches_off() {
    let (mut driver, server) = staged!(|_| {});
    let host = driver.media_session(1280, 800).await;
    let guest = driver.media_session(390, 844).await;
    seat_pages(&server, "panjpar", &[&host, &guest]).await;
    assert!(click(&host, "#voice-switch").await);
    wait_for_voice_state(&guest, 0, "on").await;
    assert!(click(&guest, "#voice-switch").await);
    wait_connected(&host, 1).await;
    wait_connected(&guest, 1).await;
    assert_audio_flows(&[&host, &guest]).await;
    let made = eval(&host, "return window.peerConnections.length").await;
    assert_eq!(made, 1, "one connection for the pair");
    assert!(
        ["connected", "talking"].contains(&voice_state_of(&host, 1).await.as_str().unwrap_or("")),
        "the guest shows as connected on the host's page"
    );
    // The fake microphone beeps: each page sees the other talking.
    wait_for_voice_state(&host, 1, "talking").await;
    wait_for_voice_state(&guest, 0, "talking").await;
    screenshot(&host, "voice-on-1280x800").await;
    screenshot(&guest, "voice-on-390x844").await;
    // In Persian the bar reads right to left.
    assert!(click(&host, "[data-lang=fa]").await);
    let switch = eval(
        &host,
        "const v = document.querySelector('#voice'); return [v.dir, v.querySelector('#voice-switch').textContent]",
    )
    .await;
    assert_eq!(switch, serde_json::json!(["rtl", "صدا: روشن"]));
    screenshot(&host, "voice-on-fa-1280x800").await;
    assert!(click(&host, "[data-lang=en]").await);
    // Redrawn in another language, the bar keeps its connection.
    let made = eval(&host, "return window.peerConnections.length").await;
    assert_eq!(made, 1);
    wait_connected(&host, 1).await;
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
    wait_for_voice_state(&host, 1, "off").await;
    let switch = text_of(&guest, "#voice-switch", 10).await;
    assert_eq!(switch, "Voice: off");
    host.close().await.unwrap();
    guest.close().await.unwrap();
}

#[actix_rt::test]
async fn three_browsers_at_a_ganjifa_table_connect_as_a_mesh_and_a_closed_page_leaves_it() {
    let (mut driver, server) = staged!(|_| {});
    let pages = [
        driver.media_session(1280, 800).await,
        driver.media_session(800, 700).await,
        driver.media_session(800, 700).await,
    ];
    let all: Vec<&Client> = pages.iter().collect();
    seat_pages(&server, "ganjifa", &all).await;
    for page in &all {
        assert!(click(page, "#voice-switch").await);
    }
    for page in &all {
        wait_connected(page, 2).await;
    }
    assert_audio_flows(&all).await;
    screenshot(&pages[0], "voice-ganjifa-mesh-1280x800").await;
    // The third page goes away: the other two close their connection to it and keep theirs.
    let [first, second, third] = pages;
    third.close().await.unwrap();
    for page in [&first, &second] {
        wait_for_voice_state(page, 2, "off").await;
        wait_connected(page, 1).await;
    }
    assert_audio_flows(&[&first, &second]).await;
    first.close().await.unwrap();
    second.close().await.unwrap();
}

#[actix_rt::test]
async fn a_refused_microphone_is_said_and_leaves_voice_off() {
    let (mut driver, server) = staged!(|_| {});
    let host = driver.media_session(1280, 800).await;
    let guest = driver.refusing_media_session(1280, 800).await;
    seat_pages(&server, "pishe-pasha", &[&host, &guest]).await;
    assert!(click(&guest, "#voice-switch").await);
    let said = text_of(&guest, "#voice-message", 15).await;
    assert!(said.contains("microphone was refused"), "{said}");
    screenshot(&guest, "voice-refused-1280x800").await;
    let pressed = voice_pressed(&guest).await;
    assert_eq!(pressed, "false");
    // The server never heard of it: the other page still shows the guest's voice off.
    assert_eq!(voice_state_of(&host, 1).await, "off");
    host.close().await.unwrap();
    guest.close().await.unwrap();
}

/// A coturn `turnserver` on a free port for one test, with one user; stopped when dropped.
struct TurnServer {
    child: Child,
    port: u16,
}

const TURN_USER: &str = "chaikhana";
const TURN_PASSWORD: &str = "a-test-password";

impl Drop for TurnServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts coturn, or returns `None` (having said why) when it is not installed.
fn turn_server() -> Option<TurnServer> {
    if !have_program("turnserver", "the TURN test (apt-get install -y coturn)") {
        return None;
    }
    let port = free_port();
    let child = Command::new("turnserver")
        .args([
            "-n",
            "--no-tls",
            "--no-dtls",
            "--no-cli",
            "--lt-cred-mech",
            "--fingerprint",
        ])
        // On one machine the relayed addresses are loopback ones, which coturn refuses unless told.
        .args(["--realm", "chaikhana.test", "--listening-ip", "127.0.0.1"])
        .arg("--allow-loopback-peers")
        .arg(format!("--listening-port={port}"))
        .arg(format!("--user={TURN_USER}:{TURN_PASSWORD}"))
        .args(["--log-file", "stdout", "--simple-log"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("turnserver starts");
    wait_listening(port, "turnserver");
    Some(TurnServer { child, port })
}

/// Makes the page's connections use relayed addresses only, so the audio must pass the TURN server.
const RELAY_ONLY: &str = r#"
const Made = window.RTCPeerConnection;
window.RTCPeerConnection = class extends Made {
  constructor(config) { super({ ...config, iceTransportPolicy: 'relay' }); }
};
return true;
"#;

/// The candidate types of the pairs the page's open connections have chosen.
const CHOSEN_CANDIDATE_TYPES: &str = r#"
return (async () => {
  const types = [];
  for (const pc of window.peerConnections.filter((p) => p.connectionState !== 'closed')) {
    const stats = await pc.getStats();
    stats.forEach((s) => {
      if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded') {
        types.push(stats.get(s.localCandidateId).candidateType);
      }
    });
  }
  return types;
})();
"#;

#[actix_rt::test]
async fn with_a_turn_server_set_the_audio_can_go_through_its_relay() {
    let Some(mut driver) = driver().await else {
        return;
    };
    let Some(turn) = turn_server() else { return };
    let server = TestServer::start(|s| {
        s.voice_turn_urls = format!("turn:127.0.0.1:{}?transport=udp", turn.port);
        s.voice_turn_username = TURN_USER.into();
        s.voice_turn_credential = TURN_PASSWORD.into();
    });
    let (status, servers) = server.get("/api/voice").await;
    assert_eq!(status, 200);
    assert!(servers.contains(TURN_PASSWORD), "{servers}");
    let host = driver.media_session(1280, 800).await;
    let guest = driver.media_session(1280, 800).await;
    seat_pages(&server, "panjpar", &[&host, &guest]).await;
    for page in [&host, &guest] {
        eval(page, RELAY_ONLY).await;
        assert!(click(page, "#voice-switch").await);
    }
    wait_connected(&host, 1).await;
    wait_connected(&guest, 1).await;
    assert_audio_flows(&[&host, &guest]).await;
    for page in [&host, &guest] {
        let types = eval(page, CHOSEN_CANDIDATE_TYPES).await;
        assert_eq!(types, serde_json::json!(["relay"]));
    }
    host.close().await.unwrap();
    guest.close().await.unwrap();
}

/// Whether the page's voice switch says it is on (its `aria-pressed`).
async fn voice_pressed(page: &Client) -> Value {
    let script = "return document.querySelector('#voice-switch').getAttribute('aria-pressed')";
    eval(page, script).await
}

/// Keeps the page's table socket in `window.tableSocket` the next time the page sends on it.
const RECORD_SOCKET: &str = r#"
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) { window.tableSocket = this; return send.call(this, data); };
return true;
"#;

#[actix_rt::test]
async fn a_page_whose_socket_breaks_switches_its_voice_on_again() {
    let (mut driver, server) = staged!(|_| {});
    let host = driver.media_session(1280, 800).await;
    let guest = driver.media_session(1280, 800).await;
    seat_pages(&server, "pishe-pasha", &[&host, &guest]).await;
    eval(&guest, RECORD_SOCKET).await;
    for page in [&host, &guest] {
        assert!(click(page, "#voice-switch").await);
    }
    wait_connected(&host, 1).await;
    wait_connected(&guest, 1).await;
    eval(&guest, "window.tableSocket.close(); return true").await;
    // The server turns the guest's voice off when its socket goes; the page reconnects and switches
    // it on again, and both pages make a new connection in place of the old one.
    for page in [&host, &guest] {
        wait_for(page, "return window.peerConnections.length === 2", 30).await;
        wait_connected(page, 1).await;
    }
    assert_audio_flows(&[&host, &guest]).await;
    let pressed = voice_pressed(&guest).await;
    assert_eq!(pressed, "true");
    host.close().await.unwrap();
    guest.close().await.unwrap();
}
