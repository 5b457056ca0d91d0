//! Pishe Pasha in Persian: the rules and the landing page right to left with the cards' rows left to
//! right, a Persian match against the computer played to its end by clicking at both sizes (the
//! board right to left, its rows of cards left to right, the computer's level, the result and the
//! deal check in Persian), and guided deals started from the Persian landing page and the Persian
//! rules page whose guide speaks Persian to the deal's end.

use super::{assert_on_one_screen, play_to_the_end, SIZES};
use crate::browser_access::{axe_source, violations};
use crate::chromium::*;

/// Every row of example cards on the page, read left to right whatever the page's direction.
const ROWS_LEFT_TO_RIGHT: &str =
    "const rows = [...document.querySelectorAll('[data-cards]')]; return rows.length > 0 && rows.every(r => r.dir === 'ltr' && r.children.length > 0)";

/// The page's language and direction: `lang dir`.
const LANG_DIR: &str = "return document.documentElement.lang + ' ' + document.documentElement.dir";

async fn assert_no_axe_violation(c: &fantoccini::Client, when: &str) {
    if let Some(axe) = axe_source() {
        let found = violations(c, &axe).await;
        assert!(found.is_empty(), "{when}: {found:#?}");
    }
}

#[actix_rt::test]
async fn the_persian_pages_are_right_to_left_and_a_persian_match_plays_to_its_end() {
    let (mut driver, server) = staged!(quick_and_fair);
    for (width, height) in SIZES {
        let c = driver.session(width, height).await;
        go(&c, &server.base, "/fa/pishe-pasha/rules").await;
        assert_eq!(eval(&c, LANG_DIR).await, "fa rtl");
        assert_eq!(eval(&c, ROWS_LEFT_TO_RIGHT).await, true);
        screenshot(&c, &format!("fa-pishe-pasha-rules-{width}x{height}")).await;
        assert_no_axe_violation(&c, "the Persian rules").await;
        go(&c, &server.base, "/fa/pishe-pasha").await;
        assert_eq!(eval(&c, LANG_DIR).await, "fa rtl");
        assert_eq!(eval(&c, ROWS_LEFT_TO_RIGHT).await, true);
        assert_no_axe_violation(&c, "the Persian landing").await;
        click(&c, "input[name=length][value='one-deal']").await;
        click(&c, "#play-computer").await;
        wait_for(&c, "return document.querySelector('.table.pp #turn')", 30).await;
        // The table speaks Persian: the page, the board right to left, each row of cards left to right.
        assert_eq!(eval(&c, LANG_DIR).await, "fa rtl");
        let board = eval(
            &c,
            "const b = document.querySelector('#board'); return b.lang + ' ' + b.dir",
        )
        .await;
        assert_eq!(board, "fa rtl");
        let rows = eval(
            &c,
            "return [...document.querySelectorAll('#board .pp-cards, #board .pp-centre')].map(r => r.dir)",
        )
        .await;
        assert_eq!(rows, serde_json::json!(["ltr", "ltr", "ltr"]));
        assert_eq!(text_of(&c, "#turn", 5).await, "برگرداندن کارت");
        let (_, said) = level_shown(&c).await;
        assert!(said.contains("رایانهٔ معمولی"), "{said}");
        assert_on_one_screen(&c, "the first Persian view").await;
        let moves = play_to_the_end(&c, &format!("pishe-pasha-fa-{width}x{height}"))
            .await
            .moves;
        assert!(moves > 0, "no move was made");
        let result = text_of(&c, "#result", 10).await;
        assert!(result.contains("مسابقه را"), "{result}");
        // The panel says why, in Persian.
        assert!(result.contains("خلاص"), "{result}");
        assert_on_one_screen(&c, "the Persian match's end").await;
        assert_eq!(result_out_of_sight(&c).await, "", "the result");
        // The page's deal check passed, and says so in Persian.
        let check = wait_for_text(
            &c,
            "const m = document.querySelector('#deal-check'); return m && m.dataset.state === 'fair' && m.textContent",
            10,
        )
        .await;
        assert!(check.contains("دست منصفانه"), "{check}");
        docs_screenshot(&c, &format!("pishe-pasha-fa-result-{width}x{height}")).await;
        assert_no_axe_violation(&c, "the Persian result").await;
        assert_no_console_error(&c, "a Persian match").await;
        c.close().await.unwrap();
    }
}

/// The guided deal from `path`'s button `button`: the guide speaks Persian from its first step, its
/// way out included, and says the deal is over in Persian at its end.
async fn guided_in_persian(c: &fantoccini::Client, base: &str, path: &str, button: &str) {
    go(c, base, path).await;
    click(c, button).await;
    let heading = wait_for_text(c, GUIDE_HEADING, 20).await;
    assert!(
        [
            "کارتی برگردانید",
            "کارتی برای دادن",
            "بدهید یا نگه دارید",
            "نوبت رایانه"
        ]
        .contains(&heading.as_str()),
        "{heading}"
    );
    assert_eq!(eval(c, LANG_DIR).await, "fa rtl");
    assert_eq!(
        eval(c, "return document.getElementById('guide').dir").await,
        "rtl"
    );
    assert_eq!(text_of(c, "#guide-leave", 5).await, "بیرون رفتن از راهنما");
}

#[actix_rt::test]
async fn guided_deals_from_the_persian_pages_speak_persian_to_their_end() {
    let (mut driver, server) = staged!(quick_and_fair);
    let c = driver.session(390, 844).await;
    guided_in_persian(&c, &server.base, "/fa/pishe-pasha", "#play-guided").await;
    let moves = play_to_the_end(&c, "pishe-pasha-fa-guided-390x844")
        .await
        .moves;
    assert!(moves > 0);
    assert_eq!(
        wait_for_text(&c, GUIDE_HEADING, 10).await,
        "این دست تمام شد"
    );
    assert_eq!(result_out_of_sight(&c).await, "", "the guided result");
    assert_no_console_error(&c, "a Persian guided deal").await;
    // The rules page's own button starts the guided deal in the page's language too, though the
    // browser last chose English at a table.
    eval(
        &c,
        "localStorage.setItem('chaikhana.lang', 'en'); return true",
    )
    .await;
    guided_in_persian(
        &c,
        &server.base,
        "/fa/pishe-pasha/rules",
        "[data-guided='pishe-pasha']",
    )
    .await;
    c.close().await.unwrap();
}
