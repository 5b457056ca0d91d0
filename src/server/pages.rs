//! The browser's half: pages, styles and scripts, embedded in the binary.
//!
//! The shared files are `src/web/`'s; each game's own (its landing page, rules, board module, style
//! and words, and what it works out for them) come with its catalog entry ([`catalog::GamePages`]),
//! from the game's folder, and are served at the same addresses: `/{game}`, `/{game}/rules`,
//! `/static/{game}.js`, `/api/{game}/{name}` and so on.
//!
//! Every page shares one frame, `layout.html` (the head, the site's header, the banner); a page file
//! fills in its blocks (minijinja's `{% extends %}`), and each page is rendered once, when first asked
//! for. The English rules pages share `rules-layout.html`, a frame within the frame, and a game may
//! bring frames of its own (Panjpar's Persian pages). Every page is rendered with the catalog's
//! `games` (name, title, home tile), from which the header's links and the home page's tiles are
//! drawn. Pages are served with `no-cache` and scripts and styles with an `ETag` and a short cache
//! life, so a new build reaches every browser while an unchanged file costs one `304`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use bytes::Bytes;
use rust_embed::RustEmbed;
use sha2::{Digest, Sha256};

use super::door::route;
use crate::catalog::{self, TileCards};
use chaikhana_rules::game_pages::LevelRating;

#[derive(RustEmbed)]
#[folder = "src/web/"]
struct WebFiles;

/// Every page and the file it is drawn from: each game's landing page (`/{game}`), rules
/// (`/{game}/rules`) and any other page of its own, from its catalog entry, then the pages of
/// [`MORE_PAGES`]. Read as a server starts, so that a game registered before it has its pages.
pub fn pages() -> Vec<(String, String)> {
    let games = catalog::games().into_iter().flat_map(|game| {
        let pages = game.pages().pages(game.name());
        pages
            .into_iter()
            .map(|(path, file)| (path, file.name.to_string()))
    });
    let more = MORE_PAGES
        .iter()
        .map(|(path, file)| (path.to_string(), file.to_string()));
    games.chain(more).collect()
}

/// The pages that are not one game's own.
const MORE_PAGES: &[(&str, &str)] = &[
    ("/", "index.html"),
    ("/fa", "fa-index.html"),
    ("/fair", "fair.html"),
    ("/fa/fair", "fa-fair.html"),
];

pub fn routes(cfg: &mut web::ServiceConfig) {
    for (path, file) in pages() {
        let page = web::get().to(move |req: HttpRequest| {
            let file = file.clone();
            async move { page(req, &file).await }
        });
        cfg.service(route(&path, page, 0));
    }
    for game in catalog::games() {
        for &(name, write) in game.pages().worked_out {
            let kept: Arc<OnceLock<Rendered>> = Arc::default();
            let answer = web::get().to(move |req: HttpRequest| {
                let kept = kept.clone();
                async move { worked_out(&req, &kept, write) }
            });
            cfg.service(route(&format!("/api/{}/{name}", game.name()), answer, 0));
        }
    }
    cfg.service(route("/static/{file:.*}", web::get().to(asset), 0));
    cfg.service(route(
        "/favicon.ico",
        web::get().to(|req: HttpRequest| async move {
            send(&req, "static/favicon.ico", "public, max-age=86400")
        }),
        0,
    ));
}

/// What a game works out for its pages (`GamePages::worked_out`), written once and kept.
fn worked_out(req: &HttpRequest, kept: &OnceLock<Rendered>, write: fn() -> String) -> HttpResponse {
    let served = kept.get_or_init(|| {
        let body = write();
        Rendered {
            tag: tag_of(body.as_bytes()),
            body: Bytes::from(body),
        }
    });
    answer(
        req,
        served.clone(),
        "application/json",
        "public, max-age=300",
    )
}

async fn page(req: HttpRequest, file: &str) -> HttpResponse {
    match rendered(file) {
        Some(page) => answer(&req, page, "text/html; charset=utf-8", "no-cache"),
        None => not_found(),
    }
}

/// The pages, each rendered into its frame once.
static RENDERED: LazyLock<Mutex<HashMap<String, Option<Rendered>>>> =
    LazyLock::new(Default::default);

/// A page as served: its text and its `ETag`.
#[derive(Clone)]
struct Rendered {
    body: Bytes,
    tag: String,
}

/// The page drawn from `file`, rendered into the layout; `None` (logged) if it cannot be.
fn rendered(file: &str) -> Option<Rendered> {
    let mut pages = RENDERED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    // A game registered later (a test's own) is in the header of every page rendered after it.
    pages
        .entry(format!("{}:{file}", catalog::games().len()))
        .or_insert_with(|| match render(file) {
            Ok(body) => Some(Rendered {
                tag: tag_of(body.as_bytes()),
                body: Bytes::from(body),
            }),
            Err(error) => {
                tracing::error!("the page {file} cannot be rendered: {error:#}");
                None
            }
        })
        .clone()
}

/// The page drawn from the template `file`, rendered into its frame.
pub(crate) fn render(file: &str) -> Result<String, minijinja::Error> {
    render_with(file, minijinja::Value::from(()))
}

/// Renders the template `file` (a game's page or one of `src/web/`) with `context` and the catalog's
/// `games`.
fn render_with(file: &str, context: minijinja::Value) -> Result<String, minijinja::Error> {
    let mut templates = minijinja::Environment::new();
    templates.set_loader(|name| {
        let mut games = catalog::games().into_iter();
        let game_page =
            games.find_map(|game| game.pages().template(name).map(|t| t.text.to_string()));
        let shared = || WebFiles::get(name).map(|f| String::from_utf8_lossy(&f.data).into_owned());
        Ok(game_page.or_else(shared))
    });
    let game = catalog::games()
        .into_iter()
        .find(|game| game.pages().template(file).is_some());
    let measured = game.map_or_else(Vec::new, |game| game.pages().ratings());
    let context = minijinja::context! {
        games => games(),
        ratings => ratings_in(&measured, false),
        ratings_fa => ratings_in(&measured, true),
        page_game => game.map(|game| game.name()),
        ..context
    };
    templates.get_template(file)?.render(context)
}

/// The computer levels' ratings of the game whose page is rendered (`measured`, read once a page),
/// as `landing-choices.html` and `rules-layout.html` read them (by level, `"rating 1720 ± 40"`), and
/// as their Persian twins read them (`persian`: "امتیاز ۱۷۲۰ ± ۴۰").
fn ratings_in(measured: &[LevelRating], persian: bool) -> BTreeMap<String, String> {
    measured
        .iter()
        .map(|r| {
            let words = match (r.margin, persian) {
                (0, false) => format!("rating {}, the reference", r.rating),
                (_, false) => format!("rating {} ± {}", r.rating, r.margin),
                (0, true) => format!("امتیاز {}، مبنای سنجش", persian_digits(r.rating)),
                (_, true) => format!(
                    "امتیاز {} ± {}",
                    persian_digits(r.rating),
                    persian_digits(r.margin)
                ),
            };
            (r.level.clone(), words)
        })
        .collect()
}

/// `n` written in Persian digits, as the Persian pages write numbers.
fn persian_digits(n: i32) -> String {
    n.to_string()
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) => char::from_u32('۰' as u32 + d).unwrap_or(c),
            None => c,
        })
        .collect()
}

/// The catalog's games as the templates read them, in its order: `game` (its name in URLs),
/// `name` (as written), the words of its home tile, and `fa`, the tile in Persian when the game has
/// Persian pages.
fn games() -> Vec<minijinja::Value> {
    catalog::games()
        .into_iter()
        .map(|game| {
            let pages = game.pages();
            let tile = &pages.tile;
            let (cards, gcards) = match tile.cards {
                TileCards::French(codes) => (Some(codes), None),
                TileCards::Round(codes) => (None, Some(codes)),
            };
            minijinja::context! {
                game => game.name(),
                name => pages.title,
                about => tile.about,
                cards => cards,
                gcards => gcards,
                shows => tile.shows,
                fa => tile.persian.as_ref().map(|fa| minijinja::context! {
                    name => fa.name,
                    about => fa.about,
                    shows => fa.shows,
                }),
            }
        })
        .collect()
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
    let cache = "public, max-age=300";
    let mut games = catalog::games().into_iter();
    match games.find_map(|game| game.pages().static_file(&file)) {
        Some(own) => {
            let served = Rendered {
                tag: tag_of(own.text.as_bytes()),
                body: Bytes::from_static(own.text.as_bytes()),
            };
            answer(&req, served, content_type_of(own.name), cache)
        }
        None => send(&req, &format!("static/{file}"), cache),
    }
}

/// The type of a game's own static file, from its name.
fn content_type_of(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        _ => "text/plain; charset=utf-8",
    }
}

/// The table's page, titled with its game (the board fills itself from the socket); the page keeps
/// the game's name for the words it says before its board is loaded.
pub fn table_page(game: &str) -> HttpResponse {
    let title = catalog::find(game).map_or(game, |game| game.pages().title);
    let title = escaped(title);
    match rendered("table.html") {
        Some(page) => HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .body(
                String::from_utf8_lossy(&page.body)
                    .replace(
                        "<title>chaikhana table</title>",
                        &format!("<title>chaikhana: a {title} table</title>"),
                    )
                    .replacen(
                        "<body class=\"table-page\">",
                        &format!("<body class=\"table-page\" data-game-title=\"{title}\">"),
                        1,
                    )
                    // A new game is one of this game, even before the table has said anything.
                    .replacen(
                        "<a id=\"new-game-link\" href=\"/\">",
                        &format!("<a id=\"new-game-link\" href=\"/{}\">", escaped(game)),
                        1,
                    ),
            ),
        None => not_found(),
    }
}

/// `text` written safely inside HTML, in an element or an attribute.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page of a table closed for good (status 410): why (`reason`: "expired", "ended" or "lost") and
/// the way on, a new table of its `game` (empty when not known).
pub fn gone_page(reason: &str, game: &str) -> HttpResponse {
    match gone_html(reason, game) {
        Ok(body) => HttpResponse::Gone()
            .content_type("text/html; charset=utf-8")
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .body(body),
        Err(error) => {
            tracing::error!("the page gone.html cannot be rendered: {error:#}");
            not_found()
        }
    }
}

/// The text of [`gone_page`].
pub fn gone_html(reason: &str, game: &str) -> Result<String, minijinja::Error> {
    let name = catalog::find(game).map_or("", |game| game.pages().title);
    let context = minijinja::context! { reason => reason, game => game, name => name };
    render_with("gone.html", context)
}

/// The page for a link that leads nowhere, with status 404.
pub fn not_found() -> HttpResponse {
    let body = rendered("404.html").map_or_else(|| Bytes::from_static(b"Not found"), |p| p.body);
    HttpResponse::NotFound()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

fn send(req: &HttpRequest, path: &str, cache: &'static str) -> HttpResponse {
    let Some(file) = WebFiles::get(path) else {
        return not_found();
    };
    let mime = file.metadata.mimetype();
    let content_type = if mime.starts_with("text/") || mime.ends_with("javascript") {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    };
    let served = Rendered {
        tag: tag_of(&file.data),
        body: Bytes::from(file.data.into_owned()),
    };
    answer(req, served, &content_type, cache)
}

/// The `ETag` of a body: the start of its SHA-256.
fn tag_of(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    format!("\"{}\"", hex::encode(&digest[..12]))
}

/// `served`, or `304 Not Modified` when the browser already holds it.
fn answer(
    req: &HttpRequest,
    served: Rendered,
    content_type: &str,
    cache: &'static str,
) -> HttpResponse {
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == served.tag);
    let mut answer = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    answer
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header((header::ETAG, served.tag));
    if fresh {
        return answer.finish();
    }
    answer.content_type(content_type).body(served.body)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every page renders into its frame, and each game's rules page names its game in its title and
    /// its heading.
    #[test]
    fn every_page_renders() {
        for (path, file) in pages() {
            let page = render(&file).unwrap_or_else(|e| panic!("{path} ({file}): {e:#}"));
            assert!(page.starts_with("<!doctype html>"), "{path}");
            assert!(page.contains("<header class=\"site\">"), "{path}");
            assert!(!page.contains("{%") && !page.contains("{{"), "{path}");
        }
        let rules = render("ganjifa-rules.html").unwrap();
        let home = render("index.html").unwrap();
        let tile = |title: &str| home.find(&format!("<h2>{title}</h2>")).expect(title);
        assert!(tile("Panjpar") < tile("Pishe Pasha") && tile("Pishe Pasha") < tile("Ganjifa"));
        assert!(
            home.contains("<a href=\"/pishe-pasha\" data-game=\"pishe-pasha\">Pishe Pasha</a>"),
            "{home}"
        );
        assert!(
            rules.contains("<title>Ganjifa rules · chaikhana</title>"),
            "{rules}"
        );
        assert!(rules.contains("<h1>How to play Ganjifa</h1>"), "{rules}");
        // Every level is told on the rules page with the game's rating, linking to its page.
        for level in ["Gentle", "Standard", "Clever", "Strong"] {
            assert!(
                rules.contains(&format!("<strong>{level}</strong>")),
                "{rules}"
            );
        }
        assert!(rules.contains("(rating 1500, the reference)"), "{rules}");
        // The rules and the landing say what a rating means.
        assert!(rules.contains("wins about 64 games in 100"), "{rules}");
        assert!(
            rules.contains("<a href=\"/ganjifa\">game's page</a>"),
            "{rules}"
        );
        // A two-seat game's landing keeps the usual labels; Ganjifa's gives its own.
        let panjpar = render("panjpar.html").unwrap();
        assert!(
            panjpar.contains("class=\"hint level-key\">A rating is measured"),
            "{panjpar}"
        );
        assert!(
            panjpar.contains(">Start a table for a friend</button>"),
            "{panjpar}"
        );
        // A game whose levels are tuned says how: Ganjifa's standard computer, Pishe Pasha's clever.
        assert!(
            panjpar.contains("the simple computer the rules describe <")
                && !panjpar.contains("half the time"),
            "{panjpar}"
        );
        let pishe = render("pishe-pasha.html").unwrap();
        assert!(pishe.contains("mostly the standard computer"), "{pishe}");
        let ganjifa = render("ganjifa.html").unwrap();
        assert!(
            ganjifa.contains("but a random move half the time"),
            "{ganjifa}"
        );
        assert!(
            ganjifa.contains(">Open a room for three friends</button>"),
            "{ganjifa}"
        );
        let home = render("index.html").unwrap();
        assert!(
            home.contains("data-quick=\"pishe-pasha computer\""),
            "{home}"
        );
        assert!(home.contains("href=\"/fa/panjpar\""), "{home}");
        assert!(home.contains("href=\"/fa/ganjifa\""), "{home}");
        assert!(home.contains("href=\"/fa\""), "{home}");
        // The Persian home: right to left, every game's tile in Persian, leading to its Persian pages.
        let fa = render("fa-index.html").unwrap();
        assert!(fa.contains("dir=\"rtl\""), "{fa}");
        for (game, name) in [
            ("panjpar", "پنج‌پر"),
            ("pishe-pasha", "پیشه پاشا"),
            ("ganjifa", "گنجفه"),
        ] {
            assert!(fa.contains(&format!("href=\"/fa/{game}\"")), "{game}: {fa}");
            assert!(
                fa.contains(&format!("href=\"/fa/{game}#friends\"")),
                "{game}: {fa}"
            );
            assert!(fa.contains(&format!("<h2>{name}</h2>")), "{game}: {fa}");
        }
        assert!(fa.contains("href=\"/\" lang=\"en\""), "{fa}");
    }

    /// A game's own file never hides a shared one or another game's: each name under `/static/` is
    /// one file.
    #[test]
    fn each_static_name_is_one_file() {
        let mut names = std::collections::HashSet::new();
        for game in catalog::games() {
            for file in game.pages().files {
                assert!(names.insert(file.name), "two games serve {}", file.name);
                let shared = WebFiles::get(&format!("static/{}", file.name));
                assert!(shared.is_none(), "{} is also in src/web/static", file.name);
            }
        }
    }
}
