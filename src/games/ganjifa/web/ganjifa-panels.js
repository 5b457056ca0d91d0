// The Ganjifa board's drawers, drawn from the view alone: the lead ladder and the suit tracker.

import { GSUITS } from "./gcards.js";
import { el } from "./ui.js";
import { WORDS } from "./ganjifa-words.js";

const W = WORDS.en;

/** The lead ladder: each rung of what may be led now, open or shut, and why. */
export function ladderBody(v) {
  const body = el("div", "lead");
  for (const hint of v.lead_hints || []) {
    const rung = el("div", `rung ${hint.allowed ? "open" : "shut"}`);
    rung.append(el("strong", "", W.rung(W.rungs[hint.rung], hint.allowed)));
    rung.append(el("span", "", hint.why));
    body.append(rung);
  }
  return body;
}

/** The tracker: for each suit, how many of its cards are out and how many were burnt. */
export function trackerBody(v) {
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
