//! Ganjifa played by clicking, as a player would: what the board offers now, one move (a lead from
//! the ladder's buttons or a hand card, a card put down, a back picked, in reach), this seat's turn, a
//! match from the home page to its end, and up to a card to put down.

use std::sync::LazyLock;
use std::time::{Duration, Instant};

use fantoccini::Client;

use crate::chromium::*;

/// What this browser may do now: the selector of the control a player would click, or a word.
pub(crate) static BOARD_STATE: LazyLock<String> = LazyLock::new(|| {
    board_state(
        r#"
if (document.querySelector('.g-backs button')) return 'pick';
if (document.querySelector('[data-area=actions] button[data-action]')) return 'lead-button';
if (document.querySelector('.ghand button.gcard.playable')) return 'card';
"#,
    )
});

/// Empty when every face-down card offered for a blind pick lies wholly on screen with nothing over
/// its visible edge (the backs overlap like a hand); otherwise what is wrong with the first that is not.
const BACKS_IN_REACH: &str = r#"
for (const b of document.querySelectorAll('.g-backs button')) {
  const r = b.getBoundingClientRect();
  const where = `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)} in ${innerWidth}x${innerHeight}`;
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) return `a back at ${where} is off the screen`;
  const top = document.elementFromPoint(r.left + Math.min(8, r.width / 2), r.top + r.height / 2);
  if (!top || top.closest('button') !== b) return `a back at ${where} is under ${top ? top.tagName + '.' + top.className : 'nothing'}`;
}
return '';
"#;

/// Makes one move if this browser has one; `None` once its match is over.
pub(crate) async fn click_a_move(c: &Client) -> Option<bool> {
    let state = eval(c, &BOARD_STATE).await;
    Some(match state.as_str().unwrap_or("none") {
        "over" => return None,
        "next" => click(c, "#next-deal").await,
        "pick" => {
            // The backs travel into the hand's place first; a click aimed at one on its way lands beside it.
            settle(c).await;
            let out_of_reach = eval(c, BACKS_IN_REACH).await;
            assert_eq!(
                out_of_reach, "",
                "a blind pick's cards must be in sight and in reach"
            );
            // The picker's own hand stays in view below the leader's backs.
            let held = eval(
                c,
                "return document.querySelectorAll('.ghand .g-suit .gcard').length",
            )
            .await;
            assert!(
                held.as_u64() > Some(0),
                "a blind pick hid the picker's hand"
            );
            let width = eval(c, "return innerWidth").await;
            screenshot(c, &format!("ganjifa-blind-pick-{width}")).await;
            click(c, ".g-backs button").await
        }
        "lead-button" => click(c, "[data-area=actions] button[data-action]").await,
        // A lead by a hand card: the first click chooses it, and its button then appears.
        "card" => click(c, ".ghand button.gcard.playable:not(.chosen)").await,
        _ => false,
    })
}

/// Waits until this seat has something to do, and says what.
pub(super) async fn wait_for_our_turn(c: &Client) -> String {
    let script = format!(
        "const s = (() => {{ {} }})(); return s !== 'wait' && s !== 'none' && s",
        *BOARD_STATE
    );
    let state = wait_for(c, &script, 60).await;
    state.as_str().unwrap_or_default().to_string()
}

/// From the home page's "Play the computer" to the Ganjifa table, until the deal is on.
pub(super) async fn play_the_computer_from_home(c: &Client, base: &str) {
    go(c, base, "/").await;
    assert!(click(c, "a[data-quick='ganjifa computer']").await);
    wait_for(
        c,
        "return document.querySelector('.gtable')?.dataset.status === 'playing'",
        30,
    )
    .await;
}

pub(super) async fn play_to_the_end(c: &Client, name: &str) {
    let started = Instant::now();
    let mut moves = 0;
    while let Some(clicked) = click_a_move(c).await {
        if clicked {
            moves += 1;
            if moves == 40 {
                screenshot(c, name).await;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(started.elapsed().as_secs() < 400, "the match did not end");
    }
    assert!(moves > 0, "no move was made");
}

/// Waits for a turn where a card is put down from the hand (the opening or following a lead),
/// making whatever other moves come first.
pub(super) async fn play_to_a_put_down(c: &Client) {
    let started = Instant::now();
    loop {
        let state = wait_for_our_turn(c).await;
        let put_down = eval(
            c,
            "return /^Put down/.test(document.querySelector('#status')?.textContent || '')",
        )
        .await;
        if state == "card" && put_down == true {
            return;
        }
        assert_ne!(state, "over", "the match ended before a card was put down");
        click_a_move(c).await;
        tokio::time::sleep(Duration::from_millis(250)).await;
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no card to put down"
        );
    }
}
