//! A real server on an ephemeral port, and WebSocket clients that talk to it as a browser would.

#![allow(dead_code)]

use std::time::Duration;

use actix_codec::Framed;
use awc::ws::{Codec, Frame, Message};
use awc::BoxedSocket;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};

use chaikhana::server::{start, Running};
use chaikhana::settings::Settings;
use chaikhana::table::{Inspect, TableId, TableRecord};

pub struct TestServer {
    pub running: Running,
    pub base: String,
}

impl TestServer {
    pub fn start(tune: impl FnOnce(&mut Settings)) -> TestServer {
        let mut settings = Settings::defaults();
        settings.listen = "127.0.0.1:0".into();
        settings.bot_delay_ms = 1;
        // These clients play as fast as the server answers; the flood test sets its own limits.
        settings.rate_per_second = 10_000;
        settings.rate_burst = 10_000;
        tune(&mut settings);
        let running = start(settings).expect("the server starts");
        let base = format!("http://{}", running.addr);
        TestServer { running, base }
    }

    pub async fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let mut response = awc::Client::new()
            .post(format!("{}{path}", self.base))
            .insert_header(("content-type", "application/json"))
            .send_body(body.to_string())
            .await
            .expect("the server answers");
        let status = response.status().as_u16();
        let bytes = response.body().await.expect("a body");
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    pub async fn get(&self, path: &str) -> (u16, String) {
        let mut response = awc::Client::new()
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("the server answers");
        let status = response.status().as_u16();
        let bytes = response.body().await.expect("a body");
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Opens a table: (table id, seat, token).
    pub async fn open(&self, game: &str, opponents: &str, length: Option<Value>) -> Seated {
        let mut body = json!({ "game": game, "opponents": opponents });
        if let Some(length) = length {
            body["length"] = length;
        }
        let (status, answer) = self.post("/api/tables", &body.to_string()).await;
        assert_eq!(status, 201, "{answer}");
        Seated::from_answer(answer["table"].as_str().unwrap(), &answer)
    }

    pub async fn join(&self, table: &str) -> (u16, Value) {
        self.post(&format!("/api/tables/{table}/join"), "").await
    }

    pub async fn connect(&self, seated: &Seated) -> Client {
        Client::connect(&self.base, &seated.table, &seated.token)
            .await
            .expect("the socket opens")
    }

    /// The table's record, straight from its actor (never over the network).
    pub async fn record(&self, table: &str) -> TableRecord {
        let handle = self
            .running
            .router
            .find(&TableId::parse(table).unwrap())
            .expect("the table is open");
        handle
            .inspect
            .send(Inspect)
            .await
            .expect("the table answers")
    }
}

#[derive(Clone, Debug)]
pub struct Seated {
    pub table: String,
    pub seat: u64,
    pub token: String,
}

impl Seated {
    pub fn from_answer(table: &str, answer: &Value) -> Seated {
        Seated {
            table: table.to_string(),
            seat: answer["seat"].as_u64().unwrap(),
            token: answer["token"].as_str().unwrap().to_string(),
        }
    }
}

pub struct Client {
    framed: Framed<BoxedSocket, Codec>,
    /// Every JSON frame received, in order.
    pub received: Vec<Value>,
}

impl Client {
    pub async fn connect(base: &str, table: &str, token: &str) -> Result<Client, String> {
        let url = format!(
            "{}/ws/{table}?token={token}",
            base.replacen("http", "ws", 1)
        );
        let (_, framed) = awc::Client::new()
            .ws(url)
            .max_frame_size(1 << 24)
            .connect()
            .await
            .map_err(|e| e.to_string())?;
        Ok(Client {
            framed,
            received: Vec::new(),
        })
    }

    pub async fn send(&mut self, frame: Value) {
        self.send_text(frame.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.framed
            .send(Message::Text(text.into()))
            .await
            .expect("the frame is sent");
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.framed
            .send(Message::Binary(bytes.into()))
            .await
            .expect("the frame is sent");
    }

    /// The next JSON frame, or `None` if the socket closed or nothing came within 10 s.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let frame = actix_rt::time::timeout(Duration::from_secs(10), self.framed.next())
                .await
                .ok()??;
            match frame.ok()? {
                Frame::Text(bytes) => {
                    let value: Value = serde_json::from_slice(&bytes).expect("frames are JSON");
                    self.received.push(value.clone());
                    return Some(value);
                }
                Frame::Ping(bytes) => {
                    let _ = self.framed.send(Message::Pong(bytes)).await;
                }
                Frame::Close(_) => return None,
                _ => {}
            }
        }
    }

    /// Frames until one of type `kind` arrives.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let frame = self
                .next()
                .await
                .unwrap_or_else(|| panic!("no {kind} frame came"));
            if frame["type"] == kind {
                return frame;
            }
        }
    }

    /// The close code, once the server closes the socket.
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            let frame = actix_rt::time::timeout(Duration::from_secs(10), self.framed.next())
                .await
                .ok()??;
            match frame.ok()? {
                Frame::Close(reason) => return reason.map(|r| u16::from(r.code)),
                Frame::Text(bytes) => self
                    .received
                    .push(serde_json::from_slice(&bytes).unwrap_or(Value::Null)),
                _ => {}
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.framed.send(Message::Close(None)).await;
        let _ = self.framed.close().await;
    }
}

/// An action frame.
pub fn action(version: u64, id: &str, action: &Value) -> Value {
    json!({ "type": "action", "version": version, "id": id, "action": action })
}
