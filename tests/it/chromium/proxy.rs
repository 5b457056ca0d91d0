//! A TCP relay between the browser and the test server, so a test can cut the network under a page:
//! drop every open connection (the page's socket breaks as it would on a train), refuse new ones for a
//! while, or hold back what the server sends (a slow link) while the browser's own frames still go out.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
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

async fn relay(browser: TcpStream, server: SocketAddr, mut line: watch::Receiver<Line>) {
    let Ok(upstream) = TcpStream::connect(server).await else {
        return;
    };
    let _ = browser.set_nodelay(true);
    let _ = upstream.set_nodelay(true);
    let cut = line.borrow().cut;
    let (mut from_browser, mut to_browser) = browser.into_split();
    let (mut from_server, mut to_server) = upstream.into_split();
    let mut up_line = line.clone();
    let up = async move {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            let n = tokio::select! {
                n = from_browser.read(&mut buf) => n,
                _ = up_line.wait_for(|l| l.cut != cut) => return,
            };
            match n {
                Ok(0) | Err(_) => return,
                Ok(n) => {
                    if to_server.write_all(&buf[..n]).await.is_err() {
                        return;
                    }
                }
            }
        }
    };
    let down = async move {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            let n = tokio::select! {
                n = from_server.read(&mut buf) => n,
                _ = line.wait_for(|l| l.cut != cut) => return,
            };
            let Ok(n) = n else { return };
            if n == 0 {
                return;
            }
            // A held reply waits here until the hold ends (or the line is cut).
            let still_up = match line.wait_for(|l| !l.holding || l.cut != cut).await {
                Ok(now) => now.cut == cut,
                Err(_) => false,
            };
            if !still_up {
                return;
            }
            if to_browser.write_all(&buf[..n]).await.is_err() {
                return;
            }
        }
    };
    // Either side ending ends both: the halves are dropped and both connections close.
    tokio::select! {
        _ = up => {}
        _ = down => {}
    }
}
