//! The fair-deal line in Chromium, in its four states and both languages: a deal this page shuffled
//! with its number ("Fair deal"), a deal whose number stands changed in the page's storage when the
//! page reloads mid-deal ("Not shuffled with your number"), a page whose storage forgot the deal
//! ("This page joined after the shuffle"), and a page that remembers answering the coming deal under
//! another commitment ("The table asked twice"). One Panjpar deal against the computer each.

use fantoccini::Client;

use crate::browser_panjpar::{click_panjpar_move, Clicked};
use crate::chromium::*;

/// Plays by clicking until the match is over.
async fn play_out(c: &Client) {
    let started = std::time::Instant::now();
    while !matches!(click_panjpar_move(c).await, Clicked::Over) {
        assert!(started.elapsed().as_secs() < 240, "the match did not end");
    }
}

/// The line's state and text once shown, after switching the table to `lang`.
async fn line(c: &Client, lang: &str) -> String {
    click(c, &format!("[data-lang={lang}]")).await;
    wait_for_text(
        c,
        "const m = document.querySelector('#deal-check'); return m && m.dataset.state && m.dataset.state + '|' + m.textContent",
        10,
    )
    .await
}

/// Rewrites what this page keeps of its fair deals (`change` gets each kept object as `k`), and
/// reloads the page, as a page that comes back mid-deal.
async fn change_kept_and_reload(c: &Client, change: &str) {
    wait_for(
        c,
        "return Object.keys(localStorage).some((k) => k.startsWith('chaikhana-fair:') && JSON.parse(localStorage.getItem(k)).inPlay)",
        20,
    )
    .await;
    eval(
        c,
        &format!(
            "for (const key of Object.keys(localStorage).filter((k) => k.startsWith('chaikhana-fair:'))) {{ \
               let k = JSON.parse(localStorage.getItem(key)); {change}; \
               if (k === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(k)); }} \
             return true;"
        ),
    )
    .await;
    c.refresh().await.unwrap();
    wait_for(c, "return !!document.querySelector('.table')", 20).await;
}

#[actix_rt::test]
async fn the_fair_deal_line_in_its_four_states_and_both_languages() {
    let (mut driver, server) = staged!(quick_and_fair);
    let c = driver.session(1280, 800).await;
    let expect = |line: &str, state: &str, words: &str| {
        assert!(line.starts_with(&format!("{state}|{words}")), "{line}");
    };

    open_panjpar_computer_table(&c, &server.base).await;
    play_out(&c).await;
    expect(
        &line(&c, "en").await,
        "fair",
        "✓ Fair deal: shuffled with your number",
    );
    expect(&line(&c, "fa").await, "fair", "✓ دست منصفانه");

    open_panjpar_computer_table(&c, &server.base).await;
    change_kept_and_reload(
        &c,
        "for (const n in k.deals) k.deals[n].number = '00'.repeat(16)",
    )
    .await;
    play_out(&c).await;
    expect(
        &line(&c, "en").await,
        "missing",
        "✗ Not shuffled with your number",
    );
    expect(&line(&c, "fa").await, "missing", "✗ با عدد شما بُر نخورد");

    open_panjpar_computer_table(&c, &server.base).await;
    change_kept_and_reload(&c, "k = null").await;
    play_out(&c).await;
    expect(
        &line(&c, "en").await,
        "joined",
        "This page joined after the shuffle",
    );
    expect(&line(&c, "fa").await, "joined", "این صفحه پس از بُر زدن آمد");

    // The page remembers answering the coming deal's number under another commitment: as soon as the
    // table shows it that deal again, the line says the table asked twice, and keeps saying it.
    open_panjpar_computer_table(&c, &server.base).await;
    change_kept_and_reload(&c, "k.deals[k.highest].commitment = 'ab'.repeat(32)").await;
    expect(
        &line(&c, "en").await,
        "asked",
        "✗ The table asked twice for a deal's shuffle",
    );
    play_out(&c).await;
    expect(
        &line(&c, "en").await,
        "asked",
        "✗ The table asked twice for a deal's shuffle",
    );
    expect(
        &line(&c, "fa").await,
        "asked",
        "✗ میز برای بُرِ یک دست دو بار عدد خواست",
    );
    c.close().await.unwrap();
}
