//! A table whose store fails pauses instead of playing on, and one whose store refuses its token steps
//! down: the table-level half of "nothing acknowledged is ever lost" (the multinode fault tests show
//! the whole over real Redis and real processes).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix::{Actor, Context, Handler};
use futures_util::future::{ready, BoxFuture, FutureExt};
use serde_json::Value;

use chaikhana::catalog;
use chaikhana::protocol::ClientMsg;
use chaikhana::table::OpenTable;
use chaikhana::table::{
    Attach, Change, Closing, FromSeat, Outbound, SocketOut, StoreAnswer, TableConfig, TableHandle,
    TableId, TableKind, TablePolicy, TableRefusal, TableStore, Token,
};
use chaikhana_rules::matches::MatchLength;

/// A store that answers what the test says, and counts what it was given.
#[derive(Clone, Default)]
struct Store {
    answer: Arc<Mutex<Option<StoreAnswer>>>,
    kept: Arc<Mutex<usize>>,
}

impl Store {
    fn answer(&self, kept: StoreAnswer) {
        *self.answer.lock().unwrap() = Some(kept);
    }
}

impl TableStore for Store {
    fn keep(&self, _: &TableId, _: Change, _: Duration) -> BoxFuture<'static, StoreAnswer> {
        let kept = self.answer.lock().unwrap().unwrap_or(StoreAnswer::Stored);
        if kept == StoreAnswer::Stored {
            *self.kept.lock().unwrap() += 1;
        }
        ready(kept).boxed()
    }

    fn hand_over(
        &self,
        id: &TableId,
        whole: Change,
        keep_for: Duration,
    ) -> BoxFuture<'static, StoreAnswer> {
        self.keep(id, whole, keep_for)
    }
}

/// A socket: everything the table sends it, in order.
#[derive(Clone, Default)]
struct Heard(Arc<Mutex<Vec<Outbound>>>);

struct Socket(Heard);

impl Actor for Socket {
    type Context = Context<Self>;
}

impl Handler<Outbound> for Socket {
    type Result = ();

    fn handle(&mut self, out: Outbound, _: &mut Context<Self>) {
        self.0 .0.lock().unwrap().push(out);
    }
}

impl Heard {
    fn frames(&self) -> Vec<Value> {
        let heard = self.0.lock().unwrap();
        heard
            .iter()
            .filter_map(|out| match out {
                Outbound::Frame(frame) => frame
                    .text_payload()
                    .map(|t| serde_json::from_str(t).unwrap()),
                Outbound::Close(..) => None,
            })
            .collect()
    }

    fn closed(&self) -> Option<u16> {
        let heard = self.0.lock().unwrap();
        heard.iter().find_map(|out| match out {
            Outbound::Close(code, _) => Some(*code),
            Outbound::Frame(_) => None,
        })
    }

    fn last_view(&self) -> Option<Value> {
        self.frames().into_iter().rfind(|f| f["type"] == "view")
    }

    /// Waits until a frame passes `wanted`, and answers it.
    async fn wait_for(&self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let started = Instant::now();
        loop {
            if let Some(frame) = self.frames().into_iter().find(|f| wanted(f)) {
                return frame;
            }
            assert!(started.elapsed() < Duration::from_secs(5), "no {what}");
            actix_rt::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

struct Seated {
    table: TableHandle,
    heard: Heard,
    store: Store,
    closed: Arc<Mutex<Option<Closing>>>,
}

/// A Panjpar table against the computer, its player's socket attached, its store answering `Stored`.
async fn seated() -> Seated {
    let store = Store::default();
    let closed = Arc::new(Mutex::new(None));
    let on_closed = {
        let closed = closed.clone();
        Arc::new(move |_: &TableId, closing: Closing| *closed.lock().unwrap() = Some(closing))
    };
    let config = TableConfig {
        policy: TablePolicy {
            bot_delay: Duration::from_millis(1),
            strong_budget: chaikhana_rules::game::DEFAULT_BUDGET,
            sleep_after: Duration::from_secs(120),
            expiry: chaikhana::table::Expiry {
                friends: Duration::from_secs(86400),
                computer: Duration::from_secs(86400),
                finished: Duration::from_secs(86400),
            },
            offer_after: Duration::from_secs(600),
            sockets_per_seat: 4,
            watchers_per_table: 50,
            shuffle_wait: Duration::ZERO,
        },
        on_closed,
        store: Some(Arc::new(store.clone())),
    };
    let token = Token::random();
    let (table, _) = catalog::find("panjpar")
        .unwrap()
        .open(
            &OpenTable {
                game: "panjpar".into(),
                kind: TableKind::Computer,
                level: Default::default(),
                length: MatchLength::DealsWon(3),
                hints: false,
                guided: false,
                creator: token.hash(),
            },
            config,
        )
        .unwrap();
    let heard = Heard::default();
    let socket = Socket(heard.clone()).start();
    let attach = Attach {
        key: token.hash(),
        conn: 1,
        out: SocketOut::Relay(socket.recipient()),
    };
    table.attach.send(attach).await.unwrap().unwrap();
    heard.wait_for("first view", |f| f["type"] == "view").await;
    Seated {
        table,
        heard,
        store,
        closed,
    }
}

impl Seated {
    async fn send(&self, msg: Value) {
        let msg: ClientMsg = serde_json::from_value(msg).unwrap();
        self.table
            .from_seat
            .send(FromSeat { conn: 1, msg })
            .await
            .unwrap();
    }

    /// Plays the player's first offered action when it is theirs to play; otherwise the computer
    /// moves by itself (and the table may pause or stop on it first).
    async fn move_on(&self) {
        let started = Instant::now();
        loop {
            if self.heard.closed().is_some() || self.heard.frames().iter().any(paused) {
                return;
            }
            let view = self.heard.last_view().unwrap();
            let version = view["version"].as_u64().unwrap();
            if let Some(action) = view["actions"].as_array().and_then(|a| a.first()) {
                let frame = serde_json::json!({"type": "action", "version": version, "id": "m", "action": action});
                self.send(frame).await;
                return;
            }
            if view["status"] == "deal-over" {
                self.send(serde_json::json!({"type": "next-deal", "version": version}))
                    .await;
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "the table never offered a move: {view}"
            );
            actix_rt::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

fn paused(frame: &Value) -> bool {
    frame["type"] == "error" && frame["code"] == "unavailable" && frame["id"].is_null()
}

#[actix_rt::test]
async fn a_store_out_of_reach_pauses_the_table_and_nothing_unstored_is_shown() {
    let seated = seated().await;
    seated.store.answer(StoreAnswer::Failed);
    let before = seated.heard.last_view().unwrap()["version"]
        .as_u64()
        .unwrap();
    seated.move_on().await;
    seated.heard.wait_for("the pause", paused).await;
    let stored_before = *seated.store.kept.lock().unwrap();

    // While paused: play and resync are refused, a new socket is turned away, and nothing newer is shown.
    seated.send(serde_json::json!({"type": "resync"})).await;
    let version = seated.heard.last_view().unwrap()["version"]
        .as_u64()
        .unwrap();
    let action = serde_json::json!({"type": "action", "version": version, "id": "p", "action": {}});
    seated.send(action).await;
    let refused = seated
        .heard
        .wait_for("the refusal", |f| f["type"] == "error" && f["id"] == "p")
        .await;
    assert_eq!(refused["code"], "unavailable");
    let attach = Attach {
        key: Token::random().hash(),
        conn: 2,
        out: SocketOut::Relay(Socket(Heard::default()).start().recipient()),
    };
    let turned_away = seated.table.attach.send(attach).await.unwrap();
    assert!(matches!(turned_away, Err(TableRefusal { .. })));
    actix_rt::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(
        seated.heard.last_view().unwrap()["version"]
            .as_u64()
            .unwrap(),
        before,
        "a change not stored was shown"
    );
    assert!(seated.heard.frames().iter().all(|f| f.get("ack").is_none()));

    // The store is back: the change is stored and shown, nothing rolled back, play goes on.
    seated.store.answer(StoreAnswer::Stored);
    seated
        .heard
        .wait_for("the stored change", |f| {
            f["type"] == "view" && f["version"].as_u64().unwrap() > before
        })
        .await;
    assert!(*seated.store.kept.lock().unwrap() > stored_before);
    assert_eq!(seated.heard.closed(), None);
    assert_eq!(*seated.closed.lock().unwrap(), None);
}

#[actix_rt::test]
async fn an_owner_whose_store_refuses_its_token_steps_down_without_showing_the_change() {
    let seated = seated().await;
    let before = seated.heard.last_view().unwrap()["version"]
        .as_u64()
        .unwrap();
    seated.store.answer(StoreAnswer::Fenced);
    seated.move_on().await;
    let started = Instant::now();
    while seated.heard.closed().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the table went on"
        );
        actix_rt::time::sleep(Duration::from_millis(10)).await;
    }
    // Closed so that the page reconnects and finds the table's new owner; what is stored stays.
    assert_eq!(seated.heard.closed(), Some(1012));
    assert_eq!(*seated.closed.lock().unwrap(), Some(Closing::Lost));
    assert_eq!(
        seated.heard.last_view().unwrap()["version"]
            .as_u64()
            .unwrap(),
        before
    );
    assert!(seated.heard.frames().iter().all(|f| f.get("ack").is_none()));
}
