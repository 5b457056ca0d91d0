// Parts of the Ganjifa board drawn from the view alone: the drawers (the lead ladder and the suit
// tracker) and what everyone sees of a seat's cards.

import { GSUITS, gcardElement, gbackElement, faDigits } from "./gcards.js";
import { el } from "./ui.js";
import { WORDS, rungReason } from "./ganjifa-words.js";

/** The lead ladder: each rung of what may be led now, open or shut, and why (in the board's words `W`).
 * @param {any} v the deal's view (the table's JSON)
 * @param {typeof WORDS.en} W */
export function ladderBody(v, W) {
  const body = el("div", "lead");
  for (const hint of v.lead_hints || []) {
    const rung = el("div", `rung ${hint.allowed ? "open" : "shut"}`);
    rung.append(el("strong", "", W.rung(W.rungs[/** @type {keyof typeof W.rungs} */ (hint.rung)], hint.allowed)));
    rung.append(el("span", "", rungReason(hint, W.lang)));
    body.append(rung);
  }
  return body;
}

/** The tracker: for each suit, how many of its cards are out and how many were burnt (in the
 * board's words `W`).
 * @param {any} v the deal's view (the table's JSON)
 * @param {typeof WORDS.en} W */
export function trackerBody(v, W) {
  const grid = el("div", "tracker");
  for (const t of v.tracker) {
    const s = GSUITS[t.suit];
    const cell = el("div", "g-track");
    cell.style.setProperty("--suit", s.colour);
    cell.append(el("strong", "", W.trackerSuit(s)));
    cell.append(el("span", "", W.trackerOut(t.out, t.burnt)));
    grid.append(cell);
  }
  return grid;
}

/** A seat's hidden cards as one face-down card and their count (in the board's words `W`), if it
 * has any.
 * @param {any} v the deal's view (the table's JSON)
 * @param {number} seat
 * @param {typeof WORDS.en} W */
export function hiddenStack(v, seat, W) {
  const hidden = v.counts[seat] - v.face_up[seat].length;
  if (hidden <= 0) return null;
  const stack = el("span", "g-stack");
  stack.append(gbackElement(W.faceDown(hidden)));
  stack.append(el("span", "g-count", `×${W.lang === "fa" ? faDigits(hidden) : hidden}`));
  return stack;
}

/** A seat's face-up cards, which everyone at the table sees, worded in `lang`.
 * @param {any} v the deal's view (the table's JSON)
 * @param {number} seat
 * @param {string} [lang] */
export function openRow(v, seat, lang = "en") {
  const row = el("div", "g-open");
  row.dir = "ltr";
  for (const c of v.face_up[seat]) row.append(gcardElement(c, { extraClass: "seat-card", lang }));
  return row;
}
