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
  shown(view, seat, { first }) {
    const { seen, add, all } = collector();
    all(view.hand, first ? seat : null);
    add(view.trump_card, "trump");
    (view.hands_shown || []).forEach((cards) => all(cards));
    for (const battle of [view.battle, view.last_battle]) {
      if (battle) JSON.stringify(battle).match(/"(10|[2-9JQKA])[SHDC]"/g)?.forEach((m) => add(m.slice(1, -1)));
    }
    return seen;
  },
};
