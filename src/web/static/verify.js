// Fair deals, checked by the page itself (the scheme is on /fair and in docs/fair.md). Before a deal
// the table commits to its own order of the pack (`shuffle.commitment`); this page answers with a
// random number of its own, kept in the browser per table, seat and commitment. The cards are dealt
// from the players' shuffle of that order, which this page works out itself from the commitment and
// every seat's number. Once the deal ends it checks, from the reveal, that the places hash to the
// commitment, that its number is among the numbers, and that every card it saw face up was where the
// shuffle put it. Nothing here needs a page: Node.js runs it in the tests.

import { WORDS } from "./verify-words.js";
import { boardHooks } from "./board.js";

/** SHA-256 of bytes, or null where the browser offers no SubtleCrypto (a page that is not secure). */
async function digest(bytes) {
  if (!globalThis.crypto?.subtle) return null;
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** The hex SHA-256 of a text, or null without SubtleCrypto. */
export async function sha256(text) {
  const d = await digest(new TextEncoder().encode(text));
  return d && hex(d);
}

/** SHA-256 in counter mode under a 32-byte key, read as big-endian 32-bit words (see docs/fair.md). */
export class Stream {
  constructor(key) {
    this.key = key;
    this.counter = 0;
    this.block = null;
    this.used = 32;
  }

  static async of(text) {
    return new Stream(await digest(new TextEncoder().encode(text)));
  }

  async word() {
    if (this.used === 32) {
      const input = new Uint8Array(36);
      input.set(this.key);
      new DataView(input.buffer).setUint32(32, this.counter);
      this.block = await digest(input);
      this.counter += 1;
      this.used = 0;
    }
    const word = new DataView(this.block.buffer).getUint32(this.used);
    this.used += 4;
    return word;
  }

  /** A number below m, each as likely: words at or above the last whole multiple of m are skipped. */
  async below(m) {
    const limit = 2 ** 32 - (2 ** 32 % m);
    for (;;) {
      const word = await this.word();
      if (word < limit) return word % m;
    }
  }

  /** The next Fisher–Yates shuffle of n places: the place each new place takes its card from. */
  async shuffle(n) {
    const places = [...Array(n).keys()];
    for (let i = n - 1; i > 0; i -= 1) {
      const j = await this.below(i + 1);
      [places[i], places[j]] = [places[j], places[i]];
    }
    return places;
  }
}

/** The players' stream of a deal: keyed by its commitment and every seat's number, in seat order. */
export function playersStream(commitment, numbers) {
  return Stream.of(`chaikhana-deal|${commitment}|${numbers.map((n) => n || "").join(",")}`);
}

/** The commitment a reveal gives: each shown place's leaf worked out, each hidden one as sent. */
export async function commitmentOf(reveal) {
  const leaves = [];
  for (let i = 0; i < reveal.cards.length; i += 1) {
    if (reveal.cards[i] === null) leaves.push(reveal.leaves[i]);
    else leaves.push(await sha256(`${i}|${reveal.cards[i]}|${reveal.salts[i]}`));
  }
  return sha256(`${leaves.join(",")}|${reveal.to.join(",")}`);
}

/** Each round of the players' shuffle as the table's place at every dealt place; the last dealt. */
export async function dealtRounds(commitment, reveal) {
  const stream = await playersStream(commitment, reveal.numbers);
  const n = reveal.cards.length;
  let dealt = [...Array(n).keys()];
  const rounds = [];
  for (let r = 0; r < reveal.rounds; r += 1) {
    const shuffle = await stream.shuffle(n);
    dealt = shuffle.map((j) => dealt[j]);
    rounds.push(dealt);
  }
  return rounds;
}

/** The deal as dealt, for the replay's panel: each dealt place's card (null when hidden) and where it went. */
export async function dealtOrder(sealed) {
  const rounds = await dealtRounds(sealed.commitment, sealed.reveal);
  const dealt = rounds[rounds.length - 1] || [];
  return dealt.map((i, j) => ({ card: sealed.reveal.cards[i], to: sealed.reveal.to[j] }));
}

/** Whether an earlier round of a Ganjifa deal was void (a hand with no Mir), as far as the reveal shows. */
function plausiblyVoid(reveal, dealt) {
  const isMir = (card) => card !== null && card.startsWith("M");
  const allMirsShown = reveal.cards.filter(isMir).length === 8;
  const seats = [...new Set(reveal.to)];
  return seats.some((seat) => {
    const places = dealt.filter((_, j) => reveal.to[j] === seat);
    const hasMir = places.some((i) => isMir(reveal.cards[i]));
    const unknown = places.some((i) => reveal.cards[i] === null);
    return !hasMir && (allMirsShown || !unknown);
  });
}

/**
 * The verdict on one ended deal, from what this page saw: `{ state, why }`, `state` being "fair",
 * "missing", "joined", "watched", "replaced", "failed" or "unchecked", and `why` a key of WORDS with
 * its argument. `page` says: `seat` (null for a watcher), `mine` (the number this page sent for this
 * commitment, if any), `swapped` (its number answered another commitment), `replaced` (a deal it saw
 * was never revealed), `seen` (each card seen face up, with the seat or place it was dealt to, or
 * null when not known, by card), `start` (the hand it was first shown, when it saw the deal begin) and `game`.
 */
export async function judge(sealed, page) {
  const { reveal, commitment } = sealed;
  const fail = (why, arg) => ({ state: "failed", why, arg });
  const leaves = await commitmentOf(reveal);
  if (leaves === null) return { state: "unchecked", why: "noCrypto" };
  if (leaves !== commitment) return fail("badHash");
  const shown = reveal.cards.filter((c) => c !== null);
  if (new Set(shown).size !== shown.length) return fail("repeated");
  const rounds = await dealtRounds(commitment, reveal);
  if (rounds.length === 0) return fail("badHash");
  const dealt = rounds[rounds.length - 1];
  for (const earlier of rounds.slice(0, -1)) {
    if (!plausiblyVoid(reveal, earlier)) return fail("notVoid");
  }
  const placeOf = new Map(dealt.map((i, j) => [reveal.cards[i], j]));
  for (const [card, from] of Object.entries(page.seen)) {
    const j = placeOf.get(card);
    if (j === undefined) return fail("unshown", card);
    if (from !== null && String(reveal.to[j]) !== String(from)) return fail("notDealt", card);
  }
  if (page.start && page.seat !== null) {
    const dealtToMe = dealt
      .map((i, j) => [reveal.cards[i], reveal.to[j]])
      .filter(([, to]) => to === page.seat)
      .map(([card]) => card);
    const start = new Set(page.start);
    if (dealtToMe.length !== start.size || dealtToMe.some((c) => !start.has(c))) return fail("notYourHand");
  }
  if (page.seat === null) return { state: "watched", why: "watched" };
  if (page.replaced) return { state: "replaced", why: "replaced" };
  if (page.swapped) return { state: "missing", why: "swapped" };
  if (!page.mine) return { state: "joined", why: "joined" };
  const theirs = reveal.numbers[page.seat];
  if (theirs === null || theirs === undefined) return { state: "missing", why: "dropped" };
  if (theirs !== page.mine) return { state: "missing", why: "notYours" };
  return { state: "fair", why: "fair" };
}

/** The cards a view shows face up, each with where it was dealt when that is certain (else null):
 * the game's to say (its board's hooks, board.js). */
function cardsShown(frame, first, whole = false, rebuilt = new Set()) {
  if (!frame.view) return [];
  return boardHooks().shown(frame.view, frame.seat ?? null, { first, whole, rebuilt });
}

/** Adds cards seen to `seen` (card → where it was dealt, or null): a place once known is kept. */
function note(seen, cards) {
  for (const [card, from] of cards) {
    if (seen[card] === undefined || seen[card] === null) seen[card] = from;
  }
}

/** The part of the browser's storage a page keeps for one table and seat. */
class Kept {
  constructor(store, key) {
    this.store = store;
    this.key = key;
    let kept = null;
    try {
      kept = JSON.parse(store?.getItem(key) || "null");
    } catch (_) {
      kept = null;
    }
    this.data = kept || { answered: {}, pending: null, inPlay: null, seen: {}, start: null };
  }

  save() {
    // Only the last few commitments answered are worth keeping.
    const answered = Object.entries(this.data.answered);
    if (answered.length > 4) this.data.answered = Object.fromEntries(answered.slice(-4));
    try {
      this.store?.setItem(this.key, JSON.stringify(this.data));
    } catch (_) {
      // A browser that keeps nothing still plays; after a reload it says it joined after the shuffle.
    }
  }
}

/** 16 random bytes from the browser, as 32 hex digits. */
const freshNumber = () => hex(crypto.getRandomValues(new Uint8Array(16)));

export class DealCheck {
  /** `mark` shows the result; `send` sends a frame on the table's socket (none for a watcher). */
  constructor(mark, lang, send = null, store = globalThis.sessionStorage) {
    this.mark = mark;
    this.lang = lang;
    this.send = send;
    this.store = store;
    this.kept = null;
    this.lastVersion = null;
    this.checked = null;
    this.verdict = null;
  }

  keptFor(frame) {
    const key = `chaikhana-fair:${frame.table || "watching"}:${frame.seat ?? "watcher"}`;
    if (!this.kept || this.kept.key !== key) this.kept = new Kept(frame.seat === null || frame.seat === undefined ? null : this.store, key);
    return this.kept;
  }

  /** Follows one view frame: answers the coming deal's commitment, notes what it shows, checks a reveal. */
  async follow(frame) {
    const continuous = this.lastVersion !== null && frame.version === this.lastVersion + 1;
    this.lastVersion = frame.version;
    const kept = this.keptFor(frame);
    const data = kept.data;
    this.answer(frame, kept);
    const sealed = frame.deal;
    if (!sealed?.commitment) return;
    if (data.inPlay?.commitment !== sealed.commitment) {
      const replaced = Boolean(data.inPlay && !data.inPlay.revealed && frame.seat !== null && frame.seat !== undefined);
      const swapped = Boolean(data.pending && data.pending !== sealed.commitment && !data.answered[sealed.commitment]);
      const fromStart = frame.version === 1 || continuous;
      data.inPlay = { commitment: sealed.commitment, revealed: false, replaced, swapped, fromStart };
      data.pending = null;
      data.seen = {};
      data.start = null;
      this.verdict = null;
      this.show(replaced ? this.words().replacedNow : "", replaced ? "replaced" : "");
    }
    const deal = data.inPlay;
    if (!sealed.reveal) {
      // Seen whole: every frame since the deal began, one version after another.
      deal.whole = deal.whole === undefined ? deal.fromStart : deal.whole && continuous;
      // The first hand shown, before any draw, where the game says it is the hand dealt (Panjpar's,
      // once the trump colour is called); other games' hands are checked card by card.
      const hand = frame.view?.hand;
      const first = deal.whole && data.start === null && boardHooks().firstHand && hand?.length > 0;
      if (first) data.start = hand;
      const rebuilt = new Set(deal.rebuilt || []);
      note(data.seen, cardsShown(frame, first, deal.whole, rebuilt));
      deal.rebuilt = [...rebuilt];
      kept.save();
      return;
    }
    if (this.checked === sealed.commitment) return this.repeat();
    this.checked = sealed.commitment;
    note(data.seen, cardsShown(frame, false));
    deal.revealed = true;
    kept.save();
    const seat = frame.seat ?? null;
    this.verdict = await judge(sealed, {
      seat,
      mine: seat === null ? null : data.answered[sealed.commitment] || null,
      swapped: deal.swapped,
      replaced: deal.replaced,
      seen: data.seen,
      start: data.start,
      game: frame.game,
    });
    this.repeat();
  }

  /** Adds this page's number to the coming deal's shuffle, once per commitment (again after a reconnect
   * if the table lost it), and keeps it for the check. */
  answer(frame, kept) {
    const shuffle = frame.shuffle;
    if (!shuffle?.commitment || frame.seat === null || frame.seat === undefined) return;
    if (!this.send || !globalThis.crypto?.getRandomValues) return;
    if (shuffle.contributed[frame.seat]) return;
    const data = kept.data;
    let value = data.answered[shuffle.commitment];
    if (!value) {
      value = freshNumber();
      data.answered[shuffle.commitment] = value;
      data.pending = shuffle.commitment;
      kept.save();
    }
    this.send({ type: "contribute", commitment: shuffle.commitment, value });
  }

  words() {
    return WORDS[this.lang()] || WORDS.en;
  }

  /** Shows the last verdict in the page's language now (after a language switch too). */
  repeat() {
    if (!this.verdict) return;
    const words = this.words();
    const { state, why, arg } = this.verdict;
    const head = words.heads[state];
    const reason = typeof words[why] === "function" ? words[why](arg) : words[why];
    this.show(state === "failed" ? `${head}${reason}` : head, state, state === "failed" ? "" : reason);
  }

  show(text, state, title = "") {
    if (!this.mark) return;
    this.mark.textContent = text;
    this.mark.title = title;
    this.mark.dataset.state = state;
    this.mark.hidden = !text;
    if (text && globalThis.document) {
      const how = document.createElement("a");
      how.href = this.lang() === "fa" ? "/fa/fair" : "/fair";
      how.textContent = this.words().how;
      how.className = "deal-check-how";
      this.mark.append(" ", how);
    }
  }
}
