//! Panjpar in Persian: the rules and the landing page right to left with the cards' rows left to
//! right, a Persian table played to its end with the computer's level said in Persian, and a guided
//! deal started from the Persian landing page whose guide speaks Persian.

use super::play_to_the_end;
use crate::chromium::*;

#[actix_rt::test]
async fn the_persian_pages_are_right_to_left_and_the_persian_table_plays() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let c = driver.session(390, 844).await;
    go(&c, &server.base, "/fa/panjpar/rules").await;
    assert_eq!(eval(&c, "return document.documentElement.dir").await, "rtl");
    let rows = eval(
        &c,
        "return [...document.querySelectorAll('[data-cards]')].map(r => r.dir + r.children.length)",
    )
    .await;
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .all(|r| r.as_str().unwrap().starts_with("ltr")),
        "{rows}"
    );
    screenshot(&c, "fa-panjpar-rules-390x844").await;
    go(&c, &server.base, "/fa/panjpar").await;
    assert_eq!(eval(&c, "return document.documentElement.dir").await, "rtl");
    click(&c, "input[name=length][value='1']").await;
    click(&c, "#play-computer").await;
    wait_for(&c, "return document.querySelector('.table')", 20).await;
    assert_eq!(
        eval(&c, "return document.querySelector('#board').dir").await,
        "rtl"
    );
    let hand_rows = eval(
        &c,
        "return [...document.querySelectorAll('#board .cards')].every(r => r.dir === 'ltr')",
    )
    .await;
    assert_eq!(hand_rows, true);
    // The computer's level is said in Persian too (the shared level words, by the board's language).
    let (_, said) = level_shown(&c).await;
    assert!(said.contains("رایانهٔ معمولی"), "{said}");
    play_to_the_end(&[&c], Some("panjpar-fa-390x844")).await;
    let result = eval(&c, "return document.querySelector('#result').textContent").await;
    assert!(result.as_str().unwrap().contains("مسابقه"), "{result}");
    c.close().await.unwrap();
}

#[actix_rt::test]
async fn the_persian_landing_starts_a_guided_deal_in_persian() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
    });
    // The guided deal's button of the Persian landing page seats the player at a Persian table, whose
    // guide speaks Persian from its first step, its way out included.
    let c = driver.session(390, 844).await;
    let heading = start_guided(&c, &server.base, "/fa/panjpar").await;
    assert!(
        [
            "رنگ حکم را حدس بزنید",
            "رایانه حدس می‌زند",
            "حمله را ببُرید",
            "نوبت حملهٔ شما",
            "رایانه حمله می‌کند",
            "رایانه دفاع می‌کند",
        ]
        .contains(&heading.as_str()),
        "{heading}"
    );
    assert_eq!(eval(&c, "return document.documentElement.lang").await, "fa");
    assert_eq!(
        eval(&c, "return document.getElementById('guide').dir").await,
        "rtl"
    );
    let leave = text_of(&c, "#guide-leave", 5).await;
    assert_eq!(leave, "بیرون رفتن از راهنما");
    assert_no_console_error(&c, "a Persian guided deal").await;
    c.close().await.unwrap();
}
