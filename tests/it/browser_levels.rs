//! The computer levels in Chromium, at a desktop (1280x800) and a phone (390x844): the landing page
//! shows the guided deal's button as it opens, lists the four levels, each with its rating in the
//! game, on one screen with the buttons, and passes axe-core; the level chosen is remembered across a reload of the landing page, is the one
//! shown at the table, is chosen again in the level choice at the match's end, and stays for the new
//! match.

use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser_access::{axe_source, violations};
use crate::browser_panjpar::play_to_the_end;
use crate::chromium::*;

/// What the landing page's level list shows: each level's value, whether it is checked, and its
/// label's words.
const LEVELS: &str = "return [...document.querySelectorAll('input[name=level]')].map(i => [i.value, i.checked, i.closest('label').textContent.replace(/\\s+/g, ' ').trim()])";

/// Whether the level list and the play button are wholly within the window, with no sideways scroll.
/// What of the level choices and the button to play lies outside the screen (to within a pixel: a
/// scroll may leave an edge a fraction out), or "" when both are in sight.
const ON_ONE_SCREEN: &str = "const out = (sel) => { const r = document.querySelector(sel).getBoundingClientRect(); \
       return r.top > -1 && r.bottom < innerHeight + 1 && r.left > -1 && r.right < innerWidth + 1 ? '' : `${sel} at ${r.left},${r.top} to ${r.right},${r.bottom} in ${innerWidth}x${innerHeight}; `; }; \
     const wide = document.documentElement.scrollWidth > innerWidth ? `the page is ${document.documentElement.scrollWidth} px wide` : ''; \
     return out('fieldset.level') + out('#play-computer') + wide";

async fn checked_level(c: &Client) -> Value {
    eval(
        c,
        "return document.querySelector('input[name=level]:checked')?.value",
    )
    .await
}

#[actix_rt::test]
async fn a_level_chosen_on_the_landing_is_rated_remembered_shown_and_kept_for_the_next_match() {
    let (mut driver, server) = staged!(|s| {
        s.bot_delay_ms = 5;
        s.strong_budget_ms = 5;
    });
    let axe = axe_source();
    for ((width, height), level) in [((1280, 800), "clever"), ((390, 844), "gentle")] {
        let size = format!("{width}x{height}");
        let c = driver.session(width, height).await;
        go(&c, &server.base, "/panjpar").await;
        let levels = eval(&c, LEVELS).await;
        let values: Vec<&str> = levels
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|l| l[0].as_str())
            .collect();
        assert_eq!(
            values,
            ["gentle", "standard", "clever", "strong"],
            "{levels}"
        );
        assert_eq!(
            checked_level(&c).await,
            "standard",
            "the default, at {size}"
        );
        for entry in levels.as_array().unwrap() {
            let words = entry[2].as_str().unwrap();
            assert!(words.contains("rating "), "{size}: {words}");
        }
        // A newcomer's way in, the guided deal, and the button that plays at once are in sight as
        // the page opens.
        for id in ["play-guided", "play-computer"] {
            let seen = format!("const r = document.querySelector('#{id}').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight || `${{r.top}} to ${{r.bottom}} in ${{innerWidth}}x${{innerHeight}}`");
            assert_eq!(eval(&c, &seen).await, true, "#{id} at {size}");
        }
        // The page scrolled down to the choices, as a phone's reader would.
        eval(
            &c,
            "document.querySelector('fieldset.level').scrollIntoView({ block: 'start' })",
        )
        .await;
        assert_eq!(eval(&c, ON_ONE_SCREEN).await, json!(""), "{size}");
        screenshot(&c, &format!("levels-landing-{size}")).await;
        if let Some(axe) = &axe {
            settle(&c).await;
            let found = violations(&c, axe).await;
            assert!(found.is_empty(), "landing at {size}: {found:#?}");
        }

        click(&c, &format!("#level-{level}")).await;
        c.refresh().await.unwrap();
        wait_for(&c, "return document.readyState === 'complete'", 10).await;
        assert_eq!(
            checked_level(&c).await,
            level,
            "kept over a reload at {size}"
        );

        click(&c, "input[name=length][value='1']").await;
        click(&c, "#play-computer").await;
        let (shown, said) = level_shown(&c).await;
        assert_eq!(shown, level, "{said}");
        assert!(said.contains(&format!("{level} computer")), "{said}");

        play_to_the_end(&[&c], None).await;
        let offered = wait_for(
            &c,
            "const all = [...document.querySelectorAll('#rematch-level input')]; return all.length && all.map(i => [i.value, i.checked])",
            20,
        )
        .await;
        assert_eq!(
            offered,
            json!([
                ["gentle", level == "gentle"],
                ["standard", false],
                ["clever", level == "clever"],
                ["strong", false]
            ]),
            "{size}"
        );
        click(&c, "#rematch").await;
        wait_for(
            &c,
            &format!(
                "return document.querySelector('.table')?.dataset.status !== 'match-over' && document.querySelector('#level-shown')?.dataset.level === '{level}'"
            ),
            20,
        )
        .await;
        c.close().await.unwrap();
    }
}
