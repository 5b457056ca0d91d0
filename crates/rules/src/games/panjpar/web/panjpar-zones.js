// Parts of the Panjpar board drawn from the view and the words alone: the pile with the trump card
// under it, the drawer of the deal's moves, the moves kept through a reload, and a long hand's rows.

import { cardElement, backElement } from "./cards.js";
import { el } from "./ui.js";
import { cardName, suitName } from "./panjpar-words.js";

/** The board's words in one of its languages.
 * @typedef {(typeof import("./panjpar-words.js").WORDS)[keyof typeof import("./panjpar-words.js").WORDS]} PanjparWords */

/**
 * The deal's moves, kept in the browser's session beside the deal they belong to (`deals_dealt`), so
 * that a reload shows the whole deal's moves again, not only the last one.
 */
export class MoveLog {
  /** @param {string} path */
  constructor(path) {
    this.key = `chaikhana.moves.${path}`;
    /** @type {string[]} */
    this.lines = [];
  }

  /** Keeps the lines for the deal `match` is at.
   * @param {any} match the view's match (the table's JSON) */
  keep(match) {
    if (match) sessionStorage.setItem(this.key, JSON.stringify({ deal: match.deals_dealt, lines: this.lines }));
  }

  /** Reads back the lines kept for the deal `match` is at (none for another deal).
   * @param {any} match the view's match (the table's JSON) */
  read(match) {
    try {
      const kept = JSON.parse(sessionStorage.getItem(this.key) || "null");
      this.lines = kept && match && kept.deal === match.deals_dealt ? kept.lines : [];
    } catch {
      this.lines = [];
    }
    return this.lines.length > 0;
  }
}

/**
 * The pile with the trump card under it, and the place beaten cards go. `who` names a seat as this
 * page does.
 * @param {any} v the deal's view (the table's JSON)
 * @param {PanjparWords} w the board's words
 * @param {string} lang
 * @param {(seat: number) => string} who
 */
export function pileZone(v, w, lang, who) {
  const zone = el("section", "zone stock-zone");
  zone.append(el("h2", "trump-name", v.trump ? w.trump(suitName(v.trump, lang)) : w.trumpUnknown));
  const pile = el("div", "pile");
  pile.dir = "ltr";
  pile.dataset.area = "stock";
  if (v.trump_card) {
    const slot = el("span", "trump-slot");
    slot.append(cardElement(v.trump_card, { lang, extraClass: "small trump-card" }));
    pile.append(slot);
  }
  if (v.stock_left || v.phase.name === "guess") pile.append(backElement(w.back, "small stack"));
  else pile.append(el("span", "card small empty", ""));
  zone.append(pile);
  let said = v.stock_left ? w.stockYes : w.stockNo;
  if (v.trump_card) said = w.trumpUnder(cardName(v.trump_card, lang));
  else if (v.trump_drawn_by !== null && v.trump_drawn_by !== undefined) said = w.trumpDrawn(who(v.trump_drawn_by));
  zone.append(el("p", "stock-left", said));
  const out = el("div", "out");
  out.dataset.area = "discard";
  out.append(v.out_of_play ? backElement(w.outOfPlay, "small stack") : el("span", "card small empty", ""));
  out.append(el("span", "out-name", w.outOfPlay));
  zone.append(out);
  return zone;
}

/**
 * The moves of this deal, in a drawer that opens on demand; `onToggle` hears whether it is open, so
 * that the next drawing keeps it so.
 * @param {PanjparWords} w the board's words
 * @param {string[]} lines
 * @param {boolean} open
 * @param {(open: boolean) => void} onToggle
 * @param {Element | null} levelLine
 */
export function movesDrawer(w, lines, open, onToggle, levelLine) {
  const drawer = el("details", "drawer");
  drawer.open = open;
  drawer.addEventListener("toggle", () => onToggle(drawer.open));
  const summary = el("summary", "button", w.moves);
  summary.id = "moves-toggle";
  drawer.append(summary);
  const panel = el("div", "drawer-panel");
  const level = levelLine && levelLine.querySelector("#level-shown");
  if (level) panel.append(el("p", "level-said", level.textContent));
  if (!lines.length) panel.append(el("p", "", w.noMoves));
  else {
    const list = el("ol", "log");
    for (const said of lines) list.append(el("li", "", said));
    panel.append(list);
  }
  drawer.append(panel);
  return drawer;
}

/** The most cards a row of the hand holds on a phone held upright, each of them wide enough to tap
 * and showing its corner whole. */
const ROW_MOST = 7;

/**
 * The hand's cards in rows of about the same length, no row longer than `ROW_MOST`: a phone held
 * upright lays each row out as a fan of its own (panjpar.css), a wider screen as one fan of them all.
 * @param {HTMLElement[]} cards
 */
export function handRows(cards) {
  const rows = Math.max(1, Math.ceil(cards.length / ROW_MOST));
  const parts = [];
  for (let r = 0, at = 0; r < rows; r++) {
    const size = Math.ceil((cards.length - at) / (rows - r));
    const row = el("div", "hand-row");
    row.append(...cards.slice(at, at + size));
    row.style.setProperty("--in-row", String(Math.max(1, size)));
    parts.push(row);
    at += size;
  }
  return parts;
}
