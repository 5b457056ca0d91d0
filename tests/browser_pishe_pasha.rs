//! Pishe Pasha in Chromium: a whole one-deal match against the computer, played by clicking Give,
//! Turn a card and Keep it as the board offers them, with screenshots on a phone and a desktop.

mod chromium;
mod support;

use fantoccini::Client;

use chromium::*;
use support::TestServer;

const BOARD_STATE: &str = r#"
const t = document.querySelector('.table');
if (!t) return 'none';
if (t.dataset.status === 'match-over') return 'over';
if (document.querySelector('#next-deal')) return 'next';
if (document.querySelector('#give:not([disabled])')) return 'give';
if (document.querySelector('#turn:not([disabled])')) return 'turn';
if (document.querySelector('#keep')) return 'keep';
return 'wait';
"#;

async fn play_to_the_end(c: &Client, name: &str) {
    let started = std::time::Instant::now();
    let mut moves = 0;
    loop {
        let state = eval(c, BOARD_STATE).await;
        let clicked = match state.as_str().unwrap_or("none") {
            "over" => break,
            "next" => click(c, "#next-deal").await,
            "give" => click(c, "#give").await,
            "turn" => click(c, "#turn").await,
            "keep" => click(c, "#keep").await,
            _ => false,
        };
        if clicked {
            moves += 1;
            if moves == 20 {
                screenshot(c, name).await;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(started.elapsed().as_secs() < 300, "the match did not end");
    }
    assert!(moves > 0, "no move was made");
}

#[actix_rt::test]
async fn a_pishe_pasha_match_against_the_computer_played_by_clicking() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(mut driver) = driver() else { return };
    let server = TestServer::start(|s| s.bot_delay_ms = 2);
    for (width, height) in [(390, 844), (1280, 800)] {
        let c = driver.session(width, height).await;
        c.goto(&format!("{}/pishe-pasha", server.base))
            .await
            .unwrap();
        click(&c, "input[name=length][value='one-deal']").await;
        click(&c, "#play-computer").await;
        wait_for(&c, "return document.querySelector('.table')", 20).await;
        play_to_the_end(&c, &format!("pishe-pasha-{width}x{height}")).await;
        let result = wait_for(
            &c,
            "return document.querySelector('#result')?.textContent",
            10,
        )
        .await;
        assert!(
            result.as_str().unwrap().contains("won the match"),
            "{result}"
        );
        // The page checked the revealed deal against the commitment it was sent before play.
        let check = wait_for(
            &c,
            "const m = document.querySelector('#deal-check'); return m && m.dataset.state && m.dataset.state + ': ' + m.textContent + ' ' + m.title",
            10,
        )
        .await;
        assert!(check.as_str().unwrap().starts_with("verified: "), "{check}");
        eval(&c, "document.querySelector('#deal-check').scrollIntoView()").await;
        screenshot(&c, &format!("pishe-pasha-result-{width}x{height}")).await;
        c.close().await.unwrap();
    }
}
