//! Tables that close under the page, in Chromium: the one left ends the match and both pages say so
//! (the other comes back to a table gone, 410), and a table that expires is said and forgotten, never
//! listed again. Also, without a browser: the page of a table gone for good (`gone.html`) renders for
//! each reason, and with its variables empty.

use std::time::Duration;

use serde_json::json;

use super::{arash_goes_away, offerable_at_once, says_closed, start_against_the_computer};
use crate::chromium::*;

#[actix_rt::test]
async fn the_one_left_ends_the_match_and_both_pages_say_so() {
    let (mut driver, server) = staged!(offerable_at_once);
    let (host, guest, table) = arash_goes_away(&mut driver, &server.base).await;
    wait_for(&host, "return document.querySelector('#end-match')", 20).await;
    press(&host, "#end-match").await;
    press(&host, "#end-match-yes").await;
    says_closed(&host, &table, "ended", 15, "You ended the match", false).await;
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
    go(&guest, &server.base, &format!("/t/{table}")).await;
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
    says_closed(&c, &table, "expired", 30, "expired", true).await;
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
