// The guided first deal of Pishe Pasha (guide.js): what this seat may do now and why, from the view.

import { sharedStep } from "./guide.js";
import { wordsIn } from "./pishe-pasha-words.js";

/**
 * The guided first deal's step for `frame` (guide.js): what this seat may do now and why, worded
 * from the view alone (whose turn it is and the moves it offers) in the page's language `lang`, and
 * the controls it is about.
 * @param {import("./socket.js").ViewFrame} frame
 * @param {string} [lang]
 */
export function guideStep(frame, lang = "en") {
  const W = wordsIn(lang);
  const shared = sharedStep(frame, W.guide.over, W.guide.computer);
  if (shared !== undefined) return shared;
  const has = (/** @type {string} */ type) => frame.actions.some((/** @type {import("./socket.js").Action} */ a) => a.type === type);
  if (has("keep")) {
    return {
      ...W.guide.keep,
      targets: ["#give", "#keep"],
    };
  }
  if (has("give")) {
    return {
      ...W.guide.give,
      targets: ["#give", "#turn"],
    };
  }
  return {
    ...W.guide.turn,
    targets: ["#turn"],
  };
}

/** The guide's own button, in the page's language. */
export const guideLeave = (lang = "en") => wordsIn(lang).guide.leave;
