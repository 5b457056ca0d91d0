// Panjpar's hooks for the shared modules (see board.js): French cards dealt in hands, a trump card
// and a pile; a seat's first hand, shown once the trump colour is called, is the hand it was dealt.

import { cardElement, backElement } from "./cards.js";
import { collector } from "./board.js";

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
    // A page that has seen every view since the deal began knows where each card it sees came from:
    // one in its hand that it was not dealt first was drawn (from the pile, or the trump card last),
    // or picked up from a battle it saw; one the other seat lays or shows was dealt to it or drawn.
    // After a gap it says only which cards it saw (`gap`).
    if (memo.tracking === undefined) memo.tracking = whole;
    else if (!continuous && memo.tracking) Object.assign(memo, { tracking: false, gap: true });
    const other = Number.isInteger(seat) ? 1 - seat : null;
    const took = memo.took || {};
    // Where a card in `s`'s hands came from: dealt to it, drawn, or picked up from a battle.
    const held = (s, card) => (memo.tracking && Number.isInteger(s) && !(took[card] || []).includes(s) ? { among: [s, "pile", "trump"] } : null);
    const drawn = (card) => (memo.tracking && !(took[card] || []).includes(seat) ? { among: ["pile", "trump"] } : null);
    // The battles first: a card picked up in the last one is in the defender's hand now.
    for (const battle of [view.battle, view.last_battle]) {
      if (!battle) continue;
      const defender = 1 - battle.attacker;
      for (const card of battle.attack || []) add(card, held(battle.attacker, card));
      for (const [, beating] of battle.covers || []) add(beating, held(defender, beating));
      if (battle.finished) for (const card of battle.picked_up || []) took[card] = [...new Set([...(took[card] || []), defender])];
    }
    const had = new Set(memo.hand || []);
    for (const card of view.hand || []) add(card, first ? seat : had.has(card) ? null : drawn(card));
    memo.hand = view.hand || [];
    add(view.trump_card, "trump");
    (view.hands_shown || []).forEach((cards, s) => cards.forEach((card) => add(card, s === other ? held(s, card) : null)));
    memo.took = took;
    return seen;
  },
};
