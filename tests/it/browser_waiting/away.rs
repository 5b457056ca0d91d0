//! A friend who closes the tab, in Chromium: shown away with for how long (in English and Persian),
//! the turn said to be theirs while away; once away long enough, the seat offered to someone else, who
//! takes it through the link, and its old holder told so when it comes back; a host who has not come
//! to the table yet said to be on the way, not away.

use serde_json::json;

use super::{arash_goes_away, click_a_move, offerable_at_once, says_closed, MY_TURN};
use crate::chromium::*;

#[actix_rt::test]
async fn a_friend_who_closes_the_tab_is_shown_away() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let (host, guest, table) = arash_goes_away(&mut driver, &server.base).await;
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
        let mine = eval(&host, MY_TURN).await;
        if mine != json!(true) || !click_a_move(&host).await {
            break;
        }
        settle(&host).await;
    }
    // For how long is said once, on the seat's line, so that two lines never tell it differently.
    let status = text_of(&host, "#status", 10).await;
    assert_eq!(status, "Arash is away", "{status}");
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
    go(&guest, &server.base, &format!("/t/{table}")).await;
    wait_for_status(&guest, "playing", 20).await;
    wait_for(&host, "return !document.querySelector('.away-line')", 15).await;
    assert_no_console_error(&host, "with an away seat").await;
}

/// A friend who opens the link before the host has gone to the table is told the host has not come
/// yet, not that the host is away; the line goes once the host sits down.
#[actix_rt::test]
async fn a_host_who_has_not_come_to_the_table_yet_is_not_shown_away() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let host = driver.session(1280, 800).await;
    go(&host, &server.base, "/panjpar").await;
    let link = friends_link(&host).await;
    let guest = driver.session(390, 844).await;
    guest.goto(&link).await.unwrap();
    let line = text_of(&guest, ".away-line .away-text", 15).await;
    assert!(line.ends_with(" has not come to the table yet"), "{line}");
    let page = eval(&guest, "return document.body.textContent").await;
    assert!(
        !page.as_str().unwrap_or_default().contains(" is away"),
        "{page}"
    );
    click(&host, "#go-to-table").await;
    wait_for_status(&host, "playing", 20).await;
    wait_for(&guest, "return !document.querySelector('.away-line')", 15).await;
    assert_no_console_error(&guest, "before the host came").await;
}

#[actix_rt::test]
async fn an_away_seat_is_offered_to_someone_else_and_its_holder_told() {
    let (mut driver, server) = staged!(offerable_at_once);
    let (host, guest, table) = arash_goes_away(&mut driver, &server.base).await;
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
    go(&third, &server.base, &format!("/t/{table}")).await;
    wait_for_status(&third, "playing", 20).await;
    wait_for_status(&host, "playing", 20).await;
    // The one who left comes back: the seat is not theirs any more, and the page says so.
    go(&guest, &server.base, &format!("/t/{table}")).await;
    says_closed(&guest, &table, "given-away", 20, "someone else", true).await;
    screenshot(&guest, "panjpar-seat-given-away-390x844").await;
    assert_no_console_error(&host, "after offering a seat").await;
}
