//! Every page of the site over plain HTTP: 200 with the right content type, the scripts and styles
//! with theirs, and an honest 404 page for a table that does not exist.

use crate::support::TestServer;

#[actix_rt::test]
async fn every_page_answers_with_html() {
    let server = TestServer::start(|_| {});
    for (path, _) in chaikhana::server::pages::pages() {
        let path = path.as_str();
        let (status, kind, body) = server.fetch(path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(kind, "text/html; charset=utf-8", "{path}");
        assert!(body.starts_with("<!doctype html>"), "{path}");
        assert!(body.contains("<h1>"), "{path} has a heading");
    }
    let (_, _, fa) = server.fetch("/fa/panjpar/rules").await;
    assert!(fa.contains("<html lang=\"fa\" dir=\"rtl\">"));
    // The header's links and the home page's tiles are the catalog's games, in its order.
    let (_, _, home) = server.fetch("/").await;
    let mut at = 0;
    for game in chaikhana::catalog::games() {
        let (name, title) = (game.name(), game.pages().title);
        let link = format!("<a href=\"/{name}\" data-game=\"{name}\">{title}</a>");
        assert!(home.contains(&link), "{link}: {home}");
        let tile = home[at..].find(&format!("<h2>{title}</h2>"));
        at += tile.unwrap_or_else(|| panic!("the tile of {name}, in order: {home}"));
    }
}

#[actix_rt::test]
async fn scripts_and_styles_have_their_content_types_and_cache_headers() {
    let server = TestServer::start(|_| {});
    for (path, kind) in [
        ("/static/site.css", "text/css; charset=utf-8"),
        ("/static/table.js", "text/javascript; charset=utf-8"),
        ("/static/panjpar.js", "text/javascript; charset=utf-8"),
        ("/static/cards.js", "text/javascript; charset=utf-8"),
        ("/static/motion.js", "text/javascript; charset=utf-8"),
        ("/static/sound.js", "text/javascript; charset=utf-8"),
        ("/static/ganjifa.css", "text/css; charset=utf-8"),
        (
            "/static/pishe-pasha-words.js",
            "text/javascript; charset=utf-8",
        ),
        ("/static/ganjifa-hooks.js", "text/javascript; charset=utf-8"),
        ("/static/board.js", "text/javascript; charset=utf-8"),
        ("/static/sounds/card.wav", "audio/wav"),
        ("/static/sounds/turn.wav", "audio/wav"),
        ("/static/sounds/won.wav", "audio/wav"),
        ("/static/sounds/lost.wav", "audio/wav"),
        ("/favicon.ico", "image/x-icon"),
    ] {
        let response = awc::Client::new()
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string()
        };
        assert_eq!(header("content-type"), kind, "{path}");
        assert!(header("cache-control").contains("max-age"), "{path}");
        let tag = header("etag");
        assert!(!tag.is_empty(), "{path}");
        assert_eq!(asked_again(&server, path, &tag).await, 304, "{path}");
    }
    let (status, _, _) = server.fetch("/static/nothing.js").await;
    assert_eq!(status, 404);
}

#[actix_rt::test]
async fn an_unknown_table_is_an_honest_404_page_and_a_real_one_is_served() {
    let server = TestServer::start(|_| {});
    let (status, kind, body) = server.fetch("/t/AAAAAAAAAAAAAAAAAAAAAA").await;
    assert_eq!(status, 404);
    assert_eq!(kind, "text/html; charset=utf-8");
    assert!(body.contains("Nothing at this address"));
    let table = server.open("panjpar", "computer", None).await;
    let (status, kind, body) = server.fetch(&format!("/t/{}", table.table)).await;
    assert_eq!(status, 200);
    assert_eq!(kind, "text/html; charset=utf-8");
    assert!(body.contains("/static/table.js"));
    assert!(
        body.contains("<title>chaikhana: a Panjpar table</title>"),
        "{body}"
    );
    assert!(body.contains("data-game-title=\"Panjpar\""), "{body}");
    let (status, _, _) = server.fetch("/no/such/page").await;
    assert_eq!(status, 404);
}

#[actix_rt::test]
async fn a_static_path_never_climbs_out_of_the_site_files() {
    let server = TestServer::start(|_| {});
    for path in [
        "/static/..%2F..%2FCargo.toml",
        "/static/%2E%2E/%2E%2E/Cargo.toml",
        "/static/..%5C..%5CCargo.toml",
        "/static/%2Fetc%2Fpasswd",
        "/static/table.html",
    ] {
        let (status, _, body) = server.fetch(path).await;
        assert_eq!(status, 404, "{path}");
        assert!(
            !body.contains("[package]"),
            "{path} served a file from outside"
        );
    }
}

#[actix_rt::test]
async fn the_staged_deal_is_served_as_a_script_of_steps() {
    let server = TestServer::start(|_| {});
    let (status, kind, body) = server.fetch("/api/ganjifa/staged").await;
    assert_eq!(status, 200);
    assert_eq!(kind, "application/json");
    let script: serde_json::Value = serde_json::from_str(&body).unwrap();
    let steps = script["steps"].as_array().unwrap();
    assert_eq!(steps[0]["events"], serde_json::json!(["opening"]));
    assert_eq!(steps.last().unwrap()["view"]["stage"], "over");
    assert!(steps
        .iter()
        .all(|s| s["line"].as_str().is_some_and(|l| !l.is_empty())));
    // Every view is seat 0's: no other hand is ever in it.
    assert!(steps.iter().all(|s| s["view"]["seat"] == 0));
    let response = awc::Client::new()
        .get(format!("{}/api/ganjifa/staged", server.base))
        .send()
        .await
        .unwrap();
    let tag = response.headers().get("etag").unwrap().to_str().unwrap();
    assert_eq!(asked_again(&server, "/api/ganjifa/staged", tag).await, 304);
}

/// The status of `path` asked for again with the entity tag `tag` of the copy already held.
async fn asked_again(server: &TestServer, path: &str, tag: &str) -> u16 {
    let again = awc::Client::new()
        .get(format!("{}{path}", server.base))
        .insert_header(("if-none-match", tag))
        .send()
        .await
        .unwrap();
    again.status().as_u16()
}

/// `HEAD path` over raw TCP, the connection closed after it: the status, the head's lines in lower
/// case, and whatever came after the head.
async fn head_only(server: &TestServer, path: &str) -> (u16, String, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut io = tokio::net::TcpStream::connect(server.running.addr)
        .await
        .unwrap();
    let request =
        format!("HEAD {path} HTTP/1.1\r\nHost: chaikhana.test\r\nConnection: close\r\n\r\n");
    io.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    io.read_to_end(&mut answer).await.unwrap();
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a whole head")
        + 4;
    let head = String::from_utf8_lossy(&answer[..end]).to_ascii_lowercase();
    let status = head[9..12].parse().unwrap();
    (status, head, answer[end..].to_vec())
}

#[actix_rt::test]
async fn head_answers_as_get_does_without_the_body() {
    let server = TestServer::start(|_| {});
    let table = server.open("panjpar", "friends", None).await;
    let mut paths: Vec<String> = chaikhana::server::pages::pages()
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    paths.extend(
        [
            format!("/t/{}", table.table),
            "/static/table.js".into(),
            "/static/site.css".into(),
            "/static/panjpar.js".into(),
            "/no/such/page".into(),
        ]
        .into_iter(),
    );
    for path in &paths {
        let (status, kind, body) = server.fetch(path).await;
        let (head_status, head, after) = head_only(&server, path).await;
        assert_eq!(head_status, status, "{path}");
        assert!(
            head.contains(&format!("content-type: {kind}")),
            "{path}: {head}"
        );
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{path}: {head}"
        );
        assert!(after.is_empty(), "{path}: a body came after the head");
    }
    for path in ["/healthz", "/readyz", "/metrics"] {
        let (status, kind, _) = server.fetch(path).await;
        let (head_status, head, after) = head_only(&server, path).await;
        assert_eq!((head_status, status), (200, 200), "{path}");
        assert!(
            head.contains(&format!("content-type: {kind}")),
            "{path}: {head}"
        );
        assert!(after.is_empty(), "{path}: a body came after the head");
    }
}
