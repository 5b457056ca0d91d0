//! Whole Panjpar matches in Chromium: against the computer on a phone and a desktop (the result said
//! once, in sight, the deal checked fair), between two browsers joined through the friends link (names
//! shown as text, a quick phrase, a full table watched instead, a rematch that takes both), and a
//! strong computer chosen from the landing page and changed for the next match.

use fantoccini::Client;

use super::play_to_the_end;
use crate::chromium::*;

#[actix_rt::test]
async fn a_panjpar_match_against_the_computer_played_by_clicking() {
    let (mut driver, server) = staged!(quick_and_fair);
    for (width, height) in [(390, 844), (1280, 800)] {
        let c = driver.session(width, height).await;
        open_panjpar_computer_table(&c, &server.base).await;
        play_to_the_end(&[&c], Some(&format!("panjpar-{width}x{height}"))).await;
        let result = eval(&c, "return document.querySelector('#result').textContent").await;
        assert!(
            result.as_str().unwrap().contains("won the match"),
            "{result}"
        );
        // One panel tells the end, with its reason; nothing else on the board repeats it.
        assert!(
            result
                .as_str()
                .unwrap()
                .contains("played out every card first"),
            "{result}"
        );
        let told = eval(
            &c,
            "return (document.getElementById('board').innerText.match(/won the (match|deal)/g) || []).length",
        )
        .await;
        assert_eq!(told, 1, "the result is said once");
        assert_fair_deal(&c).await;
        assert_eq!(
            result_out_of_sight(&c).await,
            "",
            "the result at {width}x{height}"
        );
        docs_screenshot(&c, &format!("panjpar-result-{width}x{height}")).await;
        c.close().await.unwrap();
    }
}

/// A name that would run a script if a page ever put it into the document as markup (and fits the
/// 20 characters a name may have).
const HOSTILE_NAME: &str = "<img src onerror=a>";

/// Gives this browser's player a name through the header's name form.
async fn give_name(c: &Client, name: &str) {
    click(c, "#name-button").await;
    let input = find(c, "#name-input").await.expect("the name field");
    input.clear().await.unwrap();
    input.send_keys(name).await.unwrap();
    click(c, "#name-form button[type=submit]").await;
    wait_for(c, "return document.querySelector('#name-form').hidden", 5).await;
}

#[actix_rt::test]
async fn a_panjpar_friends_match_between_two_browsers_joined_by_the_link() {
    let (mut driver, server) = staged!(|s| s.bot_delay_ms = 5);
    let host = driver.session(1280, 800).await;
    let guest = driver.session(390, 844).await;
    let link = panjpar_friends_link(&host, &server.base).await;
    assert!(link.contains("/t/"), "{link}");
    click(&host, "#go-to-table").await;
    wait_for(
        &host,
        "return document.querySelector('#share-link') && document.querySelector('.table')",
        10,
    )
    .await;
    // The waiting room says who is here and how many seats are free.
    let room = text_of(&host, "#waiting-room", 10).await;
    assert!(room.contains("1 of 2 here"), "{room}");
    // The host goes by a name that is markup; every page shows it as text.
    give_name(&host, HOSTILE_NAME).await;
    // Its lines stand together at the top of the felt, not spread over its height.
    let gathered = eval(
        &host,
        "return document.querySelector('#share-link').getBoundingClientRect().bottom < innerHeight * 0.75",
    )
    .await;
    assert_eq!(gathered, true, "the waiting room's lines are together");
    screenshot(&host, "panjpar-friends-waiting-1280x800").await;
    guest.goto(&link).await.unwrap();
    wait_for_status(&guest, "playing", 20).await;
    give_name(&guest, "Mina").await;
    let shown = format!(
        "return document.querySelector('#board').textContent.includes({HOSTILE_NAME:?}) && !document.querySelector('img[onerror]')"
    );
    wait_for(&guest, &shown, 10).await;
    wait_for(
        &host,
        "return document.querySelector('#board').textContent.includes('Mina')",
        10,
    )
    .await;
    // The score names the other seat as the board does.
    let score = text_of(&host, ".table .score", 10).await;
    assert!(score.starts_with("Deals won: you 0, Mina 0"), "{score}");
    // A quick phrase from the guest appears beside its seat on the host's board.
    click(&guest, "#say-button").await;
    click(&guest, "[data-phrase=good-game]").await;
    let bubble = text_of(&host, ".phrase-bubble", 10).await;
    assert_eq!(bubble, "Mina Good game!");
    // A name in the middle of a sentence keeps its capitals; "you" and "the computer" do not.
    let words = guest
        .execute_async(
            "import('/static/panjpar-words.js').then(({ WORDS }) => arguments[0](['Mina', 'You', 'The computer'].map(WORDS.en.lastBattle)))",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        words,
        serde_json::json!([
            "The last battle: Mina's attack",
            "The last battle: your attack",
            "The last battle: the computer's attack"
        ])
    );
    play_to_the_end(&[&host, &guest], Some("panjpar-friends-1280x800")).await;
    screenshot(&guest, "panjpar-friends-result-390x844").await;
    // A third browser finds the table full, and its match over.
    let third = driver.session(390, 844).await;
    third.goto(&link).await.unwrap();
    let refused = wait_for(&third, "return document.body.dataset.refused", 10).await;
    assert_eq!(refused, "409");
    let said = eval(
        &third,
        "return document.querySelector('#opening').textContent",
    )
    .await;
    assert!(
        said.as_str()
            .unwrap()
            .starts_with("The match at this table is over"),
        "{said}"
    );
    // It may start a table of the same game of its own, and has no seat to name or be told of.
    let own = eval(&third, "return document.querySelector('#own-table').href").await;
    assert!(own.as_str().unwrap().ends_with("/panjpar"), "{own}");
    let header = eval(
        &third,
        "return document.querySelector('header.site').innerText",
    )
    .await;
    assert!(!header.as_str().unwrap().contains("Your name"), "{header}");
    // It may watch instead, through the link the table gave.
    click(&third, "#watch-instead").await;
    wait_for(
        &third,
        "return document.body.hasAttribute('data-watching') && document.querySelector('.table')",
        20,
    )
    .await;
    // Playing again takes both: the host asks, the guest sees it and keeps the result until it asks too.
    click(&host, "#rematch").await;
    let waiting = wait_for(
        &host,
        "const b = document.querySelector('#rematch'); return b && b.disabled && document.querySelector('#ready-line')?.textContent",
        10,
    )
    .await;
    assert!(
        waiting.as_str().unwrap().contains("Waiting for Mina"),
        "{waiting}"
    );
    let told = text_of(&guest, "#ready-line", 10).await;
    assert!(
        told.contains(&format!("{HOSTILE_NAME} is ready to play again")),
        "{told}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    for c in [&host, &guest] {
        let status = eval(c, "return document.querySelector('.table').dataset.status").await;
        assert_eq!(status, "match-over", "the match started before both asked");
    }
    screenshot(&guest, "panjpar-friends-ready-390x844").await;
    click(&guest, "#rematch").await;
    for c in [&host, &guest] {
        wait_for_status(c, "playing", 10).await;
    }
    for c in [host, guest, third] {
        c.close().await.unwrap();
    }
}

#[actix_rt::test]
async fn a_strong_computer_table_started_from_the_landing_shows_its_level() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 5;
    });
    let c = driver.session(1280, 800).await;
    go(&c, &server.base, "/panjpar").await;
    click(&c, "input[name=length][value='1']").await;
    click(&c, "#level-strong").await;
    click(&c, "#play-computer").await;
    let (shown, said) = level_shown(&c).await;
    assert_eq!(shown, "strong", "{said}");
    assert!(said.contains("strong computer"), "{said}");
    screenshot(&c, "panjpar-strong-1280x800").await;
    // Once the match is over, the next one may be against the standard computer.
    play_to_the_end(&[&c], None).await;
    // Chosen until it is checked: a click that lands while the result panel is still drawn in is
    // made again.
    wait_for(
        &c,
        "const e = document.querySelector('#rematch-level input[value=standard]'); if (e && !e.checked) e.click(); return e && e.checked",
        20,
    )
    .await;
    // The board is drawn again (the language switch redraws it) before the player presses: the
    // choice stays.
    click(&c, "[data-lang=en]").await;
    let kept = eval(
        &c,
        "return document.querySelector('#rematch-level input:checked')?.value",
    )
    .await;
    assert_eq!(kept, "standard", "the level chosen was lost on a redraw");
    click_when_shown(&c, "#rematch", 20).await;
    wait_for(
        &c,
        "return document.querySelector('#level-shown')?.dataset.level === 'standard'",
        30,
    )
    .await;
    c.close().await.unwrap();
}
