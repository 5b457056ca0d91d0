// Seats whose person has no socket open. The table keeps such a seat for its player and waits; every
// board shows it as away, with for how long ("Arash is away (4 min)"), counted from the seat's
// `away_since` by this page's own clock and brought up to date every 30 seconds without drawing the
// board again. Once the server says a seat is `offerable` (it has been away long enough, at a friends
// table), the seats still here may offer it to someone else and, at a two-seat table, end the match
// (after a confirmation). The page never decides when: it only shows what the seat info allows.

import { el, button } from "./ui.js";
import { seatName } from "./social.js";
import { faDigits } from "./persian.js";


const WORDS = {
  en: {
    away: (/** @type {string} */ who, /** @type {string} */ time) => `${who} is away (${time})`,
    awayUntimed: (/** @type {string} */ who) => `${who} is away`,
    notYet: (/** @type {string} */ who) => `${who} has not come to the table yet`,
    underMinute: "under a minute",
    minutes: (/** @type {number} */ n) => `${n} min`,
    hours: (/** @type {number} */ n) => `${n} h`,
    days: (/** @type {number} */ n) => `${n} ${n === 1 ? "day" : "days"}`,
    kept: "The table keeps the seat and waits.",
    offer: "Offer this seat to someone else",
    end: "End the match",
    endAsk: "End the match for both of you? It cannot be played on afterwards.",
    endYes: "Yes, end the match",
    endNo: "No, keep waiting",
    offered: (/** @type {string} */ who) =>
      `${who}'s seat is free now: whoever opens the table's link next takes it over, with its score. Send the link to someone you would like to play.`,
    offeredNoName: "A seat is free now: whoever opens the table's link next takes it over, with its score. Send the link to someone you would like to play.",
    everyoneHere: "Everyone is here: the cards are being dealt…",
  },
  fa: {
    away: (/** @type {string} */ who, /** @type {string} */ time) => `${who} سر میز نیست (${time})`,
    awayUntimed: (/** @type {string} */ who) => `${who} سر میز نیست`,
    notYet: (/** @type {string} */ who) => `${who} هنوز سر میز نیامده است`,
    underMinute: "کمتر از یک دقیقه",
    minutes: (/** @type {number} */ n) => `${faDigits(n)} دقیقه`,
    hours: (/** @type {number} */ n) => `${faDigits(n)} ساعت`,
    days: (/** @type {number} */ n) => `${faDigits(n)} روز`,
    kept: "میز جای او را نگه می‌دارد و منتظر می‌ماند.",
    offer: "این جا را به کس دیگری بسپارید",
    end: "پایان دادن به بازی",
    endAsk: "بازی برای هر دوی شما تمام شود؟ پس از آن دیگر نمی‌شود ادامه داد.",
    endYes: "بله، بازی تمام شود",
    endNo: "نه، منتظر می‌مانم",
    offered: (/** @type {string} */ who) =>
      `جای ${who} اکنون خالی است: هر که پیوند میز را زودتر باز کند آن را با امتیازش می‌گیرد. پیوند را برای کسی بفرستید که دوست دارید با او بازی کنید.`,
    offeredNoName: "یک جا اکنون خالی است: هر که پیوند میز را زودتر باز کند آن را با امتیازش می‌گیرد. پیوند را برای کسی بفرستید که دوست دارید با او بازی کنید.",
    everyoneHere: "همه آمده‌اند: ورق‌ها پخش می‌شوند…",
  },
};

const words = (/** @type {string} */ lang) => WORDS[/** @type {keyof typeof WORDS} */ (lang)] || WORDS.en;

/** @typedef {{ offerSeat: (seat: number) => boolean, endMatch: () => boolean }} AwayActions */

/** What the table page lets these lines do: `offerSeat(seat)` and `endMatch()`, each sending its frame.
 * @type {AwayActions} */
let actions = { offerSeat: () => false, endMatch: () => false };
/** The away seat whose "End the match" was pressed and waits for its confirmation, if any.
 * @type {number | null} */
let confirming = null;

/** @param {AwayActions} given */
export function setAwayActions(given) {
  actions = given;
}

/** Whether the seat holds a person with no socket open.
 * @param {import("./socket.js").SeatInfo | null | undefined} info
 * @returns {info is import("./socket.js").SeatInfo} */
export function isAway(info) {
  return Boolean(info) && /** @type {import("./socket.js").SeatInfo} */ (info).who === "person" && /** @type {import("./socket.js").SeatInfo} */ (info).connected === false;
}

/** For how long, in milliseconds, the seat has been away by this page's clock (never below 0); null
 * when the server did not say since when.
 * @param {import("./socket.js").SeatInfo | null | undefined} info */
export function awayFor(info, now = Date.now()) {
  if (typeof info?.away_since !== "number") return null;
  return Math.max(0, now - info.away_since);
}

/** "4 min", "2 h", "3 days" (or under a minute), in the page's language.
 * @param {number} ms */
export function awayTime(ms, lang = "en") {
  const w = words(lang);
  const minutes = Math.floor(Math.max(0, ms) / 60000);
  if (minutes < 1) return w.underMinute;
  if (minutes < 60) return w.minutes(minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return w.hours(hours);
  return w.days(Math.floor(hours / 24));
}

/** "Arash is away (4 min)", or "Arash has not come to the table yet" for a seat taken by someone who
 * has not (`arrived` false in its info): `who` is what the board calls the seat.
 * @param {string} who
 * @param {{ away_since?: number | null, arrived?: boolean }} info
 * @param {string} [lang] */
export function awaySentence(who, info, lang = "en", now = Date.now()) {
  const w = words(lang);
  if (info.arrived === false) return w.notYet(who);
  if (typeof info.away_since !== "number") return w.awayUntimed(who);
  return w.away(who, awayTime(now - info.away_since, lang));
}

/**
 * "Arash is away" while seat `seat` is away, else null (a replay's step shows the deal as it
 * was, without it): a board says it where it would say the seat is playing. `who` is what the board
 * calls the seat, the one name every line of the page uses for it.
 * @param {import("./socket.js").ViewFrame} frame
 * @param {number} seat
 * @param {string} who
 * @param {string} [lang]
 */
export function awayNow(frame, seat, who, lang = "en") {
  const info = frame.seats?.find((s) => s.seat === seat);
  if (frame.replay || !isAway(info)) return null;
  // For how long is said once, on the seat's own away line (kept up to date by the clock below): two
  // lines of one page never tell it differently.
  const w = words(lang);
  return /** @type {import("./socket.js").SeatInfo} */ (info).arrived === false ? w.notYet(who) : w.awayUntimed(who);
}

/**
 * The line for seat `seat` when it is away, else null: the sentence (kept up to date by the clock
 * below), and, when the seat info says this seat may (`offerable`), the offer button and, at a
 * two-seat table, "End the match" with its confirmation.
 * @param {import("./socket.js").ViewFrame} frame
 * @param {number} seat
 * @param {string} who
 * @param {string} [lang]
 * @param {string} [className]
 */
export function awayLine(frame, seat, who, lang = "en", className = "") {
  const info = frame.seats?.find((s) => s.seat === seat);
  // Who is away is news of now: a replay's step shows the deal as it was, without it.
  if (frame.replay || !isAway(info)) {
    if (confirming === seat) confirming = null;
    return null;
  }
  const line = el("div", `away-line ${className}`.trim());
  line.dataset.seat = String(seat);
  line.id = `away-${seat}`;
  const said = el("span", "away-text", awaySentence(who, info, lang));
  said.dataset.awayWho = who;
  said.dataset.awayLang = lang;
  if (typeof info.away_since === "number" && info.arrived !== false) said.dataset.awaySince = String(info.away_since);
  line.append(said);
  const mayAct = info.offerable === true && !frame.watcher && frame.kind === "friends";
  if (!mayAct && confirming === seat) confirming = null;
  if (mayAct) {
    const controls = el("span", "away-controls");
    fillControls(controls, frame, seat, lang);
    line.append(controls);
  }
  return line;
}

/**
 * @param {HTMLElement} controls
 * @param {import("./socket.js").ViewFrame} frame
 * @param {number} seat
 * @param {string} lang
 */
function fillControls(controls, frame, seat, lang) {
  const w = words(lang);
  controls.textContent = "";
  if (confirming === seat) {
    const ask = el("span", "away-ask", w.endAsk);
    ask.id = "end-match-ask";
    const yes = button(w.endYes, () => {
      if (actions.endMatch() !== false) confirming = null;
    }, "danger");
    yes.id = "end-match-yes";
    const no = button(w.endNo, () => {
      confirming = null;
      fillControls(controls, frame, seat, lang);
      /** @type {HTMLElement | null} */ (controls.querySelector(".offer-seat"))?.focus();
    });
    no.id = "end-match-no";
    controls.append(ask, yes, no);
    return;
  }
  const offer = button(w.offer, () => actions.offerSeat(seat), "offer-seat");
  offer.id = `offer-seat-${seat}`;
  offer.dataset.key = `offer-seat-${seat}`;
  controls.append(offer);
  // Ending is offered at a table of two only: the one left would otherwise wait alone.
  if (frame.seats.length === 2) {
    const end = button(w.end, () => {
      confirming = seat;
      fillControls(controls, frame, seat, lang);
      /** @type {HTMLElement | null} */ (controls.querySelector("#end-match-yes"))?.focus();
    }, "end-match");
    end.id = "end-match";
    end.dataset.key = "end-match";
    controls.append(end);
  }
}

/**
 * The sentence for a friends table whose seat was offered and waits for whoever opens the link:
 * `who` names that seat as the board would. Null when no seat is free or the match has not begun
 * (then the board's own "waiting for the link" is the right sentence).
 * @param {import("./socket.js").ViewFrame} frame
 * @param {string} [lang]
 */
export function offeredSentence(frame, lang = "en") {
  if (frame.kind !== "friends" || !frame.view) return null;
  const free = frame.seats?.filter((s) => s.who === "free") ?? [];
  if (!free.length) return null;
  const w = words(lang);
  return free.length === 1 && free[0].name ? w.offered(free[0].name) : w.offeredNoName;
}

/**
 * The board's status line while it waits: "waiting for the link" only while a seat is free; with
 * every seat taken, the away seats (or, when all are here, that the deal is coming).
 * @param {import("./socket.js").ViewFrame} frame
 * @param {string} linkWords
 * @param {string} [lang]
 */
export function waitingSentence(frame, linkWords, lang = "en") {
  const offered = offeredSentence(frame, lang);
  if (offered) return offered;
  if (frame.seats?.some((s) => s.who === "free")) return linkWords;
  const away = frame.seats?.filter((s) => isAway(s) && (s.seat !== frame.seat || frame.watcher)) ?? [];
  if (away.length) {
    return away.map((s) => awaySentence(seatName(frame, s.seat, lang), s, lang)).join(" · ");
  }
  return words(lang).everyoneHere;
}

/** Brings every away sentence on the page up to date with the clock. */
export function refreshAway(now = Date.now()) {
  const lines = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-away-since]"));
  for (const said of lines) {
    const text = awaySentence(/** @type {string} */ (said.dataset.awayWho), { away_since: Number(said.dataset.awaySince) }, said.dataset.awayLang, now);
    if (said.textContent !== text) said.textContent = text;
  }
}

setInterval(() => refreshAway(), 30_000);
