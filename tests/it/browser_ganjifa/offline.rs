//! A Ganjifa move tried offline in Chromium: said not sent, the card kept in the hand and the board
//! still on one screen, and the same card played once the page is back online.

use super::{fits, play_the_computer_from_home, play_to_a_put_down};
use crate::chromium::proxy::Proxy;
use crate::chromium::*;

#[actix_rt::test]
async fn a_ganjifa_move_tried_offline_is_said_and_kept_and_goes_once_back_online() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 300);
    let proxy = Proxy::start(server.running.addr).await;
    let c = driver.session(390, 844).await;
    play_the_computer_from_home(&c, &proxy.base).await;
    play_to_a_put_down(&c).await;
    let card = eval(
        &c,
        "return document.querySelector('.ghand button.gcard.playable').dataset.card",
    )
    .await;
    let card = card.as_str().unwrap().to_string();
    // The network goes.
    proxy.go_offline(&c, 20).await;
    // The move is tried: the page says it was not sent, and the card is still in the hand. A
    // player waits for the cards to land before aiming at one.
    settle(&c).await;
    press(&c, &format!(".ghand [data-card='{card}']")).await;
    let said = wait_for_text(
        &c,
        "const b = document.querySelector('#banner'); return !b.hidden && /Not sent/.test(b.textContent) && b.textContent",
        10,
    )
    .await;
    assert!(said.contains("Not sent"), "{said}");
    let in_hand = format!("return !!document.querySelector(\".ghand [data-card='{card}']\")");
    assert_eq!(eval(&c, &in_hand).await, true);
    assert_eq!(fits(&c).await, "", "offline");
    screenshot(&c, "ganjifa-offline-390x844").await;
    // Back online, the same card goes into the trick.
    proxy.come_back(&c, 30).await;
    wait_for(
        &c,
        &format!(
            "return !!document.querySelector(\".ghand button.gcard.playable[data-card='{card}']\")"
        ),
        20,
    )
    .await;
    settle(&c).await;
    press(&c, &format!(".ghand [data-card='{card}']")).await;
    wait_for(
        &c,
        &format!("return !!document.querySelector(\".trick [data-card='{card}']\")"),
        20,
    )
    .await;
    c.close().await.unwrap();
}
