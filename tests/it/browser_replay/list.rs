//! The replay's list of moves, beside the board: a watcher arrives while the second deal of a friends
//! match is played, opens the first deal from the list and steps through it with the arrow keys and
//! by clicking its moves. Each step draws exactly what a watcher's page showed of that moment in play
//! (another watcher followed the first deal live), the step shown is marked in the list, each move is
//! said as the board says it (who did what), and the list never lies over a card of the board: beside
//! it on a desktop, under it on a phone, where it folds under its toggle; no part of the board
//! scrolls sideways at any step. axe-core finds nothing with the list open.

use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::{json, Value};

use super::{at_step, KEEP_WHAT_WAS_SHOWN};
use crate::browser_access::{axe_source, violations};
use crate::chromium::*;
use crate::support::{play_deals, take_seats, TestServer};

/// Every card drawn on the board (in sight: not folded away, nor scrolled out of a box of the board
/// that scrolls, as a phone's board does beside the open list) that the replay's panel covers or
/// touches: the part of it in sight meets the panel, or the point at that part's middle is the
/// panel's. None is the answer.
const CARDS_UNDER_THE_PANEL: &str = r#"
    const panel = document.getElementById('replay').getBoundingClientRect();
    const meets = (r) => r.right > panel.left && panel.right > r.left && r.bottom > panel.top && panel.bottom > r.top;
    const inSight = (c) => {
        const r = c.getBoundingClientRect();
        let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
        for (let e = c.parentElement; e; e = e.parentElement) {
            const style = getComputedStyle(e);
            if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
            const b = e.getBoundingClientRect();
            [left, top, right, bottom] = [Math.max(left, b.left), Math.max(top, b.top), Math.min(right, b.right), Math.min(bottom, b.bottom)];
        }
        return right > left && bottom > top ? { left, top, right, bottom } : null;
    };
    return [...document.querySelectorAll('#board .card, #board .gcard')]
        .filter((c) => c.getClientRects().length && getComputedStyle(c).visibility !== 'hidden')
        .filter((c) => {
            const r = inSight(c);
            if (!r) return false;
            const middle = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
            return meets(r) || (middle && middle.closest('#replay'));
        })
        .map((c) => c.getAttribute('aria-label') || c.className);
"#;

/// Every card drawn on the board that lies outside the window, in part or whole.
const CARDS_OUT_OF_SIGHT: &str = r#"
    return [...document.querySelectorAll('#board .card, #board .gcard')]
        .filter((c) => c.getClientRects().length)
        .filter((c) => { const r = c.getBoundingClientRect(); return r.top < 0 || r.left < 0 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1; })
        .map((c) => c.getAttribute('aria-label') || c.className);
"#;

/// Every box of the board that scrolls sideways (its content wider than itself): none is the answer,
/// the trick of a long Ganjifa call beside the list included.
const SIDEWAYS: &str = r#"
    return [...document.querySelectorAll('#board, #board *')]
        .filter((e) => e.checkVisibility() && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
        .map((e) => `${e.className || e.id}: ${e.scrollWidth} in ${e.clientWidth}`);
"#;

/// The list's step marked as shown, and whether it lies within the list's visible box.
const MARKED_STEP: &str = r#"
    const marked = [...document.querySelectorAll('#replay-moves [aria-current="step"]')];
    if (marked.length !== 1) return null;
    const box = document.getElementById('replay-list').getBoundingClientRect();
    const r = marked[0].getBoundingClientRect();
    return [Number(marked[0].dataset.step), r.top >= box.top - 1 && r.bottom <= box.bottom + 1, document.activeElement === marked[0]];
"#;

/// Asserts that the replay's panel covers no card of the board and that every card is in sight, once
/// the cards have landed.
async fn board_clear(c: &Client, when: &str) {
    // A card still travelling to where the step puts it may cross the panel on its way.
    settle(c).await;
    // The board as it was checked, to look at when the check fails.
    screenshot(c, &when.replace([' ', ','], "-")).await;
    assert_eq!(
        eval(c, CARDS_UNDER_THE_PANEL).await,
        json!([]),
        "{when}: cards under the list"
    );
    assert_eq!(
        eval(c, CARDS_OUT_OF_SIGHT).await,
        json!([]),
        "{when}: cards out of sight"
    );
}

/// Presses `key` on the control the keyboard is on.
async fn key_on_focus(c: &Client, key: Key) {
    let focused = c.active_element().await.expect("a focused control");
    key_press(&focused, key).await.expect("a key press");
}

async fn watcher_replays_an_earlier_deal(
    driver: &mut Driver,
    server: &TestServer,
    (game, seats, length): (&str, usize, Value),
    (width, height): (u32, u32),
) {
    let seated = take_seats(server, game, seats, length).await;
    let watch = format!("{}/w/{}", server.base, server.watch_id(&seated[0]).await);
    // One watcher follows the first deal live, keeping what its board showed at each version.
    let live = driver.session(width, height).await;
    before_every_page(&live, KEEP_WHAT_WAS_SHOWN).await;
    live.goto(&watch).await.unwrap();
    wait_for(&live, "return document.body.dataset.version === '1'", 20).await;
    let mut clients = Vec::new();
    for seat in &seated {
        clients.push(server.connect(seat).await);
    }
    play_deals(&mut clients, 1, 23).await;
    let over = server.record(&seated[0].table).await.version;
    let shown = format!("return document.body.dataset.version === '{over}'");
    wait_for(&live, &shown, 30).await;
    // The second deal is dealt; then another watcher arrives.
    for client in clients.iter_mut() {
        let next = json!({"type": "next-deal", "version": over});
        client.send(next).await;
    }
    let record = server.record(&seated[0].table).await;
    let record = if record.deals.len() == 2 {
        record
    } else {
        wait_for_second_deal(server, &seated[0].table).await
    };
    let deal = &record.deals[0];
    let steps = deal.actions.len();

    let c = driver.session(width, height).await;
    before_every_page(&c, KEEP_WHAT_WAS_SHOWN).await;
    c.goto(&watch).await.unwrap();
    wait_for_status(&c, "playing", 30).await;
    let offered = text_of(&c, "#replay-open", 10).await;
    assert_eq!(
        offered, "Replay a past deal",
        "{game}: offered while deal 2 is played"
    );
    click_when_shown(&c, "#replay-open", 30).await;
    at_step(&c, 0, steps).await;
    let phone = width < 900;
    // On a phone the list starts folded under its toggle, and the board keeps the room.
    let folded = eval(
        &c,
        "const f = document.getElementById('replay-fold'); return [getComputedStyle(f).display !== 'none', f.getAttribute('aria-expanded'), getComputedStyle(document.getElementById('replay-list')).display]",
    )
    .await;
    if phone {
        assert_eq!(
            folded,
            json!([true, "false", "none"]),
            "{game}: folded on a phone"
        );
    } else {
        assert_eq!(
            folded[0],
            json!(false),
            "{game}: no toggle beside the board"
        );
    }
    board_clear(&c, &format!("{game} at {width}x{height}, the list folded")).await;
    assert_eq!(open_replay_list(&c).await, phone);
    assert_eq!(
        eval(
            &c,
            "return document.getElementById('replay-fold').getAttribute('aria-expanded')"
        )
        .await,
        json!(if phone { "true" } else { "false" })
    );
    // Beside the board on a desktop (the panel at its right), under it on a phone.
    let sides = eval(
        &c,
        "const b = document.getElementById('board').getBoundingClientRect(), p = document.getElementById('replay').getBoundingClientRect(); return [p.left >= b.right - 1, p.top >= b.bottom - 1]",
    )
    .await;
    assert_eq!(
        sides,
        json!([!phone, phone]),
        "{game} at {width}x{height}: where the list lies"
    );
    // The match's deals: the first shown, the second (in play) not offered.
    let deals = eval(
        &c,
        "return [...document.querySelectorAll('[data-key^=\"replay:deal:\"]')].map(b => [b.textContent, b.getAttribute('aria-current')])",
    )
    .await;
    assert_eq!(deals, json!([]), "one deal ended: nothing to choose");
    // Panjpar's first moves come before its cards are dealt: its first step says so.
    let (line_starts, first_step) = if game == "panjpar" {
        (
            "Replay. Before the deal: the guess of the trump's colour",
            "Before the deal: the guess of the trump's colour",
        )
    } else {
        ("Replay: the deal as dealt", "As dealt")
    };
    let line = text_of(&c, "#replay-line", 5).await;
    assert!(line.starts_with(line_starts), "{game}: {line}");
    let step = text_of(&c, "[data-key='replay:step:0']", 5).await;
    assert_eq!(step, first_step, "{game}");

    // Step by step with the arrow keys from the list's step shown, each step the board of play.
    press(&c, "[data-key='replay:step:0']").await;
    for step in 0..=steps {
        if step > 0 {
            key_on_focus(&c, if step % 2 == 0 { Key::Down } else { Key::Right }).await;
        }
        at_step(&c, step, steps).await;
        let marked = wait_for(
            &c,
            &format!(
                "const m = (() => {{ {MARKED_STEP} }})(); return m && m[0] === {step} && m[2] && m"
            ),
            10,
        )
        .await;
        assert_eq!(
            marked,
            json!([step, true, true]),
            "{game}: step {step} marked, in sight and focused"
        );
        let version = match step {
            0 => deal.dealt_at,
            _ => deal.actions[step - 1].2,
        };
        if step > 0 {
            // The move said as the board says it: its number, then who made it, by name (no seat
            // is "you" to a watcher), as the line names them.
            let said = eval(
                &c,
                "return [document.querySelector('#replay-moves [aria-current=\"step\"]').textContent, document.getElementById('replay-line').textContent]",
            )
            .await;
            let who = format!("Player {}", deal.actions[step - 1].0.index() + 1);
            let (item, line) = (said[0].as_str().unwrap(), said[1].as_str().unwrap());
            assert!(
                item.starts_with(&format!("{step}. {who} ")),
                "{game}: {item}"
            );
            assert!(line.contains(&format!(", by {who}")), "{game}: {line}");
        }
        let then = eval(&live, &format!("return window.shown['{version}'] ?? null")).await;
        assert!(
            !then.is_null(),
            "{game}: the live watcher drew version {version}"
        );
        assert_eq!(
            eval(&c, SIDEWAYS).await,
            json!([]),
            "{game} at {width}x{height}: step {step} scrolls sideways"
        );
        let now = eval(&c, "return window.boardShown()").await;
        assert_eq!(
            now, then,
            "{game} at {width}x{height}: step {step} draws what version {version} showed"
        );
        if step == steps / 2 {
            board_clear(
                &c,
                &format!("{game} at {width}x{height}, step {step}, the list open"),
            )
            .await;
            settle(&c).await;
            docs_screenshot(&c, &format!("{game}-replay-list-{width}x{height}")).await;
            if let Some(axe) = axe_source() {
                let found = violations(&c, &axe).await;
                assert!(
                    found.is_empty(),
                    "{game} replay list at {width}x{height}: {found:#?}"
                );
            }
        }
    }
    // Back with the arrow keys, and to a move by clicking it; Home goes to the deal as dealt.
    key_on_focus(&c, Key::Up).await;
    at_step(&c, steps - 1, steps).await;
    press(&c, "[data-key='replay:step:3']").await;
    at_step(&c, 3, steps).await;
    key_on_focus(&c, Key::Home).await;
    at_step(&c, 0, steps).await;
    // Folded again on a phone: the list goes, the board keeps its cards in sight.
    if phone {
        assert!(click(&c, "#replay-fold").await);
        wait_for(&c, "return getComputedStyle(document.getElementById('replay-list')).display === 'none' && document.getElementById('replay-fold').getAttribute('aria-expanded') === 'false'", 10).await;
        board_clear(&c, &format!("{game} at {width}x{height}, folded again")).await;
    }
    assert_no_console_error(&c, &format!("{game}'s replay list")).await;
    c.close().await.unwrap();
    live.close().await.unwrap();
}

/// The table's record once its second deal is dealt.
async fn wait_for_second_deal(server: &TestServer, table: &str) -> chaikhana::table::TableRecord {
    for _ in 0..100 {
        let record = server.record(table).await;
        if record.deals.len() == 2 {
            return record;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the second deal was never dealt");
}

#[actix_rt::test]
async fn a_watcher_arriving_in_the_second_deal_steps_through_the_first_from_the_list() {
    let (mut driver, server) = staged!(|_| ());
    watcher_replays_an_earlier_deal(&mut driver, &server, ("panjpar", 2, json!(3)), (390, 844))
        .await;
    watcher_replays_an_earlier_deal(&mut driver, &server, ("ganjifa", 3, json!(3)), (1280, 800))
        .await;
}
