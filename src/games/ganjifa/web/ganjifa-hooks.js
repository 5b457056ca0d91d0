// Ganjifa's hooks for the shared modules (see board.js): round cards dealt in hands, and nothing
// drawn, so a card seen in a hand, face up or played from one was dealt to it.

import { gcardElement, gbackElement } from "./gcards.js";
import { collector } from "./board.js";

/** @type {import("./board.js").Hooks} */
export const hooks = {
  names: { en: "Ganjifa", fa: "گنجفه" },
  card: (code) => gcardElement(code),
  back: (label) => gbackElement(label),
  dealt: "hand",
  firstHand: false,
  voidDeals: true,
  voids: (card) => card.startsWith("M"),
  shown(view, seat) {
    const { seen, all } = collector();
    all(view.hand, seat ?? null);
    (view.face_up || []).forEach((cards, s) => all(cards, s));
    for (const trick of [view.trick, view.last_trick]) (trick?.cards || []).forEach((cards, s) => all(cards, s));
    all(view.played);
    return seen;
  },
};
