// Pishe Pasha's hooks for the shared modules (see board.js): French cards, each seat dealt a stock
// (top card first) and no hand.

import { cardElement, backElement } from "./cards.js";
import { collector } from "./board.js";

/** The cards dealt to each stock. */
const DEALT = 26;

/**
 * A turn's log as the view shows it (the table's JSON): the seat, and each step it took (the card
 * turned, taken, given, kept or discarded, and where from).
 * @typedef {{ seat: number, steps: Array<{ step: string, card: string, from?: string }> }} TurnLog
 */

/** A card turned from a stock (or a stock turned over), with the count it held before.
 * @typedef {{ card?: string, seat: number, turnOver?: boolean, held?: number }} Turn */

/**
 * Each card this view shows turned from a stock, latest first, with the count that stock held before
 * it was turned (worked back from the counts the view shows), or null once the stock was rebuilt
 * from its discard pile within these turns.
 * @param {any} view the deal's view (the table's JSON)
 */
function stockTurns(view) {
  /** @type {number[]} */
  const left = [...(view.stocks || [])];
  /** @type {Turn[]} */
  const turns = [];
  const turning = view.this_turn?.seat;
  if (view.turned && Number.isInteger(turning)) turns.push({ card: view.turned, seat: turning });
  for (const log of [view.this_turn, view.last_turn]) {
    for (const step of [...(log?.steps || [])].reverse()) {
      if (step.step === "turn-over") turns.push({ seat: log.seat, turnOver: true });
      else if (step.from === "stock") turns.push({ card: step.card, seat: log.seat });
    }
  }
  for (const turn of turns) {
    if (turn.turnOver) left[turn.seat] = 0;
    else if (Number.isInteger(left[turn.seat])) turn.held = (left[turn.seat] += 1);
  }
  return turns.reverse();
}

/**
 * The steps taken since the last view, each with its seat: the rest of the turn it showed, and the
 * next turn if the turn passed; null when more than that happened (a view was missed).
 * @param {any} view the deal's view (the table's JSON)
 * @param {Record<string, any>} memo
 */
function stepsSince(view, memo) {
  const [now, last] = [view.this_turn ?? { steps: [] }, view.last_turn ?? { steps: [] }];
  const was = memo.logs;
  memo.logs = { now: { seat: now.seat, len: now.steps.length }, last: { seat: last.seat, len: last.steps.length } };
  const of = (/** @type {TurnLog} */ log, /** @type {number} */ from) => log.steps.slice(from).map((step) => ({ ...step, seat: log.seat }));
  if (!was) return [...of(last, 0), ...of(now, 0)];
  const same = last.seat === was.last.seat && last.steps.length === was.last.len;
  if (same && now.seat === was.now.seat && now.steps.length >= was.now.len) return of(now, was.now.len);
  if (last.seat === was.now.seat && last.steps.length >= was.now.len) return [...of(last, was.now.len), ...of(now, 0)];
  return null;
}

/**
 * Follows the discard piles, and each stock once it is made again from its pile, step by step: a
 * card taken from a discard pile is its top; a pile turned over becomes the stock as a block, its
 * oldest card on top, and each card turned from it is its top. Every view's pile tops and counts,
 * and a rebuilt stock's count, must be what the steps made them.
 * @param {any} view the deal's view (the table's JSON)
 * @param {Record<string, any>} memo
 * @returns {Record<string, any> | void} the memo when a view was missed, else nothing (not used)
 */
function followPiles(view, memo) {
  const broken = (/** @type {string} */ why, /** @type {unknown} */ what) => (memo.broken ??= [why, what]);
  const steps = stepsSince(view, memo);
  if (steps === null) return Object.assign(memo, { tracking: false, gap: true });
  /** @type {string[][]} */
  const piles = memo.piles ?? [[], []];
  /** @type {Array<string[] | null>} */
  const made = memo.made ?? [null, null];
  /** @type {Set<string>} */
  const taken = new Set(memo.taken ?? []);
  const turn = (/** @type {number} */ seat, /** @type {string} */ card) => {
    if (!made[seat] || taken.has(card)) return;
    if (made[seat].at(-1) !== card) broken("outOfOrder", card);
    made[seat].pop();
    taken.add(card);
  };
  for (const step of steps) {
    const { seat, card } = step;
    if (step.step === "turn-over") {
      made[seat] = [...piles[seat]].reverse();
      made[seat].forEach((c) => taken.delete(c));
      piles[seat] = [];
      continue;
    }
    if (step.from === "pile") {
      if (piles[seat].at(-1) !== card) broken("pileOrder", card);
      piles[seat].pop();
    } else turn(seat, card);
    if (step.step === "give") piles[1 - seat].push(card);
    if (step.step === "keep" || step.step === "discard") piles[seat].push(card);
  }
  if (view.turned) turn(view.this_turn?.seat, view.turned);
  piles.forEach((pile, s) => {
    const shown = view.piles?.[s];
    if (shown?.count !== pile.length || (shown?.top ?? null) !== (pile.at(-1) ?? null)) broken("pileOrder", `${s}`);
    if (made[s] && view.stocks?.[s] !== made[s].length) broken("countJump", s);
  });
  Object.assign(memo, { piles, made, taken: [...taken] });
}

/** @type {import("./board.js").Hooks} */
export const hooks = {
  names: { en: "Pishe Pasha", fa: "پیشه پاشا" },
  card: (code, lang) => cardElement(code, { lang }),
  back: (label) => backElement(label),
  dealt: "stock",
  voidDeals: false,
  firstHand: false,
  shown(view, _seat, { whole, memo, continuous }) {
    const { seen, add } = collector();
    // A card turned from a stock before it was first rebuilt is the one dealt to that stock at the
    // place its count says (the stock's top is its last card dealt). The counts only fall, one a
    // card, between turn-overs: a card turned from under the top, or a count that does not follow
    // from the last view's, is drawn out of order. Only a page that has seen every view since the
    // deal began knows which stocks are still as dealt (26 cards each at its first view): after a
    // gap it places no more (`gap`).
    const start = memo.tracking === undefined;
    if (start) memo.tracking = whole;
    else if (!continuous && memo.tracking) Object.assign(memo, { tracking: false, gap: true });
    const rebuilt = new Set(memo.rebuilt || []);
    /** @type {Record<number, number>} */
    const lowest = memo.lowest || {};
    const placed = new Set(memo.placed || []);
    /** @type {Record<number, number>} */
    const fresh = {};
    // The counts the last view showed (the deal's first view: each stock as dealt), while tracking.
    const before = !memo.tracking ? null : start ? [DEALT, DEALT] : memo.stocks;
    const known = Array.isArray(before);
    for (const turn of stockTurns(view)) {
      if (turn.turnOver) {
        // A stock is turned over only once it is empty: one that still held cards, never rebuilt,
        // would let the table turn its cards in any order.
        if (known && !rebuilt.has(turn.seat) && before[turn.seat] - (fresh[turn.seat] ?? 0) !== 0) memo.broken ??= ["countJump", turn.seat];
        rebuilt.add(turn.seat);
        continue;
      }
      if (placed.has(turn.card)) continue;
      placed.add(turn.card);
      const original = memo.tracking && !rebuilt.has(turn.seat) && Number.isInteger(turn.held);
      add(turn.card, original ? { to: turn.seat, at: /** @type {number} */ (turn.held) - 1 } : null);
      if (!original) continue;
      fresh[turn.seat] = (fresh[turn.seat] ?? 0) + 1;
      if (/** @type {number} */ (turn.held) >= (lowest[turn.seat] ?? Infinity)) memo.broken ??= ["outOfOrder", turn.card];
      lowest[turn.seat] = /** @type {number} */ (turn.held);
    }
    if (known) {
      (view.stocks || []).forEach((/** @type {number} */ count, /** @type {number} */ s) => {
        if (!rebuilt.has(s) && before[s] - count !== (fresh[s] ?? 0)) memo.broken ??= ["countJump", s];
      });
    }
    Object.assign(memo, { rebuilt: [...rebuilt], lowest, placed: [...placed], stocks: view.stocks });
    if (memo.tracking) followPiles(view, memo);
    add(view.turned);
    for (const log of [view.last_turn, view.this_turn]) for (const step of log?.steps || []) add(step.card);
    for (const pile of view.piles || []) add(pile?.top);
    return seen;
  },
};
