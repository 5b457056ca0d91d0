// Panjpar's hooks for the shared modules (see board.js): French cards dealt in hands, a trump card
// and a pile; a seat's first hand, shown once the trump colour is called, is the hand it was dealt.

import { cardElement, backElement } from "./cards.js";
import { collector } from "./board.js";

/** The cards of a deal, and how many the pile holds once the hands and the trump card are dealt. */
const PACK = 52;
const PILE = 41;

/** The cards a battle has on the table: the attack and the cards that beat it. */
const onTable = (battle) => [...(battle?.attack || []), ...(battle?.covers || []).map(([, beating]) => beating)];

/**
 * How many cards the face-down pile holds, worked out from what the view shows (the view never says
 * it): the pack less both hands, the cards set aside, the battle on the table and the trump card
 * while it lies under the pile.
 */
const pileLeft = (view, aside) =>
  PACK - (view.counts || []).reduce((a, b) => a + b, 0) - aside.size - onTable(view.battle).length - (view.trump_card ? 1 : 0);

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
    const other = Number.isInteger(seat) ? 1 - seat : null;
    const took = memo.took || {};
    const drew = memo.drew || { 0: [], 1: [] };
    const aside = new Set(memo.aside || []);
    // (A watcher sees no hand, so it cannot follow the draws: it says only which cards it saw.)
    const follows = memo.tracking && Number.isInteger(seat);
    const held = (s, card) => (follows && Number.isInteger(s) && !(took[card] || []).includes(s) ? { among: [s, ...drew[s]] } : null);
    // The battles first: a card picked up in the last one is in the defender's hand now.
    for (const battle of [view.battle, view.last_battle]) {
      if (!battle) continue;
      const defender = 1 - battle.attacker;
      for (const card of battle.attack || []) add(card, held(battle.attacker, card));
      for (const [, beating] of battle.covers || []) add(beating, held(defender, beating));
      if (!battle.finished) continue;
      for (const card of battle.picked_up || []) took[card] = [...new Set([...(took[card] || []), defender])];
      for (const pair of battle.covers || []) pair.forEach((card) => aside.add(card));
    }
    const had = new Set(memo.hand || []);
    const fresh = first ? [] : (view.hand || []).filter((card) => !had.has(card) && !(took[card] || []).includes(seat));
    let mine = null;
    const before = memo.pile ?? (first ? PILE : null);
    if (follows && before !== null) {
      const left = pileLeft(view, aside);
      const trumpDrawn = Boolean(memo.trumpUnder && !view.trump_card);
      const places = [];
      for (let k = PILE - before; k < PILE - left; k += 1) places.push({ to: "pile", at: -1 - k });
      if (trumpDrawn) places.push("trump");
      // Cards are drawn only as a battle ends, never more than the pile gave.
      const drawing = places.length > 0 && !view.battle && view.last_battle?.finished;
      if (left > before || fresh.length > places.length || (places.length > 0 && !drawing)) {
        memo.broken ??= ["drawOrder", fresh[0] ?? `${left}`];
      } else if (places.length > 0) {
        const drawer = view.last_battle?.attacker;
        const [ours, theirs] = drawer === seat ? [places.slice(0, fresh.length), places.slice(fresh.length)] : [places.slice(places.length - fresh.length), places.slice(0, places.length - fresh.length)];
        drew[seat].push(...ours);
        drew[other].push(...theirs);
        mine = { among: ours };
      }
      Object.assign(memo, { pile: left, trumpUnder: Boolean(view.trump_card) });
    }
    for (const card of view.hand || []) add(card, first ? seat : fresh.includes(card) ? mine : null);
    add(view.trump_card, "trump");
    (view.hands_shown || []).forEach((cards, s) => cards.forEach((card) => add(card, s === other ? held(s, card) : null)));
    Object.assign(memo, { hand: view.hand || [], took, drew, aside: [...aside] });
    return seen;
  },
};
