//! What the lobby refuses, changing nothing: requests it cannot read, another site's page opening,
//! joining or entering a queue, and one address taking more than a few seats a minute or listing more
//! than a few tables.

use serde_json::json;

use super::open_tables::open_listed;
use super::{open_tables, Visitor};
use crate::support::*;

#[actix_rt::test]
async fn what_the_lobby_cannot_read_is_refused_and_changes_nothing() {
    let server = TestServer::start(|_| {});
    for (path, body) in [
        ("/api/pairing", "not json"),
        (
            "/api/pairing",
            r#"{"game": "chess", "browser": "browser-1"}"#,
        ),
        ("/api/pairing", r#"{"game": "panjpar", "browser": "short"}"#),
        (
            "/api/pairing",
            r#"{"game": "panjpar", "browser": "browser-1", "x": 1}"#,
        ),
        (
            "/api/pairing",
            r#"{"game": "panjpar", "length": 4, "browser": "browser-1"}"#,
        ),
        ("/api/pairing/ask", r#"{"ticket": 7}"#),
        ("/api/open-tables/host", r#"{"table": "t"}"#),
    ] {
        let (status, answer) = server.post(path, body).await;
        assert_eq!(status, 400, "{path} {body}: {answer}");
        assert_eq!(answer["code"], "bad-request");
    }
    let (status, answer) = server
        .post("/api/pairing/ask", r#"{"ticket": "nope"}"#)
        .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (404, Some("not-waiting"))
    );
    let (status, _) = server.get("/api/open-tables/chess").await;
    assert_eq!(status, 404);
    let too_long = json!({ "game": "panjpar", "browser": "b".repeat(300) }).to_string();
    assert_eq!(server.post("/api/pairing", &too_long).await.0, 413);
    let (_, waiting) = Visitor::enter(&server.base, "panjpar", json!(5)).await;
    assert_eq!(waiting["waiting"], 1, "nothing the refusals sent entered");
}

#[actix_rt::test]
async fn another_sites_page_cannot_open_join_or_enter_a_queue() {
    let server = TestServer::start(|_| {});
    let client = awc::Client::new();
    let enter = json!({ "game": "panjpar", "browser": "from-elsewhere" }).to_string();
    let table = json!({ "game": "panjpar", "opponents": "friends" }).to_string();
    for (path, body) in [("/api/pairing", &enter), ("/api/tables", &table)] {
        for (header, value) in [
            ("origin", "https://evil.example"),
            ("sec-fetch-site", "cross-site"),
        ] {
            let response = client
                .post(format!("{}{path}", server.base))
                .insert_header(("content-type", "text/plain"))
                .insert_header((header, value))
                .send_body(body.clone())
                .await
                .unwrap();
            assert_eq!(response.status().as_u16(), 403, "{path} with {header}");
        }
    }
    // The site's own page (its Origin the host it asked) is let through.
    let own = format!("http://{}", server.running.addr);
    let response = client
        .post(format!("{}/api/pairing", server.base))
        .insert_header(("origin", own.as_str()))
        .insert_header(("sec-fetch-site", "same-origin"))
        .send_body(enter)
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 201);
    let (_, waiting) = Visitor::enter(&server.base, "panjpar", json!(1)).await;
    assert_eq!(waiting["waiting"], 1, "no entry from the other site waits");
}

#[actix_rt::test]
async fn one_address_takes_a_few_seats_a_minute_and_lists_a_few_tables() {
    let server = TestServer::start(|s| s.joins_per_minute = 2);
    let mut listed = Vec::new();
    for _ in 0..3 {
        listed.push(open_listed(&server.base, "ganjifa", "").await);
    }
    let body = json!({ "game": "ganjifa", "opponents": "friends", "open": true });
    let (status, answer) = server.post("/api/tables", &body.to_string()).await;
    assert_eq!(status, 201, "the table is made");
    assert_eq!(answer["listed"], false, "{answer}");
    assert!(answer["not_listed"]
        .as_str()
        .unwrap()
        .contains("3 tables listed"));
    assert_eq!(open_tables(&server.base, "ganjifa").await.len(), 3);
    let join = |table: &str| format!("/api/tables/{table}/join");
    assert_eq!(server.post(&join(&listed[0].table), "").await.0, 201);
    assert_eq!(server.post(&join(&listed[1].table), "").await.0, 201);
    let (status, answer) = server.post(&join(&listed[2].table), "").await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (429, Some("rate-limited"))
    );
}
