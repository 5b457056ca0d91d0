// The guided first deal of Ganjifa (guide.js): what this seat is to do now and why, from the view.

import { sharedStep } from "./guide.js";
import { wordsIn } from "./ganjifa-words.js";

/**
 * The guided first deal's step for `frame` (guide.js): what this seat is to do now and why, worded
 * from the view alone (the stage, whose turn, the leads and plays it offers) in the page's language
 * `lang`, and the controls it is about.
 * @param {import("./socket.js").ViewFrame} frame
 * @param {string} [lang]
 */
export function guideStep(frame, lang = "en") {
  const W = wordsIn(lang);
  const shared = sharedStep(frame, W.guide.over, W.guide.others(frame.view?.stage === "lead"));
  if (shared !== undefined) return shared;
  const v = frame.view;
  const has = (/** @type {string} */ type) => frame.actions.some((a) => a.type === type);
  if (v.stage === "blind-pick") {
    return {
      ...W.guide.pick,
      targets: [".g-backs button"],
    };
  }
  if (v.stage === "lead") {
    if (has("run")) {
      return {
        ...W.guide.run,
        targets: ["[data-area=actions] button"],
      };
    }
    if (has("deni") || has("burn")) {
      return {
        ...W.guide.deni(has("burn")),
        targets: [".ghand button.playable", "[data-area=actions] button"],
      };
    }
    const talafa = has("talafa");
    const utari = has("utari");
    if (talafa || utari) {
      return {
        ...W.guide.choose(utari, talafa),
        targets: [".ghand button.playable", "[data-area=actions] button"],
      };
    }
    return {
      ...W.guide.giveUp,
      targets: ["[data-area=actions] button"],
    };
  }
  if (has("put-down") && v.trick?.kind?.kind === "opening") {
    return {
      ...W.guide.opening,
      targets: [".ghand button.playable"],
    };
  }
  if (has("put-down")) {
    return {
      ...W.guide.putDown,
      targets: [".ghand button.playable"],
    };
  }
  return {
    ...W.guide.play,
    targets: [".ghand button.playable"],
  };
}

/** The guide's own button, in the page's language. */
export const guideLeave = (lang = "en") => wordsIn(lang).guide.leave;
