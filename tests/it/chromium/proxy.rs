//! A TCP relay between the browser and the test server, so a test can cut the network under a page:
//! drop every open connection (the page's socket breaks as it would on a train), refuse new ones for a
//! while, or hold back what the server sends (a slow link) while the browser's own frames still go out.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Line {
    /// Bumped to drop every connection open now.
    cut: u64,
    refusing: bool,
    holding: bool,
}

pub struct Proxy {
    pub base: String,
    line: Arc<watch::Sender<Line>>,
}

impl Proxy {
    /// Relays a free local port to `server`.
    pub async fn start(server: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let base = format!("http://{}", listener.local_addr().expect("an address"));
        let line = Arc::new(
            watch::channel(Line {
                cut: 0,
                refusing: false,
                holding: false,
            })
            .0,
        );
        let state = line.clone();
        tokio::spawn(async move {
            while let Ok((browser, _)) = listener.accept().await {
                if state.borrow().refusing {
                    drop(browser);
                    continue;
                }
                tokio::spawn(relay(browser, server, state.subscribe()));
            }
        });
        Proxy { base, line }
    }

    /// Closes every connection open now; new ones still go through unless refused.
    pub fn drop_connections(&self) {
        self.line.send_modify(|l| l.cut += 1);
    }

    pub fn refuse_new(&self, refusing: bool) {
        self.line.send_modify(|l| l.refusing = refusing);
    }

    /// While on, bytes from the server wait in the relay (the browser's bytes still go out).
    pub fn hold_replies(&self, holding: bool) {
        self.line.send_modify(|l| l.holding = holding);
    }
}

async fn relay(browser: TcpStream, server: SocketAddr, line: watch::Receiver<Line>) {
    let Ok(upstream) = TcpStream::connect(server).await else {
        return;
    };
    let _ = browser.set_nodelay(true);
    let _ = upstream.set_nodelay(true);
    let cut = line.borrow().cut;
    let (from_browser, to_browser) = browser.into_split();
    let (from_server, to_server) = upstream.into_split();
    let up = pump(from_browser, to_server, line.clone(), cut, false);
    let down = pump(from_server, to_browser, line, cut, true);
    // Either side ending ends both: the halves are dropped and both connections close.
    tokio::select! {
        _ = up => {}
        _ = down => {}
    }
}

/// Copies bytes from `from` to `to` until either side closes or the line is cut. With `held` (the
/// server's side), a reply held back waits here until the hold ends (or the line is cut).
async fn pump(
    mut from: OwnedReadHalf,
    mut to: OwnedWriteHalf,
    mut line: watch::Receiver<Line>,
    cut: u64,
    held: bool,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = tokio::select! {
            n = from.read(&mut buf) => n,
            _ = line.wait_for(|l| l.cut != cut) => return,
        };
        let Ok(n @ 1..) = n else { return };
        if held {
            let still_up = match line.wait_for(|l| !l.holding || l.cut != cut).await {
                Ok(now) => now.cut == cut,
                Err(_) => false,
            };
            if !still_up {
                return;
            }
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

impl Proxy {
    /// The network goes: every connection is cut and no new one gets through, until the page `c`
    /// knows it is offline.
    pub async fn go_offline(&self, c: &fantoccini::Client, seconds: u64) {
        self.refuse_new(true);
        self.drop_connections();
        super::wait_for(
            c,
            "return document.body.hasAttribute('data-offline')",
            seconds,
        )
        .await;
    }

    /// The network comes back, until the page `c` is online again.
    pub async fn come_back(&self, c: &fantoccini::Client, seconds: u64) {
        self.refuse_new(false);
        super::wait_for(
            c,
            "return !document.body.hasAttribute('data-offline')",
            seconds,
        )
        .await;
    }
}
