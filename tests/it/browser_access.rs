//! axe-core, the accessibility engine, run inside Chromium on every page of the site, on each board
//! mid-deal against the computer, on a guided first deal, on a replay and on the watch page, at a desktop (1280x800) and a
//! phone (390x844, with touch and a phone's user agent): no violation of any rule axe checks. axe-core comes from npm (`package.json`,
//! installed by `npm ci`, which `.ci/run` does); without it the suite says why and skips, unless
//! CHAIKHANA_TEST_REQUIRE_ALL=1.

use std::path::PathBuf;

use fantoccini::Client;
use serde_json::{json, Value};

use crate::chromium::*;
use crate::support::{everything_required, play_against_computer, rng, TestServer};

const SIZES: [(u32, u32); 2] = [(1280, 800), (390, 844)];

/// A browser at this size: a desktop's with a mouse, or a phone's with touch.
async fn at_size(driver: &mut Driver, (width, height): (u32, u32)) -> Client {
    if width < 600 {
        driver.touch_session(width, height).await
    } else {
        driver.session(width, height).await
    }
}

/// axe-core's script, read from `node_modules`; `None` (having said why) when npm has not installed it.
pub(crate) fn axe_source() -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("node_modules/axe-core/axe.min.js");
    match std::fs::read_to_string(&path) {
        Ok(source) => Some(source),
        Err(e) => {
            assert!(
                !everything_required(),
                "axe-core is required (CHAIKHANA_TEST_REQUIRE_ALL=1) but {} cannot be read: {e}; run `npm ci`",
                path.display()
            );
            eprintln!("skipping: axe-core is not installed (run `npm ci`): {e}");
            None
        }
    }
}

/// Every violation axe finds in the page as it is now, one line each: the rule, its impact, and
/// where (the first few elements). Its rules as shipped, and one it still calls experimental: a
/// control's accessible name holds the words it shows (`label-content-name-mismatch`), which is what
/// lets a person who speaks to the page say what they see.
pub(crate) async fn violations(c: &Client, axe: &str) -> Vec<String> {
    let injected = format!("{axe}\nreturn typeof axe;");
    assert_eq!(eval(c, &injected).await, json!("object"), "axe-core loads");
    let run = r#"
        const done = arguments[arguments.length - 1];
        axe.run(document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })
            .then(r => done(r.violations.map(v => ({
                id: v.id,
                impact: v.impact,
                nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 160)),
            }))))
            .catch(e => done([{ id: 'axe failed', impact: String(e), nodes: [] }]));
    "#;
    let found = c
        .execute_async(run, vec![])
        .await
        .expect("axe runs in the page");
    found
        .as_array()
        .map(|all| all.iter().map(describe).collect())
        .unwrap_or_default()
}

fn describe(violation: &Value) -> String {
    let nodes: Vec<&str> = violation["nodes"]
        .as_array()
        .map(|n| n.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    format!(
        "{} ({}): {}",
        violation["id"].as_str().unwrap_or("?"),
        violation["impact"].as_str().unwrap_or("?"),
        nodes.join(" | ")
    )
}

/// Checks the page `c` shows now, as `what`, adding what axe found to `found`.
async fn check(c: &Client, axe: &str, what: &str, found: &mut Vec<String>) {
    settle(c).await;
    for v in violations(c, axe).await {
        found.push(format!("{what}: {v}"));
    }
}

/// The paths of every page that is not a table: each game's page and rules, the home page, the
/// Persian pages, the staged deal, the fairness pages, and a page that is not there.
fn pages() -> Vec<String> {
    let games =
        chaikhana::catalog::names().flat_map(|game| [format!("/{game}"), format!("/{game}/rules")]);
    let more = [
        "/",
        "/fa/panjpar",
        "/fa/panjpar/rules",
        "/ganjifa/staged",
        "/fair",
        "/fa/fair",
        "/no-such-page",
    ];
    games.chain(more.iter().map(|p| p.to_string())).collect()
}

/// Opens a computer table of `game` from the home page and checks its board: at Panjpar's guess
/// (the colour buttons), once the hand is dealt, and the same in high contrast.
async fn check_board(
    c: &Client,
    base: &str,
    game: &str,
    axe: &str,
    size: &str,
    found: &mut Vec<String>,
) {
    go(c, base, "/").await;
    assert!(click(c, &format!("a[data-quick='{game} computer']")).await);
    wait_for(
        c,
        "return location.pathname.startsWith('/t/') && (document.querySelector('[data-colour]') || document.querySelector('[data-area=hand] [data-card]'))",
        30,
    )
    .await;
    if find(c, "[data-colour]").await.is_some() {
        check(c, axe, &format!("{game} guess at {size}"), found).await;
        click_when_shown(c, "[data-colour]", 10).await;
    }
    wait_for(
        c,
        "return document.querySelector('[data-area=hand] [data-card]')",
        30,
    )
    .await;
    check(c, axe, &format!("{game} board at {size}"), found).await;
    press(c, "[data-contrast-switch]").await;
    check(
        c,
        axe,
        &format!("{game} board in high contrast at {size}"),
        found,
    )
    .await;
    press(c, "[data-contrast-switch]").await;
}

#[actix_rt::test]
async fn every_page_and_board_has_no_accessibility_violation_at_either_size() {
    let Some(axe) = axe_source() else {
        return;
    };
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    let mut found = Vec::new();
    for (width, height) in SIZES {
        let c = at_size(&mut driver, (width, height)).await;
        for path in pages() {
            go(&c, &server.base, &path).await;
            check(&c, &axe, &format!("{path} at {width}x{height}"), &mut found).await;
        }
        for game in chaikhana::catalog::names() {
            let size = format!("{width}x{height}");
            check_board(&c, &server.base, game, &axe, &size, &mut found).await;
        }
        go(&c, &server.base, "/panjpar").await;
        click(&c, "#play-guided").await;
        wait_for(
            &c,
            "return !document.getElementById('guide')?.hidden && document.querySelector('.table')",
            20,
        )
        .await;
        check(
            &c,
            &axe,
            &format!("a guided deal at {width}x{height}"),
            &mut found,
        )
        .await;
        c.close().await.unwrap();
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A finished Panjpar deal's replay, and a watcher's page of a match over.
async fn replay_and_watch(driver: &mut Driver, server: &TestServer, axe: &str) -> Vec<String> {
    let mut found = Vec::new();
    let seated = server.open("panjpar", "computer", Some(json!(1))).await;
    let mut client = server.connect(&seated).await;
    play_against_computer(&mut client, &mut rng(7)).await;
    for (width, height) in SIZES {
        let c = at_size(driver, (width, height)).await;
        open_as_seat(&c, &server.base, &seated).await;
        wait_for_status(&c, "match-over", 30).await;
        check(
            &c,
            axe,
            &format!("a match over at {width}x{height}"),
            &mut found,
        )
        .await;
        click_when_shown(&c, "#replay-open", 30).await;
        wait_for(&c, "return document.body.dataset.replay", 10).await;
        press(&c, "[data-key='replay:forward']").await;
        check(
            &c,
            axe,
            &format!("a replay at {width}x{height}, its list folded on a phone"),
            &mut found,
        )
        .await;
        open_replay_list(&c).await;
        check(
            &c,
            axe,
            &format!("a replay at {width}x{height}, its list open"),
            &mut found,
        )
        .await;
        go(&c, &server.base, &format!("/t/{}", seated.table)).await;
        click_when_shown(&c, "#watch-link", 30).await;
        let link = wait_for_text(
            &c,
            "return document.getElementById('watch-line').dataset.link",
            10,
        )
        .await;
        c.goto(&link).await.unwrap();
        wait_for(&c, "return document.body.hasAttribute('data-watching') && document.querySelector('.table')", 30).await;
        check(
            &c,
            axe,
            &format!("the watch page at {width}x{height}"),
            &mut found,
        )
        .await;
        c.close().await.unwrap();
    }
    found
}

#[actix_rt::test]
async fn a_replay_a_match_over_and_the_watch_page_have_no_accessibility_violation() {
    let Some(axe) = axe_source() else {
        return;
    };
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 1);
    let found = replay_and_watch(&mut driver, &server, &axe).await;
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Runs `script` until it answers true, `tries` times at most, settling between; whether it did.
async fn until(c: &Client, script: &str, tries: usize) -> bool {
    for _ in 0..tries {
        if eval(c, script).await == json!(true) {
            return true;
        }
        settle(c).await;
    }
    false
}

/// Each board in the states a move leaves it in: Panjpar with a hand card chosen and with an
/// attack laid, Pishe Pasha with a card to give offered, Ganjifa with a card chosen for a lead.
async fn mid_deal(c: &Client, base: &str, axe: &str, size: &str, found: &mut Vec<String>) {
    open_panjpar_computer_table(c, base).await;
    crate::browser_panjpar::play_to_an_attack(c).await;
    eval(
        c,
        "document.querySelector('.hand button.card').click(); return true",
    )
    .await;
    wait_for(c, "return !document.querySelector('#attack').disabled", 5).await;
    check(c, axe, &format!("Panjpar, a card chosen, at {size}"), found).await;
    click(c, "#attack").await;
    wait_for(c, "return !document.querySelector('#attack')", 10).await;
    check(
        c,
        axe,
        &format!("Panjpar, an attack laid, at {size}"),
        found,
    )
    .await;

    go(c, base, "/pishe-pasha").await;
    click(c, "#play-computer").await;
    // Turns cards (the page's own button) until a card may be given.
    let offered =
        "return document.querySelector('#give')?.getAttribute('aria-disabled') === 'false'";
    let turned = "const t = document.querySelector('#turn'); if (t?.getAttribute('aria-disabled') === 'false') t.click(); return false";
    for _ in 0..200 {
        if eval(c, offered).await == json!(true) {
            break;
        }
        eval(c, turned).await;
        settle(c).await;
    }
    if eval(c, offered).await == json!(true) {
        check(
            c,
            axe,
            &format!("Pishe Pasha, a give offered, at {size}"),
            found,
        )
        .await;
    } else {
        found.push(format!(
            "Pishe Pasha at {size}: no give was offered in 200 tries"
        ));
    }

    go(c, base, "/ganjifa").await;
    click(c, "#play-computer").await;
    let chosen = "const b = document.querySelector('.ghand button.playable'); if (b && document.querySelector('.gtable')) { b.click(); return true } return false";
    if until(c, chosen, 200).await {
        check(c, axe, &format!("Ganjifa, a card chosen, at {size}"), found).await;
    } else {
        found.push(format!("Ganjifa at {size}: no card could be chosen"));
    }
}

#[actix_rt::test]
async fn boards_mid_deal_with_cards_chosen_laid_or_offered_have_no_accessibility_violation() {
    let Some(axe) = axe_source() else {
        return;
    };
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    let mut found = Vec::new();
    for (width, height) in SIZES {
        let c = at_size(&mut driver, (width, height)).await;
        mid_deal(
            &c,
            &server.base,
            &axe,
            &format!("{width}x{height}"),
            &mut found,
        )
        .await;
        c.close().await.unwrap();
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
