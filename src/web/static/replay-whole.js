// The replay's "Whole deal" panel: every card as the players' shuffle dealt it, from the deal's reveal,
// grouped by where it went (a seat, a stock, the trump card, the pile), a place kept secret from this
// viewer drawn as a back. The dealt order is worked out by verify.js from the revealed order.

import { boardHooks } from "./board.js";
import { dealtOrder } from "./reveal.js";
import { wordsIn } from "./replay-words.js";

/** The panel for the replay frame `frame`; `who(seat)` names a seat as the replay's line does.
 * @param {import("./socket.js").ViewFrame} frame
 * @param {string} lang
 * @param {(seat: number) => string} who */
export function wholeDeal(frame, lang, who) {
  const panel = document.createElement("div");
  panel.className = "replay-whole";
  panel.id = "replay-whole";
  if (!frame.deal?.reveal) return panel;
  dealtOrder(frame.deal).then((places) => fillWhole(panel, places, lang, who));
  return panel;
}

/** The panel's groups: each destination's cards in the order dealt, a hidden place as a back.
 * @param {HTMLElement} panel
 * @param {Array<{ card: string | null, to: number | string }>} places
 * @param {string} lang
 * @param {(seat: number) => string} who */
function fillWhole(panel, places, lang, who) {
  const w = wordsIn(lang);
  /** @type {Map<string, Array<string | null>>} */
  const groups = new Map();
  for (const { card, to } of places) {
    // A place the reveal keeps from this seat (a card played face down, one left in a stock).
    const key = card === null ? "secret" : String(to);
    if (!groups.has(key)) groups.set(key, []);
    /** @type {Array<string | null>} */ (groups.get(key)).push(card);
  }
  for (const [to, codes] of groups) {
    const seat = Number(to);
    const title = Number.isInteger(seat)
      ? boardHooks().dealt === "stock" ? w.stockOf(who(seat)) : w.dealtTo(who(seat))
      : to === "trump" ? w.trump : to === "secret" ? w.secret : w.pile;
    const group = document.createElement("section");
    group.className = "replay-dealt";
    const heading = document.createElement("h3");
    heading.textContent = `${title} (${codes.length})`;
    const row = document.createElement("div");
    row.className = "replay-cards";
    row.dir = "ltr";
    for (const code of codes) {
      const card = code === null ? boardHooks().back(w.secret) : boardHooks().card(code, lang);
      // Not a card of the board: motion.js and the board's own look-ups leave it alone.
      delete card.dataset.card;
      row.append(card);
    }
    group.append(heading, row);
    panel.append(group);
  }
}
