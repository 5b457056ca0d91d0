// Parts of the Ganjifa board drawn from the view alone: the drawers (the lead ladder and the suit
// tracker, opened on demand), what everyone sees of a seat's cards, and the result of a deal.

import { GSUITS, gcardElement, gbackElement } from "./gcards.js";
import { faDigits } from "./persian.js";
import { el, button } from "./ui.js";
import { WORDS, rungReason, signed, wordsIn } from "./ganjifa-words.js";
import { matchResultZone } from "./share.js";

/** The lead ladder: each rung of what may be led now, open or shut, and why (in the board's words `W`).
 * @param {any} v the deal's view (the table's JSON)
 * @param {typeof WORDS.en} W */
export function ladderBody(v, W) {
  const body = el("div", "lead");
  for (const hint of v.lead_hints || []) {
    const rung = el("div", `rung ${hint.allowed ? "open" : "shut"}`);
    rung.append(el("strong", "", W.rung(W.rungs[/** @type {keyof typeof W.rungs} */ (hint.rung)], hint.allowed)));
    // The reason is a sentence of its own after the rung's name: it begins with a capital.
    const reason = rungReason(hint, W.lang);
    rung.append(el("span", "", reason.charAt(0).toUpperCase() + reason.slice(1)));
    body.append(rung);
  }
  return body;
}

/** The tracker: what the "10↑" and "1↑" on the cards mean, then for each suit how many of its cards
 * are out and how many were burnt (in the board's words `W`).
 * @param {any} v the deal's view (the table's JSON)
 * @param {typeof WORDS.en} W */
export function trackerBody(v, W) {
  const body = el("div", "tracker-body");
  const grid = el("div", "tracker");
  body.append(el("p", "tracker-key", W.highKey), grid);
  for (const t of v.tracker) {
    const s = GSUITS[t.suit];
    const cell = el("div", "g-track");
    cell.style.setProperty("--suit", s.colour);
    cell.append(el("strong", "", W.trackerSuit(s)));
    cell.append(el("span", "", W.trackerOut(t.out, t.burnt)));
    grid.append(cell);
  }
  return body;
}

/** A seat's hidden cards as one face-down card and their count (in the board's words `W`), if it
 * has any.
 * @param {any} v the deal's view (the table's JSON)
 * @param {number} seat
 * @param {typeof WORDS.en} W */
export function hiddenStack(v, seat, W) {
  const hidden = v.counts[seat] - v.face_up[seat].length;
  if (hidden <= 0) return null;
  const stack = explained("g-stack", W.faceDown(hidden), W.faceDownWhy);
  stack.prepend(gbackElement(W.faceDown(hidden)), el("span", "g-count", `×${W.lang === "fa" ? faDigits(hidden) : hidden}`));
  return stack;
}

/** A seat's lost leads as dots ("○" for none), named `says` (in the board's words `W`).
 * @param {number} marks
 * @param {string} says
 * @param {typeof WORDS.en} W */
export function leadDots(marks, says, W) {
  const dots = explained("g-dots", says, W.dotsWhy);
  dots.prepend("●".repeat(marks) || "○");
  return dots;
}

/** The one popover that says what a small mark means: outside the board, so that a redraw of the
 * board leaves it open. @type {HTMLElement | null} */
let tip = null;

/** A small mark of the board that says what it is and why it matters on a tap or a click, as well
 * as on a hover, in a popover just under it. `says` is its name: written in sight when `shown`, else
 * read by a screen reader beside the content the caller adds.
 * @param {string} className
 * @param {string} says
 * @param {string} why
 * @param {boolean} [shown] */
export function explained(className, says, why, shown = false) {
  const mark = /** @type {HTMLButtonElement} */ (el("button", `g-explain ${className}`));
  mark.type = "button";
  mark.title = says;
  mark.append(shown ? el("span", "", says) : el("span", "unseen", ` ${says}`));
  mark.addEventListener("click", () => {
    if (!tip) {
      tip = el("p", "g-tip");
      tip.id = "g-tip";
      tip.popover = "auto";
      tip.setAttribute("role", "status");
      document.body.append(tip);
    }
    tip.replaceChildren(el("strong", "", says), ` ${why}`);
    tip.dir = document.documentElement.dir;
    tip.showPopover();
    const at = mark.getBoundingClientRect();
    tip.style.left = `${Math.max(8, Math.min(at.left, innerWidth - tip.offsetWidth - 8))}px`;
    tip.style.top = `${Math.min(at.bottom + 4, innerHeight - tip.offsetHeight - 8)}px`;
  });
  return mark;
}

/** A seat's face-up cards, which everyone at the table sees, worded in `lang`.
 * @param {any} v the deal's view (the table's JSON)
 * @param {number} seat
 * @param {string} [lang] */
export function openRow(v, seat, lang = "en") {
  const row = el("div", "g-open");
  row.dir = "ltr";
  // Said on a wide screen, where the panel has room for it: what these cards are.
  if (v.face_up[seat].length) {
    const caption = el("span", "g-open-caption", wordsIn(lang).openCaption);
    caption.setAttribute("aria-hidden", "true");
    row.append(caption);
  }
  for (const c of v.face_up[seat]) row.append(gcardElement(c, { extraClass: "seat-card", lang }));
  return row;
}

/** The result of a deal over, over its last trick: the deal's best seat, each seat's score with
 * why, and the match's totals (in the board's words `W`, each seat named by `who`).
 * @param {import("./socket.js").ViewFrame} frame
 * @param {any} v the deal's view (the table's JSON)
 * @param {(seat: number) => string} who
 * @param {typeof WORDS.en} W */
export function resultZone(frame, v, who, W) {
  const sign = (/** @type {number} */ n) => signed(n, W.lang);
  const zone = matchResultZone("result", frame, who, W.lang);
  if (frame.status !== "match-over") {
    const best = v.scores ? Math.max(...v.scores) : null;
    const top = v.scores ? [0, 1, 2].filter((s) => v.scores[s] === best).map(who).join(W.bestJoin) : "";
    zone.append(el("h2", "", v.scores ? W.dealBest(top, sign(/** @type {number} */ (best))) : W.dealOver));
  }
  if (v.scores) {
    // Each seat's score is the cards it won less its share of the pack; the share is what the
    // server's score leaves over, so the page never works it out itself.
    const list = el("ul", "g-scores");
    list.id = "deal-scores";
    for (const s of [0, 1, 2]) {
      const share = v.won[s] - v.scores[s];
      list.append(el("li", "", W.scoreLine(who(s), v.won[s], share, sign(v.scores[s]))));
    }
    zone.append(el("p", "result-why", W.scoresWhy), list);
  }
  zone.append(el("p", "", W.totals(totalsWords(frame.match.totals, who, W))));
  return zone;
}

/** The match's totals, seat by seat, in one phrase ("you +7, Computer 1 −3, Computer 2 −4").
 * @param {number[]} totals
 * @param {(seat: number) => string} who
 * @param {typeof WORDS.en} W */
export function totalsWords(totals, who, W) {
  return [0, 1, 2].map((s) => W.totalOf(who(s), signed(totals[s], W.lang))).join(W.lang === "fa" ? "، " : ", ");
}

/** The board's drawers (the ladder's reasons, the suit tracker), each opened on demand over the felt
 * and kept open across redraws until closed. */
export class Drawers {
  /**
   * @param {HTMLElement} root the board, where a closed drawer's toggle is found again
   * @param {{ redraw: () => void, draw: () => void }} board draws again keeping focus (a toggle
   *   pressed), or at once (a drawer closed, focus then going back to its toggle)
   */
  constructor(root, board) {
    this.root = root;
    this.board = board;
    /** @type {Set<string>} */
    this.shown = new Set();
  }

  /** Whether the drawer `name` is open. @param {string} name */
  open(name) {
    return this.shown.has(name);
  }

  /** The button that opens and closes the drawer `name`.
   * @param {string} name
   * @param {string} label */
  toggle(name, label) {
    const b = button(label, () => {
      if (this.shown.has(name)) this.shown.delete(name);
      else this.shown.add(name);
      this.board.redraw();
    }, "g-toggle");
    b.dataset.key = `drawer:${name}`;
    b.setAttribute("aria-expanded", String(this.shown.has(name)));
    b.setAttribute("aria-controls", `drawer-${name}`);
    return b;
  }

  /** The open drawer `name`: its title, its body and a button (`closeLabel`) that closes it.
   * @param {string} name
   * @param {string} title
   * @param {Node} body
   * @param {string} closeLabel */
  panel(name, title, body, closeLabel) {
    const box = el("section", "g-drawer");
    box.id = `drawer-${name}`;
    box.setAttribute("aria-label", title);
    const head = el("div", "g-drawer-head");
    head.append(el("h2", "", title));
    const close = button(closeLabel, () => {
      this.shown.delete(name);
      this.board.draw();
      /** @type {HTMLElement | null} */ (this.root.querySelector(`[data-key="drawer:${name}"]`))?.focus({ preventScroll: true });
    }, "g-close");
    close.dataset.key = `close:${name}`;
    head.append(close);
    box.append(head, body);
    return box;
  }
}
