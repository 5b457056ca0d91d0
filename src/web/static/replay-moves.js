// The replay panel's list: the match's ended deals, and the moves of the deal shown, each worded by
// the board's own words (its `moveWords`) from the moves the table sends with every replay step, as
// told to this viewer. The step shown is marked (aria-current) and holds the coach's note, if any.
// Nothing here knows a rule: the table says what each move was, and the board says it in words.

import { wordsIn } from "./replay-words.js";

/**
 * What the coach adds to the list: its analysis of the deal above the moves, and for a step its mark
 * (the grade of the decision that led to it, in words) and its note.
 * @typedef {{ head: (at: import("./socket.js").ViewFrame) => Node | null, mark: (deal: number, step: number) => { grade: string, label: string } | null, note: (at: import("./socket.js").ViewFrame) => Node | null }} Analysis
 */

/**
 * The deals of the match to choose from (none while there is one), and the moves of the deal shown.
 * `go(step, deal)` asks for a step, `who(seat, start)` names a seat as the board does (`start`: at
 * the start of a sentence), `moveWords` is the board's words for its moves (none: a plain sentence).
 * @param {{ at: import("./socket.js").ViewFrame, lang: string, go: (step: number, deal?: number) => unknown, who: (seat: number, start?: boolean) => string, moveWords: import("./board.js").MoveWords | null, analysis: Analysis | null }} parts
 * @returns {HTMLElement[]}
 */
export function movesOf({ at, lang, go, who, moveWords, analysis }) {
  const w = wordsIn(lang);
  const { deal, deals, step, moves } = at.replay;
  const parts = [];
  if (deals > 1) {
    const row = document.createElement("div");
    row.className = "row replay-deals";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", w.deals);
    for (let d = 0; d < deals; d++) {
      const b = button(`replay:deal:${d}`, w.dealButton(d + 1), () => go(0, d));
      b.setAttribute("aria-current", String(d === deal));
      row.append(b);
    }
    parts.push(row);
  }
  const head = analysis?.head(at);
  if (head) parts.push(/** @type {HTMLElement} */ (head));
  const list = document.createElement("ol");
  list.id = "replay-moves";
  list.className = "replay-moves";
  list.setAttribute("aria-label", w.movesOf(deal + 1));
  for (let k = 0; k <= moves.length; k++) {
    const item = document.createElement("li");
    const said = k === 0 ? (moveWords?.before?.(lang) ?? w.asDealt) : w.numbered(k, told(moves[k - 1]));
    const b = button(`replay:step:${k}`, said, () => go(k));
    b.className = "replay-move";
    b.dataset.step = String(k);
    // One stop for the keyboard in the list: the step shown; the arrows move it.
    b.tabIndex = k === step ? 0 : -1;
    if (k === step) b.setAttribute("aria-current", "step");
    const mark = k > 0 ? analysis?.mark(deal, k) : null;
    if (mark) {
      const badge = document.createElement("span");
      badge.className = `replay-grade ${mark.grade}`;
      badge.textContent = mark.label;
      b.append(" ", badge);
    }
    item.append(b);
    // The coach's note on the step shown lies beside it, in the list, never over the board.
    const note = k === step ? analysis?.note(at) : null;
    if (note) item.append(note);
    list.append(item);
  }
  parts.push(list);
  return parts;

  /** A move as the board says it.
   * @param {{ by: number, action: import("./socket.js").Action | null }} move */
  function told(move) {
    const by = who(move.by, true);
    return moveWords ? moveWords.told(move.action, by, lang, w.list) : w.movedBy(by);
  }
}

/** @param {string} key
 * @param {string} text
 * @param {() => unknown} onClick */
export function button(key, text, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.key = key;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

/** Keeps the list's step shown in sight, scrolling the list alone (not the page).
 * @param {HTMLElement} box the list's scrolling box */
export function keepInSight(box) {
  const current = /** @type {HTMLElement | null} */ (box.querySelector('[aria-current="step"]'));
  if (!current) return;
  const item = /** @type {HTMLElement} */ (current.parentElement);
  const r = item.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += Math.min(r.bottom - b.bottom, r.top - b.top);
}
