//! The site's own ways through its pages, shared by the browser suites: a board's state read by a
//! game's script, a Panjpar table opened against the computer, a friends link, a guided deal from its
//! start to its end, the computer's level shown, and the page's fair-deal check.

use fantoccini::Client;
use serde_json::json;

use chaikhana::settings::Settings;

use super::{
    assert_no_console_error, click, docs_screenshot, go, result_out_of_sight, table_of, wait_for,
    wait_for_text,
};

/// A script that says what a board offers now: `none` before the table is drawn, `over` once the
/// match is, `next` while a next deal is offered, else the first of the game's `own` lines that
/// returns, else `wait`.
pub fn board_state(own: &str) -> String {
    format!(
        "const t = document.querySelector('.table');\n\
         if (!t) return 'none';\n\
         if (t.dataset.status === 'match-over') return 'over';\n\
         if (document.querySelector('#next-deal')) return 'next';\n\
         {}\nreturn 'wait';",
        own.trim()
    )
}

/// The end of a guided deal: the guide says the deal is over, the result panel is whole in sight with
/// the guide above it, no error was logged, and the picture is kept in docs/screenshots as `picture`.
pub async fn guided_deal_over(client: &Client, picture: &str) {
    assert_eq!(
        wait_for_text(client, GUIDE_HEADING, 10).await,
        "The deal is over",
        "{picture}"
    );
    // The picture first, so that a result out of sight can be seen (target/screenshots).
    super::screenshot(client, &format!("{picture}-before-check")).await;
    assert_eq!(result_out_of_sight(client).await, "", "{picture}");
    docs_screenshot(client, picture).await;
    assert_no_console_error(client, "in a guided deal").await;
}

/// Waits for the table page to say which computer it plays against: the level's name, and the
/// sentence shown.
pub async fn level_shown(client: &Client) -> (String, String) {
    let shown = wait_for(
        client,
        "const l = document.querySelector('#level-shown'); return l && [l.dataset.level, l.textContent]",
        20,
    )
    .await;
    let part = |i: usize| shown[i].as_str().unwrap_or_default().to_string();
    (part(0), part(1))
}

/// Whether the page's deal check saw every frame of the deal it judged last, missed no blind lead,
/// and kept track to the end; otherwise what it kept, to say why.
const SAW_THE_WHOLE_DEAL: &str = r#"
const kept = Object.keys(localStorage).filter((k) => k.startsWith('chaikhana-fair:')).map((k) => JSON.parse(localStorage.getItem(k)));
const deal = kept.map((d) => d.inPlay).find((p) => p && p.revealed);
const memo = deal?.memo;
return deal?.whole === true && memo?.tracking === true && !memo.blindMissed && !memo.gap ? true : JSON.stringify(kept);
"#;

/// Asserts that the page's deal check, under the board, passed on the last deal and says the deal was
/// shuffled with this page's own number (the server must let each deal wait for the page's number:
/// `shuffle_wait_ms`); or, where what Ganjifa hides from a seat keeps part of a deal from being
/// checked, that the page saw the whole deal and says every other check passed.
pub async fn assert_fair_deal(c: &Client) {
    let check = wait_for(
        c,
        "const m = document.querySelector('#deal-check'); return m && m.dataset.state && m.dataset.state + ': ' + m.textContent + ' ' + m.title",
        10,
    )
    .await;
    let check = check.as_str().unwrap_or_default();
    if check.starts_with("partly") {
        // What the game hides from a seat can keep a page from checking part of a deal it saw whole
        // (Ganjifa's reshuffle after a hand with no Mir, a blind lead around cards laid face down):
        // the one partial verdict an honest table may earn, and never for frames the page missed.
        let whole = super::eval(c, SAW_THE_WHOLE_DEAL).await;
        let hidden = [
            "A blind lead of this deal could not be checked",
            "cards hidden from you keep this page from checking that reshuffle",
        ];
        assert!(
            hidden.iter().any(|why| check.contains(why)) && whole == true,
            "{check} (the page's notes: {whole})"
        );
        return;
    }
    assert!(
        check.starts_with("fair: ✓ Fair deal: shuffled with your number"),
        "{check}"
    );
    assert!(
        check.contains("nobody could choose this deal alone"),
        "{check}"
    );
}

/// From a game's landing page, "Play with friends": the link to share, once the page gives it.
pub async fn friends_link(client: &Client) -> String {
    click(client, "#play-friends").await;
    let shared = "return document.querySelector('#share-link')?.value";
    wait_for_text(client, shared, 10).await
}

/// From `base`'s Panjpar landing page, a one-deal table among friends: the link to share.
pub async fn panjpar_friends_link(c: &Client, base: &str) -> String {
    go(c, base, "/panjpar").await;
    click(c, "input[name=length][value='1']").await;
    friends_link(c).await
}

/// On a game's landing page, a match of `length` deals to win against the computer: waits until the
/// table page shows an element matching `shown`, and answers the table's id.
pub async fn computer_table_from_landing(c: &Client, length: u32, shown: &str) -> String {
    click(c, &format!("input[name=length][value='{length}']")).await;
    click(c, "#play-computer").await;
    let drawn = format!(
        "return location.pathname.startsWith('/t/') && document.querySelector({})",
        json!(shown)
    );
    wait_for(c, &drawn, 20).await;
    table_of(c).await
}

/// Opens a one-deal Panjpar table against the computer from `base`'s landing page, waits for the
/// board, and answers the table's id.
pub async fn open_panjpar_computer_table(c: &Client, base: &str) -> String {
    go(c, base, "/panjpar").await;
    computer_table_from_landing(c, 1, ".table").await
}

/// From the landing page at `landing` of `base`, "Play a guided deal": the guide's first heading,
/// once the guide speaks.
pub async fn start_guided(c: &Client, base: &str, landing: &str) -> String {
    go(c, base, landing).await;
    click(c, "#play-guided").await;
    wait_for_text(c, GUIDE_HEADING, 20).await
}

/// A script giving the guided deal's panel heading (guide.js), or "" while the panel is not shown.
pub const GUIDE_HEADING: &str =
    "const g = document.getElementById('guide'); return g && !g.hidden ? g.querySelector('h2')?.textContent || '' : ''";

/// Every deal of the server waits for the page's number, as on the site, so that every deal (the
/// first included) is shuffled with it and the page's deal check can say so ([`assert_fair_deal`]).
pub fn pages_shuffle(settings: &mut Settings) {
    settings.shuffle_wait_ms = 60_000;
}

/// The server of a browser test that plays against the computer and checks its deals fair: the
/// computer answers within 5 ms, and every deal waits for the page's number ([`pages_shuffle`]).
pub fn quick_and_fair(settings: &mut Settings) {
    settings.bot_delay_ms = 5;
    pages_shuffle(settings);
}

/// Opens the replay's list of moves where it folds (a narrow screen), as a person would: its toggle.
/// Answers whether it had to be opened.
pub async fn open_replay_list(client: &Client) -> bool {
    let opened = wait_for(
        client,
        "const f = document.getElementById('replay-fold'); if (!f) return null; \
         const folded = getComputedStyle(f).display !== 'none' && f.getAttribute('aria-expanded') === 'false'; \
         if (folded) f.click(); return [folded]",
        10,
    )
    .await;
    wait_for(
        client,
        "const l = document.getElementById('replay-list'); return !!l && getComputedStyle(l).display !== 'none'",
        10,
    )
    .await;
    opened[0] == json!(true)
}
