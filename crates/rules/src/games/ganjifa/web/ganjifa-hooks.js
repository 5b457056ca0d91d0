// Ganjifa's hooks for the shared modules (see board.js): round cards dealt in hands, and nothing
// drawn, so a card seen in a hand, face up or played from one was dealt to it.

import { gcardElement, gbackElement } from "./gcards.js";
import { collector } from "./board.js";

/** @typedef {import("./socket.js").Action} Action */

/** The suits in the pack's order: a card is numbered suit * 12 + place (see the game's pack.rs). */
const SUITS = ["TA", "SA", "SH", "GH", "CH", "SU", "BA", "QI"];

/**
 * What the deal check keeps of the deal in play (verify.js's `memo`, kept in the browser's storage:
 * JSON of any shape it had when saved).
 * @typedef {Record<string, any>} Memo
 */

/**
 * A blind lead as noted: its leader, the back picked, its number in the deal, the backs laid (if the
 * table counted them), how many cards the leader had played face down unseen before it, the card it
 * gave, the cards seen played before it and, on the leader's own page, the hand it was shown.
 * @typedef {{ leader: number, back: number, nth: number, laid?: number, hiddenBefore: number, picked: string, before: string[], held?: string[] }} Blind
 */

/** A play face down unseen here: its seat and the face-up cards of its trick.
 * @typedef {{ by: number, cards: string[] }} Down */

/** A card's number in the pack: place 0 the Mir, 1 the Wazir, then the numbers from the strongest
 * (10 down in the first four suits, 1 up in the others).
 * @param {string} code */
function packIndex(code) {
  const suit = SUITS.indexOf(code.slice(-2));
  const rank = code.slice(0, -2);
  const place = rank === "M" ? 0 : rank === "W" ? 1 : suit < 4 ? 12 - Number(rank) : Number(rank) + 1;
  return suit * 12 + place;
}

const MASK = (1n << 64n) - 1n;
const GOLDEN = 0x9e3779b97f4a7c15n;

/** @param {bigint} state */
function splitmix(state) {
  let z = (state + GOLDEN) & MASK;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

/**
 * The leader's hand laid face down for the deal's blind lead number `nth`, as the table lays it: the
 * hand in the pack's order, shuffled from the deal's blind seed (rules.rs, `shuffle_backs`).
 * @param {string[]} hand
 * @param {bigint} seed
 * @param {number} nth
 */
export function blindBacks(hand, seed, nth) {
  const order = [...hand].sort((a, b) => packIndex(a) - packIndex(b)).slice(0, 32);
  let z = (seed + BigInt(nth) * GOLDEN) & MASK;
  for (let i = order.length - 1; i > 0; i -= 1) {
    z = splitmix(z);
    const j = Number(z % BigInt(i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** The seed of a deal's blind leads: from its commitment and every number (seal.rs, `blind_seed`).
 * @param {(text: string) => Promise<string | null>} sha256 SHA-256 (answered only where the browser has it)
 * @param {string} commitment
 * @param {Array<string | null>} numbers */
export async function blindSeed(sha256, commitment, numbers) {
  const hex = await sha256(`chaikhana-blind|${commitment}|${numbers.map((n) => n || "").join(",")}`);
  return BigInt(`0x${/** @type {string} */ (hex).slice(0, 16)}`);
}

/**
 * Notes each blind lead as it begins: who led, the back picked, the lead's number in the deal, the
 * card it gave, and the cards played before it. Only a page that has seen every view since the deal
 * began knows what was played before; one that missed views cannot check a blind lead it then sees,
 * nor know that none began unseen (`blindMissed`). The cards played before are those this page saw
 * put in a trick, never the view's list of played cards (the table's word): a card leaves a hand only
 * into a trick, and a page that sees every view sees each trick, a blind lead's too (in `last_trick`
 * alone when its trick ended at once).
 * @param {any} view the deal's view (the table's JSON)
 * @param {Memo} memo
 * @param {boolean} whole
 * @param {boolean} continuous
 * @param {number | null} seat
 */
function noteBlindLeads(view, memo, whole, continuous, seat) {
  if (memo.tracking === undefined) memo.tracking = whole;
  else if (!continuous && memo.tracking) Object.assign(memo, { tracking: false, blindMissed: true });
  // The last trick ended before the trick in progress began: its cards were played first.
  const tricks = [view.last_trick, view.trick].filter((trick) => trick && typeof trick === "object");
  const now = tricks.flatMap((trick) => (trick.cards || []).flat());
  const out = memo.out ?? [];
  if (memo.tracking) {
    // From one view to the next a card in a trick stays in it, or in the last trick once it ends;
    // a card seen played is never played again, nor in two tricks at once; and a trick that ended
    // stays as it was until another ends.
    const shownBefore = new Set(memo.inTricks ?? []);
    const takenBack = (memo.inTrick ?? []).find((/** @type {string} */ card) => !now.includes(card));
    const twice = now.find((card, i) => (!shownBefore.has(card) && out.includes(card)) || now.indexOf(card) !== i);
    const changed = JSON.stringify(view.last_trick ?? null) !== memo.ended;
    const endedAgain = changed ? (view.last_trick?.cards || []).flat().find((/** @type {string} */ card) => (memo.endedCards ?? []).includes(card)) : undefined;
    if (takenBack || twice || endedAgain) memo.broken ??= ["playedTwice", twice ?? takenBack ?? endedAgain];
  }
  Object.assign(memo, { ended: JSON.stringify(view.last_trick ?? null), endedCards: (view.last_trick?.cards || []).flat() });
  // Which seat each card seen played came from, and each card a leader played face down unseen here:
  // they tell which cards a blind leader still held.
  const playedBy = memo.playedBy ?? [[], [], []];
  memo.downs ??= [];
  let before = out;
  for (const [i, trick] of tricks.entries()) {
    // On its leader's own page, a blind lead's hand is the one shown, with its cards in tricks from the lead on.
    const own = Number.isInteger(seat) && trick.leader === seat;
    const ownCards = (/** @type {any} */ t) => (Array.isArray(t.cards?.[/** @type {number} */ (seat)]) ? t.cards[/** @type {number} */ (seat)] : []); // a trick: the table's JSON
    const held = own ? [...(Array.isArray(view.hand) ? view.hand : []), ...tricks.slice(i).flatMap(ownCards)] : null;
    if (trick.kind?.kind === "blind") noteBlind(trick, memo, before, held);
    noteOwnDown(trick, memo, seat);
    noteDown(trick, memo);
    (trick.cards || []).forEach((/** @type {string[]} */ cards, /** @type {number} */ s) => playedBy[s] && playedBy[s].push(...cards.filter((/** @type {string} */ card) => !playedBy[s].includes(card))));
    before = [...new Set([...before, ...(trick.cards || []).flat()])];
  }
  // A card shown face up in a hand was not played face down in any trick seen so far: each kept
  // with how many its seat had then played face down.
  const upAt = memo.upAt ?? {};
  (view.face_up || []).forEach((/** @type {string[] | null} */ cards, /** @type {number} */ s) => (cards || []).forEach((card) => (upAt[card] = Math.max(upAt[card] ?? -1, downsOf(memo, s)))));
  Object.assign(memo, { playedBy, upAt, out: before, inTricks: now, inTrick: (view.trick?.cards || []).flat() });
}

/** How many cards `seat` was seen to play face down. */
const downsOf = (/** @type {Memo} */ memo, /** @type {number} */ seat) => (memo.downs ?? []).filter((/** @type {Down} */ down) => down.by === seat).length;

/**
 * Notes a card played face down unseen here: a trick whose leader's card is not shown. Each such play
 * is counted once, however often its trick is shown (in progress, then ended): the same play is the
 * one whose face-up cards (the hukm at least, played with it) it shares. A trick with no card face up,
 * or one whose hidden card is later named, is no trick an honest table shows ("hiddenShown").
 */
/**
 * @param {any} trick the view's trick (the table's JSON, its shape checked here)
 * @param {Memo} memo
 */
function noteDown(trick, memo) {
  const by = trick.leader;
  const cards = Array.isArray(trick.cards) ? trick.cards : [];
  const shown = cards.flat();
  const same = memo.downs.find((/** @type {Down} */ down) => down.cards.some((card) => shown.includes(card)));
  if (!Number.isInteger(by) || by < 0 || by > 2) {
    memo.broken ??= ["hiddenShown", `${by}`];
    return;
  }
  if ((cards[by] || []).length > 0 || (same && same.by !== by)) {
    if (same) memo.broken ??= ["hiddenShown", shown[0]];
    return;
  }
  if (shown.length === 0) memo.broken ??= ["hiddenShown", "?"];
  else if (same) same.cards = [...new Set([...same.cards, ...shown])];
  else memo.downs.push({ by, cards: shown });
}

/**
 * Checks a trick this page's own seat led as it is first shown: its own card is shown to it, face
 * down or not (only the other seats' views hide it), and a card of its own goes down face down only
 * if this page (a tab of this seat) laid it. A card of its own hidden from it is FAILED
 * ("notPlayedHere"); one laid face down that this page did not lay may have been laid from another
 * device of the seat, so this seat's blind leads are then left unchecked ("ownDownElsewhere"): the
 * table could have chosen the hand this seat held at them.
 */
/**
 * @param {any} trick the view's trick (the table's JSON, its shape checked here)
 * @param {Memo} memo
 * @param {number | null} seat
 */
function noteOwnDown(trick, memo, seat) {
  if (!Number.isInteger(seat) || trick.leader !== seat) return;
  const mine = Array.isArray(trick.cards?.[/** @type {number} */ (seat)]) ? trick.cards[/** @type {number} */ (seat)] : [];
  if (mine.length === 0) {
    memo.broken ??= ["notPlayedHere", (Array.isArray(trick.cards) ? trick.cards.flat() : [])[0] ?? "?"];
    return;
  }
  if (!memo.tracking || (trick.face_down_by !== seat && trick.kind?.face_down !== true)) return;
  const known = memo.ownDowns ?? [];
  const laid = (memo.acted ?? []).filter((/** @type {Action} */ action) => action?.type === "talafa").map((/** @type {Action} */ action) => action.card);
  const unmade = mine.find((/** @type {string} */ card) => !known.includes(card) && !laid.includes(card));
  // Another tab or device of this seat may have laid it: the blind lead is then not checked here.
  if (unmade) memo.ownUnlaid ??= unmade;
  memo.ownDowns = [...new Set([...known, ...mine])];
}

/** Notes one blind lead's trick (`out`: the cards seen played before it; `held`: on the leader's own
 * page, the hand it was shown then with its cards in tricks from the lead on).
 * @param {any} trick the view's trick (the table's JSON)
 * @param {Memo} memo
 * @param {string[]} out
 * @param {string[] | null} held */
function noteBlind(trick, memo, out, held) {
  const { back, nth, laid } = trick.kind;
  const blinds = memo.blinds ?? [];
  const picked = trick.cards?.[trick.leader] ?? [];
  const known = blinds.find((/** @type {Blind} */ b) => b.nth === nth);
  if (!memo.tracking) {
    if (!known) memo.blindMissed = true;
    return;
  }
  // A blind lead shown again (each view of its trick) is the one first shown; a new one is the next
  // in the deal (they are numbered from 0), its leader's one card face up.
  const same = known && known.leader === trick.leader && known.back === back && picked.length === 1 && picked[0] === known.picked;
  if (known && !same) memo.broken ??= ["blindShown", nth + 1];
  if (known) return;
  if (nth !== blinds.length || picked.length !== 1) {
    memo.broken ??= ["blindShown", blinds.length + 1];
    return;
  }
  const hiddenBefore = downsOf(memo, trick.leader);
  blinds.push({ leader: trick.leader, back, nth, laid, hiddenBefore, picked: picked[0], before: out, ...(held ? { held } : {}) });
  memo.blinds = blinds;
  // The page that picked knows which back it chose: the table may not name another. Two backs
  // clicked before the table answered were both sent (the first taken), so either may come back.
  const mine = (memo.acted ?? []).filter((/** @type {Action} */ action) => action?.type === "pick").map((/** @type {Action} */ action) => action.back);
  if (mine.length > 0 && !mine.includes(back)) memo.broken ??= ["blindBack", mine[0] + 1];
  memo.acted = [];
}

/**
 * The leader's hand at a blind lead: its cards dealt less those this page saw played before, less as
 * many as it had played face down unseen here, which the `laid` backs must add up to (without a
 * count, the page's own). Those are its cards never seen played, when it played none face down after
 * (a choice like any other play, the leader's), and none of them was seen face up in its hand after
 * its last face-down card before the lead; else the page cannot say which (null). A story that does
 * not add up: "broken". On the leader's own page the hand is the one it was shown at the lead, which
 * must be exactly its cards dealt less those it saw played before, none of them face down unseen
 * (else "ownHand").
 * @param {Blind} blind
 * @param {string[]} dealt
 * @param {Memo} memo
 * @returns {string[] | "broken" | "ownHand" | null}
 */
function heldAt(blind, dealt, memo) {
  const hand = dealt.filter((card) => !blind.before.includes(card));
  // On the leader's own page its hand is known: the one it was shown, which must be all of that.
  if (Array.isArray(blind.held)) {
    const same = blind.held.length === hand.length && new Set(blind.held).size === hand.length && hand.every((card) => /** @type {string[]} */ (blind.held).includes(card));
    const laid = !Number.isInteger(blind.laid) || blind.laid === hand.length;
    return same && laid && blind.hiddenBefore === 0 ? hand : "ownHand";
  }
  const laid = Number.isInteger(blind.laid) ? /** @type {number} */ (blind.laid) : hand.length - blind.hiddenBefore;
  const hidden = hand.length - laid;
  if (hidden !== blind.hiddenBefore) return "broken";
  if (hidden === 0) return hand;
  const played = memo.playedBy?.[blind.leader] ?? [];
  const never = hand.filter((card) => !played.includes(card));
  const hiddenAfter = downsOf(memo, blind.leader) - hidden;
  if (never.length < hidden + hiddenAfter) return "broken";
  // (More never seen played: the deal ended with cards still held.)
  if (hiddenAfter !== 0 || never.length !== hidden) return null;
  // A card seen in the hand once every face-down card before the lead was down was still held.
  if (never.some((card) => (memo.upAt?.[card] ?? -1) >= hidden)) return "broken";
  return hand.filter((card) => played.includes(card));
}

/** @type {import("./board.js").Hooks} */
export const hooks = {
  names: { en: "Ganjifa", fa: "گنجفه" },
  card: (code, lang) => gcardElement(code, { lang }),
  back: (label) => gbackElement(label),
  dealt: "hand",
  firstHand: false,
  voidDeals: true,
  voids: (card) => card.startsWith("M"),
  shown(view, seat, { whole, memo = {}, continuous }) {
    noteBlindLeads(view, memo, whole, continuous, seat);
    const { seen, all } = collector();
    all(view.hand, seat ?? null);
    (view.face_up || []).forEach((/** @type {string[] | null} */ cards, /** @type {number} */ s) => all(cards, s));
    for (const trick of [view.trick, view.last_trick]) (trick?.cards || []).forEach((/** @type {string[] | null} */ cards, /** @type {number} */ s) => all(cards, s));
    all(view.played);
    return seen;
  },
  /**
   * At the reveal: each blind lead gave the card at the back picked of the leader's hand as it then
   * was (its cards dealt, less those played before), shuffled from the deal's blind seed. Where the
   * reveal hides some of the leader's cards from this page (cards played face down), it cannot say.
   */
  async checkDraws(memo, { reveal, commitment, cardAt, sha256 }) {
    // A deal dealt before draws came from the numbers (a table kept across an upgrade) cannot say.
    let elsewhere = false;
    let partly = Boolean(memo.blindMissed) || (reveal.open_draws !== true && (memo.blinds || []).length > 0);
    for (const blind of reveal.open_draws === true ? memo.blinds || [] : []) {
      const dealt = reveal.to.flatMap((to, j) => (to === blind.leader ? [cardAt(j)] : []));
      if (dealt.some((card) => card === null)) {
        partly = true;
        continue;
      }
      if (Array.isArray(blind.held) && memo.ownUnlaid) {
        elsewhere = true;
        continue;
      }
      const hand = heldAt(blind, /** @type {string[]} */ (dealt), memo);
      if (hand === "broken") return { failed: ["blindPick", blind.picked] };
      if (hand === "ownHand") return { failed: ["ownBlindHand", blind.picked] };
      if (hand === null) {
        partly = true;
        continue;
      }
      const backs = blindBacks(hand, await blindSeed(sha256, commitment, reveal.numbers), blind.nth);
      if (backs[blind.back] !== blind.picked) return { failed: ["blindPick", blind.picked] };
    }
    if (elsewhere) return { partly: "ownDownElsewhere" };
    return partly ? { partly: "blindUnseen" } : null;
  },
};
