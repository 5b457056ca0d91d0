//! A WebSocket client written from RFC 6455 on raw TCP bytes, sharing nothing with the server's
//! transport or with any WebSocket library: it sends exactly the bytes a test asks for, well formed or
//! not, and reads the server's frames one by one.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

pub const TEXT: u8 = 0x1;
pub const BINARY: u8 = 0x2;
pub const CONTINUATION: u8 = 0x0;
pub const CLOSE: u8 = 0x8;
pub const PING: u8 = 0x9;
pub const PONG: u8 = 0xA;

const MASK: [u8; 4] = [0x37, 0xfa, 0x21, 0x3d];

/// A client frame: FIN bit, opcode, masked payload.
pub fn frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut bytes = vec![if fin { 0x80 } else { 0 } | opcode];
    header_length(&mut bytes, payload.len() as u64);
    bytes.extend_from_slice(&MASK);
    bytes.extend(payload.iter().enumerate().map(|(i, b)| b ^ MASK[i % 4]));
    bytes
}

/// The header alone of a final text frame that declares `length` bytes, its mask included.
pub fn text_header(length: u64) -> Vec<u8> {
    let mut bytes = vec![0x80 | TEXT];
    header_length(&mut bytes, length);
    bytes.extend_from_slice(&MASK);
    bytes
}

fn header_length(bytes: &mut Vec<u8>, length: u64) {
    match length {
        0..=125 => bytes.push(0x80 | length as u8),
        126..=65_535 => {
            bytes.push(0x80 | 126);
            bytes.extend_from_slice(&(length as u16).to_be_bytes());
        }
        _ => {
            bytes.push(0x80 | 127);
            bytes.extend_from_slice(&length.to_be_bytes());
        }
    }
}

/// What an upgrade request was answered.
pub enum Upgraded {
    Open(Raw),
    /// The status and the JSON body of a refusal.
    Refused(u16, Value),
    /// The socket opened, and its hello was answered with this error frame before the close.
    Dismissed(Value),
}

pub struct Raw {
    pub io: TcpStream,
    read: Vec<u8>,
    /// A frame read while opening and not yet taken (the first after the hello).
    waiting: Option<(u8, Vec<u8>)>,
}

impl Raw {
    /// Asks `addr` to upgrade `/ws/{table}`, then says the seat's `token` in a hello frame and reads
    /// the first frame back; `receive_buffer` sets the socket's receive buffer first (a reader that
    /// means to fall behind).
    pub async fn upgrade(
        addr: std::net::SocketAddr,
        table: &str,
        token: &str,
        receive_buffer: Option<u32>,
    ) -> Upgraded {
        let mut raw = match Raw::upgrade_path(addr, &format!("/ws/{table}"), receive_buffer).await {
            Upgraded::Open(raw) => raw,
            refused => return refused,
        };
        let hello = serde_json::json!({ "type": "hello", "token": token }).to_string();
        raw.send(&frame(true, TEXT, hello.as_bytes()))
            .await
            .expect("the hello is sent");
        loop {
            let (opcode, payload) = raw
                .next_frame(Duration::from_secs(10))
                .await
                .expect("the hello is answered");
            if opcode != TEXT {
                continue;
            }
            let first: Value = serde_json::from_slice(&payload).expect("frames are JSON");
            if first["type"] == "error" {
                return Upgraded::Dismissed(first);
            }
            raw.waiting = Some((opcode, payload));
            return Upgraded::Open(raw);
        }
    }

    /// Asks `addr` to upgrade `path` as it is, and sends nothing more.
    pub async fn upgrade_path(
        addr: std::net::SocketAddr,
        path: &str,
        receive_buffer: Option<u32>,
    ) -> Upgraded {
        let socket = TcpSocket::new_v4().unwrap();
        if let Some(size) = receive_buffer {
            socket.set_recv_buffer_size(size).unwrap();
        }
        let mut io = socket.connect(addr).await.expect("the server accepts");
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             Sec-WebSocket-Version: 13\r\n\r\n"
        );
        io.write_all(request.as_bytes()).await.unwrap();
        let mut read = Vec::new();
        let end = loop {
            if let Some(end) = read.windows(4).position(|w| w == b"\r\n\r\n") {
                break end + 4;
            }
            let mut chunk = [0u8; 1024];
            let n = io.read(&mut chunk).await.expect("the server answers");
            assert!(n > 0, "the server answered the upgrade");
            read.extend_from_slice(&chunk[..n]);
        };
        let head = String::from_utf8_lossy(&read[..end]).into_owned();
        let status: u16 = head[9..12].parse().expect("a status line");
        if status == 101 {
            read.drain(..end);
            return Upgraded::Open(Raw {
                io,
                read,
                waiting: None,
            });
        }
        let mut body = read[end..].to_vec();
        let _ = tokio::time::timeout(Duration::from_secs(5), io.read_to_end(&mut body)).await;
        Upgraded::Refused(status, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }

    /// Opens a socket that must be admitted.
    pub async fn open(addr: std::net::SocketAddr, table: &str, token: &str) -> Raw {
        match Raw::upgrade(addr, table, token, None).await {
            Upgraded::Open(raw) => raw,
            Upgraded::Refused(status, body) => panic!("refused with {status}: {body}"),
            Upgraded::Dismissed(error) => panic!("dismissed after its hello: {error}"),
        }
    }

    pub async fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.io.write_all(bytes).await
    }

    /// The server's next frame (opcode, payload), answering none of them; `None` once the connection
    /// has ended or nothing came within `within`.
    pub async fn next_frame(&mut self, within: Duration) -> Option<(u8, Vec<u8>)> {
        if let Some(first) = self.waiting.take() {
            return Some(first);
        }
        tokio::time::timeout(within, self.read_frame())
            .await
            .ok()
            .flatten()
    }

    async fn read_frame(&mut self) -> Option<(u8, Vec<u8>)> {
        loop {
            if let Some((opcode, start, len)) = self.parse_header() {
                if self.read.len() >= start + len {
                    let payload = self.read[start..start + len].to_vec();
                    self.read.drain(..start + len);
                    return Some((opcode, payload));
                }
            }
            let mut chunk = [0u8; 16 * 1024];
            match self.io.read(&mut chunk).await {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.read.extend_from_slice(&chunk[..n]),
            }
        }
    }

    /// A server frame's opcode, where its payload starts, and its length (servers do not mask).
    fn parse_header(&self) -> Option<(u8, usize, usize)> {
        let bytes = &self.read;
        if bytes.len() < 2 {
            return None;
        }
        let opcode = bytes[0] & 0x0f;
        match bytes[1] & 0x7f {
            126 if bytes.len() >= 4 => {
                Some((opcode, 4, u16::from_be_bytes([bytes[2], bytes[3]]) as usize))
            }
            127 if bytes.len() >= 10 => {
                let len = u64::from_be_bytes(bytes[2..10].try_into().unwrap());
                Some((opcode, 10, len as usize))
            }
            126 | 127 => None,
            len => Some((opcode, 2, len as usize)),
        }
    }

    /// The next text frame's JSON of this `type`, skipping others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let (opcode, payload) = self
                .next_frame(Duration::from_secs(10))
                .await
                .unwrap_or_else(|| panic!("no {kind} frame came"));
            if opcode == TEXT {
                let value: Value = serde_json::from_slice(&payload).expect("frames are JSON");
                if value["type"] == kind {
                    return value;
                }
            }
        }
    }

    /// The close code the server sends, reading past every other frame; `None` if the connection
    /// ended without one or nothing came within 10 s.
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            let (opcode, payload) = self.next_frame(Duration::from_secs(10)).await?;
            if opcode == CLOSE {
                return payload
                    .get(..2)
                    .map(|code| u16::from_be_bytes([code[0], code[1]]));
            }
        }
    }
}
