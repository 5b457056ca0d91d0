// High card's hooks for the shared modules (see board.js): French cards dealt in hands, the first
// hand a seat is shown being the hand dealt to it.

import { cardElement, backElement } from "./cards.js";
import { collector } from "./board.js";

export const hooks = {
  names: { en: "High card" },
  card: (code, lang) => cardElement(code, { lang }),
  back: (label) => backElement(label),
  dealt: "hand",
  voidDeals: false,
  firstHand: true,
  /** A seat's hand, and every card played with the seat that played it. */
  shown(view, seat) {
    const { seen, all } = collector();
    if (seat !== null) all(view.hand, seat);
    (view.played || []).forEach((cards, by) => all(cards, by));
    return seen;
  },
};
