//! Pishe Pasha in Chromium, from the landing page's "Play the computer", at 1280x800 and on a 390x844
//! phone: a whole one-deal match played by clicking Give, Turn a card and Keep it as the board offers
//! them, with the hand and the action bar inside the first screen at every turn and no console error
//! on any page; cards that travel (and do not when reduced motion is asked for); focus kept on "Turn a
//! card" across redraws; a move tried while the connection is down said to be unsent, then made once
//! it is back. Screenshots go to docs/screenshots/ (the board mid-game) and target/screenshots/. Guided
//! deals, spoken to their end and in which no card moves before the guide has spoken, in `guided`;
//! the same in Persian, from the Persian pages, in `persian`.

use std::time::{Duration, Instant};

use std::sync::LazyLock;

use fantoccini::Client;
use serde_json::Value;

use crate::chromium::proxy::Proxy;
use crate::chromium::*;

mod guided;
mod persian;

const SIZES: [(u32, u32); 2] = [(1280, 800), (390, 844)];

static BOARD_STATE: LazyLock<String> = LazyLock::new(|| {
    board_state(
        r#"
if (document.querySelector('#give[aria-disabled=false]')) return 'give';
if (document.querySelector('#turn[aria-disabled=false]')) return 'turn';
if (document.querySelector('#keep[aria-disabled=false]')) return 'keep';
"#,
    )
});

/// The board's sentences, in English or in Persian as the page is: "(by rule)" said once, the status
/// line offering only the buttons that work, and at the start of your turn the move line telling how
/// the computer's turn ended.
const TEXTS_RIGHT: &str = r#"
const bad = [];
const log = document.querySelector('#turn-log');
if (!log) return 'no turn log';
const words = document.documentElement.lang === 'fa'
  ? { twice: /\(اجباری\)[\s.،]*\(اجباری\)/, turn: /برگردانید/, give: /بدهید/, home: /از روی دورریز، به خانهٔ/, computer: /رایانه/ }
  : { twice: /\(by rule\)\W*\(by rule\)/, turn: /turn a card/i, give: /give/i, home: /went home.*from the top of the discard pile/, computer: /computer/ };
if (words.twice.test(log.textContent)) bad.push('"(by rule)" twice: ' + log.textContent);
const status = document.querySelector('#status')?.textContent || '';
const on = (id) => document.querySelector(`#${id}[aria-disabled=false]`);
if (on('keep') && words.turn.test(status)) bad.push('the status line offers a turn: ' + status);
if (on('turn') && !words.turn.test(status)) bad.push('the status line leaves out the turn: ' + status);
if (on('give') && !words.give.test(status)) bad.push('the status line leaves out the give: ' + status);
// Your turn has just begun (nothing in it but cards going home from your pile): the move line still
// tells how the computer's turn ended.
const [now, before] = log.querySelectorAll('ol');
const begun = [...now.querySelectorAll('li')].every((li) =>
  li.classList.contains('pp-none') || words.home.test(li.textContent));
if (begun && before && words.computer.test(before.previousElementSibling.textContent)) {
  const last = [...before.querySelectorAll('li:not(.pp-none)')].pop()?.textContent;
  const live = document.querySelector('#live').textContent;
  if (last && !live.includes(last)) bad.push(`the move line misses "${last}": "${live}"`);
}
// On a desktop the move line has the room to say the longest move whole.
const line = document.querySelector('#move-line');
if (innerWidth >= 1024 && line && line.scrollHeight > line.clientHeight + 1) bad.push('the move line is cut: ' + line.textContent);
return bad.length ? bad.join('; ') : 'ok';
"#;

/// "idle" when no turned card waits to be given or kept; "ok" when one does and this turn's log says
/// so; else what the log says instead.
const TURNED_WAITS: &str = r#"
if (!document.querySelector('#keep[aria-disabled=false]')) return 'idle';
const log = document.querySelector('#turn-log ol');
const waits = log?.querySelector('.pp-waits')?.textContent;
return waits && !log.querySelector('.pp-none') ? 'ok' : `the log does not say the turned card waits: ${log?.textContent}`;
"#;

/// The version of the frame the board shows.
const VERSION: &str = "return Number(document.querySelector('.table')?.dataset.version || 0)";

/// Whether any card element is moving by the Web Animations API (not the arrival glow, a CSS
/// animation, nor a CSS transition), watched frame by frame in the page after clicking `arguments[0]`.
const CLICK_AND_WATCH: &str = r#"
const [selector, ms, done] = arguments;
const travelling = () => [...document.querySelectorAll('[data-card]')].some((e) =>
  e.getAnimations().some((a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition)));
const version = () => Number(document.querySelector('.table')?.dataset.version || 0);
const from = version();
document.querySelector(selector).click();
const started = performance.now();
let moved = false;
const look = () => {
  moved = moved || travelling();
  if (moved || performance.now() - started > ms) done({ moved, answered: version() > from });
  else requestAnimationFrame(look);
};
requestAnimationFrame(look);
"#;

/// Opens a one-deal table against the computer from the landing page, as a player would.
pub(crate) async fn open_computer_table(c: &Client, base: &str) {
    go(c, base, "/pishe-pasha").await;
    wait_for(c, "return document.querySelector('#play-computer')", 20).await;
    click(c, "input[name=length][value='one-deal']").await;
    click(c, "#play-computer").await;
    wait_for(c, "return document.querySelector('.table.pp #turn')", 30).await;
}

async fn state(c: &Client) -> String {
    let s = eval(c, &format!("return (() => {{ {} }})()", *BOARD_STATE)).await;
    s.as_str().unwrap_or("none").to_string()
}

async fn wait_for_our_turn(c: &Client) -> String {
    let script = format!(
        "const s = (() => {{ {} }})(); return ['give', 'turn', 'keep'].includes(s) && s",
        *BOARD_STATE
    );
    let s = wait_for(c, &script, 60).await;
    s.as_str().unwrap().to_string()
}

async fn assert_on_one_screen(c: &Client, when: &str) {
    let said = out_of_sight(c, Scroll::Down, true).await;
    assert_eq!(said, "", "{when}: not on one screen");
}

/// How a match played by [`play_to_the_end`] went: the moves clicked, and how many times a turned
/// card was seen waiting (and the turn log checked to say so).
struct Played {
    moves: usize,
    waits_seen: usize,
}

/// Plays the match to its end, checking the layout at every turn; a screenshot for the docs mid-game,
/// when the board offers a give (else later on).
async fn play_to_the_end(c: &Client, name: &str) -> Played {
    let started = Instant::now();
    let mut moves = 0;
    let mut waits_seen = 0;
    let mut shot = false;
    let mut last = String::new();
    let mut last_version = Value::Null;
    loop {
        let now = state(c).await;
        let version = eval(c, VERSION).await;
        if now != last || version != last_version {
            assert_on_one_screen(c, &format!("{name}, move {moves}, {now}")).await;
            if ["give", "turn", "keep"].contains(&now.as_str()) {
                let said = eval(c, TEXTS_RIGHT).await;
                assert_eq!(said, "ok", "{name}, move {moves}");
            }
            // While a turned card waits to be given or kept, the turn log says so, not "nothing yet".
            let waits = eval(c, TURNED_WAITS).await;
            assert!(
                waits == "ok" || waits == "idle",
                "{name}, move {moves}: {waits}"
            );
            waits_seen += usize::from(waits == "ok");
            last = now.clone();
            last_version = version;
        }
        if !shot && moves >= 24 && (now == "give" || now == "keep" || moves >= 80) {
            // Let the last travel and glow settle before the picture.
            tokio::time::sleep(Duration::from_millis(400)).await;
            if state(c).await == now {
                docs_screenshot(c, name).await;
                shot = true;
            }
        }
        let clicked = match now.as_str() {
            "over" => break,
            "next" => click(c, "#next-deal").await,
            "give" => click(c, "#give").await,
            "turn" => click(c, "#turn").await,
            "keep" => click(c, "#keep").await,
            _ => false,
        };
        if clicked {
            moves += 1;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(started.elapsed().as_secs() < 400, "the match did not end");
    }
    Played { moves, waits_seen }
}

#[actix_rt::test]
async fn a_pishe_pasha_match_against_the_computer_played_by_clicking_on_one_screen() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 2;
        pages_shuffle(s);
    });
    for (width, height) in SIZES {
        let c = driver.session(width, height).await;
        open_computer_table(&c, &server.base).await;
        assert_on_one_screen(&c, "the first view").await;
        let played = play_to_the_end(&c, &format!("pishe-pasha-{width}x{height}")).await;
        assert!(played.moves > 0, "no move was made");
        assert!(played.waits_seen > 0, "no turned card ever waited");
        let result = text_of(&c, "#result", 10).await;
        assert!(result.contains("won the match"), "{result}");
        // The panel says why.
        assert!(result.contains("ran out of cards first"), "{result}");
        assert_on_one_screen(&c, "the match's end").await;
        // The page checked the revealed deal against the commitment it was sent before play.
        assert_fair_deal(&c).await;
        assert_eq!(
            result_out_of_sight(&c).await,
            "",
            "the result at {width}x{height}"
        );
        docs_screenshot(&c, &format!("pishe-pasha-result-{width}x{height}")).await;
        let errors = console_errors(&c).await;
        assert!(errors.is_empty(), "console errors: {errors:?}");
        // The rules page, from the board's drawer link, and the landing: no error there either.
        go(&c, &server.base, "/pishe-pasha/rules").await;
        wait_for(&c, "return document.querySelector('.rules svg')", 10).await;
        let errors = console_errors(&c).await;
        assert!(errors.is_empty(), "console errors on the rules: {errors:?}");
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn the_console_log_is_read_so_an_error_would_be_caught() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 2);
    let c = driver.session(390, 844).await;
    go(&c, &server.base, "/pishe-pasha").await;
    wait_for(&c, "return document.querySelector('#play-computer')", 20).await;
    assert!(console_errors(&c).await.is_empty());
    eval(&c, "console.error('a planted error'); return true").await;
    let errors = console_errors(&c).await;
    assert!(
        errors.iter().any(|e| e.contains("a planted error")),
        "{errors:?}"
    );
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn a_give_in_the_turn_log_names_the_seat_given_the_card() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 2);
    let c = driver.session(390, 844).await;
    go(&c, &server.base, "/pishe-pasha").await;
    wait_for(&c, "return document.querySelector('#play-computer')", 20).await;
    let words = c
        .execute_async(
            "import('/static/pishe-pasha-words.js').then(({ stepSays }) => arguments[0](\
             [['You', 'stock', 'en'], ['The computer', 'pile', 'en'], ['Mina', 'stock', 'en'], ['شما', 'pile', 'fa']]\
             .map(([to, from, lang]) => stepSays({ step: 'give', card: '7D', from, says: '' }, lang, to))))",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        words,
        serde_json::json!([
            "The 7 of diamonds, turned from the stock, was given to you.",
            "The 7 of diamonds, from the top of the discard pile, was given to the computer.",
            "The 7 of diamonds, turned from the stock, was given to Mina.",
            "۷ خشت، از روی دورریز، به شما داده شد."
        ])
    );
    c.close().await.unwrap();
}

/// Turns cards (and gives or keeps) for `moves` moves, checking that the hand and the bar stay
/// on the first screen; answers how many of the clicked moves were seen travelling.
async fn moves_travel(c: &Client, moves: usize, name: &str) -> (usize, usize) {
    let (mut travelled, mut made) = (0, 0);
    while made < moves {
        let now = wait_for_our_turn(c).await;
        assert_on_one_screen(c, &format!("{name}, move {made}")).await;
        let watched = c
            .execute_async(CLICK_AND_WATCH, vec![format!("#{now}").into(), 1500.into()])
            .await
            .expect("the move is watched");
        if watched["moved"] == true {
            travelled += 1;
        }
        made += 1;
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    (travelled, made)
}

#[actix_rt::test]
async fn a_move_travels_and_does_not_when_reduced_motion_is_asked() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    for (width, height) in SIZES {
        let c = driver.session(width, height).await;
        open_computer_table(&c, &server.base).await;
        let (travelled, made) = moves_travel(&c, 6, &format!("{width}x{height}")).await;
        eprintln!("{width}x{height}: {travelled} of {made} moves seen travelling");
        // Every move puts a card somewhere new; a slow machine may miss the odd one.
        assert!(
            travelled * 2 >= made && travelled > 0,
            "{travelled} of {made} moves travelled"
        );
        let errors = console_errors(&c).await;
        assert!(errors.is_empty(), "console errors: {errors:?}");
        c.close().await.unwrap();

        let still = driver.reduced_motion_session(width, height).await;
        open_computer_table(&still, &server.base).await;
        let asked = eval(
            &still,
            "return matchMedia('(prefers-reduced-motion: reduce)').matches",
        )
        .await;
        assert_eq!(asked, true, "the browser asks for reduced motion");
        for _ in 0..4 {
            let now = wait_for_our_turn(&still).await;
            let watched = still
                .execute_async(CLICK_AND_WATCH, vec![format!("#{now}").into(), 1200.into()])
                .await
                .expect("the move is watched");
            assert_eq!(
                watched["moved"], false,
                "a card travelled under reduced motion"
            );
            assert_eq!(watched["answered"], true, "the move was made: {watched}");
        }
        still.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn turn_a_card_keeps_the_focus_across_redraws() {
    // The computer takes its time, so its turns are redraws the focus must live through.
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 250);
    for (width, height) in SIZES {
        let c = driver.session(width, height).await;
        open_computer_table(&c, &server.base).await;
        let mut turned = 0;
        let started = Instant::now();
        while turned < 8 {
            let now = wait_for_our_turn(&c).await;
            let version = eval(&c, VERSION).await.as_u64().unwrap();
            if now == "keep" {
                click(&c, "#keep").await;
            } else if now == "give" {
                click(&c, "#give").await;
            } else {
                // Keyboard: focus the button, then press it with Enter.
                eval(&c, "document.querySelector('#turn').focus(); return true").await;
                let turn = find(&c, "#turn").await.expect("the Turn button");
                turn.send_keys("\u{E007}").await.unwrap();
                wait_for(
                    &c,
                    &format!("return (() => {{ {VERSION} }})() > {version}"),
                    20,
                )
                .await;
                let focused = eval(
                    &c,
                    "return document.activeElement?.dataset.key || document.activeElement?.tagName",
                )
                .await;
                assert_eq!(focused, "turn", "focus after the redraw, move {turned}");
                turned += 1;
                continue;
            }
            wait_for(
                &c,
                &format!("return (() => {{ {VERSION} }})() > {version}"),
                20,
            )
            .await;
            assert!(started.elapsed() < Duration::from_secs(120));
        }
        // Through the computer's turns too: the button stays the focused control. Play on until the
        // computer is to move (our last turn-over may have left the turn with us).
        let mut version = eval(&c, VERSION).await.as_u64().unwrap();
        loop {
            let now = state(&c).await;
            if now == "wait" {
                break;
            }
            assert!(
                ["give", "turn", "keep"].contains(&now.as_str()),
                "the deal ended before the computer's turn: {now}"
            );
            click(&c, &format!("#{now}")).await;
            wait_for(
                &c,
                &format!("return (() => {{ {VERSION} }})() > {version}"),
                20,
            )
            .await;
            version = eval(&c, VERSION).await.as_u64().unwrap();
        }
        eval(&c, "document.querySelector('#turn').focus(); return true").await;
        wait_for(
            &c,
            &format!("return (() => {{ {VERSION} }})() > {version}"),
            60,
        )
        .await;
        let focused = eval(&c, "return document.activeElement?.dataset.key").await;
        assert_eq!(focused, "turn", "focus after the computer's move");
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn a_move_tried_while_offline_is_refused_with_a_sentence_then_made_once_back() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    let proxy = Proxy::start(server.running.addr).await;
    for (width, height) in SIZES {
        let c = driver.session(width, height).await;
        open_computer_table(&c, &proxy.base).await;
        let before = wait_for_our_turn(&c).await;
        let version = eval(&c, VERSION).await.as_u64().unwrap();
        proxy.go_offline(&c, 20).await;
        assert!(
            click(&c, &format!("#{before}")).await,
            "the button can be pressed"
        );
        let said = banner(&c, 10).await;
        assert!(said.contains("Not sent"), "{said}");
        screenshot(&c, &format!("pishe-pasha-offline-{width}x{height}")).await;
        assert_eq!(eval(&c, VERSION).await.as_u64().unwrap(), version);
        assert_eq!(state(&c).await, before, "the board still offers the move");
        // Back online: the seat resumes, and the same move goes through.
        proxy.come_back(&c, 40).await;
        let again = wait_for_our_turn(&c).await;
        assert_eq!(again, before);
        assert!(click(&c, &format!("#{again}")).await);
        wait_for(
            &c,
            &format!("return (() => {{ {VERSION} }})() > {version}"),
            20,
        )
        .await;
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn cards_turn_by_themselves_when_that_is_the_only_move_until_the_player_says_not() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 100);
    let c = driver.session(1280, 800).await;
    open_computer_table(&c, &server.base).await;
    let table = eval(&c, "return location.pathname.split('/').pop()").await;
    let table = table.as_str().unwrap().to_string();
    // Our seat's turn-overs in the table's record.
    let turned = || async {
        server.record(&table).await.deals[0]
            .actions
            .iter()
            .filter(|(seat, action, _)| seat.index() == 0 && action["type"] == "turn")
            .count()
    };
    assert_eq!(
        eval(&c, "return document.querySelector('#auto-turn').checked").await,
        true,
        "on from the start"
    );
    // Without a click, our seat turns cards whenever turning is all it may do.
    let started = Instant::now();
    while turned().await < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no card was turned by itself"
        );
        // Other moves (a give, a keep) are the player's: make them, never a turn.
        let s = state(&c).await;
        if s == "give" || s == "keep" {
            click(&c, &format!("#{s}")).await;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Switched off, it stays off on this device. The board is drawn anew with each of the
    // computer's moves, so the box may be replaced just as it is clicked: `press` tries again on a
    // fresh one until the click takes.
    press(&c, "#auto-turn").await;
    wait_for(
        &c,
        "return document.querySelector('#auto-turn')?.checked === false",
        20,
    )
    .await;
    c.refresh().await.unwrap();
    let kept = wait_for(
        &c,
        "const b = document.querySelector('#auto-turn'); return b && String(b.checked)",
        20,
    )
    .await;
    assert_eq!(kept, "false");
    c.close().await.unwrap();
}
