// The panel a table page shows once its table is gone for good (table.js's `gone`): what happened,
// in the table's words, and the way on (a new table of the same game, and the home page).

import { el } from "./ui.js";
import { openTable } from "./landing.js";

/**
 * The notice for `reason`: "ended", "expired" (no move for `days`), "given-away", "lost" or
 * "closed". `kind` is the table's kind when the page saw a frame of it (then the new table is of the
 * same kind, opened at once), `game` its game if known (else the home page offers every game).
 * @param {{ reason: string, days?: number }} why
 * @param {{ words: (typeof import("./table-words.js").WORDS)[keyof typeof import("./table-words.js").WORDS], game: string | null, kind: string | null,
 *   watching: boolean, endedHere: boolean, gameName: string }} at
 * @returns {{ notice: HTMLElement, head: HTMLElement, said: string }}
 */
export function goneNotice({ reason, days }, { words, game, kind, watching, endedHere, gameName }) {
  const g = words.gone;
  let said;
  if (reason === "ended") said = watching ? g.endedWatched : endedHere ? g.endedByYou : g.ended;
  else if (reason === "expired") said = g.expired(days);
  else said = g[/** @type {"given-away" | "lost" | "closed"} */ (reason)] || g.closed;
  const notice = el("section", "notice closed-table");
  notice.id = "closed-table";
  notice.dataset.reason = reason;
  notice.setAttribute("aria-labelledby", "closed-heading");
  const head = el("h2", "", g.heads[/** @type {keyof typeof g.heads} */ (reason)] || g.heads.closed);
  head.id = "closed-heading";
  head.tabIndex = -1;
  const line = el("p", "", said);
  line.id = "closed-why";
  const way = el("div", "row");
  if (game && kind) {
    const again = el("button", "primary", g.again(gameName));
    again.type = "button";
    // A table of the same kind: the computer at once, or a friends table whose link the page gives.
    again.addEventListener("click", () => openTable(game, kind === "computer" ? "computer" : "friends"));
    way.append(again);
  } else if (game && /^[a-z][a-z-]*$/.test(game)) {
    // The kind of table is not known here: the game's own page offers both.
    const again = el("a", "button primary", g.again(gameName));
    /** @type {HTMLAnchorElement} */ (again).href = `/${game}`;
    way.append(again);
  } else {
    const choose = el("a", "button primary", g.againAny);
    /** @type {HTMLAnchorElement} */ (choose).href = "/";
    way.append(choose);
  }
  /** @type {HTMLElement} */ (way.firstElementChild).id = "start-another";
  const home = el("a", "button", g.home);
  /** @type {HTMLAnchorElement} */ (home).href = "/";
  home.id = "home-link";
  way.append(home);
  notice.append(head, line, way);
  return { notice, head, said };
}
