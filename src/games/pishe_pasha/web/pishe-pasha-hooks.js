// Pishe Pasha's hooks for the shared modules (see board.js): French cards, each seat dealt a stock
// (top card first) and no hand.

import { cardElement, backElement } from "./cards.js";
import { collector } from "./board.js";

/** @type {import("./board.js").Hooks} */
export const hooks = {
  names: { en: "Pishe Pasha", fa: "پیشه پاشا" },
  card: (code, lang) => cardElement(code, { lang }),
  back: (label) => backElement(label),
  dealt: "stock",
  voidDeals: false,
  firstHand: false,
  shown(view, _seat, { whole, rebuilt }) {
    const { seen, add } = collector();
    // A card turned from a stock came from the stock that seat was dealt, until that stock is first
    // rebuilt from its discard pile: certain only for a page that saw every frame since the deal began.
    for (const log of [view.last_turn, view.this_turn]) {
      for (const step of log?.steps || []) {
        if (step.step === "turn-over") rebuilt.add(log.seat);
        const fromStock = step.from === "stock" && whole && !rebuilt.has(log.seat);
        add(step.card, fromStock ? log.seat : null);
      }
    }
    add(view.turned);
    for (const pile of view.piles || []) add(pile?.top);
    return seen;
  },
};
