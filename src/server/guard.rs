//! The site's defences at the door: security headers on every answer, the WebSocket upgrade's Origin
//! check, no seat token in an address, and a limit on tables opened per client address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::http::header::{self, HeaderMap};
use actix_web::middleware::DefaultHeaders;

/// Scripts, styles, images and sockets from this site only; no inline script or style, no plugins, and
/// no page may frame this one.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
form-action 'self'; frame-ancestors 'none'";

/// The headers every answer carries.
pub const SECURITY_HEADERS: [(header::HeaderName, &str); 4] = [
    (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    (header::X_FRAME_OPTIONS, "DENY"),
];

/// Adds [`SECURITY_HEADERS`] to every answer of the app.
pub fn security_headers() -> DefaultHeaders {
    SECURITY_HEADERS
        .into_iter()
        .fold(DefaultHeaders::new(), |headers, pair| headers.add(pair))
}

/// Whether a WebSocket upgrade may go ahead. Browsers always send `Origin` on a WebSocket handshake, so
/// a page of another site is refused. Without a configured `site_origin`, the Origin's host must be the
/// host the request was sent to. A request with no Origin comes from a program, not a browser page
/// (the load generator, the tests): it is let through, since it could not borrow a visitor's seat; it
/// still needs the seat's token.
pub fn origin_allowed(headers: &HeaderMap, site_origin: &str) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if !site_origin.is_empty() {
        return origin.eq_ignore_ascii_case(site_origin.trim_end_matches('/'));
    }
    let Some(origin_host) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    !host.is_empty() && origin_host.eq_ignore_ascii_case(host)
}

/// Whether a query carries a seat token: a parameter whose name says `token` in any case or spelling
/// (percent-encoded too), or a secret's worth of URL-safe characters in a row anywhere in it (raw or
/// decoded, in a name or a value, whatever is around it). Tokens travel in request bodies and socket
/// frames only; an address is written into proxies' logs.
pub fn token_in_query(query: &str) -> bool {
    holds_secret(query)
        || form_urlencoded::parse(query.as_bytes()).any(|(name, value)| {
            name.to_ascii_lowercase().contains("token")
                || holds_secret(&name)
                || holds_secret(&value)
        })
}

/// Whether `text` has a run of URL-safe characters as long as a secret (22) or longer.
fn holds_secret(text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .any(|run| run.len() >= 22)
}

/// Requests of one kind (tables opened, "Your games" asked) per client address in the current minute.
pub struct MinuteQuota {
    per_minute: u32,
    opened: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

const WINDOW: Duration = Duration::from_secs(60);
/// Past this many addresses, finished windows are swept before a new one is added.
const SWEEP_AT: usize = 10_000;

impl MinuteQuota {
    /// `per_minute` requests a minute per address; 0 is no limit.
    pub fn new(per_minute: u32) -> MinuteQuota {
        MinuteQuota {
            per_minute,
            opened: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a request of `addr`'s; `Err(seconds)` when its minute's are used up, with how long
    /// until it may make another.
    pub fn take(&self, addr: IpAddr) -> Result<(), u64> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut opened = self
            .opened
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if opened.len() >= SWEEP_AT {
            opened.retain(|_, (since, _)| now.duration_since(*since) < WINDOW);
        }
        let (since, count) = opened.entry(addr).or_insert((now, 0));
        if now.duration_since(*since) >= WINDOW {
            *since = now;
            *count = 0;
        }
        if *count >= self.per_minute {
            let left = WINDOW.saturating_sub(now.duration_since(*since));
            return Err(left.as_secs().max(1));
        }
        *count += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn the_origin_must_be_this_site() {
        let req = |origin: Option<&str>| {
            let mut r = TestRequest::default().insert_header((header::HOST, "cards.example:8080"));
            if let Some(o) = origin {
                r = r.insert_header((header::ORIGIN, o));
            }
            r.to_http_request().headers().clone()
        };
        assert!(origin_allowed(&req(Some("http://cards.example:8080")), ""));
        assert!(origin_allowed(&req(Some("https://cards.example:8080")), ""));
        assert!(origin_allowed(&req(None), ""));
        assert!(!origin_allowed(&req(Some("http://evil.example")), ""));
        assert!(!origin_allowed(
            &req(Some("http://cards.example:8080.evil.example")),
            ""
        ));
        assert!(!origin_allowed(&req(Some("null")), ""));
        let site = "https://play.example";
        assert!(origin_allowed(&req(Some("https://play.example")), site));
        assert!(!origin_allowed(
            &req(Some("http://cards.example:8080")),
            site
        ));
    }

    #[test]
    fn a_token_in_a_query_is_found_in_any_spelling() {
        let token = "AbCdEfGhIjKlMnOpQrStUv";
        for query in [
            "token=x".to_string(),
            "TOKEN=x".into(),
            "a=1&Token".into(),
            "%74oken=x".into(),
            "seat_token=x".into(),
            format!("t={token}"),
            format!("x={token}."),
            format!("{token}=1"),
            token.to_string(),
            format!("a=1&b=({token})"),
            format!("x=%41{}", &token[1..]),
            format!("x=pre{token}post"),
        ] {
            assert!(token_in_query(&query), "{query}");
        }
        for query in [
            "",
            "for=computer",
            "x=1&y=2",
            "tok=1",
            "lang=fa&level=strong",
        ] {
            assert!(!token_in_query(query), "{query}");
        }
    }

    #[test]
    fn each_address_opens_so_many_tables_a_minute() {
        let quota = MinuteQuota::new(2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        assert_eq!(quota.take(a), Ok(()));
        assert_eq!(quota.take(a), Ok(()));
        assert!(matches!(quota.take(a), Err(s) if (1..=60).contains(&s)));
        assert_eq!(quota.take(b), Ok(()));
        let unlimited = MinuteQuota::new(0);
        assert!((0..100).all(|_| unlimited.take(a).is_ok()));
    }
}
