// The coach: a hint at this seat's turn, and the analysis of this seat's moves in a deal that has
// ended, both from the strong computer judging with only what this seat knew. Nothing here knows a
// rule: the table says whether hints are offered (a view's `hints_taken`, the count each seat has taken),
// judges, and sends each reason as a value; the page words it in its language (table-words.js, with
// the board's words for its moves), asks, shows, and counts nothing itself.

import { el } from "./ui.js";
import { seatName } from "./social.js";
import { coachSentence } from "./table-words.js";
import { faDigits } from "./persian.js";


const WORDS = {
  en: {
    hint: "Hint",
    close: "Close",
    hintTitle: "Ask the strong computer what it would play here",
    hintLater: "The coach gives hints at your turn, when you have a choice to make",
    thinking: "The coach is thinking…",
    busy: "The coach is busy with other tables; your hint comes as soon as it is thought.",
    offline: "The table is out of reach: ask again once it is back.",
    hinted: (/** @type {string} */ why) => `Coach: ${why}`,
    taken: (/** @type {number} */ n) => (n === 1 ? "You took 1 hint in this deal." : `You took ${n} hints in this deal.`),
    you: "you",
    takenBy: (/** @type {Array<[string, number]>} */ counts) => `Hints taken in this deal: ${counts.map(([who, n]) => `${who}: ${n}`).join(", ")}.`,
    analyse: "Analyse my moves",
    analyseTitle: "The strong computer judges each of your decisions with only what you knew then",
    analysing: (/** @type {number} */ done, /** @type {number} */ of) =>
      done === 0
        ? `Your analysis is queued: the coach judges your ${of} decisions as soon as it has room.`
        : `Analysing your moves: ${done} of ${of} judged…`,
    judged: (/** @type {number} */ n, /** @type {number} */ marks) =>
      marks === 0
        ? `The coach judged your ${n} decisions: none cost you anything it could measure.`
        : `The coach judged your ${n} decisions and marked ${marks}:`,
    grade: { inaccuracy: "Inaccuracy", mistake: "Mistake", blunder: "Blunder" },
    move: (/** @type {number} */ step, /** @type {string} */ grade) => `Move ${step + 1}: ${grade}`,
    here: (/** @type {string} */ grade, /** @type {string} */ why) => `Your decision here, ${grade.toLowerCase()}: ${why}`,
  },
  fa: {
    hint: "راهنمایی",
    close: "بستن",
    hintTitle: "از رایانهٔ قوی بپرسید این‌جا چه بازی می‌کرد",
    hintLater: "مربی در نوبت شما، وقتی باید میان چند کار یکی را برگزینید، راهنمایی می‌کند",
    thinking: "مربی فکر می‌کند…",
    busy: "مربی سرگرم میزهای دیگر است؛ راهنمایی شما همین که سنجیده شود می‌رسد.",
    offline: "میز در دسترس نیست؛ وقتی برگشت دوباره بپرسید.",
    hinted: (/** @type {string} */ why) => `مربی: ${why}`,
    taken: (/** @type {number} */ n) => `در این دست ${faDigits(n)} بار راهنمایی گرفتید.`,
    you: "شما",
    takenBy: (/** @type {Array<[string, number]>} */ counts) => `راهنمایی‌های این دست: ${counts.map(([who, n]) => `${who}: ${faDigits(n)}`).join("، ")}.`,
    analyse: "حرکت‌هایم را بسنج",
    analyseTitle: "رایانهٔ قوی هر تصمیم شما را تنها با آنچه آن زمان می‌دانستید می‌سنجد",
    analysing: (/** @type {number} */ done, /** @type {number} */ of) =>
      done === 0
        ? `سنجش شما در نوبت است: مربی ${faDigits(of)} تصمیم شما را همین که جا باشد می‌سنجد.`
        : `سنجش حرکت‌ها: ${faDigits(done)} از ${faDigits(of)} سنجیده شد…`,
    judged: (/** @type {number} */ n, /** @type {number} */ marks) =>
      marks === 0
        ? `مربی ${faDigits(n)} تصمیم شما را سنجید: هیچ‌کدام هزینه‌ای نداشت.`
        : `مربی ${faDigits(n)} تصمیم شما را سنجید و ${faDigits(marks)} را نشان کرد:`,
    grade: { inaccuracy: "نادقیق", mistake: "اشتباه", blunder: "خطای بزرگ" },
    move: (/** @type {number} */ step, /** @type {string} */ grade) => `حرکت ${faDigits(step + 1)}: ${grade}`,
    here: (/** @type {string} */ grade, /** @type {string} */ why) => `تصمیم شما این‌جا، ${grade}: ${why}`,
  },
};

/** The codes with which the table refuses what the coach was asked. */
const REFUSALS = ["no-hints", "not-your-turn", "not-your-decisions", "deal-in-play"];

/**
 * The coach's parts of the page. `hintButton` asks for a hint, `panel` says the coach's words,
 * `send` puts a frame on the socket (false while offline), `goTo(step)` shows a step of the deal being
 * replayed, `redraw()` draws the replay panel again, `lang` is the page's language. The panel lies in
 * the page's flow above the board (site.css), so it never covers a line of it.
 * @param {{ hintButton: HTMLElement, panel: HTMLElement, send: (frame: import("./socket.js").Frame) => boolean, goTo: (step: number) => void, redraw: () => void, lang: () => string }} parts
 */
export function createCoach({ hintButton, panel, send, goTo, redraw, lang }) {
  const words = () => WORDS[/** @type {keyof typeof WORDS} */ (lang())] ?? WORDS.en;
  /** The board's words for its moves and its rules' reasons (its module's `coachWords`).
   * @type {import("./board.js").CoachWords | null} */
  let game = null;
  /** The coach's reason as a sentence in the page's language (`why`: the table's JSON, or a sentence). */
  const sentence = (/** @type {any} */ why) => (game || typeof why === "string" ? coachSentence(why, lang(), /** @type {import("./board.js").CoachWords} */ (game)) : "");
  /** The analyses heard, by deal (`analysis` frames: how many decisions were judged, and the marks),
   * and the progress of those under way.
   * @type {Map<number, import("./socket.js").Frame>} */
  const analyses = new Map();
  /** @type {Map<number, { done: number, of: number }>} */
  const progress = new Map();
  /** @type {number | null} */
  let version = null;
  /** @type {import("./socket.js").Frame | null} */
  let hinted = null; // the hint shown, with the version it was for

  /** Says `text` in the panel, with a button that puts it away (nothing said: the panel hides). */
  /** @param {string} text */
  function say(text) {
    const close = el("button", "", "×");
    /** @type {HTMLButtonElement} */ (close).type = "button";
    close.setAttribute("aria-label", words().close);
    close.addEventListener("click", () => {
      panel.hidden = true;
      hintButton.focus({ preventScroll: true });
    });
    panel.replaceChildren(el("span", "", text), close);
    // A Persian sentence reads right to left, its close button at its start.
    panel.dir = lang() === "fa" ? "rtl" : "ltr";
    panel.hidden = !text;
  }

  /** The hint asked and not yet answered: its version and its timer.
   * @type {{ version: number, timer: ReturnType<typeof setTimeout> } | null} */
  let asking = null;

  /** Asks for a hint on `at`. Unanswered after two seconds the panel says the coach is busy, and it
   * asks again every ten (asked again, a hint is the same hint, counted once): an answer sent to a
   * socket that has since been replaced would otherwise never come.
   * @param {number} at */
  function askHint(at, waited = 0) {
    clearTimeout(asking?.timer);
    asking = null;
    if (at !== version) return;
    if (!send({ type: "hint", version: at })) {
      say(words().offline);
      return;
    }
    if (waited === 0) say(words().thinking);
    const next = waited === 0 ? 2000 : 10000;
    const timer = setTimeout(() => {
      if (asking?.version !== at || hinted?.version === at) return;
      say(words().busy);
      askHint(at, waited + next);
    }, next);
    asking = { version: at, timer };
  }

  hintButton.addEventListener("click", () => {
    if (version !== null && hintButton.getAttribute("aria-disabled") !== "true") askHint(version);
  });

  /** The analysis above the replay's list of moves, for the replay frame `at`: the button that asks
   * for it, its progress, or what it found with a button for each mark.
   * @param {import("./socket.js").Frame} at */
  function head(at) {
    const w = words();
    const box = el("div", "coach-analysis");
    box.id = "coach-analysis";
    box.dir = lang() === "fa" ? "rtl" : "ltr";
    const deal = at.replay.deal;
    const analysis = analyses.get(deal);
    if (!analysis) {
      const under = progress.get(deal);
      if (under) {
        // Asked and not yet answered; then queued, then judged a decision at a time.
        const line = under.of === 0 ? w.thinking : w.analysing(under.done, under.of);
        box.append(el("p", "coach-line", line));
      } else {
        const ask = el("button", "", w.analyse);
        /** @type {HTMLButtonElement} */ (ask).type = "button";
        ask.title = w.analyseTitle;
        ask.dataset.key = "coach:analyse";
        ask.addEventListener("click", () => {
          if (send({ type: "analyse", deal })) {
            progress.set(deal, { done: 0, of: 0 });
            redraw();
          }
        });
        box.append(ask);
      }
      return box;
    }
    box.append(el("p", "coach-line", w.judged(analysis.judged, analysis.marks.length)));
    if (analysis.marks.length) {
      const list = el("div", "row coach-marks");
      for (const mark of analysis.marks) {
        const label = w.move(mark.step, gradeWord(mark.grade));
        const b = el("button", `coach-mark ${mark.grade}`, label);
        /** @type {HTMLButtonElement} */ (b).type = "button";
        b.dataset.key = `coach:mark:${mark.step}`;
        b.dataset.grade = mark.grade;
        b.setAttribute("aria-current", String(mark.step + 1 === at.replay.step));
        // As Lichess does: the move the mark names, just made, with the coach's word on it.
        b.addEventListener("click", () => goTo(mark.step + 1));
        list.append(b);
      }
      box.append(list);
    }
    return box;
  }

  /** A grade in words. @param {string} grade */
  const gradeWord = (grade) => words().grade[/** @type {keyof ReturnType<typeof words>["grade"]} */ (grade)] ?? grade;

  /** The analysis's mark on the decision that led to step `step` of deal `deal`, if it has one.
   * @param {number} deal
   * @param {number} step */
  function markAt(deal, step) {
    return analyses.get(deal)?.marks.find((/** @type {{ step: number, grade: string, why: any }} */ mark) => mark.step + 1 === step) ?? null;
  }

  /** The coach's note on the step the replay frame `at` shows, if its decision was marked: it lies
   * beside the step in the replay's list.
   * @param {import("./socket.js").Frame} at */
  function note(at) {
    const here = markAt(at.replay.deal, at.replay.step);
    if (!here) return null;
    const said = el("p", `coach-note ${here.grade}`, words().here(gradeWord(here.grade), sentence(here.why)));
    said.id = "coach-note";
    said.dataset.grade = here.grade;
    said.dir = lang() === "fa" ? "rtl" : "ltr";
    return said;
  }

  /** The mark on step `step` of deal `deal` for the replay's list: its grade, and the grade in words.
   * @param {number} deal
   * @param {number} step */
  function mark(deal, step) {
    const here = markAt(deal, step);
    return here ? { grade: here.grade, label: gradeWord(here.grade) } : null;
  }

  return {
    /** The coach's part of the replay's list (replay-moves.js). */
    analysis: { head, mark, note },

    /** Says the hint on show again, in the page's language now. */
    relabel() {
      hintButton.textContent = words().hint;
      hintButton.title = words().hintTitle;
      if (hinted && !panel.hidden) say(words().hinted(sentence(hinted.why)));
    },

    /** The board's words for the coach's moves (`coachWords` of its module), once it is loaded.
     * @param {import("./board.js").CoachWords | null} words */
    speaks(words) {
      game = words;
    },

    /** A live frame: where hints are, the hint button is shown through the deal and pressed at
     * this seat's turn when it has a choice, and the count taken is said once the deal has ended.
     * @param {import("./socket.js").ViewFrame} frame
     * @param {boolean} watching */
    live(frame, watching) {
      version = frame.version;
      const offered = !watching && Array.isArray(frame.hints_taken);
      // A choice to make: this seat's turn, with more than one move (a move it must make, such as a
      // turn-over made for it, needs no hint).
      const choosing = offered && frame.status === "playing" && frame.actions?.length > 1;
      // Shown through the whole deal, so the header never moves; pressed only at such a turn.
      hintButton.hidden = !(offered && frame.status === "playing");
      hintButton.setAttribute("aria-disabled", String(!choosing));
      hintButton.textContent = words().hint;
      hintButton.title = choosing ? words().hintTitle : words().hintLater;
      if (hinted && hinted.version !== frame.version) {
        hinted = null;
        say("");
      }
      const over = frame.status === "deal-over" || frame.status === "match-over";
      const counted = Array.isArray(frame.hints_taken);
      // Among friends (and to a watcher) every seat's count is everyone's to see.
      const everyone = counted && (watching || frame.kind === "friends");
      if ((offered || everyone) && over) {
        const taken = everyone ? frame.hints_taken.join(",") : String(frame.hints_taken[frame.seat] ?? 0);
        const who = (/** @type {number} */ seat) => (seat === frame.seat && !watching ? words().you : seatName(frame, seat, lang()));
        // A computer never asks the coach: only the people's seats are counted aloud.
        const isComputer = (/** @type {number} */ seat) => frame.seats?.find((s) => s.seat === seat)?.who === "computer";
        /** @type {Array<[string, number]>} */
        const people = [];
        frame.hints_taken.forEach((/** @type {number} */ n, /** @type {number} */ seat) => isComputer(seat) || people.push([who(seat), n]));
        const sentence = everyone
          ? words().takenBy(people)
          : taken !== "0" ? words().taken(Number(taken)) : "";
        // Said once as the deal ends; put away, it stays away.
        if (panel.dataset.hints !== taken || !panel.dataset.said) say(sentence);
        panel.dataset.hints = taken;
        panel.dataset.said = "1";
      } else if (!hinted) {
        delete panel.dataset.said;
        say("");
      }
    },

    /** A `hint`, `analysing` or `analysis` frame from the table.
     * @param {import("./socket.js").Frame} frame */
    frame(frame) {
      if (frame.type === "hint") {
        clearTimeout(asking?.timer);
        asking = null;
        hinted = frame;
        panel.dataset.action = JSON.stringify(frame.action);
        say(words().hinted(sentence(frame.why)));
      } else if (frame.type === "analysing") {
        progress.set(frame.deal, { done: frame.done, of: frame.of });
        redraw();
      } else if (frame.type === "analysis") {
        progress.delete(frame.deal);
        analyses.set(frame.deal, frame);
        redraw();
      }
    },

    /** An error from the table: one refusing what the coach was asked means what was under way is
     * not (the board says the table's sentence).
     * @param {import("./socket.js").ErrorFrame} frame */
    error(frame) {
      if (!REFUSALS.includes(frame.code) && frame.code !== "stale-version") return;
      clearTimeout(asking?.timer);
      asking = null;
      if (!REFUSALS.includes(frame.code)) return;
      progress.clear();
      if (!hinted) say("");
      redraw();
    },
  };
}
