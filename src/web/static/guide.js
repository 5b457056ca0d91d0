// A guided first deal: a real deal against the computer, with a panel above the board that says what
// to do now and why, and a glow on the controls it means. The words come from the board module's own
// `guideStep(frame)`, which reads only the view the server sent (whose turn, the phase, the hints):
// the guide never works out a rule for itself. The guide belongs to one table and is kept in the
// browser's session, so a reload keeps it; "Leave the guide" ends it for that table. Its table's
// computers make no move until the guide has said its first words (`spoken`), so that no card moves
// before the guide speaks.

import { el, button } from "./ui.js";

/** @param {string} table */
const KEY = (table) => `chaikhana.guide.${table}`;

/**
 * The guide's steps every board words alike: none for a watcher or before a deal, the deal's end
 * (`over`, pointing at the way on), and `others` while this seat has nothing to do. `undefined` when
 * the step is the board's own to word.
 * @param {import("./socket.js").ViewFrame} frame
 * @param {{title: string, text: string}} over
 * @param {{title: string, text: string}} others
 */
export function sharedStep(frame, over, others) {
  if (!frame.view || frame.watcher) return null;
  if (frame.status === "deal-over" || frame.status === "match-over") return { ...over, targets: ["#rematch", "#next-deal"] };
  if (!frame.actions.length) return { ...others, targets: [] };
  return undefined;
}

/** Asks for the guide at `table` (the landing page does, before it goes there). */
/** @param {string} table */
export function askGuide(table) {
  sessionStorage.setItem(KEY(table), "on");
}

/**
 * The guide at `table`, if this browser asked for it: `show(frame)` after every drawing of the
 * board, in the page's language `lang()` where the board words its guide in it (`guideStep(frame,
 * lang)`, and `guideLeave(lang)` for the guide's own button); `spoken()` once its first step is on the
 * page. `null` when it was not asked for, or the board module has no guide.
 * @param {string} table
 * @param {import("./board.js").BoardModule} module
 * @param {() => string} lang
 * @param {() => void} spoken
 */
export function createGuide(table, module, lang, spoken) {
  const guideStep = module.guideStep;
  if (sessionStorage.getItem(KEY(table)) !== "on" || !guideStep) return null;
  const panel = /** @type {HTMLElement} */ (document.getElementById("guide"));
  let last = "";
  let first = true;
  const leave = () => {
    sessionStorage.removeItem(KEY(table));
    panel.hidden = true;
    panel.replaceChildren();
    for (const e of document.querySelectorAll("[data-guide-here]")) e.removeAttribute("data-guide-here");
    guide.on = false;
  };
  const guide = {
    on: true,
    /** Shows the step for `frame`, and marks the controls it is about on the board. */
    /** @param {import("./socket.js").ViewFrame} frame */
    show(frame) {
      if (!guide.on) return;
      const step = guideStep(frame, lang());
      panel.hidden = !step;
      if (!step) return;
      const leaveWords = module.guideLeave?.(lang()) ?? "Leave the guide";
      const said = `${step.title}\n${step.text}\n${leaveWords}`;
      if (said !== last) {
        last = said;
        const leaving = button(leaveWords, leave);
        leaving.id = "guide-leave";
        panel.replaceChildren(el("h2", "", step.title), el("p", "", step.text), leaving);
      }
      if (first) {
        first = false;
        spoken();
      }
      const board = /** @type {HTMLElement} */ (document.getElementById("board"));
      for (const css of step.targets || []) {
        for (const e of /** @type {NodeListOf<HTMLElement>} */ (board.querySelectorAll(css))) e.dataset.guideHere = "";
      }
    },
  };
  return guide;
}
