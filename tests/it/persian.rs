//! The whole site in Persian, game by game from the catalog: every Persian page the site serves (each
//! game's `/fa/...` pages and the site's own), and the table of every game whose board speaks Persian,
//! mid-deal with the coach's hint, at the match's end and in the analysis of the deal, at a phone's
//! size and a desktop's. None holds an English sentence in what it shows or names for a screen
//! reader; the page is `lang="fa"` and `dir="rtl"` and so is the board, its rows of cards left to
//! right; axe-core finds nothing. A game given Persian pages must have a Persian board too.

use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser_access::{axe_source, violations};
use crate::chromium::*;
use crate::support::{action, choose, play_against_computer, rng, Client as Socket, Rng};

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

/// The page's language and direction, and the board's where it has one: `lang dir`.
const LANG_DIR: &str = r#"
const d = document.documentElement, b = document.querySelector('#board');
return [d.lang + ' ' + d.dir, b ? b.lang + ' ' + b.dir : null];
"#;

/// Every row of cards on the page (examples and boards alike) left to right; `true` when there is none.
const ROWS_LEFT_TO_RIGHT: &str = r#"
const rows = [...document.querySelectorAll('[data-cards], #board .cards, #board .pp-cards, #board .pp-centre')];
return rows.filter((r) => getComputedStyle(r).direction !== 'ltr').map((r) => r.className);
"#;

/// Asserts that the page, as it is now, reads wholly Persian: nothing English, `lang` and `dir` right
/// on the document (and on the board, if `board`), every row of cards left to right, and no axe-core
/// violation.
async fn all_persian(c: &Client, axe: &Option<String>, board: bool, when: &str) {
    let english = eval_with(c, ENGLISH, json!(ALLOWED)).await;
    assert_eq!(english, json!([]), "English in {when}");
    let lang_dir = eval(c, LANG_DIR).await;
    assert_eq!(lang_dir[0], "fa rtl", "{when}");
    if board {
        assert_eq!(lang_dir[1], "fa rtl", "the board in {when}");
    }
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
        .filter(|path| path.starts_with("/fa/"))
        .collect();
    // A game whose home tile offers Persian has its landing page and its rules in Persian.
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
            all_persian(&c, &axe, false, &format!("{path} at {width}x{height}")).await;
        }
        assert_no_console_error(&c, "the Persian pages").await;
        c.close().await.unwrap();
    }
}

/// The languages of `game`'s board, as its module says them (none when it has no board).
async fn board_languages(c: &Client, game: &str) -> Vec<String> {
    let script = "const done = arguments[arguments.length - 1]; import('/static/' + arguments[0] + '.js').then((m) => done(m.LANGUAGES || ['en'])).catch(() => done([]));";
    let languages = c.execute_async(script, vec![json!(game)]).await.unwrap();
    serde_json::from_value(languages).unwrap()
}

/// Plays `moves` of the seat's moves over its socket (the page watching), fewer if the deal ends.
async fn play_moves(socket: &mut Socket, rng: &mut Rng, moves: usize) {
    let mut made = 0;
    while made < moves {
        let view = socket.next_of("view").await;
        if view["status"] != "playing" {
            return;
        }
        if view["actions"].as_array().is_some_and(|a| !a.is_empty()) {
            let version = view["version"].as_u64().unwrap();
            socket.send(action(version, "m", &choose(&view, rng))).await;
            socket.next_ack().await;
            made += 1;
        }
    }
}

/// A computer table of `game` at `size` with the page in Persian: mid-deal once the seat has made a
/// few moves, with the coach's hint shown; at the match's end; and in the deal's analysis, with a
/// mark's note open when the coach marked any.
async fn a_persian_table(
    driver: &mut Driver,
    server: &crate::support::TestServer,
    game: &dyn chaikhana::catalog::Registered,
    size: (u32, u32),
) {
    let (width, height) = size;
    let name = game.name();
    let axe = axe_source();
    let seated = server
        .open(name, "computer", Some(game.shortest_length()))
        .await;
    let c = driver.session(width, height).await;
    go(&c, &server.base, "/").await;
    eval(
        &c,
        "localStorage.setItem('chaikhana.lang', 'fa'); return true",
    )
    .await;
    open_as_seat(&c, &server.base, &seated).await;
    wait_for(&c, "return document.querySelector('#board .table')", 30).await;
    let mut socket = server.connect(&seated).await;
    play_moves(&mut socket, &mut rng(5), 3).await;

    // Mid-deal at this seat's turn, and the coach's hint.
    let hint = "const b = document.querySelector('#hint'); return b && !b.hidden && b.getAttribute('aria-disabled') !== 'true'";
    wait_for(&c, hint, 60).await;
    settle(&c).await;
    let when = format!("{name} mid-deal at {width}x{height}");
    all_persian(&c, &axe, true, &when).await;
    let mut asked = false;
    for _ in 0..20 {
        asked = click(&c, "#hint").await;
        if asked {
            break;
        }
        settle(&c).await;
    }
    assert!(asked, "{when}: the hint could not be asked for");
    wait_for(
        &c,
        "const p = document.querySelector('#coach'); return p && !p.hidden && p.textContent.startsWith('مربی:') && !p.textContent.includes('…')",
        60,
    )
    .await;
    settle(&c).await;
    all_persian(
        &c,
        &axe,
        true,
        &format!("{name}'s hint at {width}x{height}"),
    )
    .await;

    // The match's end.
    play_against_computer(&mut socket, &mut rng(6)).await;
    wait_for_status(&c, "match-over", 60).await;
    wait_for(
        &c,
        "const m = document.querySelector('#deal-check'); return m && m.dataset.state",
        20,
    )
    .await;
    settle(&c).await;
    all_persian(&c, &axe, true, &format!("{name}'s end at {width}x{height}")).await;

    // The deal's analysis, and a mark's note.
    click_when_shown(&c, "#replay-open", 30).await;
    click_when_shown(&c, "[data-key='coach:analyse']", 30).await;
    wait_for(
        &c,
        "const l = document.querySelector('#coach-analysis .coach-line'); return l && !l.textContent.includes('…') && l.textContent",
        120,
    )
    .await;
    let mark = eval(
        &c,
        "return document.querySelector('.coach-mark')?.dataset.key || null",
    )
    .await;
    if let Some(key) = mark.as_str() {
        assert!(click(&c, &format!("[data-key='{key}']")).await);
        wait_for(&c, "return document.querySelector('#coach-note')", 10).await;
    }
    settle(&c).await;
    all_persian(
        &c,
        &axe,
        true,
        &format!("{name}'s analysis at {width}x{height}"),
    )
    .await;
    assert_no_console_error(&c, &format!("{name}'s Persian table")).await;
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn every_persian_table_reads_persian_mid_deal_in_the_hint_at_the_end_and_in_the_analysis() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 10;
    });
    let c = driver.session(390, 844).await;
    go(&c, &server.base, "/").await;
    let mut tables = Vec::new();
    for game in chaikhana::catalog::games() {
        let speaks = board_languages(&c, game.name())
            .await
            .contains(&"fa".to_string());
        let pages = game
            .pages()
            .pages(game.name())
            .iter()
            .any(|(path, _)| path.starts_with("/fa/"));
        assert!(
            speaks || !pages,
            "{} has Persian pages but its board speaks no Persian",
            game.name()
        );
        if speaks {
            tables.push(game);
        }
    }
    c.close().await.unwrap();
    assert!(!tables.is_empty(), "no board speaks Persian");
    for game in tables {
        for size in [(390, 844), (1280, 800)] {
            a_persian_table(&mut driver, &server, game, size).await;
        }
    }
}
