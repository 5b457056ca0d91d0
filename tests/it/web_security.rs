//! The site's defences over real HTTP: security headers on every kind of answer, no inline script or
//! handler in any page, the WebSocket upgrade's Origin check, no token in a link or a log, and the limit
//! on tables opened per address.

use serde_json::json;

use crate::support::*;
use chaikhana::server::pages::pages;

async fn headers(
    server: &TestServer,
    method: &str,
    path: &str,
) -> (u16, awc::http::header::HeaderMap) {
    let client = awc::Client::new();
    let url = format!("{}{path}", server.base);
    let request = match method {
        "POST" => client
            .post(url)
            .insert_header(("content-type", "application/json")),
        // A WebSocket upgrade from another site's page: refused before the dispatcher lets go.
        "UPGRADE" => client
            .get(url)
            .insert_header(("connection", "upgrade"))
            .insert_header(("upgrade", "websocket"))
            .insert_header(("sec-websocket-version", "13"))
            .insert_header(("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="))
            .insert_header(("origin", "http://evil.example")),
        _ => client.get(url),
    };
    let body = if method == "POST" {
        json!({ "game": "panjpar", "opponents": "computer" }).to_string()
    } else {
        String::new()
    };
    let response = request.send_body(body).await.expect("the server answers");
    (response.status().as_u16(), response.headers().clone())
}

#[actix_rt::test]
async fn every_answer_carries_the_security_headers() {
    let server = TestServer::start(|_| {});
    let table = server.open("panjpar", "friends", None).await;
    let mut paths: Vec<(&str, String)> = pages().into_iter().map(|(p, _)| ("GET", p)).collect();
    paths.extend([
        ("GET", "/static/table.js".to_string()),
        ("GET", "/static/site.css".to_string()),
        ("GET", format!("/t/{}", table.table)),
        ("GET", "/no/such/page".to_string()),
        ("GET", "/healthz".to_string()),
        ("POST", "/api/tables".to_string()),
        ("GET", format!("/ws/{}", table.table)),
        ("UPGRADE", format!("/ws/{}", table.table)),
    ]);
    for (method, path) in paths {
        let (status, headers) = headers(&server, method, &path).await;
        assert!(status < 500, "{path}: {status}");
        let csp = headers
            .get("content-security-policy")
            .unwrap_or_else(|| panic!("{path} has no CSP"))
            .to_str()
            .unwrap();
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(
            !csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"),
            "{csp}"
        );
        assert_eq!(
            headers.get("x-content-type-options").unwrap(),
            "nosniff",
            "{path}"
        );
        assert_eq!(
            headers.get("referrer-policy").unwrap(),
            "no-referrer",
            "{path}"
        );
        assert_eq!(headers.get("x-frame-options").unwrap(), "DENY", "{path}");
    }
}

#[actix_rt::test]
async fn no_page_holds_inline_script_style_or_handlers() {
    let server = TestServer::start(|_| {});
    let table = server.open("panjpar", "friends", None).await;
    let mut paths: Vec<String> = pages().into_iter().map(|(p, _)| p).collect();
    paths.push(format!("/t/{}", table.table));
    paths.push("/no/such/page".into());
    for path in paths {
        let (_, html) = server.get(&path).await;
        let lower = html.to_ascii_lowercase();
        for script in lower.split("<script").skip(1) {
            let tag = &script[..script.find('>').unwrap()];
            assert!(tag.contains("src="), "{path}: an inline script");
        }
        assert!(!lower.contains("<style"), "{path}: an inline style sheet");
        assert!(!lower.contains(" style="), "{path}: a style attribute");
        assert!(!lower.contains("javascript:"), "{path}: a javascript: link");
        for handler in [
            "onclick=",
            "onsubmit=",
            "onload=",
            "onerror=",
            "oninput=",
            "onchange=",
        ] {
            assert!(
                !lower.contains(handler),
                "{path}: an inline {handler} handler"
            );
        }
    }
}

async fn upgrade(server: &TestServer, seated: &Seated, origin: Option<&str>) -> Result<(), u16> {
    let url = format!(
        "{}/ws/{}",
        server.base.replacen("http", "ws", 1),
        seated.table
    );
    let mut request = awc::Client::new().ws(url);
    if let Some(origin) = origin {
        request = request.origin(origin);
    }
    match request.connect().await {
        Ok(_) => Ok(()),
        Err(awc::error::WsClientError::InvalidResponseStatus(status)) => Err(status.as_u16()),
        Err(e) => panic!("the upgrade failed otherwise: {e}"),
    }
}

#[actix_rt::test]
async fn the_socket_takes_only_this_sites_pages() {
    let server = TestServer::start(|_| {});
    let seated = server.open("panjpar", "computer", None).await;
    let host = server.base.clone();
    assert_eq!(upgrade(&server, &seated, Some(&host)).await, Ok(()));
    assert_eq!(
        upgrade(&server, &seated, None).await,
        Ok(()),
        "a program sends no Origin"
    );
    for foreign in [
        "http://evil.example",
        "null",
        "http://127.0.0.1.evil.example",
    ] {
        assert_eq!(
            upgrade(&server, &seated, Some(foreign)).await,
            Err(403),
            "{foreign}"
        );
    }

    let site = TestServer::start(|s| s.site_origin = "https://cards.example".into());
    let seated = site.open("panjpar", "computer", None).await;
    assert_eq!(
        upgrade(&site, &seated, Some("https://cards.example")).await,
        Ok(())
    );
    let own_host = site.base.clone();
    assert_eq!(upgrade(&site, &seated, Some(&own_host)).await, Err(403));
}

#[actix_rt::test]
async fn links_carry_the_table_never_a_token() {
    let server = TestServer::start(|_| {});
    let (status, created) = server
        .post(
            "/api/tables",
            &json!({ "game": "panjpar", "opponents": "friends" }).to_string(),
        )
        .await;
    assert_eq!(status, 201);
    let token = created["token"].as_str().unwrap();
    assert_eq!(
        created["link"],
        format!("/t/{}", created["table"].as_str().unwrap())
    );
    let (_, joined) = server.join(created["table"].as_str().unwrap()).await;
    for answer in [&created, &joined] {
        assert!(!answer["link"].as_str().unwrap().contains(token));
        assert!(!answer["link"]
            .as_str()
            .unwrap()
            .contains(joined["token"].as_str().unwrap()));
    }
    // The table's page and the metrics never hold a seat's token.
    let (_, page) = server.get(created["link"].as_str().unwrap()).await;
    let (_, metrics) = server.get("/metrics").await;
    for text in [page, metrics] {
        assert!(!text.contains(token));
    }
}

#[actix_rt::test]
async fn an_address_opens_only_so_many_tables_a_minute() {
    let server = TestServer::start(|s| s.tables_per_minute = 3);
    let body = json!({ "game": "pishe-pasha", "opponents": "computer" }).to_string();
    for _ in 0..3 {
        assert_eq!(server.post("/api/tables", &body).await.0, 201);
    }
    let (status, answer) = server.post("/api/tables", &body).await;
    assert_eq!(status, 429, "{answer}");
    assert_eq!(answer["code"], "too-many-tables");
    assert!(
        answer["message"].as_str().unwrap().contains("try again in"),
        "{answer}"
    );
    assert!((1..=60).contains(&retry_after(&server, "/api/tables").await));
}

/// The seconds a refused `POST` to `path` says to wait.
async fn retry_after(server: &TestServer, path: &str) -> u64 {
    let (_, headers) = headers(server, "POST", path).await;
    let wait = headers.get("retry-after").expect("a Retry-After header");
    wait.to_str().unwrap().parse().unwrap()
}

#[actix_rt::test]
async fn an_address_asks_for_its_games_only_so_many_times_a_minute() {
    let server = TestServer::start(|s| s.your_games_per_minute = 3);
    let seated = server.open("panjpar", "computer", None).await;
    let body = json!({ "tables": [{ "id": seated.table, "token": seated.token }] }).to_string();
    for _ in 0..3 {
        let (status, answer) = server.post("/api/tables/mine", &body).await;
        assert_eq!(status, 200, "{answer}");
    }
    let (status, answer) = server.post("/api/tables/mine", &body).await;
    assert_eq!(status, 429, "{answer}");
    assert_eq!(answer["code"], "rate-limited");
    assert!((1..=60).contains(&retry_after(&server, "/api/tables/mine").await));
    // Tables still open: the two quotas are apart.
    let table = json!({ "game": "panjpar", "opponents": "computer" }).to_string();
    assert_eq!(server.post("/api/tables", &table).await.0, 201);
}

/// Opens a computer table as a request carrying `forwarded_for` in `X-Forwarded-For`: the status.
async fn open_forwarded(server: &TestServer, forwarded_for: &str) -> u16 {
    let body = json!({ "game": "panjpar", "opponents": "computer" }).to_string();
    awc::Client::new()
        .post(format!("{}/api/tables", server.base))
        .insert_header(("content-type", "application/json"))
        .insert_header(("x-forwarded-for", forwarded_for))
        .send_body(body)
        .await
        .expect("the server answers")
        .status()
        .as_u16()
}

/// Opens a watcher's socket as a request carrying `forwarded_for`: the open socket, or the refusal's
/// status.
async fn watch_forwarded(
    server: &TestServer,
    watch: &str,
    forwarded_for: &str,
) -> Result<impl Sized, u16> {
    let url = format!("{}/ws/w/{watch}", server.base.replacen("http", "ws", 1));
    match awc::Client::new()
        .ws(url)
        .set_header("x-forwarded-for", forwarded_for)
        .connect()
        .await
    {
        Ok(socket) => Ok(socket),
        Err(awc::error::WsClientError::InvalidResponseStatus(status)) => Err(status.as_u16()),
        Err(e) => panic!("the upgrade failed otherwise: {e}"),
    }
}

#[actix_rt::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_allowance() {
    // The tests' requests come from 127.0.0.1, which plays the Ingress here.
    let server = TestServer::start(|s| {
        s.tables_per_minute = 2;
        s.trusted_proxies = "127.0.0.0/8".into();
    });
    for _ in 0..2 {
        assert_eq!(open_forwarded(&server, "203.0.113.1").await, 201);
    }
    assert_eq!(open_forwarded(&server, "203.0.113.1").await, 429);
    // A client that writes its own X-Forwarded-For entry does not escape: the proxy appended the
    // address it heard from, and that right-most entry counts.
    assert_eq!(
        open_forwarded(&server, "198.51.100.77, 203.0.113.1").await,
        429
    );
    // Another client behind the same proxy has an allowance of its own.
    assert_eq!(open_forwarded(&server, "203.0.113.2").await, 201);
    // IPv6 clients count by their /64: a new address in the same /64 is the same client.
    for _ in 0..2 {
        assert_eq!(open_forwarded(&server, "2001:db8:7:7::1").await, 201);
    }
    assert_eq!(open_forwarded(&server, "2001:db8:7:7:ffff::2").await, 429);
    assert_eq!(open_forwarded(&server, "2001:db8:7:8::1").await, 201);

    // The socket cap per address counts forwarded clients too.
    let server = TestServer::start(|s| {
        s.sockets_per_address = 2;
        s.trusted_proxies = "127.0.0.1".into();
    });
    let seated = server.open("panjpar", "friends", None).await;
    let (_, answer) = server
        .post(
            &format!("/api/tables/{}/watch", seated.table),
            &json!({ "token": seated.token }).to_string(),
        )
        .await;
    let watch = answer["watch"]
        .as_str()
        .and_then(|link| link.strip_prefix("/w/"))
        .expect("a watch link")
        .to_string();
    let mut held = Vec::new();
    for _ in 0..2 {
        held.push(watch_forwarded(&server, &watch, "203.0.113.5").await);
    }
    assert!(held.iter().all(Result::is_ok));
    let third = watch_forwarded(&server, &watch, "203.0.113.5").await;
    assert_eq!(third.err(), Some(429));
    assert!(watch_forwarded(&server, &watch, "203.0.113.6")
        .await
        .is_ok());
}

#[actix_rt::test]
async fn a_forwarded_for_header_from_an_untrusted_peer_is_ignored() {
    let server = TestServer::start(|s| s.tables_per_minute = 2);
    // A client rotating made-up addresses is still one address.
    assert_eq!(open_forwarded(&server, "203.0.113.1").await, 201);
    assert_eq!(open_forwarded(&server, "203.0.113.2").await, 201);
    assert_eq!(open_forwarded(&server, "203.0.113.3").await, 429);
    // Trusting some other network changes nothing for this peer.
    let server = TestServer::start(|s| {
        s.tables_per_minute = 2;
        s.trusted_proxies = "10.0.0.0/8, fd00::/8".into();
    });
    assert_eq!(open_forwarded(&server, "10.0.0.1").await, 201);
    assert_eq!(open_forwarded(&server, "10.0.0.2").await, 201);
    assert_eq!(open_forwarded(&server, "10.0.0.3").await, 429);
}

#[actix_rt::test]
async fn a_token_in_an_address_is_refused_in_any_spelling() {
    use crate::support::raw::{Raw, Upgraded};
    let server = TestServer::start(|_| {});
    let seat = server.open("panjpar", "computer", None).await;
    let token = &seat.token;
    for query in [
        format!("TOKEN={token}"),
        format!("Token={token}"),
        "tOkEn".to_string(),
        format!("%54oken={token}"),
        format!("seat={token}"),
    ] {
        // A socket's upgrade is refused before it is answered.
        let path = format!("/ws/{}?{query}", seat.table);
        match Raw::upgrade_path(server.running.addr, &path, None).await {
            Upgraded::Refused(status, body) => {
                assert_eq!(
                    (status, body["code"].as_str()),
                    (403, Some("token-in-url")),
                    "{path}"
                )
            }
            _ => panic!("{path} was upgraded"),
        }
        // And so is a page's address, or an API call's.
        for path in [format!("/t/{}?{query}", seat.table), format!("/?{query}")] {
            let (status, body) = server.get(&path).await;
            assert_eq!(status, 403, "{path}");
            assert!(body.contains("token-in-url"), "{path}: {body}");
        }
    }
}
