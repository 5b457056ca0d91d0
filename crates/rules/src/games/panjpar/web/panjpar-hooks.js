// Panjpar's hooks for the shared modules (see board.js): French cards dealt in hands, a trump card
// and a pile; a seat's first hand, shown once the trump colour is called, is the hand it was dealt.

import { cardElement, backElement } from "./cards.js";
import { collector } from "./board.js";

/** The cards of a deal, and how many the pile holds once the hands and the trump card are dealt. */
const PACK = 52;
const PILE = 41;

/**
 * A battle as the view shows it (the table's JSON): the attacker's seat, its attack and the pairs of
 * a card attacked and the card that beat it; once over, whether it finished and what was picked up.
 * @typedef {{ attacker: number, attack?: string[], covers?: Array<[string, string]>, finished?: boolean, picked_up?: string[] }} Battle
 */

/** The cards a battle has on the table: the attack and the cards that beat it.
 * @param {Battle | null | undefined} battle */
const onTable = (battle) => [...(battle?.attack || []), ...(battle?.covers || []).map(([, beating]) => beating)];

/**
 * How many cards the face-down pile holds, worked out from what the view shows (the view never says
 * it): the pack less both hands, the cards set aside, the battle on the table and the trump card
 * while it lies under the pile.
 * @param {any} view the deal's view (the table's JSON)
 * @param {Set<string>} aside
 */
const pileLeft = (view, aside) =>
  PACK - (view.counts || []).reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0) - aside.size - onTable(view.battle).length - (view.trump_card ? 1 : 0);

/** @type {import("./board.js").Hooks} */
export const hooks = {
  names: { en: "Panjpar", fa: "پنج‌پر" },
  card: (code, lang) => cardElement(code, { lang }),
  back: (label) => backElement(label),
  dealt: "hand",
  voidDeals: false,
  firstHand: true,
  shown(view, seat, { first, whole, memo = {}, continuous }) {
    const { seen, add } = collector();
    // A page that has seen every view since the deal began knows where each card it sees came from.
    // The pile is drawn from its last place dealt backwards, the trump card last; after a battle the
    // attacker draws first, then the defender (RULINGS, Panjpar 6). So each card this seat draws is
    // one of the places its turn in that draw took, and each card a seat lays or shows was dealt to
    // it, drawn by it, or picked up from a battle this page saw. After a gap it says only which cards
    // it saw (`gap`).
    if (memo.tracking === undefined) memo.tracking = whole;
    else if (!continuous && memo.tracking) Object.assign(memo, { tracking: false, gap: true });
    const other = Number.isInteger(seat) ? 1 - /** @type {number} */ (seat) : null;
    const took = memo.took || {};
    const drew = memo.drew || { 0: [], 1: [] };
    /** @type {Set<string>} */
    const aside = new Set(memo.aside || []);
    // A hand shown before the pile could be counted (never the hand dealt): nothing to follow.
    if (memo.tracking && memo.pile === undefined && !first && (view.hand || []).length > 0) Object.assign(memo, { tracking: false, gap: true });
    // (A watcher sees no hand, so it cannot follow the draws: it says only which cards it saw.)
    const follows = memo.tracking && Number.isInteger(seat);
    const held = (/** @type {number | null} */ s, /** @type {string} */ card) => (follows && Number.isInteger(s) && !(took[card] || []).includes(s) ? { among: [s, ...drew[/** @type {number} */ (s)]] } : null);
    // What the pile holds is worked out from every card on show, so each must be in one place only:
    // a card twice, a count that is not the hand shown, or a battle changed once it finished would
    // move the pile's count, and with it the places every later card is drawn from.
    const broken = (/** @type {unknown} */ what) => {
      if (follows) memo.broken ??= ["onShow", `${what}`];
    };
    const hand = view.hand || [];
    if (Number.isInteger(seat) && (view.counts || [])[/** @type {number} */ (seat)] !== hand.length) broken(hand.length);
    // A battle's cards were laid from the attacker's hand and the defender's.
    const laid = (/** @type {Battle} */ battle) => {
      for (const card of battle.attack || []) add(card, held(battle.attacker, card));
      for (const [, beating] of battle.covers || []) add(beating, held(1 - battle.attacker, beating));
    };
    const battle = view.battle;
    if (battle) {
      memo.open = true;
      laid(battle);
      for (const card of onTable(battle)) if (aside.has(card) || hand.includes(card)) broken(card);
    }
    // The battle that finished, taken in once (the first view after one in progress): its pairs go
    // aside, and what the defender picked up from the attack is in its hand now. Shown again, it
    // must be the same battle.
    const last = view.last_battle;
    /** @type {string[]} */
    const picked = [];
    if (last) laid(last);
    if (last?.finished && memo.open) {
      const attack = last.attack || [];
      const defender = 1 - last.attacker;
      for (const pair of last.covers || []) {
        if (!attack.includes(pair[0])) broken(pair[0]);
        for (const card of pair) {
          if (aside.has(card)) broken(card);
          aside.add(card);
        }
      }
      for (const card of last.picked_up || []) {
        if (!attack.includes(card)) broken(card);
        took[card] = [...new Set([...(took[card] || []), defender])];
        if (defender === seat) picked.push(card);
      }
      Object.assign(memo, { open: false, done: JSON.stringify(last) });
    } else if (last?.finished && memo.done !== undefined && JSON.stringify(last) !== memo.done) {
      broken("last_battle");
    }
    for (const card of hand) if (aside.has(card) || card === view.trump_card) broken(card);
    const had = new Set(memo.hand || []);
    // A card new in this seat's hand was drawn, unless it was picked up in the battle just finished.
    const fresh = first ? [] : hand.filter((/** @type {string} */ card) => !had.has(card) && !picked.includes(card));
    let mine = null;
    const before = memo.pile ?? (first ? PILE : null);
    if (follows && before !== null) {
      const left = pileLeft(view, aside);
      const trumpDrawn = Boolean(memo.trumpUnder && !view.trump_card);
      const places = [];
      for (let k = PILE - before; k < PILE - left; k += 1) places.push({ to: "pile", at: -1 - k });
      if (trumpDrawn) places.push("trump");
      // Cards are drawn only as a battle ends, never more than the pile gave; the trump card last,
      // once the pile is empty, and never back under it.
      const drawing = places.length > 0 && !view.battle && view.last_battle?.finished;
      const trumpWrong = (trumpDrawn && left !== 0) || (view.trump_card && memo.trumpUnder === false);
      if (left > before || left < 0 || trumpWrong || fresh.length > places.length || (places.length > 0 && !drawing)) {
        memo.broken ??= ["drawOrder", fresh[0] ?? `${left}`];
      } else if (places.length > 0) {
        const drawer = view.last_battle?.attacker;
        const [ours, theirs] = drawer === seat ? [places.slice(0, fresh.length), places.slice(fresh.length)] : [places.slice(places.length - fresh.length), places.slice(0, places.length - fresh.length)];
        drew[/** @type {number} */ (seat)].push(...ours);
        drew[/** @type {number} */ (other)].push(...theirs);
        mine = { among: ours };
        // Each seat draws up to five, the attacker first (RULINGS, Panjpar 6): a seat that drew holds
        // five at most; both hold five at least while anything is left to draw, and the attacker
        // does too if the defender drew. Else the page gave one seat places the other drew.
        const drawn = { [/** @type {number} */ (seat)]: ours.length, [/** @type {number} */ (other)]: theirs.length };
        const lasts = left > 0 || Boolean(view.trump_card);
        if (drawer !== seat && drawer !== other) broken(drawer);
        for (const s of /** @type {number[]} */ ([seat, other])) {
          const count = view.counts[s];
          if ((drawn[s] > 0 && count > 5) || ((lasts || (s === drawer && drawn[1 - s] > 0)) && !(count >= 5))) broken(count);
        }
      }
      Object.assign(memo, { pile: left, trumpUnder: Boolean(view.trump_card) });
    }
    for (const card of hand) add(card, first ? seat : fresh.includes(card) ? mine : null);
    add(view.trump_card, "trump");
    (view.hands_shown || []).forEach((/** @type {string[]} */ cards, /** @type {number} */ s) => cards.forEach((card) => add(card, held(s, card))));
    Object.assign(memo, { hand, took, drew, aside: [...aside] });
    return seen;
  },
};
