//! A WebSocket client that talks to a table as a browser's page would: a seat's socket (hello with
//! its token) or a watcher's, every frame kept, each view laid over the last so that a test reads it
//! whole.

use std::time::Duration;

use actix_codec::Framed;
use awc::ws::{Codec, Frame, Message};
use awc::BoxedSocket;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};

pub struct Client {
    framed: Framed<BoxedSocket, Codec>,
    /// Every JSON frame received, in order, each view whole (see `whole`).
    pub received: Vec<Value>,
    /// The same frames as they came, before each view was laid over the last.
    pub as_sent: Vec<Value>,
    /// The last view, whole.
    view: Option<Value>,
    /// The first frame, read while connecting and not yet taken by `next`.
    waiting: Option<Value>,
}

impl Client {
    /// A seat's socket: opened, then its hello with the seat's token. `Err` when the upgrade is
    /// refused, or the table answers the hello with an error (its code and message) rather than a view.
    pub async fn connect(base: &str, table: &str, token: &str) -> Result<Client, String> {
        let mut client = Client::open(&format!("/ws/{table}"), base).await?;
        let hello = json!({ "type": "hello", "token": token }).to_string();
        if !client.try_send_text(hello).await {
            return Err("the socket closed before its hello".into());
        }
        match client.next().await {
            Some(frame) if frame["type"] == "error" => {
                Err(format!("{}: {}", frame["code"], frame["message"]))
            }
            Some(first) => {
                client.received.pop();
                client.waiting = Some(first);
                Ok(client)
            }
            None => Err("the socket closed before its first frame".into()),
        }
    }

    /// A watcher's socket, through the watch link's id `watch` (and no token).
    pub async fn watch(base: &str, watch: &str) -> Result<Client, String> {
        Client::open(&format!("/ws/w/{watch}"), base).await
    }

    async fn open(path: &str, base: &str) -> Result<Client, String> {
        let url = format!("{}{path}", base.replacen("http", "ws", 1));
        let (_, framed) = awc::Client::new()
            .ws(url)
            .max_frame_size(1 << 24)
            .connect()
            .await
            .map_err(|e| match e {
                awc::error::WsClientError::InvalidResponseStatus(status) => {
                    format!("the upgrade was refused with {}", status.as_u16())
                }
                e => e.to_string(),
            })?;
        Ok(Client {
            framed,
            received: Vec::new(),
            as_sent: Vec::new(),
            view: None,
            waiting: None,
        })
    }

    pub async fn send(&mut self, frame: Value) {
        self.send_text(frame.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        assert!(self.try_send_text(text).await, "the frame is sent");
    }

    /// Sends a frame; `false` when the connection has gone (the server closed it).
    pub async fn try_send_text(&mut self, text: String) -> bool {
        self.framed.send(Message::Text(text.into())).await.is_ok()
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.framed
            .send(Message::Binary(bytes.into()))
            .await
            .expect("the frame is sent");
    }

    /// The next JSON frame, or `None` if the socket closed or nothing came within 30 s.
    pub async fn next(&mut self) -> Option<Value> {
        if let Some(first) = self.waiting.take() {
            self.received.push(first.clone());
            return Some(first);
        }
        let deadline = Client::deadline();
        loop {
            match self.frame_before(deadline).await? {
                Frame::Text(bytes) => {
                    let frame: Value = serde_json::from_slice(&bytes).expect("frames are JSON");
                    self.as_sent.push(frame.clone());
                    let value = self.whole(frame);
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

    /// One deadline for a whole wait, 30 s away: the server's pings must not keep it waiting for ever.
    fn deadline() -> tokio::time::Instant {
        tokio::time::Instant::now() + Duration::from_secs(30)
    }

    /// The next frame off the wire before `deadline`; `None` once the socket has closed, failed, or
    /// the time is up.
    async fn frame_before(&mut self, deadline: tokio::time::Instant) -> Option<Frame> {
        tokio::time::timeout_at(deadline, self.framed.next())
            .await
            .ok()??
            .ok()
    }

    /// A view leaves out the parts and deal-view fields this socket was sent unchanged
    /// (docs/protocol.md): it is laid over the last view, as a page does, so that every view a test
    /// reads is whole. Other frames are as sent.
    fn whole(&mut self, frame: Value) -> Value {
        let Value::Object(fields) = frame else {
            return frame;
        };
        if fields.get("type").and_then(Value::as_str) != Some("view") {
            return Value::Object(fields);
        }
        let mut whole = match self.view.take() {
            Some(Value::Object(last)) => last,
            _ => serde_json::Map::new(),
        };
        whole.remove("ack");
        for (key, value) in fields {
            match (whole.get_mut(&key), value) {
                // The deal view's fields are laid over the last ones in the same way.
                (Some(Value::Object(deal)), Value::Object(news)) if key == "view" => {
                    deal.extend(news);
                }
                (_, value) => {
                    whole.insert(key, value);
                }
            }
        }
        let whole = Value::Object(whole);
        self.view = Some(whole.clone());
        whole
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

    /// The next view that answers this socket's own action (it carries `ack`). It is also the
    /// table's new view, so it is left to be read again as the next frame.
    pub async fn next_ack(&mut self) -> Value {
        loop {
            let view = self.next_of("view").await;
            if view.get("ack").is_some() {
                self.received.pop();
                self.waiting = Some(view.clone());
                return view;
            }
        }
    }

    /// The last view frame received.
    pub fn last_view(&self) -> &Value {
        self.received
            .iter()
            .rev()
            .find(|f| f["type"] == "view")
            .expect("a view was received")
    }

    /// The close code, once the server closes the socket.
    pub async fn close_code(&mut self) -> Option<u16> {
        self.received.extend(self.waiting.take());
        let deadline = Client::deadline();
        loop {
            match self.frame_before(deadline).await? {
                Frame::Close(reason) => return reason.map(|r| u16::from(r.code)),
                Frame::Text(bytes) => {
                    let frame = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                    let value = self.whole(frame);
                    self.received.push(value);
                }
                _ => {}
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.framed.send(Message::Close(None)).await;
        let _ = self.framed.close().await;
    }
}
