//! Tables that wait for their players, in Chromium: "Your games" on the home page lists a table left
//! mid-match with whose turn it is, and one click resumes the same seat; a friend who closes the tab
//! is shown away, with for how long; the tab's title says "Your turn", and a turn that comes while the
//! tab is hidden is told by a notification (the page's own Notifications API, stubbed in the page);
//! an away seat offered to someone else is free for the link, and its old holder is told so; a match
//! ended by the one left closes both pages with their end panel. Also, without a browser: the page of
//! a table gone for good (`gone.html`) renders for each reason, and with its variables empty.

use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use crate::chromium::*;

/// Makes one move by clicking, if the board offers one; true when it did.
async fn click_a_move(client: &Client) -> bool {
    matches!(
        crate::browser_panjpar::click_panjpar_move(client).await,
        crate::browser_panjpar::Clicked::Moved(true)
    )
}

/// Waits for this seat's turn, then makes one move by clicking.
async fn play_one_move(client: &Client) {
    for _ in 0..200 {
        let mine = eval(
            client,
            "const b = document.querySelector('#turn-badge'); return !!b && !b.hidden",
        )
        .await;
        if mine == json!(true) && click_a_move(client).await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no move could be made");
}

/// The table id of the page's address (/t/{id}).
async fn table_of(client: &Client) -> String {
    let path = eval(client, "return location.pathname").await;
    let path = path.as_str().expect("a path");
    path.strip_prefix("/t/").expect("a table page").to_string()
}

async fn stored(client: &Client, key: &str) -> Value {
    eval(
        client,
        &format!("return localStorage.getItem({})", json!(key)),
    )
    .await
}

/// From the Panjpar landing page, one deal against the computer; returns once the board is drawn.
async fn start_against_the_computer(c: &Client, base: &str) -> String {
    go(c, base, "/panjpar").await;
    click(c, "input[name=length][value='1']").await;
    click(c, "#play-computer").await;
    wait_for(
        c,
        "return location.pathname.startsWith('/t/') && document.querySelector('.table[data-status=playing]')",
        20,
    )
    .await;
    table_of(c).await
}

/// A friends table of one deal of Panjpar between `host` and `guest` (who goes by `name`), both
/// boards playing; the table's id.
async fn friends_at_panjpar(host: &Client, guest: &Client, base: &str, name: &str) -> String {
    go(host, base, "/panjpar").await;
    click(host, "input[name=length][value='1']").await;
    let link = friends_link(host).await;
    click(host, "#go-to-table").await;
    wait_for(host, "return document.querySelector('.table')", 10).await;
    guest.goto(&link).await.unwrap();
    wait_for_status(guest, "playing", 20).await;
    wait_for_status(host, "playing", 20).await;
    click(guest, "#name-button").await;
    let input = find(guest, "#name-input").await.expect("the name field");
    input.send_keys(name).await.unwrap();
    click(guest, "#name-form button[type=submit]").await;
    let named = format!(
        "return document.querySelector('#board').textContent.includes({})",
        json!(name)
    );
    wait_for(host, &named, 10).await;
    table_of(host).await
}

/// The guest closes its tab: its page goes (its socket with it), its storage stays.
async fn leave(guest: &Client) {
    guest.goto("about:blank").await.unwrap();
}

#[actix_rt::test]
async fn your_games_lists_a_table_left_mid_match_and_one_click_resumes_it() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let c = driver.session(1280, 800).await;
    let table = start_against_the_computer(&c, &server.base).await;
    let token = stored(&c, &table).await;
    assert!(token.is_string(), "the seat's token is kept");
    play_one_move(&c).await;
    let listed = eval(&c, "return localStorage.getItem('chaikhana.tables')").await;
    let listed: Value = serde_json::from_str(listed.as_str().expect("the list is kept")).unwrap();
    assert_eq!(listed[0]["id"], json!(table), "{listed}");
    assert_eq!(listed[0]["game"], json!("panjpar"), "{listed}");
    assert!(
        !listed.to_string().contains(token.as_str().unwrap()),
        "the list holds no token"
    );
    // A table this browser once held that the server does not know: listed as closed, then forgotten.
    let ghost = "AAAAAAAAAAAAAAAAAAAAAA";
    eval(
        &c,
        &format!("localStorage.setItem('{ghost}', 'BBBBBBBBBBBBBBBBBBBBBB'); return true"),
    )
    .await;

    // The tab is closed; another one opens the home page.
    let old = c.window().await.unwrap();
    let fresh = c.new_window(true).await.unwrap();
    c.switch_to_window(fresh.handle).await.unwrap();
    c.switch_to_window(old).await.unwrap();
    c.close_window().await.unwrap();
    let left = c.windows().await.unwrap();
    c.switch_to_window(left[0].clone()).await.unwrap();
    go(&c, &server.base, "/").await;
    let entry = format!("#your-games-list li[data-table={}]", json!(table));
    let seen = format!(
        "const e = document.querySelector({}); return e && e.dataset.turn && e.textContent",
        json!(entry)
    );
    let text = wait_for_text(&c, &seen, 15).await;
    assert!(text.contains("Panjpar with the computer"), "{text}");
    assert!(text.contains("last move"), "{text}");
    let turn = eval(
        &c,
        &format!(
            "return document.querySelector({}).dataset.turn",
            json!(entry)
        ),
    )
    .await;
    let turn = turn.as_str().unwrap_or_default().to_string();
    assert!(["you", "other"].contains(&turn.as_str()), "turn {turn}");
    assert!(
        text.contains(if turn == "you" {
            "Your turn"
        } else {
            "Their turn"
        }),
        "{text}"
    );
    let closed = text_of(&c, "#your-games-closed li", 10).await;
    assert!(closed.contains("taken off this list"), "{closed}");
    assert_eq!(
        stored(&c, ghost).await,
        Value::Null,
        "a closed table is forgotten"
    );
    screenshot(&c, "your-games-1280x800").await;
    c.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let wide = eval(
        &c,
        "return document.scrollingElement.scrollWidth <= innerWidth + 1",
    )
    .await;
    assert_eq!(wide, json!(true), "the list fits a phone's width");
    screenshot(&c, "your-games-390x844").await;
    c.set_window_size(1280, 800).await.unwrap();
    assert_no_console_error(&c, "on the home page").await;

    // One click resumes the same seat: the board, with nothing refused and the same token.
    press(&c, &format!("{entry} a[data-resume]")).await;
    wait_for(
        &c,
        "return document.querySelector('.table[data-status=playing] [data-area=hand] .card')",
        20,
    )
    .await;
    assert_eq!(table_of(&c).await, table);
    assert_eq!(
        eval(&c, "return document.body.dataset.refused ?? null").await,
        Value::Null
    );
    assert_eq!(stored(&c, &table).await, token, "the same seat");
    play_one_move(&c).await;

    // Forget: gone from the list and from this browser.
    go(&c, &server.base, "/").await;
    wait_for(
        &c,
        &format!("return document.querySelector({})", json!(entry)),
        15,
    )
    .await;
    press(&c, &format!("{entry} button[data-forget]")).await;
    wait_for(
        &c,
        &format!("return !document.querySelector({})", json!(entry)),
        5,
    )
    .await;
    assert_eq!(
        stored(&c, &table).await,
        Value::Null,
        "the token is forgotten"
    );
    let note = text_of(&c, "#your-games-note", 5).await;
    assert!(note.contains("no longer listed"), "{note}");
    assert_no_console_error(&c, "after forgetting").await;
}

#[actix_rt::test]
async fn a_friend_who_closes_the_tab_is_shown_away() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let host = driver.session(1280, 800).await;
    let guest = driver.session(390, 844).await;
    let table = friends_at_panjpar(&host, &guest, &server.base, "Arash").await;
    leave(&guest).await;
    let away = text_of(&host, ".away-line .away-text", 15).await;
    assert!(away.starts_with("Arash is away ("), "{away}");
    let board = eval(&host, "return document.querySelector('#board').textContent").await;
    let board = board.as_str().unwrap_or_default();
    assert!(
        !board.contains("open the link"),
        "an away seat is not a free one: {board}"
    );
    // Whose turn it is, the away seat is said to be away, not to be choosing: the host plays until
    // the turn is Arash's.
    for _ in 0..6 {
        let mine = eval(
            &host,
            "const b = document.querySelector('#turn-badge'); return !!b && !b.hidden",
        )
        .await;
        if mine != json!(true) || !click_a_move(&host).await {
            break;
        }
        settle(&host).await;
    }
    let status = text_of(&host, "#status", 10).await;
    assert!(status.starts_with("Arash is away ("), "{status}");
    // Not yet offerable (ten minutes by default): no offer, no end.
    assert!(find(&host, ".offer-seat").await.is_none());
    assert!(find(&host, "#end-match").await.is_none());
    screenshot(&host, "panjpar-away-1280x800").await;
    // The line follows the page's own clock (every 30 s; called here at once): away since 65
    // minutes ago reads "1 h".
    let later = eval(
        &host,
        "const t = document.querySelector('[data-away-since]'); t.dataset.awaySince = String(Date.now() - 65 * 60 * 1000); \
         return import('/static/away.js').then((m) => { m.refreshAway(); return document.querySelector('.away-text').textContent; })",
    )
    .await;
    assert_eq!(later, json!("Arash is away (1 h)"));
    // In Persian too.
    press(&host, "[data-lang=fa]").await;
    let fa = text_of(&host, ".away-line .away-text", 5).await;
    assert!(fa.starts_with("Arash سر میز نیست ("), "{fa}");
    press(&host, "[data-lang=en]").await;
    // The guest comes back to the same seat; the line goes.
    guest
        .goto(&format!("{}/t/{table}", server.base))
        .await
        .unwrap();
    wait_for_status(&guest, "playing", 20).await;
    wait_for(&host, "return !document.querySelector('.away-line')", 15).await;
    assert_no_console_error(&host, "with an away seat").await;
}

#[actix_rt::test]
async fn the_title_says_your_turn_and_a_hidden_tab_is_told_once() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 1500);
    let c = driver.session(1280, 800).await;
    start_against_the_computer(&c, &server.base).await;
    // The page's Notifications, stubbed: allowed, and each one shown is kept.
    eval(
        &c,
        r#"window.told = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title) { window.told.push(title); }
  addEventListener() {}
  close() {}
};
return true"#,
    )
    .await;
    click_when_shown(&c, "#turn-alerts", 10).await;
    wait_for(
        &c,
        "return document.querySelector('#turn-alerts').getAttribute('aria-pressed') === 'true'",
        5,
    )
    .await;
    let title = wait_for_text(
        &c,
        "const b = document.querySelector('#turn-badge'); return !!b && !b.hidden && document.title",
        20,
    )
    .await;
    assert_eq!(title, "● Your turn · Panjpar · chaikhana");
    // The tab goes to the background; the move is made, and the computer's turn is not ours.
    eval(
        &c,
        "Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' }); return true",
    )
    .await;
    // Moves until the turn passes (a right guess, say, leaves it with this seat).
    let mut resting = None;
    for _ in 0..50 {
        let shown = eval(
            &c,
            "const b = document.querySelector('#turn-badge'); return !!b && b.hidden && document.title",
        )
        .await;
        if let Some(title) = shown.as_str() {
            resting = Some(title.to_string());
            break;
        }
        click_a_move(&c).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(resting.as_deref(), Some("Panjpar · chaikhana"));
    // The turn comes back while hidden: told once.
    wait_for(
        &c,
        "const b = document.querySelector('#turn-badge'); return !!b && !b.hidden",
        30,
    )
    .await;
    let told = wait_for(&c, "return window.told.length > 0 && window.told", 5).await;
    assert_eq!(told, json!(["Your turn at Panjpar"]));
    // Drawn again on the same turn (a seats frame, a language switch): not told again.
    eval(
        &c,
        "document.querySelector('[data-lang=en]')?.click(); return true",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(eval(&c, "return window.told").await, told);
    assert_no_console_error(&c, "with turn alerts").await;
}

#[actix_rt::test]
async fn an_away_seat_is_offered_to_someone_else_and_its_holder_told() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.offer_seat_after_secs = 1;
    });
    let host = driver.session(1280, 800).await;
    let guest = driver.session(390, 844).await;
    let table = friends_at_panjpar(&host, &guest, &server.base, "Arash").await;
    leave(&guest).await;
    // Away long enough: the offer and, at two seats, the end of the match with a confirmation.
    wait_for(&host, "return document.querySelector('#offer-seat-1')", 20).await;
    screenshot(&host, "panjpar-away-offerable-1280x800").await;
    press(&host, "#end-match").await;
    let ask = text_of(&host, "#end-match-ask", 5).await;
    assert!(ask.contains("End the match"), "{ask}");
    press(&host, "#end-match-no").await;
    wait_for(&host, "return document.querySelector('#offer-seat-1')", 5).await;
    press(&host, "#offer-seat-1").await;
    // The seat is free for whoever opens the link; the host has the link to send.
    let said = wait_for_text(
        &host,
        "return document.querySelector('#share-link') && (document.querySelector('#waiting-line') || document.querySelector('#seat-offered'))?.textContent",
        15,
    )
    .await;
    assert!(said.contains("whoever opens"), "{said}");
    let room = eval(
        &host,
        "return document.querySelector('#waiting-room')?.textContent ?? ''",
    )
    .await;
    assert!(
        room.as_str().unwrap_or_default().contains("a free seat")
            || find(&host, "#seat-offered:not([hidden])").await.is_some(),
        "{room}"
    );
    screenshot(&host, "panjpar-seat-offered-1280x800").await;
    // Someone new takes it, with the link.
    let third = driver.session(390, 844).await;
    third
        .goto(&format!("{}/t/{table}", server.base))
        .await
        .unwrap();
    wait_for_status(&third, "playing", 20).await;
    wait_for_status(&host, "playing", 20).await;
    // The one who left comes back: the seat is not theirs any more, and the page says so.
    guest
        .goto(&format!("{}/t/{table}", server.base))
        .await
        .unwrap();
    let reason = closed_reason(&guest, 20).await;
    assert_eq!(reason, "given-away");
    let why = text_of(&guest, "#closed-why", 5).await;
    assert!(why.contains("someone else"), "{why}");
    assert!(find(&guest, "#start-another").await.is_some());
    assert!(find(&guest, "#home-link").await.is_some());
    assert_eq!(stored(&guest, &table).await, Value::Null, "forgotten");
    screenshot(&guest, "panjpar-seat-given-away-390x844").await;
    assert_no_console_error(&host, "after offering a seat").await;
}

#[actix_rt::test]
async fn the_one_left_ends_the_match_and_both_pages_say_so() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.offer_seat_after_secs = 1;
    });
    let host = driver.session(1280, 800).await;
    let guest = driver.session(390, 844).await;
    let table = friends_at_panjpar(&host, &guest, &server.base, "Arash").await;
    leave(&guest).await;
    wait_for(&host, "return document.querySelector('#end-match')", 20).await;
    press(&host, "#end-match").await;
    press(&host, "#end-match-yes").await;
    let reason = closed_reason(&host, 15).await;
    assert_eq!(reason, "ended");
    let why = text_of(&host, "#closed-why", 5).await;
    assert!(why.contains("You ended the match"), "{why}");
    assert_eq!(stored(&host, &table).await, Value::Null, "forgotten");
    screenshot(&host, "panjpar-match-ended-1280x800").await;
    // A new table of the same game, from the panel.
    press(&host, "#start-another").await;
    wait_for(
        &host,
        &format!(
            "return location.pathname.startsWith('/t/') && location.pathname !== {} && document.querySelector('.table')",
            json!(format!("/t/{table}"))
        ),
        20,
    )
    .await;
    // The other comes back to an ended match: told, never seated.
    guest
        .goto(&format!("{}/t/{table}", server.base))
        .await
        .unwrap();
    let said = wait_for_text(
        &guest,
        "return document.querySelector('#closed-table')?.dataset.reason || document.querySelector('#gone')?.dataset.goneReason",
        20,
    )
    .await;
    assert_eq!(said, "ended");
    let (status, page) = server.get(&format!("/t/{table}")).await;
    assert_eq!(status, 410, "{page}");
    assert!(page.contains("data-gone-reason=\"ended\""), "{page}");
    // The way on: a new table of the game when the server names it, else the choice of games.
    assert!(
        page.contains("Start a new table of Panjpar") || page.contains("Choose a game"),
        "{page}"
    );
    assert_no_console_error(&host, "after ending the match").await;
}

#[actix_rt::test]
async fn a_table_that_expires_under_the_page_says_so_and_is_forgotten() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.computer_table_expiry_secs = 3;
    });
    let c = driver.session(1280, 800).await;
    let table = start_against_the_computer(&c, &server.base).await;
    // Nobody moves: the table expires, its socket closes with 4411, and the page says so.
    let reason = closed_reason(&c, 30).await;
    assert_eq!(reason, "expired");
    let why = text_of(&c, "#closed-why", 5).await;
    assert!(why.contains("expired"), "{why}");
    assert!(find(&c, "#start-another").await.is_some());
    assert!(find(&c, "#home-link").await.is_some());
    assert_eq!(stored(&c, &table).await, Value::Null, "forgotten");
    // No reconnecting after that: the banner stays quiet and the panel stays.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let banner = eval(&c, "return document.querySelector('#banner').hidden").await;
    assert_eq!(banner, json!(true));
    screenshot(&c, "panjpar-table-expired-1280x800").await;
    assert_no_console_error(&c, "on an expired table").await;
    // The home page does not list it.
    go(&c, &server.base, "/").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let listed = eval(
        &c,
        &format!(
            "return !!document.querySelector('#your-games-list li[data-table={}]')",
            json!(table)
        ),
    )
    .await;
    assert_eq!(listed, json!(false));
}

/// The page of a table gone for good renders into the layout for every reason and game, and with
/// its variables empty or missing; what it puts in its attributes is escaped.
#[test]
fn the_gone_page_renders_for_each_reason() {
    let page = |reason: &str, game: &str| chaikhana::server::pages::gone_html(reason, game);
    let cases = [
        (
            "expired",
            "panjpar",
            "This table has expired",
            "Start a new table of Panjpar",
        ),
        (
            "ended",
            "pishe-pasha",
            "This match has ended",
            "Start a new table of Pishe Pasha",
        ),
        (
            "lost",
            "ganjifa",
            "record was lost",
            "Start a new table of Ganjifa",
        ),
        ("", "", "This table has closed", "Choose a game"),
    ];
    for (reason, game, heading, way) in cases {
        let html = page(reason, game).unwrap_or_else(|e| panic!("{reason}/{game}: {e:#}"));
        assert!(html.contains(heading), "{reason}: {html}");
        assert!(html.contains(way), "{reason}: {html}");
        assert!(html.contains("href=\"/\""), "{reason}: {html}");
        assert!(
            html.contains(&format!("data-gone-reason=\"{reason}\"")),
            "{html}"
        );
        assert!(
            html.contains("<header class=\"site\">"),
            "in the layout: {html}"
        );
    }
    let bare = page("", "").expect("renders with nothing given");
    assert!(bare.contains("This table has closed"), "{bare}");
    let hostile = page("\"><script>", "<b>").unwrap();
    assert!(
        !hostile.contains("<script>") && !hostile.contains("<b>"),
        "{hostile}"
    );
}

/// Why the page says its table is closed (the end panel's reason), once it says so.
async fn closed_reason(client: &Client, seconds: u64) -> String {
    wait_for_text(
        client,
        "return document.querySelector('#closed-table')?.dataset.reason",
        seconds,
    )
    .await
}
