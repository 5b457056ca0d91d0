//! The whole site in Persian, game by game from the catalog: every Persian page the site serves (each
//! game's `/fa/...` pages and the site's own), at a phone's size and a desktop's. None holds an
//! English sentence in what it shows or names for a screen reader; the page is `lang="fa"` and
//! `dir="rtl"`, its rows of cards left to right; axe-core finds nothing. Each game's Persian table is
//! played in its own suite (`browser_panjpar::persian`, `browser_pishe_pasha::persian`,
//! `browser_ganjifa::persian`).

use chaikhana::table::RefusalCode;
use chaikhana_rules::game::RuleCode;
use chaikhana_rules::games::{ganjifa, panjpar, pishe_pasha};
use fantoccini::Client;
use serde_json::{json, Value};
use strum::IntoEnumIterator;

use crate::browser_access::{axe_source, violations};
use crate::chromium::*;

/// The Latin words a Persian page may show: the site's name, and the hash's name on the fair-deal page.
const ALLOWED: [&str; 2] = ["chaikhana", "SHA"];

/// What in the page as it is now reads as English, each with where it is: a text shown, or a name or
/// title given to a screen reader, or the page's title, that holds a Latin word (two letters or more,
/// not one allowed) and nothing Persian, or two Latin words with nothing but spaces and punctuation
/// between them. Card codes ("Q S") are single letters; the drawings of cards (SVG) are left out, and
/// so is whatever the page marks as English (the "English" link), code, and what is not shown.
const ENGLISH: &str = r#"
const allowed = arguments[0];
const WORD = /[A-Za-z]{2,}(?:['’][A-Za-z]+)?/g;
const PERSIAN = /[\u0600-\u06FF]/;
const english = (text) => {
  const words = [...text.matchAll(WORD)].filter((m) => !allowed.includes(m[0]));
  if (!words.length) return false;
  if (!PERSIAN.test(text)) return true;
  return words.slice(1).some((m, i) => {
    const before = words[i];
    const between = text.slice(before.index + before[0].length, m.index);
    return /^[\s,.;:!?()'"«»\-–—&\/]*$/.test(between);
  });
};
const shown = (el) => el.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true });
const left = (el) => el.closest('svg, script, style, code, noscript, template') || el.closest('[lang]')?.lang.startsWith('en');
const where = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '');
const found = [];
if (english(document.title)) found.push('title: ' + document.title);
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const el = node.parentElement;
  if (!el || left(el) || !shown(el)) continue;
  if (english(node.textContent)) found.push(where(el) + ': ' + node.textContent.trim().slice(0, 160));
}
for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
  if (left(el) || !shown(el)) continue;
  for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
    const said = el.getAttribute(name);
    if (said && english(said)) found.push(where(el) + ' ' + name + ': ' + said.slice(0, 160));
  }
}
return found;
"#;

/// The page's language and direction: `lang dir`.
const LANG_DIR: &str = "const d = document.documentElement; return d.lang + ' ' + d.dir";

/// Every row of cards on the page (examples and boards alike) left to right; `true` when there is none.
const ROWS_LEFT_TO_RIGHT: &str = r#"
const rows = [...document.querySelectorAll('[data-cards], #board .cards, #board .pp-cards, #board .pp-centre')];
return rows.filter((r) => getComputedStyle(r).direction !== 'ltr').map((r) => r.className);
"#;

/// Asserts that the page, as it is now, reads wholly Persian: nothing English, `lang` and `dir` right
/// on the document, every row of cards left to right, and no axe-core violation.
async fn all_persian(c: &Client, axe: &Option<String>, when: &str) {
    let english = eval_with(c, ENGLISH, json!(ALLOWED)).await;
    assert_eq!(english, json!([]), "English in {when}");
    assert_eq!(eval(c, LANG_DIR).await, "fa rtl", "{when}");
    assert_eq!(eval(c, ROWS_LEFT_TO_RIGHT).await, json!([]), "{when}");
    if let Some(axe) = axe {
        let found = violations(c, axe).await;
        assert!(found.is_empty(), "{when}: {found:#?}");
    }
}

/// Runs `script` in the page with `argument` as its `arguments[0]`.
async fn eval_with(c: &Client, script: &str, argument: Value) -> Value {
    c.execute(script, vec![argument])
        .await
        .unwrap_or_else(|e| panic!("{script}: {e}"))
}

#[actix_rt::test]
async fn every_persian_page_reads_persian() {
    let (mut driver, server) = staged!(|_| {});
    let axe = axe_source();
    let persian: Vec<String> = chaikhana::server::pages::pages()
        .into_iter()
        .map(|(path, _)| path)
        .filter(|path| path == "/fa" || path.starts_with("/fa/"))
        .collect();
    // The Persian home, and for a game whose home tile offers Persian its landing page and its
    // rules in Persian.
    assert!(persian.contains(&"/fa".to_string()), "{persian:?}");
    for game in chaikhana::catalog::games() {
        if game.pages().tile.persian.is_some() {
            for path in [
                format!("/fa/{}", game.name()),
                format!("/fa/{}/rules", game.name()),
            ] {
                assert!(persian.contains(&path), "{path} among {persian:?}");
            }
        }
    }
    for (width, height) in [(390, 844), (1280, 800)] {
        let c = driver.session(width, height).await;
        for path in &persian {
            go(&c, &server.base, path).await;
            wait_for(&c, "return document.readyState === 'complete'", 10).await;
            all_persian(&c, &axe, &format!("{path} at {width}x{height}")).await;
        }
        // The Persian fair-deal page sends its reader on to every game that is played in Persian.
        go(&c, &server.base, "/fa/fair").await;
        let links = eval(
            &c,
            "return [...document.querySelectorAll('main a')].map((a) => a.getAttribute('href'))",
        )
        .await;
        for game in chaikhana::catalog::games() {
            if game.pages().tile.persian.is_some() {
                let href = json!(format!("/fa/{}", game.name()));
                assert!(
                    links.as_array().unwrap().contains(&href),
                    "{href} in {links}"
                );
            }
        }
        assert_no_console_error(&c, "the Persian pages").await;
        c.close().await.unwrap();
    }
}

/// Each game's refusals as its Persian board says them: `[code, sentence]` for every code given, from
/// the board's own `errorSentence`, the English sentence beside each code as the table would send it.
const SAID_IN_PERSIAN: &str = r#"
const [module, codes, done] = arguments;
import(module).then(({ errorSentence }) => done(codes.map((code) => [code, errorSentence({ type: "error", code, message: "Refused in English." }, "fa")])));
"#;

#[actix_rt::test]
async fn every_refusal_a_persian_board_can_hear_is_said_in_persian() {
    let (mut driver, server) = staged!(|_| {});
    let c = driver.session(1280, 800).await;
    go(&c, &server.base, "/fa/fair").await;
    // What a board's socket can be refused, in every game: the table's refusals of a move, the rules'
    // shared codes, and then each game's own.
    let table = [
        RefusalCode::StaleVersion,
        RefusalCode::WrongMoment,
        RefusalCode::BadAction,
        RefusalCode::BadRequest,
        RefusalCode::WatchersCannotAct,
        RefusalCode::RateLimited,
        RefusalCode::Busy,
        RefusalCode::Unavailable,
        RefusalCode::NotYourTurn,
    ]
    .map(RefusalCode::as_str);
    let shared: Vec<&str> = table
        .into_iter()
        .chain(RuleCode::SHARED.map(RuleCode::as_str))
        .collect();
    let games: [(&str, Vec<&str>); 3] = [
        (
            "panjpar",
            panjpar::codes::Code::iter().map(Into::into).collect(),
        ),
        (
            "pishe-pasha",
            pishe_pasha::codes::Code::iter().map(Into::into).collect(),
        ),
        (
            "ganjifa",
            ganjifa::codes::Code::iter().map(Into::into).collect(),
        ),
    ];
    let refused = "این حرکت پذیرفته نشد.";
    for (game, own) in games {
        let codes: Vec<&str> = shared.iter().copied().chain(own).collect();
        let module = format!("/static/{game}-words.js");
        let said = c
            .execute_async(SAID_IN_PERSIAN, vec![json!(module), json!(codes)])
            .await
            .unwrap();
        let said = said.as_array().unwrap();
        assert_eq!(said.len(), codes.len(), "{game}: every code answered");
        for pair in said {
            let sentence = pair[1].as_str().unwrap();
            assert!(
                !sentence.is_empty()
                    && sentence != refused
                    && !sentence.chars().any(|ch| ch.is_ascii_alphabetic()),
                "{game}: {pair}"
            );
        }
    }
}
