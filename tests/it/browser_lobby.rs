//! Strangers meeting, in Chromium at a desktop's and a phone's size: one visitor presses "Play a
//! person now" on a game's page and waits (the page says so, then offers the computer after the
//! wait, and keeps waiting when asked), a second comes through the home page's "Play a person now",
//! and both pages open the one table made for them; a host lists a Ganjifa table, a visitor sees it
//! on the game's page and takes a free seat, and the host's page says it is listed. Every page is
//! axe clean.

use fantoccini::Client;
use serde_json::json;

use crate::browser_access::{axe_source, violations};
use crate::chromium::*;

const SIZES: [(u32, u32, &str); 2] = [(1280, 900, "desktop"), (390, 844, "phone")];

async fn axe_clean(c: &Client, axe: &str, what: &str) {
    let found = violations(c, axe).await;
    assert!(found.is_empty(), "{what}: {found:#?}");
}

/// The table this page is at, once it has gone to one.
async fn at_table(c: &Client) -> String {
    let path = wait_for(
        c,
        "return location.pathname.startsWith('/t/') && document.body.dataset.game && location.pathname",
        20,
    )
    .await;
    path.as_str().unwrap().to_string()
}

#[actix_rt::test]
async fn two_visitors_press_play_a_person_and_meet_at_one_table() {
    let (mut driver, server) = staged!(|s| s.pairing_offer_computer_secs = 1);
    let Some(axe) = axe_source() else { return };
    for (width, height, size) in SIZES {
        let first = driver.session(width, height).await;
        let second = driver.session(width, height).await;
        go(&first, &server.base, "/panjpar").await;
        click(&first, "#play-person").await;
        let line = text_of(&first, "#pairing .pairing-line", 10).await;
        assert!(line.starts_with("Waiting for another player"), "{line}");
        let seen = "const r = document.getElementById('pairing').getBoundingClientRect(); \
                    return r.top >= 0 && r.bottom <= innerHeight + 1";
        wait_for(&first, seen, 5).await;
        // After the wait with nobody, the computer is offered; the visitor keeps waiting instead.
        wait_for(
            &first,
            "return document.getElementById('pairing').dataset.offered",
            10,
        )
        .await;
        screenshot(&first, &format!("pairing-offer-{size}")).await;
        axe_clean(&first, &axe, &format!("waiting, computer offered, {size}")).await;
        click(&first, "#pairing button:nth-of-type(2)").await;
        wait_for(
            &first,
            "return !document.getElementById('pairing').dataset.offered",
            10,
        )
        .await;
        if size == "desktop" {
            docs_screenshot(&first, "pairing-waiting").await;
        }
        // The home page's "Play with friends" lands with the start button in sight and focused.
        go(&second, &server.base, "/panjpar#friends").await;
        let in_sight = "const b = document.getElementById('play-friends'); const r = b.getBoundingClientRect(); \
                        return document.activeElement === b && r.top >= 0 && r.bottom <= innerHeight";
        wait_for(&second, in_sight, 5).await;
        // The second comes from the home page's "Play a person now", at the game's usual length.
        go(&second, &server.base, "/").await;
        axe_clean(&second, &axe, &format!("home page, {size}")).await;
        click(&second, "a[href='/panjpar#person']").await;
        let (a, b) = (at_table(&first).await, at_table(&second).await);
        assert_eq!(a, b, "both went to one table");
        wait_for(
            &second,
            "return document.querySelector('#board .seat, #board [data-area]')",
            20,
        )
        .await;
        // On a phone the header's other controls fold under "More", and fold again once one is used.
        if size == "phone" {
            assert!(click(&second, "#watch-link").await);
            let open = "return document.querySelector('header.site').classList.contains('open')";
            assert_eq!(
                eval(&second, open).await,
                json!(false),
                "More folded after use"
            );
        }
        for c in [&first, &second] {
            assert_no_console_error(c, &format!("paired at {size}")).await;
        }
        first.close().await.unwrap();
        second.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn a_listed_table_is_taken_from_the_game_page() {
    let (mut driver, server) = staged!(|_| {});
    let Some(axe) = axe_source() else { return };
    for (width, height, size) in SIZES {
        let host = driver.session(width, height).await;
        let visitor = driver.session(width, height).await;
        go(&host, &server.base, "/").await;
        eval(
            &host,
            "localStorage.setItem('chaikhana-name', 'Parvin'); return true",
        )
        .await;
        go(&host, &server.base, "/ganjifa").await;
        click(&host, "#friends-open").await;
        click(&host, "#play-friends").await;
        wait_for(&host, "return document.getElementById('go-to-table')", 10).await;
        click(&host, "#go-to-table").await;
        let table = at_table(&host).await;
        let listed = text_of(&host, "#listed span", 10).await;
        assert!(listed.contains("open tables"), "{listed}");
        axe_clean(&host, &axe, &format!("host's table, listed, {size}")).await;

        // The list holds the tables listed at the other size too: this one is the one linking here.
        let item = format!(".open-table:has(a[href='{table}'])");
        go(&visitor, &server.base, "/ganjifa").await;
        let entry = text_of(&visitor, &format!("{item} span"), 10).await;
        assert!(
            entry.starts_with("Parvin · 3 deals · 2 of 3 seats free"),
            "{entry}"
        );
        axe_clean(&visitor, &axe, &format!("open tables, {size}")).await;
        if size == "phone" {
            eval(
                &visitor,
                "document.getElementById('open-tables').scrollIntoView(); return true",
            )
            .await;
            docs_screenshot(&visitor, "open-tables-phone").await;
        }
        click(&visitor, &format!("{item} a")).await;
        assert_eq!(at_table(&visitor).await, table);
        let token = eval(
            &visitor,
            &format!(
                "return localStorage.getItem({})",
                json!(table.trim_start_matches("/t/"))
            ),
        )
        .await;
        assert!(token.is_string(), "the visitor keeps its seat's token");
        // One seat is still free: a third visitor sees it listed so.
        go(&visitor, &server.base, "/ganjifa").await;
        let entry = text_of(&visitor, &format!("{item} span"), 10).await;
        assert!(entry.contains("1 of 3 seats free"), "{entry}");
        host.close().await.unwrap();
        visitor.close().await.unwrap();
    }
}
