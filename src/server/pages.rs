//! The browser's half: pages, styles and scripts from `src/web/`, embedded in the binary.
//!
//! Pages are served with `no-cache` and scripts and styles with an `ETag` and a short cache life,
//! so a new build reaches every browser while an unchanged file costs one `304`.

use std::sync::LazyLock;

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use rust_embed::RustEmbed;

use crate::catalog;

#[derive(RustEmbed)]
#[folder = "src/web/"]
struct WebFiles;

/// Every page and the file it is drawn from: each game's landing page (`/{game}`, from `{game}.html`)
/// and rules (`/{game}/rules`, from `{game}-rules.html`), then the pages of [`MORE_PAGES`].
pub static PAGES: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    let games = catalog::names().flat_map(|game| {
        [
            (format!("/{game}"), format!("{game}.html")),
            (format!("/{game}/rules"), format!("{game}-rules.html")),
        ]
    });
    let more = MORE_PAGES
        .iter()
        .map(|(path, file)| (path.to_string(), file.to_string()));
    games.chain(more).collect()
});

/// The pages that are not one game's landing page or rules.
const MORE_PAGES: &[(&str, &str)] = &[
    ("/", "index.html"),
    ("/fa/panjpar", "fa-panjpar.html"),
    ("/fa/panjpar/rules", "fa-panjpar-rules.html"),
    ("/ganjifa/staged", "ganjifa-staged.html"),
    ("/fair", "fair.html"),
    ("/fa/fair", "fa-fair.html"),
];

pub fn routes(cfg: &mut web::ServiceConfig) {
    for (path, file) in PAGES.iter() {
        let file: &'static str = file;
        cfg.route(path, web::get().to(move |req: HttpRequest| page(req, file)));
    }
    cfg.route("/static/{file:.*}", web::get().to(asset));
    cfg.route(
        "/favicon.ico",
        web::get().to(|req: HttpRequest| async move {
            send(&req, "static/favicon.ico", "public, max-age=86400")
        }),
    );
}

async fn page(req: HttpRequest, file: &'static str) -> HttpResponse {
    send(&req, file, "no-cache")
}

async fn asset(req: HttpRequest, file: web::Path<String>) -> HttpResponse {
    let file = file.into_inner();
    // Only the embedded files, never a path that climbs out of them (a debug build reads from disk).
    if file.ends_with(".html")
        || file.contains("..")
        || file.contains('\\')
        || file.starts_with('/')
    {
        return not_found();
    }
    send(&req, &format!("static/{file}"), "public, max-age=300")
}

/// The table's page, titled with its game (the board fills itself from the socket).
pub fn table_page(game: &str) -> HttpResponse {
    match WebFiles::get("table.html") {
        Some(f) => HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .body(String::from_utf8_lossy(&f.data).replace(
                "<title>chaikhana table</title>",
                &format!("<title>chaikhana: a {game} table</title>"),
            )),
        None => not_found(),
    }
}

/// The page for a link that leads nowhere, with status 404.
pub fn not_found() -> HttpResponse {
    let body = WebFiles::get("404.html")
        .map(|f| f.data.into_owned())
        .unwrap_or_else(|| b"Not found".to_vec());
    HttpResponse::NotFound()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

fn send(req: &HttpRequest, path: &str, cache: &'static str) -> HttpResponse {
    let Some(file) = WebFiles::get(path) else {
        return not_found();
    };
    let tag = format!(
        "\"{}\"",
        file.metadata
            .sha256_hash()
            .iter()
            .take(12)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == tag);
    let mime = file.metadata.mimetype();
    let content_type = if mime.starts_with("text/") || mime.ends_with("javascript") {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    };
    let mut answer = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    answer
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header((header::ETAG, tag));
    if fresh {
        return answer.finish();
    }
    answer
        .content_type(content_type)
        .body(file.data.into_owned())
}
