// Replays of finished deals. Once a deal has ended the page may ask the table for this seat's view of
// any step of it (0: as dealt); the table deals it again from its record and answers with a `replay`
// frame, which is drawn on the same board with no move open. The bar steps through it, plays it at a
// reading pace, and goes back to the live table. Nothing here knows a rule: it only asks for steps.

import { seatName } from "./social.js";
import { boardHooks } from "./board.js";
import { dealtOrder } from "./verify.js";

const faDigits = (/** @type {number} */ n) => String(n).replace(/\d/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[Number(d)]);

const WORDS = {
  en: {
    you: "you",
    computer: (/** @type {number | null} */ n) => (n === null ? "the computer" : `Computer ${n}`),
    open: "Replay the deal",
    first: "First step",
    back: "Step back",
    forward: "Step forward",
    last: "Last step",
    play: "Play",
    pause: "Pause",
    leave: "Back to the table",
    leaveShort: "Back",
    dealt: (/** @type {number} */ n) => `Replay: the deal as dealt (${n} moves follow)`,
    step: (/** @type {number} */ k, /** @type {number} */ n, /** @type {string} */ who) => `Replay: move ${k} of ${n}, by ${who}`,
    moved: "The table has moved on; it is shown again when you go back.",
    deal: (/** @type {number} */ n, /** @type {number} */ of) => `Deal ${n} of the ${of} played`,
    earlier: "Earlier deal",
    later: "Later deal",
    whole: "Whole deal",
    wholeTitle: "Every card as the shuffle dealt it, from the deal's reveal (the order checked against its seal)",
    dealtTo: (/** @type {string} */ who) => `Dealt to ${who}`,
    stockOf: (/** @type {string} */ who) => `${who.charAt(0).toUpperCase()}${who.slice(1)}: stock, top card first`,
    trump: "The trump card",
    pile: "The pile, top card first",
    secret: "Kept secret: never seen face up by anyone but their holder",
  },
  fa: {
    you: "شما",
    computer: (/** @type {number | null} */ n) => (n === null ? "رایانه" : `رایانهٔ ${faDigits(n)}`),
    open: "بازبینی دست",
    first: "آغاز",
    back: "یک حرکت عقب",
    forward: "یک حرکت جلو",
    last: "پایان",
    play: "پخش",
    pause: "ایست",
    leave: "بازگشت به میز",
    leaveShort: "بازگشت",
    dealt: (/** @type {number} */ n) => `بازبینی: دست همان‌طور که پخش شد (${faDigits(n)} حرکت در پی)`,
    step: (/** @type {number} */ k, /** @type {number} */ n, /** @type {string} */ who) => `بازبینی: حرکت ${faDigits(k)} از ${faDigits(n)}، از ${who}`,
    moved: "بازی میز جلو رفته است؛ وقتی برگردید نشان داده می‌شود.",
    deal: (/** @type {number} */ n, /** @type {number} */ of) => `دست ${faDigits(n)} از ${faDigits(of)} دست بازی‌شده`,
    earlier: "دست پیشین",
    later: "دست پسین",
    whole: "همهٔ دست",
    wholeTitle: "همهٔ برگ‌ها همان‌طور که بُر داده شد، از آشکارسازی دست",
    dealtTo: (/** @type {string} */ who) => `داده‌شده به ${who}`,
    stockOf: (/** @type {string} */ who) => `${who}: دسته، از برگ رو`,
    trump: "برگ حکم",
    pile: "دسته، از برگ رو",
    secret: "پنهان‌مانده: جز دارنده‌اش کسی آن را رو ندید",
  },
};

/** How long each step stays up while the replay plays by itself. */
const PLAY_MS = 900;

/**
 * The replay bar. `send` puts a frame on the socket (false while offline), `draw` draws a frame on
 * the board, `live` draws the table as it is now, `lang` is the page's language; `extra(at)`, if
 * given, adds its part under the controls for the step `at` (the coach's analysis); `open` is the
 * button that opens the replay, `bar` the replay bar.
 * @param {{ open: HTMLElement, bar: HTMLElement, send: (frame: import("./socket.js").Frame) => boolean, draw: (frame: import("./socket.js").ViewFrame) => unknown, live: () => unknown, lang: () => string, extra?: ((at: import("./socket.js").ViewFrame) => Node | null) | null }} parts
 */
export function createReplay({ open, bar, send, draw, live, lang, extra = null }) {
  /** @type {import("./socket.js").ViewFrame | null} */
  let at = null; // the last replay frame shown, while replaying
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  let movedOn = false;
  let wholeOpen = false;
  let ended = 0; // how many deals of the match have ended, from the live table's frames

  /** Each destination of the deal's cards in its reveal (a seat, or a place such as a trump or pile),
   * with the cards it was dealt in order, drawn as on the boards.
   * @param {import("./socket.js").ViewFrame} frame */
  function wholeDeal(frame) {
    const panel = document.createElement("div");
    panel.className = "replay-whole";
    panel.id = "replay-whole";
    if (!frame.deal?.reveal) return panel;
    // The dealt order is the players' shuffle of the revealed order, worked out here (verify.js).
    dealtOrder(frame.deal).then((places) => fillWhole(panel, frame, places));
    return panel;
  }

  /** The panel's groups: each destination's cards in the order dealt, a hidden place as a back.
   * @param {HTMLElement} panel
   * @param {import("./socket.js").ViewFrame} frame
   * @param {Array<{ card: string | null, to: number | string }>} places */
  function fillWhole(panel, frame, places) {
    const w = words();
    /** @type {Map<string, Array<string | null>>} */
    const groups = new Map();
    for (const { card, to } of places) {
      // A place the reveal keeps from this seat (a card played face down, one left in a stock).
      const key = card === null ? "secret" : String(to);
      if (!groups.has(key)) groups.set(key, []);
      /** @type {Array<string | null>} */ (groups.get(key)).push(card);
    }
    for (const [to, codes] of groups) {
      const seat = Number(to);
      const title = Number.isInteger(seat)
        ? boardHooks().dealt === "stock" ? w.stockOf(who(frame, seat)) : w.dealtTo(who(frame, seat))
        : to === "trump" ? w.trump : to === "secret" ? w.secret : w.pile;
      const group = document.createElement("section");
      group.className = "replay-dealt";
      const heading = document.createElement("h3");
      heading.textContent = `${title} (${codes.length})`;
      const row = document.createElement("div");
      row.className = "replay-cards";
      row.dir = "ltr";
      for (const code of codes) {
        const card = code === null ? boardHooks().back(w.secret) : boardHooks().card(code, lang());
        // Not a card of the board: motion.js and the board's own look-ups leave it alone.
        delete card.dataset.card;
        row.append(card);
      }
      group.append(heading, row);
      panel.append(group);
    }
  }

  const words = () => WORDS[/** @type {keyof typeof WORDS} */ (lang())] || WORDS.en;

  /** Who made a move, as the replay's line says it.
   * @param {import("./socket.js").ViewFrame} frame
   * @param {number} seat */
  function who(frame, seat) {
    if (seat === frame.seat && !frame.watcher) return words().you;
    // Computers are called as their boards call them: by seat when there are several.
    const computers = frame.seats.filter((s) => s.who === "computer");
    if (computers.some((s) => s.seat === seat)) return words().computer(computers.length > 1 ? seat : null);
    return seatName(frame, seat, lang());
  }

  /** @param {string} key
   * @param {string} text
   * @param {() => unknown} onClick */
  function button(key, text, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.key = `replay:${key}`;
    b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }

  /** @param {number} step
   * @param {number | null} [deal] */
  function ask(step, deal = at ? at.replay.deal : null) {
    return send({ type: "replay", deal, step });
  }

  function stop() {
    clearInterval(/** @type {number | undefined} */ (timer));
    timer = null;
  }

  function drawBar() {
    const w = words();
    bar.replaceChildren();
    if (!at) {
      bar.hidden = true;
      return;
    }
    const { step, steps, by } = at.replay;
    const line = document.createElement("p");
    line.id = "replay-line";
    line.className = "replay-line";
    line.textContent = step === 0 ? w.dealt(steps) : w.step(step, steps, who(at, by));
    // Each deal of the match that has ended can be replayed: the bar says which one this is.
    if (ended > 1) line.textContent = `${w.deal(at.replay.deal + 1, ended)}. ${line.textContent}`;
    if (movedOn) line.textContent += ` ${w.moved}`;
    const controls = document.createElement("div");
    controls.className = "row replay-controls";
    const first = button("first", "|◀", () => ask(0));
    const back = button("back", "◀", () => ask(step - 1));
    const playing = timer !== null;
    const play = button("play", playing ? w.pause : w.play, () => (timer ? pause() : autoplay()));
    const forward = button("forward", "▶", () => ask(step + 1));
    const last = button("last", "▶|", () => ask(steps));
    first.setAttribute("aria-label", w.first);
    back.setAttribute("aria-label", w.back);
    play.setAttribute("aria-pressed", String(playing));
    forward.setAttribute("aria-label", w.forward);
    last.setAttribute("aria-label", w.last);
    first.disabled = back.disabled = step === 0;
    forward.disabled = last.disabled = step === steps;
    const whole = button("whole", w.whole, () => {
      wholeOpen = !wholeOpen;
      drawBar();
      /** @type {HTMLElement | null} */ (bar.querySelector('[data-key="replay:whole"]'))?.focus({ preventScroll: true });
    });
    whole.title = w.wholeTitle;
    whole.setAttribute("aria-pressed", String(wholeOpen));
    whole.setAttribute("aria-expanded", String(wholeOpen));
    whole.hidden = !at.deal?.reveal;
    const leaveButton = button("leave", w.leaveShort, leave);
    leaveButton.setAttribute("aria-label", w.leave);
    leaveButton.className = "primary";
    controls.append(first, back, play, forward, last, whole);
    if (ended > 1) {
      const deal = at.replay.deal;
      const earlier = button("earlier", `◀ ${w.earlier}`, () => ask(0, deal - 1));
      const later = button("later", `${w.later} ▶`, () => ask(0, deal + 1));
      earlier.disabled = deal === 0;
      later.disabled = deal + 1 >= ended;
      controls.append(earlier, later);
    }
    controls.append(leaveButton);
    bar.append(line, controls);
    const more = extra?.(at);
    if (more) bar.append(more);
    if (wholeOpen) bar.append(wholeDeal(at));
    bar.hidden = false;
  }

  function autoplay() {
    if (at && at.replay.step === at.replay.steps) ask(0);
    timer = setInterval(() => {
      if (!at || at.replay.step >= at.replay.steps) pause();
      else ask(at.replay.step + 1);
    }, PLAY_MS);
    drawBar();
  }

  function pause() {
    stop();
    drawBar();
  }

  function leave() {
    stop();
    at = null;
    movedOn = false;
    wholeOpen = false;
    document.body.removeAttribute("data-replay");
    drawBar();
    live();
    open.focus({ preventScroll: true });
  }

  open.addEventListener("click", () => {
    movedOn = false;
    ask(0, null);
  });

  return {
    /** Whether a replay is on the board (live frames then wait until it is left). */
    get on() {
      return at !== null;
    },

    /** A `replay` frame from the table.
     * @param {import("./socket.js").ViewFrame} frame */
    frame(frame) {
      const active = /** @type {HTMLElement | null} */ (document.activeElement);
      const focused = bar.contains(active) ? /** @type {HTMLElement} */ (active).dataset.key : null;
      at = frame;
      document.body.dataset.replay = `${frame.replay.step}/${frame.replay.steps}`;
      draw(frame);
      drawBar();
      if (focused) /** @type {HTMLElement | null} */ (bar.querySelector(`[data-key="${CSS.escape(focused)}"]:not(:disabled)`))?.focus({ preventScroll: true });
      else if (frame.replay.step === 0 && !timer) /** @type {HTMLElement | null} */ (bar.querySelector('[data-key="replay:forward"]'))?.focus({ preventScroll: true });
    },

    /** Shows step `step` of the deal being replayed.
     * @param {number} step */
    goTo(step) {
      if (at) ask(step);
    },

    /** Draws the bar again (what `extra` adds has changed), keeping the keyboard where it was. */
    redraw() {
      const active = /** @type {HTMLElement | null} */ (document.activeElement);
      const focused = bar.contains(active) ? /** @type {HTMLElement} */ (active).dataset.key : null;
      drawBar();
      if (focused) /** @type {HTMLElement | null} */ (bar.querySelector(`[data-key="${CSS.escape(focused)}"]:not(:disabled)`))?.focus({ preventScroll: true });
    },

    /** A live frame arrived: the replay button is offered once a deal has ended.
     * @param {import("./socket.js").ViewFrame} frame */
    live(frame) {
      // How many deals have ended (a match counts a deal once it is over), each of them replayable.
      ended = frame.match ? frame.match.deals_dealt : 0;
      const over = frame.status === "deal-over" || frame.status === "match-over";
      open.hidden = !over;
      open.textContent = words().open;
      if (at && frame.status === "playing") {
        movedOn = true;
        drawBar();
      }
    },

    /** The page's language changed. */
    relabel() {
      open.textContent = words().open;
      drawBar();
    },
  };
}
