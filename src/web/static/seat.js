// Taking a seat at a table through its link: the token this browser keeps for the table, or a free
// seat asked for, with the person's agreement first where the table offers the coach's hints.

import { tokenOf, keepSeat } from "./tables.js";
import { GONE_CODES } from "./socket.js";
import { el } from "./ui.js";

/** The table page's words in one of its languages.
 * @typedef {(typeof import("./table-words.js").WORDS)[keyof typeof import("./table-words.js").WORDS]} TableWords */

/** @param {number} ms */
const pause = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * The seat's token at `table`: the one this browser keeps for it, or a free seat taken through the
 * link. A table waking up (503) or a server out of reach is tried again, with back-off, for as long as
 * it takes; a table gone for good says why (`gone`), a full one or a failure says so (`say`), each in
 * the page's `words()`.
 * @param {string} table
 * @param {{ words: () => TableWords, say: (text: string) => void, gone: (why: { reason: string, days?: number }) => void }} page
 */
export async function seatToken(table, { words, say, gone }) {
  const kept = tokenOf(table);
  if (kept) return kept;
  let delay = 500;
  let answer = null;
  let agreed = false;
  for (;;) {
    try {
      const body = agreed ? JSON.stringify({ hints: true }) : undefined;
      answer = await fetch(`/api/tables/${table}/join`, { method: "POST", body });
    } catch (_) {
      answer = null;
    }
    if (answer?.status === 428 && !agreed) {
      // The table offers hints to every player: the seat is taken once this person agrees.
      await agreeToHints(words, say);
      agreed = true;
      continue;
    }
    if (answer && answer.status !== 503) break;
    say(answer ? words().waking : words().reconnecting);
    await pause(delay);
    delay = Math.min(delay * 2, 8000);
  }
  if (answer.status === 201) {
    const ticket = await answer.json();
    keepSeat(table, ticket.token);
    return ticket.token;
  }
  document.body.dataset.refused = String(answer.status);
  const refusal = await answer.json().catch(() => ({}));
  const reason = GONE_CODES[refusal.code];
  if (answer.status === 409) offerToWatch(words, say, refusal.watch, refusal.code === "match-over");
  else if (reason) gone({ reason, days: refusal.days });
  else if (answer.status === 404) gone({ reason: "closed" });
  else say(words().failed);
  return null;
}

/** Says the table is full (or its match over) and, with the watch link the table gave, offers to
 * watch it instead.
 * @param {() => TableWords} words
 * @param {(text: string) => void} say
 * @param {unknown} watch the watch link the table's refusal gave
 * @param {boolean} over */
function offerToWatch(words, say, watch, over) {
  say(over ? words().over : words().full);
  const opening = /** @type {HTMLElement} */ (document.getElementById("opening"));
  if (typeof watch === "string" && watch.startsWith("/w/")) {
    const link = el("a", "button primary", words().watchInstead);
    link.id = "watch-instead";
    /** @type {HTMLAnchorElement} */ (link).href = watch;
    opening.append(" ", link);
  }
  // Or a table of one's own, of the same game.
  const own = el("a", "button", words().ownTable);
  own.id = "own-table";
  /** @type {HTMLAnchorElement} */ (own).href = /** @type {HTMLAnchorElement} */ (document.getElementById("new-game-link")).href;
  opening.append(" ", own);
}

/** Says what the table's hints mean, and waits until the person agrees to them.
 * @param {() => TableWords} words
 * @param {(text: string) => void} say */
function agreeToHints(words, say) {
  const opening = /** @type {HTMLElement} */ (document.getElementById("opening"));
  const about = el("span", "", words().hintsOffered);
  const agree = el("button", "primary", words().agree);
  /** @type {HTMLButtonElement} */ (agree).type = "button";
  agree.id = "agree-hints";
  opening.replaceChildren(about, " ", agree);
  agree.focus({ preventScroll: true });
  return new Promise((agreed) =>
    agree.addEventListener("click", () => {
      say(words().joining);
      agreed(undefined);
    }),
  );
}
