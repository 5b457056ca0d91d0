// Replays of the match's ended deals. Once a deal has ended the page may ask the table for this
// viewer's view of any step of it (0: as dealt), during the next deals too; the table deals it again
// from its record and answers with a `replay` frame, drawn on the same board with no move open, with
// the deal's moves as told to this viewer. The panel beside the board (under it on a narrow screen,
// where its list folds) lists the match's deals and the moves of the one shown, steps through them by
// click, by the arrow keys and at a reading pace, and goes back to the live table. Nothing here knows
// a rule: it only asks for steps.

import { seatName } from "./social.js";
import { wordsIn } from "./replay-words.js";
import { wholeDeal } from "./replay-whole.js";
import { movesOf, button, keepInSight } from "./replay-moves.js";

/** How long each step stays up while the replay plays by itself. */
const PLAY_MS = 900;

/**
 * The replay panel. `send` puts a frame on the socket (false while offline), `draw` draws a frame on
 * the board, `live` draws the table as it is now, `lang` is the page's language; `analysis`, if
 * given, is the coach's part of the list (replay-moves.js); `open` is the button that opens the
 * replay, `panel` the replay's panel.
 * @param {{ open: HTMLElement, panel: HTMLElement, send: (frame: import("./socket.js").Frame) => boolean, draw: (frame: import("./socket.js").ViewFrame) => unknown, live: () => unknown, lang: () => string, analysis?: import("./replay-moves.js").Analysis | null }} parts
 */
export function createReplay({ open, panel, send, draw, live, lang, analysis = null }) {
  /** @type {import("./socket.js").ViewFrame | null} */
  let at = null; // the last replay frame shown, while replaying
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  let movedOn = false;
  let wholeOpen = false;
  // On a narrow screen the list of moves folds under its toggle, folded at first.
  let folded = true;
  /** @type {import("./board.js").MoveWords | null} */
  let moveWords = null;
  let ended = 0; // how many deals of the match have ended, from the live table's frames
  let inPlay = false; // whether a deal is being played at the live table

  const words = () => wordsIn(lang());

  /** Who made a move, as the replay's line says it (`start`: at the start of a sentence).
   * @param {import("./socket.js").ViewFrame} frame
   * @param {number} seat */
  function who(frame, seat, start = false) {
    const w = words();
    if (seat === frame.seat && !frame.watcher) return start ? w.You : w.you;
    // Computers are called as their boards call them: by seat when there are several.
    const computers = frame.seats.filter((s) => s.who === "computer");
    if (computers.some((s) => s.seat === seat)) return (start ? w.Computer : w.computer)(computers.length > 1 ? seat : null);
    return seatName(frame, seat, lang());
  }

  /** Asks for step `step` of deal `deal` (by default the one shown).
   * @param {number} step
   * @param {number | null} [deal] */
  function ask(step, deal = at ? at.replay.deal : null) {
    return send({ type: "replay", deal, step });
  }

  /** Asks for step `step` of the deal shown, if it has one. @param {number} step */
  function go(step) {
    if (at && step >= 0 && step <= at.replay.steps && step !== at.replay.step) ask(step);
  }

  function stop() {
    clearInterval(/** @type {number | undefined} */ (timer));
    timer = null;
  }

  function drawPanel() {
    const w = words();
    const box = panel.querySelector(".replay-list");
    const scrolled = box ? box.scrollTop : 0;
    panel.replaceChildren();
    if (!at) {
      panel.hidden = true;
      return;
    }
    const frame = at;
    const { step, steps, moves } = frame.replay;
    panel.dir = lang() === "fa" ? "rtl" : "ltr";
    panel.lang = lang();
    const line = document.createElement("p");
    line.id = "replay-line";
    line.className = "replay-line";
    const before = moveWords?.before?.(lang());
    line.textContent = step === 0 ? (before ? w.opening(before, steps) : w.dealt(steps)) : w.step(step, steps, who(frame, moves[step - 1].by));
    // Each deal of the match that has ended can be replayed: the line says which one this is.
    if (frame.replay.deals > 1) line.textContent = `${w.deal(frame.replay.deal + 1, frame.replay.deals)}. ${line.textContent}`;
    if (movedOn) line.textContent += ` ${w.moved}`;
    const controls = document.createElement("div");
    controls.className = "row replay-controls";
    const first = button("replay:first", "|◀", () => go(0));
    const back = button("replay:back", "◀", () => go(step - 1));
    const playing = timer !== null;
    const play = button("replay:play", playing ? w.pause : w.play, () => (timer ? pause() : autoplay()));
    const forward = button("replay:forward", "▶", () => go(step + 1));
    const last = button("replay:last", "▶|", () => go(steps));
    first.setAttribute("aria-label", w.first);
    back.setAttribute("aria-label", w.back);
    play.setAttribute("aria-pressed", String(playing));
    forward.setAttribute("aria-label", w.forward);
    last.setAttribute("aria-label", w.last);
    first.disabled = back.disabled = step === 0;
    forward.disabled = last.disabled = step === steps;
    const fold = button("replay:fold", w.moves, () => {
      folded = !folded;
      drawPanel();
    });
    fold.id = "replay-fold";
    fold.className = "replay-fold";
    fold.setAttribute("aria-expanded", String(!folded));
    fold.setAttribute("aria-controls", "replay-list");
    const leaveButton = button("replay:leave", w.leaveShort, leave);
    leaveButton.setAttribute("aria-label", w.leave);
    leaveButton.className = "primary";
    controls.append(first, back, play, forward, last, fold, leaveButton);
    const list = document.createElement("div");
    list.id = "replay-list";
    list.className = "replay-list";
    const whole = button("replay:whole", w.whole, () => {
      wholeOpen = !wholeOpen;
      drawPanel();
      /** @type {HTMLElement | null} */ (panel.querySelector('[data-key="replay:whole"]'))?.focus({ preventScroll: true });
    });
    whole.className = "replay-whole-button";
    whole.title = w.wholeTitle;
    whole.setAttribute("aria-pressed", String(wholeOpen));
    whole.setAttribute("aria-expanded", String(wholeOpen));
    whole.hidden = !frame.deal?.reveal;
    const nameOf = (/** @type {number} */ seat, start = false) => who(frame, seat, start);
    list.append(...movesOf({ at: frame, lang: lang(), go: (k, deal) => (deal === undefined ? go(k) : ask(k, deal)), who: nameOf, moveWords, analysis }), whole);
    if (wholeOpen) list.append(wholeDeal(frame, lang(), nameOf));
    panel.toggleAttribute("data-folded", folded);
    panel.append(line, controls, list);
    panel.hidden = false;
    list.scrollTop = scrolled;
    keepInSight(list);
  }

  /** The arrow keys step through the deal (back and forth, in the reading direction), Home and End
   * go to its ends.
   * @param {KeyboardEvent} event */
  function arrows(event) {
    if (!at || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const { step, steps } = at.replay;
    const rtl = lang() === "fa";
    const to = {
      ArrowUp: step - 1,
      ArrowDown: step + 1,
      ArrowLeft: rtl ? step + 1 : step - 1,
      ArrowRight: rtl ? step - 1 : step + 1,
      Home: 0,
      End: steps,
    }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  }

  panel.addEventListener("keydown", arrows);
  // With the keyboard nowhere in particular (on the page itself), the arrows step the replay too.
  document.addEventListener("keydown", (event) => {
    if (event.target === document.body) arrows(event);
  });

  function autoplay() {
    if (at && at.replay.step === at.replay.steps) ask(0);
    timer = setInterval(() => {
      if (!at || at.replay.step >= at.replay.steps) pause();
      else ask(at.replay.step + 1);
    }, PLAY_MS);
    drawPanel();
  }

  function pause() {
    stop();
    drawPanel();
  }

  function leave() {
    stop();
    at = null;
    movedOn = false;
    wholeOpen = false;
    document.body.removeAttribute("data-replay");
    drawPanel();
    live();
    open.focus({ preventScroll: true });
  }

  /** Draws the panel again, the keyboard kept on the same control: on the list, on the step shown. */
  function redrawKeepingFocus() {
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focused = active && panel.contains(active) ? active.dataset.key : null;
    drawPanel();
    const key = focused?.startsWith("replay:step:") ? null : focused;
    const target = key
      ? panel.querySelector(`[data-key="${CSS.escape(key)}"]:not(:disabled)`)
      : focused
        ? panel.querySelector('[aria-current="step"]')
        : null;
    /** @type {HTMLElement | null} */ (target)?.focus({ preventScroll: true });
    return Boolean(focused);
  }

  open.addEventListener("click", () => {
    movedOn = false;
    ask(0, null);
  });

  /** The button that opens the replay: offered once a deal of the match has ended. */
  function offer() {
    open.hidden = ended === 0;
    open.textContent = inPlay ? words().openPast : words().open;
  }

  return {
    /** Whether a replay is on the board (live frames then wait until it is left). */
    get on() {
      return at !== null;
    },

    /** The board's words for its moves (`moveWords` of its module), once it is loaded.
     * @param {import("./board.js").MoveWords | null} said */
    speaks(said) {
      moveWords = said;
    },

    /** A `replay` frame from the table.
     * @param {import("./socket.js").ViewFrame} frame */
    frame(frame) {
      at = frame;
      document.body.dataset.replay = `${frame.replay.step}/${frame.replay.steps}`;
      draw(frame);
      const kept = redrawKeepingFocus();
      if (!kept && frame.replay.step === 0 && !timer) /** @type {HTMLElement | null} */ (panel.querySelector('[data-key="replay:forward"]'))?.focus({ preventScroll: true });
    },

    /** Shows step `step` of the deal being replayed.
     * @param {number} step */
    goTo(step) {
      if (at) ask(step);
    },

    /** Draws the panel again (what the coach adds has changed), keeping the keyboard where it was. */
    redraw() {
      redrawKeepingFocus();
    },

    /** A live frame arrived: the replay button is offered once a deal has ended.
     * @param {import("./socket.js").ViewFrame} frame */
    live(frame) {
      // How many deals have ended (a match counts a deal once it is over), each of them replayable.
      ended = frame.match ? frame.match.deals_dealt : 0;
      inPlay = frame.status === "playing";
      offer();
      if (at && inPlay) {
        movedOn = true;
        redrawKeepingFocus();
      }
    },

    /** The page's language changed. */
    relabel() {
      offer();
      redrawKeepingFocus();
    },
  };
}
