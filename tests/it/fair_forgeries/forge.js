// A dishonest table, in Node.js, for the page's own check (verify.js): it deals Panjpar or Ganjifa
// from any order it likes, commits to it as the real table does (docs/fair.md), and writes whole
// frame sequences (views, `shuffle` frames, reveals), answering what the page sends as it chooses.
// The scenarios in forgeries.js use it to try every way a server could pick the deal and still be
// called fair; honest runs of it must end green.

import * as verify from "./verify.js";
import { dealtRounds, sha256 } from "./reveal.js";
import { useBoard } from "./board.js";

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const FRENCH = ["S", "H", "D", "C"].flatMap((s) => RANKS.map((r) => `${r}${s}`));
const GSUITS = ["TA", "SA", "SH", "GH", "CH", "SU", "BA", "QI"];
export const GANJIFA = GSUITS.flatMap((s) => ["M", "W", ...Array.from({ length: 10 }, (_, i) => `${i + 1}`)].map((r) => `${r}${s}`));

/** Where each dealt place goes: Panjpar five each from the guesser (seat 0 here), the trump, the pile. */
export const panjparTo = (first = 0) => FRENCH.map((_, p) => (p < 10 ? (first + p) % 2 : p === 10 ? "trump" : "pile"));
/** Pishe Pasha: one at a time from the seat after the dealer (seat 1 here deals), 26 each. */
export const pisheTo = (dealer = 1) => FRENCH.map((_, p) => (dealer + 1 + p) % 2);
/** Ganjifa: batches of four from the seat after the dealer (seat 2 here deals). */
export const ganjifaTo = (dealer = 2) => GANJIFA.map((_, p) => (dealer + 1 + Math.floor(p / 4)) % 3);

const hex32 = (i, tag = "") => `${tag}${i}`.padEnd(32, "0").replace(/[^0-9a-f]/g, "a").slice(0, 32);

/** A page: the real DealCheck, with the browser's storage kept in `store` across reloads. */
export class Page {
  constructor(store = {}, { owner = "table:tok", watcher = false, lang = "en" } = {}) {
    this.store = store;
    this.sent = [];
    this.mark = { textContent: "", title: "", dataset: {}, hidden: true, append() {} };
    const storage = { getItem: (k) => (k in store ? store[k] : null), setItem: (k, v) => { store[k] = v; } };
    const send = watcher ? null : (frame) => (this.sent.push(frame), true);
    this.check = new verify.DealCheck(this.mark, () => lang, send, storage, () => owner);
  }
  async see(frame) {
    await this.check.follow(frame);
  }
  /** The page opened again in the same tab: a new page, the same storage. */
  reload(options) {
    return new Page(this.store, options);
  }
  last(type) {
    return [...this.sent].reverse().find((f) => f.type === type);
  }
  get state() {
    return this.mark.dataset.state || "";
  }
  get line() {
    return `${this.mark.dataset.state}|${this.mark.textContent}|${this.mark.title}`;
  }
}

export async function useGame(game) {
  useBoard(await import(`./${game}-hooks.js`));
}

/** The table's commitment to `cards` (the order it chose) going to `to`, for its deal number `deal`. */
export async function commit(cards, to, deal, tag = "s") {
  const salts = cards.map((_, i) => hex32(i, tag));
  const leaves = [];
  for (let i = 0; i < cards.length; i += 1) leaves.push(await sha256(`${i}|${cards[i]}|${salts[i]}`));
  const named = deal === null ? "" : `|${deal}`;
  const commitment = await sha256(`${leaves.join(",")}|${to.join(",")}${named}`);
  return { cards, to, deal, salts, leaves, commitment };
}

/** The cards dealt at each dealt place after `rounds` of the players' shuffle under `numbers`. */
export async function dealt(committed, numbers, rounds = 1) {
  const all = await dealtRounds(committed.commitment, { cards: committed.cards, numbers, rounds });
  return all[all.length - 1].map((i) => committed.cards[i]);
}

/** The reveal the table sends at the deal's end (everything shown). */
export function reveal(committed, { numbers, pledges, rounds = 1, hide = [] }) {
  const hidden = (i) => hide.includes(committed.cards[i]);
  return {
    cards: committed.cards.map((c, i) => (hidden(i) ? null : c)),
    salts: committed.salts.map((s, i) => (hidden(i) ? null : s)),
    leaves: committed.leaves.map((l, i) => (hidden(i) ? l : null)),
    to: committed.to,
    deal: committed.deal,
    pledges,
    numbers,
    rounds,
    open_draws: true,
  };
}

/** Frames of a table, each view with the next version unless told otherwise. */
export class Table {
  constructor({ game = "panjpar", seat = 0, seats = 2, table = "table" } = {}) {
    Object.assign(this, { game, seat, seats, table, version: 0 });
  }
  view(fields, version = this.version + 1) {
    this.version = version;
    return { type: "view", version, game: this.game, table: this.table, seat: this.seat, ...fields };
  }
  /** The coming deal as shown before its pledges are closed. */
  asking(committed, pledges = Array(this.seats).fill(null)) {
    return { deal: committed.deal, commitment: committed.commitment, pledges, closed: false, contributed: Array(this.seats).fill(false) };
  }
  closed(committed, pledges) {
    return { type: "shuffle", shuffle: { ...this.asking(committed, pledges), closed: true } };
  }
}

/** A computer seat's number: none. A friend's: one the friend (or the server posing as one) drew. */
export const friendNumber = (i = 1) => hex32(i, "f");

/** How many rounds an honest table shuffles: again while a shuffle leaves a hand with no Mir. */
export async function honestRounds(committed, numbers, seats = 3) {
  const all = await dealtRounds(committed.commitment, { cards: committed.cards, numbers, rounds: 40 });
  const full = (order) =>
    [...Array(seats).keys()].every((s) => order.some((i, j) => committed.to[j] === s && committed.cards[i].startsWith("M")));
  return all.findIndex(full) + 1;
}

/**
 * Plays one deal as `ctx.page` sees it: the table asks for `committed`, takes the page's pledge,
 * closes the list with `others` (the other seats' pledges, null for a computer), takes the page's
 * number, deals with `numbers(mine)` (by default: the page's, and each pledged friend's) in `rounds`
 * (by default the honest count; a function is given it) and reveals.
 * `tweak(frame, step)` may change any frame; `after(step, ctx)` runs after each step (a reload
 * replaces `ctx.page`). Steps: "ask", "close", "play", "end", and "more" for each of the views
 * `plays(order, numbers)` gives after the first (each `{ view, skip }`, `skip` versions left out
 * before it).
 */
export async function playDeal(ctx, t, committed, opts = {}) {
  const { others = {}, numbers, tweak = (f) => f, after = async () => {}, hand, hide = [] } = opts;
  // What the page sent is read before `after` may reload it: the table heard it either way.
  let heard = null;
  const see = async (frame, step) => {
    await ctx.page.see(tweak(frame, step));
    heard = ctx.page;
    await after(step, ctx);
  };
  await see(t.view({ status: "waiting", shuffle: t.asking(committed), deal: null, view: null }), "ask");
  const pledge = heard.last("pledge");
  const mine = pledge?.commitment === committed.commitment ? pledge.hash : null;
  const pledges = Array.from({ length: t.seats }, (_, s) => (s === t.seat ? mine : (others[s] ?? null)));
  await see(t.closed(committed, pledges), "close");
  const given = heard.last("contribute");
  const myNumber = given?.commitment === committed.commitment ? given.value : null;
  const friends = (s) => (pledges[s] === null ? null : friendNumber(s));
  const nums = numbers ? numbers(myNumber) : pledges.map((_, s) => (s === t.seat ? myNumber : friends(s)));
  const honest = t.game === "ganjifa" ? await honestRounds(committed, nums) : 1;
  const rounds = typeof opts.rounds === "function" ? opts.rounds(honest) : (opts.rounds ?? honest);
  const order = await dealt(committed, nums, rounds);
  const to = committed.to;
  const myHand = hand ?? order.filter((_, j) => to[j] === t.seat);
  const trump = order[to.indexOf("trump")] ?? null;
  const inPlay = { commitment: committed.commitment, dealt_at: t.version + 1, reveal: null };
  // As the real table does, every frame of the deal shows the next deal's shuffle, when there is one.
  const coming = opts.next ? t.asking(opts.next) : null;
  // Panjpar's page works out the pile from the hands' counts: an honest table shows them.
  const counts = t.game === "panjpar" ? { counts: [5, 5] } : {};
  let shownLast = opts.first ?? { hand: myHand, trump_card: trump, ...counts };
  await see(t.view({ status: "playing", deal: inPlay, shuffle: coming, view: shownLast }), "play");
  for (const { view, skip = 0 } of opts.plays ? await opts.plays(order, nums) : []) {
    shownLast = view;
    await see(t.view({ status: "playing", deal: inPlay, shuffle: coming, view }, t.version + 1 + skip), "more");
  }
  const hidden = typeof hide === "function" ? hide(order) : hide;
  const shown = { commitment: committed.commitment, dealt_at: inPlay.dealt_at, reveal: reveal(committed, { numbers: nums, pledges, rounds, hide: hidden }) };
  await see(t.view({ status: "deal-over", deal: shown, shuffle: coming, view: opts.last ?? shownLast }), "end");
  return { pledges, numbers: nums, myNumber, rounds };
}
