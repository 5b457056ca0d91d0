//! Plain HTTP from raw TCP bytes written by the test, sharing nothing with the server's HTTP: requests
//! sent from a local address the test chooses (any of 127.0.0.0/8 on Linux's loopback, so that one
//! machine plays many clients), and bodies trickled a few bytes at a time.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// How a slow request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The server answered with this status (and closed).
    Answered(u16),
    /// The server closed the connection without a word.
    Cut,
}

/// A connection to `server` from `from` (its port chosen by the system).
pub async fn connect_from(server: SocketAddr, from: IpAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(SocketAddr::new(from, 0))
        .expect("a loopback address to send from");
    socket.connect(server).await.expect("the server accepts")
}

/// The head of a request for `path` declaring a body of `length` bytes, with `more` header lines
/// (each ending in CRLF).
pub fn head(method: &str, path: &str, length: usize, more: &str) -> String {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: chaikhana.test\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\n{more}\r\n"
    )
}

/// Sends `head`, then `step` bytes every `every`, until the server answers or closes the connection.
pub async fn trickle(mut io: TcpStream, head: &str, step: usize, every: Duration) -> Ended {
    if io.write_all(head.as_bytes()).await.is_err() {
        return Ended::Cut;
    }
    let mut tick = tokio::time::interval(every);
    tick.tick().await;
    let mut heard = Vec::new();
    loop {
        let mut chunk = [0u8; 1024];
        tokio::select! {
            read = io.read(&mut chunk) => match read {
                Ok(0) | Err(_) => return ended(&heard),
                Ok(n) => {
                    heard.extend_from_slice(&chunk[..n]);
                    if heard.len() >= 12 {
                        return ended(&heard);
                    }
                }
            },
            _ = tick.tick() => {
                if io.write_all(&vec![b' '; step]).await.is_err() {
                    // The server has gone; whatever it said before is still to be read.
                    let _ = tokio::time::timeout(Duration::from_secs(1), io.read_to_end(&mut heard)).await;
                    return ended(&heard);
                }
            }
        }
    }
}

fn ended(heard: &[u8]) -> Ended {
    match status_of(heard) {
        Some(status) => Ended::Answered(status),
        None => Ended::Cut,
    }
}

fn status_of(heard: &[u8]) -> Option<u16> {
    let line = std::str::from_utf8(heard.get(..12)?).ok()?;
    line.strip_prefix("HTTP/1.1 ")?.parse().ok()
}

/// Sends `request` whole on `io` and reads its answer: the status and the body as JSON (`Null` when it
/// is not). The connection stays open unless the server closes it.
pub async fn ask(io: &mut TcpStream, request: &str) -> (u16, Value) {
    io.write_all(request.as_bytes())
        .await
        .expect("the request is sent");
    let mut heard = Vec::new();
    let answer = async {
        loop {
            if let Some(end) = heard.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&heard[..end]).to_ascii_lowercase();
                let length: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|l| l.trim().parse().ok())
                    .unwrap_or(0);
                if heard.len() >= end + 4 + length {
                    let body = &heard[end + 4..end + 4 + length];
                    let status = status_of(&heard).expect("a status line");
                    return (status, serde_json::from_slice(body).unwrap_or(Value::Null));
                }
            }
            let mut chunk = [0u8; 4096];
            let n = io.read(&mut chunk).await.expect("the server answers");
            assert!(n > 0, "the connection closed before its answer");
            heard.extend_from_slice(&chunk[..n]);
        }
    };
    tokio::time::timeout(Duration::from_secs(10), answer)
        .await
        .expect("an answer within 10 s")
}

/// A bodiless `GET path` as it is sent.
pub fn get(path: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: chaikhana.test\r\n\r\n")
}
