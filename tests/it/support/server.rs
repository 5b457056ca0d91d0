//! A real server in this process on an ephemeral port (`TestServer`), the seats it gives (`Seated`),
//! and plain HTTP to any server: a POST, a GET, a table opened or joined through the API.

use serde_json::{json, Value};

use chaikhana::server::{start, Running};
use chaikhana::settings::Settings;
use chaikhana::table::{Inspect, TableId, TableRecord};

use super::{fresh_data_dir, Client};

pub struct TestServer {
    pub running: Running,
    pub base: String,
}

impl TestServer {
    pub fn start(tune: impl FnOnce(&mut Settings)) -> TestServer {
        crate::high_card::join_the_catalog();
        let mut settings = Settings::defaults();
        settings.listen = "127.0.0.1:0".into();
        settings.bot_delay_ms = 1;
        // These clients play as fast as the server answers; the flood test sets its own limits.
        settings.rate_per_second = 10_000;
        settings.rate_burst = 10_000;
        settings.read_bytes_per_second = 1 << 30;
        settings.read_bytes_burst = 1 << 30;
        // Tests open many tables and connections from one address; the limits' own tests set them.
        settings.tables_per_minute = 0;
        settings.joins_per_minute = 0;
        settings.your_games_per_minute = 0;
        settings.http_connections_per_address = 0;
        // These clients add no number to the shuffles: deals are dealt at once (the shuffle's own
        // tests set a wait). A page still adds its number to each coming deal.
        settings.shuffle_wait_ms = 0;
        // Each server its own store (tables kept on disk, as by default).
        settings.data_dir = fresh_data_dir().display().to_string();
        tune(&mut settings);
        let running = start(settings).expect("the server starts");
        let base = format!("http://{}", running.addr);
        TestServer { running, base }
    }

    pub async fn post(&self, path: &str, body: &str) -> (u16, Value) {
        post(&self.base, path, body).await
    }

    pub async fn get(&self, path: &str) -> (u16, String) {
        let (status, _, body) = self.fetch(path).await;
        (status, body)
    }

    /// GETs `path`: the status, the content type and the body.
    pub async fn fetch(&self, path: &str) -> (u16, String, String) {
        fetch(&self.base, path).await
    }

    /// Opens a table: (table id, seat, token).
    pub async fn open(&self, game: &str, opponents: &str, length: Option<Value>) -> Seated {
        let mut body = json!({ "game": game, "opponents": opponents });
        if let Some(length) = length {
            body["length"] = length;
        }
        open_table(&self.base, &body).await.0
    }

    pub async fn join(&self, table: &str) -> (u16, Value) {
        self.post(&format!("/api/tables/{table}/join"), "").await
    }

    pub async fn connect(&self, seated: &Seated) -> Client {
        Client::connect(&self.base, &seated.table, &seated.token)
            .await
            .expect("the socket opens")
    }

    /// The watch link's id of the table this seat holds, asked for with its token.
    pub async fn watch_id(&self, seated: &Seated) -> String {
        let body = json!({ "token": seated.token }).to_string();
        let (status, answer) = self
            .post(&format!("/api/tables/{}/watch", seated.table), &body)
            .await;
        assert_eq!(status, 200, "{answer}");
        let link = answer["watch"].as_str().expect("a watch link");
        link.strip_prefix("/w/").expect("a /w/ link").to_string()
    }

    /// The table's record, straight from its actor (never over the network).
    pub async fn record(&self, table: &str) -> TableRecord {
        let handle = self
            .running
            .router
            .find(&TableId::parse(table).unwrap())
            .await
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

/// POSTs JSON to a server at `base`: the status and the answer.
pub async fn post(base: &str, path: &str, body: &str) -> (u16, Value) {
    let mut response = awc::Client::new()
        .post(format!("{base}{path}"))
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

/// GETs `path` of a server at `base`: the status, the content type and the body (up to 1 MiB).
pub async fn fetch(base: &str, path: &str) -> (u16, String, String) {
    let mut response = awc::Client::new()
        .get(format!("{base}{path}"))
        .send()
        .await
        .expect("the server answers");
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = response.body().limit(1 << 20).await.expect("a body");
    (status, kind, String::from_utf8_lossy(&body).into_owned())
}

/// Opens a table through the API of a server at `base`, as `body` asks (game, opponents, and so on):
/// the seat it gives, and the whole answer.
pub async fn open_table(base: &str, body: &Value) -> (Seated, Value) {
    let (status, answer) = post(base, "/api/tables", &body.to_string()).await;
    assert_eq!(status, 201, "{answer}");
    let seated = Seated::from_answer(answer["table"].as_str().unwrap(), &answer);
    (seated, answer)
}

/// Takes the next free seat of `table` through its link, at a server at `base`.
pub async fn join_table(base: &str, table: &str) -> Seated {
    let (status, answer) = post(base, &format!("/api/tables/{table}/join"), "").await;
    assert_eq!(status, 201, "{answer}");
    Seated::from_answer(table, &answer)
}
