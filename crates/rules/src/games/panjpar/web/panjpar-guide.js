// The guided first deal of Panjpar (guide.js): what this seat is to do now and why, from the view.

import { WORDS } from "./panjpar-words.js";

/**
 * The guided first deal's step for `frame` (guide.js): what this seat is to do now and why, worded
 * from the view alone (the phase, whose turn it is, what the hints say can beat what) in the page's
 * language `lang`, and the controls it is about.
 * @param {import("./socket.js").ViewFrame} frame
 * @param {string} [lang]
 */
export function guideStep(frame, lang = "en") {
  const g = (WORDS[/** @type {keyof typeof WORDS} */ (lang)] ?? WORDS.en).guide;
  const v = frame.view;
  if (!v || frame.watcher) return null;
  const mine = frame.actions.length > 0;
  const drawing = v.stock_left ? g.drawing : g.emptied;
  if (frame.status === "deal-over" || frame.status === "match-over") {
    return { ...g.over, targets: ["#rematch", "#next-deal"] };
  }
  if (v.phase.name === "guess") {
    return mine ? { ...g.guess, targets: ["[data-colour]"] } : { ...g.theyGuess, targets: [] };
  }
  if (v.phase.name === "attack") {
    return mine
      ? { title: g.attack.title, text: `${g.attack.text}${drawing}`, targets: [".hand button.card", "#attack"] }
      : { ...g.theyAttack, targets: [] };
  }
  if (v.phase.name === "defend") {
    if (!mine) return { title: g.theyDefend.title, text: `${g.theyDefend.text}${drawing}`, targets: [] };
    const open = v.hints.defend || [];
    const some = open.some((/** @type {{ beaten_by: string[] }} */ h) => h.beaten_by.length > 0);
    return {
      title: g.defend.title,
      text: some ? g.defend.some : g.defend.none,
      targets: some ? [".battle [data-open]", ".hand button.card:not([aria-disabled=true])"] : ["#pick-up"],
    };
  }
  return null;
}

/** The guide's own button, in the page's language. */
export const guideLeave = (lang = "en") => (WORDS[/** @type {keyof typeof WORDS} */ (lang)] ?? WORDS.en).guide.leave;
