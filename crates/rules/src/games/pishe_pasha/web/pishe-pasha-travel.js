// Where the Pishe Pasha board's cards came from and went between two frames, read from the turn
// log and the piles the view shows: the board gives each card its origin so that table.js makes it
// travel (see motion.js). Nothing here is a rule: only what the frames say moved.

import { parseCard } from "./cards.js";

/** @typedef {import("./socket.js").ViewFrame} ViewFrame */

/**
 * A step of a turn as the view's log shows it (the table's JSON): what was done, the card, where it
 * came from, its sentence and whether it was forced.
 * @typedef {{ step: string, card?: string, from?: string, says: string, forced?: boolean }} Step
 */
/** A turn's log: its seat (none before the first turn) and its steps. @typedef {{ seat: number | null, steps: Step[] }} Log */
/** A step with the seat that took it. @typedef {{ seat: number, step: Step }} SeatStep */

export const SUITS = ["spades", "hearts", "diamonds", "clubs"];

/** The suit pile a card belongs on. @param {string} code */
const suitOf = (code) => /** @type {Record<string, string>} */ ({ S: "spades", H: "hearts", D: "diamonds", C: "clubs" })[parseCard(code).suit];

/** The steps taken since the frame drawn before, with their seats, oldest first.
 * @param {any} v the deal's view (the table's JSON)
 * @param {ViewFrame} old
 * @returns {SeatStep[]}
 */
export function newSteps(v, old) {
  const tag = (/** @type {Log} */ log, /** @type {number} */ from) => log.steps.slice(from).map((step) => ({ seat: /** @type {number} */ (log.seat), step }));
  const was = old.view.this_turn;
  const t = v.this_turn;
  if (t.seat === was.seat && t.steps.length >= was.steps.length) return tag(t, was.steps.length);
  const l = v.last_turn;
  const rest = l.seat === was.seat && l.steps.length >= was.steps.length ? tag(l, was.steps.length) : tag(l, 0);
  return [...rest, ...tag(t, 0)];
}

/** Where each face-up card now on the board came from, if it was not on the board before.
 * @param {any} v the deal's view (the table's JSON)
 * @param {SeatStep[]} steps
 * @param {boolean} fresh
 */
export function origins(v, steps, fresh) {
  /** @type {Map<string, string>} */
  const from = new Map();
  // A card turned and waiting for a choice is not in the log yet: it came out of the stock.
  if (fresh && v.turned) from.set(v.turned, `stock-${v.to_act}`);
  for (const { seat, step } of steps) {
    if (step.step === "turn-over") from.set(`back:stock:${seat}`, `pile-${seat}`);
    if (!step.card) continue;
    const stock = step.from === "stock" || step.step === "keep" || step.step === "discard";
    from.set(step.card, `${stock ? "stock" : "pile"}-${seat}`);
  }
  return from;
}

/** The areas cards that left went to: a pile turned over went into its stock; a card covered on
 * its suit pile went home. Anything else was covered where it lay, and simply stays under.
 * @param {any} v the deal's view (the table's JSON)
 * @param {ViewFrame | null} old
 * @param {SeatStep[]} steps
 */
export function goneAreas(v, old, steps) {
  /** @type {Map<string, string>} */
  const map = new Map();
  if (!old?.view) return map;
  for (const { seat, step } of steps) {
    const top = old.view.piles[seat]?.top;
    if (step.step === "turn-over" && top) map.set(top, `stock-${seat}`);
  }
  for (const suit of SUITS) {
    const top = old.view.suit_piles[suit];
    if (top && v.suit_piles[suit] !== top) map.set(top, `suit-${suit}`);
  }
  for (const { step } of steps) {
    if (step.step === "home" && step.card) map.set(step.card, `suit-${suitOf(step.card)}`);
  }
  return map;
}
