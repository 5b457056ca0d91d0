//! A TCP proxy in front of Redis for one node, that can cut it off (a partition) and heal it.

use std::sync::{Arc, Mutex};

/// A TCP proxy in front of Redis for one node. Cut, it drops every connection it carries and takes
/// new ones without ever answering (a partition, not a refusal: the node's commands hang until its
/// own patience runs out); healed, it lets the held ones go and carries new ones again.
pub struct Proxy {
    pub port: u16,
    state: Arc<Mutex<Carried>>,
    accepting: tokio::task::JoinHandle<()>,
}

#[derive(Default)]
struct Carried {
    cut: bool,
    pipes: Vec<tokio::task::AbortHandle>,
    held: Vec<tokio::net::TcpStream>,
}

impl Proxy {
    pub async fn start(upstream: u16) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("the proxy listens");
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(Carried::default()));
        let carried = state.clone();
        let accepting = actix_rt::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                let mut carried = carried.lock().unwrap();
                if carried.cut {
                    carried.held.push(inbound);
                    continue;
                }
                carried.pipes.retain(|p| !p.is_finished());
                let pipe = actix_rt::spawn(Proxy::carry(inbound, upstream));
                carried.pipes.push(pipe.abort_handle());
            }
        });
        Proxy {
            port,
            state,
            accepting,
        }
    }

    async fn carry(mut inbound: tokio::net::TcpStream, upstream: u16) {
        if let Ok(mut outbound) = tokio::net::TcpStream::connect(("127.0.0.1", upstream)).await {
            let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
        }
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub fn cut(&self) {
        let mut carried = self.state.lock().unwrap();
        carried.cut = true;
        for pipe in carried.pipes.drain(..) {
            pipe.abort();
        }
    }

    pub fn heal(&self) {
        let mut carried = self.state.lock().unwrap();
        carried.cut = false;
        carried.held.clear();
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accepting.abort();
        self.cut();
    }
}
