//! The page's own deal check, `verify.js`, run in Node.js beside the page's shared modules, each
//! game's hooks and the test's forgeries: a script's output, the line a page shows after following a
//! seat's frames, and the frames of a first deal to follow.

use serde_json::Value;

use crate::support::Client;

/// Runs `verify.js` in Node.js: `script` is the body of a module that has `verify` and `reveal` (the
/// modules), `check(frames, kept, lang)` and `vectors` at hand; what it prints. The page's shared
/// modules it needs are copied beside it, with each game's hooks (`{game}-hooks.js`, from the
/// catalog), which say what a view of that game shows.
pub(super) fn node(script: &str, inputs: &[(&str, String)]) -> String {
    let dir = std::env::temp_dir().join(format!(
        "chaikhana-verify-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        "verify.js",
        "reveal.js",
        "verify-words.js",
        "board.js",
        "cards.js",
        "gcards.js",
        "persian.js",
    ] {
        std::fs::copy(root.join("src/web/static").join(file), dir.join(file)).unwrap();
    }
    for file in [
        "forge.js",
        "forgeries.js",
        "attacks.js",
        "stocks.js",
        "attacks-places.js",
        "attacks-blind.js",
    ] {
        std::fs::copy(
            root.join("tests/it/fair_forgeries").join(file),
            dir.join(file),
        )
        .unwrap();
    }
    for game in chaikhana::catalog::GAMES {
        let hooks = format!("{}-hooks.js", game.name());
        let file = game.pages().static_file(&hooks).expect("the game's hooks");
        std::fs::write(dir.join(&hooks), file.text).unwrap();
    }
    std::fs::copy(
        root.join("tests/fixtures/fair-vectors.json"),
        dir.join("vectors.json"),
    )
    .unwrap();
    std::fs::write(dir.join("package.json"), r#"{"type":"module"}"#).unwrap();
    for (name, text) in inputs {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let prelude = r#"
import { readFileSync } from "node:fs";
import * as verify from "./verify.js";
import * as reveal from "./reveal.js";
import { useBoard } from "./board.js";
const read = (name) => JSON.parse(readFileSync(new URL(`./${name}`, import.meta.url)));
const vectors = read("vectors.json");
/** The line a page shows after following `frames`, its browser storage holding `kept` under its own
 * key "page" (none for a watcher's page). */
async function check(frames, kept, lang = "en", watcher = false) {
  const store = { getItem: (k) => (k in kept ? kept[k] : null), setItem: (k, v) => { kept[k] = v; } };
  const mark = { textContent: "", title: "", dataset: {}, hidden: true, append() {} };
  const page = new verify.DealCheck(mark, () => lang, watcher ? null : () => true, store, () => "page");
  // The table page takes its game's hooks with its board.
  const game = frames.find((f) => f.game)?.game;
  if (game) useBoard(await import(`./${game}-hooks.js`));
  // A frame {"type": "acted"} is an action this page sent (its board tells the check, table.js).
  for (const frame of frames) {
    if (frame.type === "acted") page.acted(frame.action);
    else await page.follow(frame);
  }
  return `${mark.dataset.state}|${mark.textContent}|${mark.title}`;
}
"#;
    std::fs::write(dir.join("run.js"), format!("{prelude}\n{script}")).unwrap();
    let out = std::process::Command::new("node")
        .arg(dir.join("run.js"))
        .output()
        .expect("node runs");
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The page's line after following `frames` (every frame it was sent) with `store` as its browser
/// storage; `watcher`: a watcher's page.
pub(super) fn page_line(frames: &[Value], store: String, lang: &str, watcher: bool) -> String {
    node(
        &format!(
            r#"console.log(await check(read("frames.json"), read("store.json"), "{lang}", {watcher}));"#
        ),
        &[
            ("frames.json", serde_json::to_string(frames).unwrap()),
            ("store.json", store),
        ],
    )
}

/// The frames of `client` the deal check follows (views and `shuffle` frames) from the start up to
/// the first reveal.
pub(super) fn first_deal(client: &Client) -> Vec<Value> {
    let views: Vec<Value> = client
        .received
        .iter()
        .filter(|f| f["type"] == "view" || f["type"] == "shuffle" || f["type"] == "acted")
        .cloned()
        .collect();
    let end = views
        .iter()
        .position(|f| !f["deal"]["reveal"].is_null())
        .expect("a reveal");
    views[..=end].to_vec()
}
