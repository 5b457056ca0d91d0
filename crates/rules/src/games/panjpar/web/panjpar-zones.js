// Parts of the Panjpar board drawn from the view and the words alone: the pile with the trump card
// under it, the drawer of the deal's moves, the moves kept through a reload, a long hand's rows, the
// latest move in a sentence, the score line and the result.

import { cardElement, backElement } from "./cards.js";
import { el, withinSentence } from "./ui.js";
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
  zone.append(el("p", v.stock_left || v.phase.name === "guess" ? "stock-left" : "stock-left pile-out", said));
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
 * and showing its corner whole: 7, and 8 (each still over 40 px in sight) once a hand would take
 * more than three rows of 7. */
const ROW_MOST = 7;
const LONG_ROW_MOST = 8;

/**
 * The hand's cards in rows of about the same length, no row longer than `ROW_MOST` (or, in a hand
 * of more than three such rows, `LONG_ROW_MOST`): a phone held upright lays each row out as a fan of
 * its own (panjpar.css), a wider screen as one fan of them all.
 * @param {HTMLElement[]} cards
 */
export function handRows(cards) {
  const most = cards.length > 3 * ROW_MOST ? LONG_ROW_MOST : ROW_MOST;
  const rows = Math.max(1, Math.ceil(cards.length / most));
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

/** The match's score line: this seat's deals, then the other's, each seat by the name the board
 * calls it ("you", "the computer", a friend's name); both seats in order to a watcher.
 * @param {import("./socket.js").ViewFrame} frame
 * @param {(seat: number) => string} who
 * @param {PanjparWords} w */
export function scoreLine(frame, who, w) {
  const m = frame.match;
  const won = m.deals_won || [0, 0];
  const first = frame.watcher ? 0 : /** @type {number} */ (frame.seat);
  const [a, b] = [first, 1 - first];
  return el("p", "score", w.scoreOf(withinSentence(who(a)), won[a], withinSentence(who(b)), won[b], m.length.target));
}

/** The deal's result: who won it (or the match), and why.
 * @param {import("./socket.js").ViewFrame} frame
 * @param {any} v the deal's view (the table's JSON)
 * @param {(seat: number) => string} who
 * @param {PanjparWords} w
 * @returns {string[]} */
export function resultWords(frame, v, who, w) {
  const winner = v.phase.winner;
  if (winner === null || winner === undefined) return [w.dealDrawn];
  const loser = 1 - winner;
  const held = v.hands_shown ? v.hands_shown[loser].length : v.counts[loser];
  const won = frame.status === "match-over"
    ? w.matchWon((frame.match.winners || []).map(who).join(" & "))
    : w.dealWon(who(winner));
  return [won, w.dealWhy(who(winner), who(loser), held)];
}

/** The end of a deal, in the middle of the table; both hands lie face up where they were held.
 * @param {import("./socket.js").ViewFrame} frame
 * @param {any} v the deal's view (the table's JSON)
 * @param {(seat: number) => string} who
 * @param {PanjparWords} w */
export function resultZone(frame, v, who, w) {
  const zone = el("section", "zone result");
  zone.id = "result";
  // On a phone the panel may scroll (a watcher's board shows both hands): a keyboard reaches it.
  zone.tabIndex = 0;
  const [won, why] = resultWords(frame, v, who, w);
  zone.append(el("h2", "", won));
  if (why) zone.append(el("p", "result-why", why));
  zone.append(scoreLine(frame, who, w));
  return zone;
}

/** The latest move the view shows, in one sentence ("" when there is none to tell: a deal just
 * dealt, a replay's first step).
 * @param {any} v the deal's view (the table's JSON)
 * @param {(seat: number) => string} who
 * @param {PanjparWords} w */
export function latestMove(v, who, w) {
  const name = (/** @type {string} */ code) => cardName(code, w.lang);
  const battle = v.battle || v.last_battle;
  if (!battle) return v.guess && v.phase.name !== "over" ? w.guessMade(who(v.guesser), v.guess.colour, v.guess.right) : "";
  const defender = who(1 - battle.attacker);
  // The battle's own line says every card was beaten; the move line says who beat them.
  if (battle.finished)
    return battle.picked_up.length
      ? w.tookUp(defender, battle.picked_up.length)
      : w.beatAll(defender, battle.covers.map((/** @type {[string, string]} */ [a, b]) => [name(a), name(b)]));
  if (!battle.covers.length) return w.played(who(battle.attacker), battle.attack.map(name).join(", "));
  const [a, b] = battle.covers[battle.covers.length - 1];
  return w.beat(defender, name(a), name(b));
}
