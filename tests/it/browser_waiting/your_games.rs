//! "Your games" on the home page, in Chromium: a table left mid-match listed with whose turn it is
//! (no token in the list, a table the server no longer knows listed as closed and forgotten, the list
//! fitting a phone), one click resuming the same seat, and a table forgotten on request.

use std::time::Duration;

use serde_json::{json, Value};

use super::{play_one_move, start_against_the_computer, stored};
use crate::chromium::*;

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

    // The Persian home lists it too, in Persian.
    go(&c, &server.base, "/fa").await;
    let text = wait_for_text(&c, &seen, 15).await;
    assert!(text.contains("پنج‌پر با رایانه"), "{text}");
    assert!(text.contains("آخرین حرکت"), "{text}");
    assert!(!text.contains("Score"), "{text}");
    assert_no_console_error(&c, "on the Persian home page").await;

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
