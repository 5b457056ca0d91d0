// The guided first deal of Panjpar (guide.js): what this seat is to do now and why, from the view.

/**
 * The guided first deal's step for `frame` (guide.js): what this seat is to do now and why, worded
 * from the view alone (the phase, whose turn it is, what the hints say can beat what), and the
 * controls it is about. English only, like the guide.
 */
export function guideStep(frame) {
  const v = frame.view;
  if (!v || frame.watcher) return null;
  const mine = frame.actions.length > 0;
  const drawing = v.stock_left
    ? " After each battle both draw back up to five cards, the attacker first, while the pile lasts."
    : " The pile is empty: whoever plays out every card first wins the deal.";
  if (frame.status === "deal-over" || frame.status === "match-over") {
    return {
      title: "The deal is over",
      text: "The panel below says who won, and why.",
      targets: ["#rematch", "#next-deal"],
    };
  }
  if (v.phase.name === "guess") {
    return mine
      ? {
          title: "Guess the trump colour",
          text: "A card lies face up under the pile: its suit is trumps for this deal. Guess whether it is red or black. Guess right and you attack first; guess wrong and the computer does.",
          targets: ["[data-colour]"],
        }
      : {
          title: "The computer guesses",
          text: "The computer is guessing the colour of the trump card. Whoever guesses right attacks first.",
          targets: [],
        };
  }
  if (v.phase.name === "attack") {
    return mine
      ? {
          title: "Your attack",
          text: `Lay 1, 3 or 5 cards: any one card, three with a pair, or five with two pairs. Choose them, then press Attack. Cards the computer cannot beat go into its hand.${drawing}`,
          targets: [".hand button.card", "#attack"],
        }
      : {
          title: "The computer attacks",
          text: "The computer is choosing its attack. You will then beat its cards, or pick up the ones you do not beat.",
          targets: [],
        };
  }
  if (v.phase.name === "defend") {
    if (!mine) {
      return {
        title: "The computer defends",
        text: `The computer is beating your cards. Any it cannot beat go into its hand, and you attack again.${drawing}`,
        targets: [],
      };
    }
    const open = v.hints.defend || [];
    const some = open.some((h) => h.beaten_by.length > 0);
    return {
      title: "Beat the attack",
      text: some
        ? "Beat each attack card with a higher card of its suit, or with a trump (only a higher trump beats a trump). Beat them all and you attack next; otherwise you pick up the rest."
        : "Nothing in your hand beats these cards: pick them up. They join your hand, and the computer attacks again.",
      targets: some ? [".battle [data-open]", ".hand button.card:not([aria-disabled=true])"] : ["#pick-up"],
    };
  }
  return null;
}
