// The friends link: shown with a copy button, and the phone's share sheet where there is one.

import { el, button } from "./ui.js";
import { seatName } from "./social.js";
import { isAway, awaySentence, waitingSentence } from "./away.js";

/**
 * A board's words for the link it shares (its own words module's, or the landing page's).
 * @typedef {{ shareLink: string, copy: string, copied: string, share: string }} ShareWords
 */

/**
 * A board's words for the top of the board: its language, the turn badge, the waiting line, and its
 * own words for the computer's levels where it has them.
 * @typedef {ShareWords & { lang?: string, yourTurn: string, waiting: string, shareLinkLast?: string, level?: Partial<typeof LEVEL_WORDS> }} TopWords
 */

const ROOM_WORDS = {
  en: {
    you: "You",
    here: (/** @type {number} */ n, /** @type {number} */ of) => `${n} of ${of} here.`,
    free: "a free seat: waiting for the link to be opened",
  },
  fa: {
    you: "شما",
    here: (/** @type {number} */ n, /** @type {number} */ of) => `${n} نفر از ${of} نفر آمده‌اند.`,
    free: "جای خالی: منتظر باز شدن پیوند",
  },
};

/** Who has taken a seat at a friends table that is still filling, and how many seats are free.
 * @param {import("./socket.js").ViewFrame} frame
 * @param {TopWords} w */
function waitingRoom(frame, w) {
  const lang = w.lang || "en";
  const words = ROOM_WORDS[/** @type {keyof typeof ROOM_WORDS} */ (lang)] || ROOM_WORDS.en;
  const room = el("div", "waiting-room");
  room.id = "waiting-room";
  const taken = frame.seats.filter((s) => s.who !== "free").length;
  room.append(el("p", "", words.here(taken, frame.seats.length)));
  const list = el("ul");
  for (const s of frame.seats) {
    let text;
    const name = seatName(frame, s.seat, lang);
    const away = isAway(s) && (s.seat !== frame.seat || frame.watcher);
    if (s.who === "free") text = words.free;
    else if (s.seat === frame.seat && !frame.watcher) text = words.you;
    else if (away) text = awaySentence(name, s, lang);
    else text = name;
    const item = el("li", s.who === "free" ? "free" : away ? "taken away" : "taken", text);
    item.dataset.seat = String(s.seat);
    // The clock in away.js keeps "away (4 min)" current.
    if (away && typeof s.away_since === "number" && s.arrived !== false) {
      item.dataset.awaySince = String(s.away_since);
      item.dataset.awayWho = name;
      item.dataset.awayLang = lang;
    }
    list.append(item);
  }
  room.append(list);
  return room;
}

/** The table's link, with its copy and share buttons.
 * @param {string} table
 * @param {ShareWords} w */
export function shareBox(table, w) {
  const box = el("div", "share");
  const link = `${location.origin}/t/${table}`;
  box.append(el("p", "", w.shareLink));
  const row = el("div", "link-box");
  row.dir = "ltr";
  const input = el("input");
  input.value = link;
  input.readOnly = true;
  input.id = "share-link";
  input.setAttribute("aria-label", w.shareLink);
  row.append(input);
  const said = el("span", "", "");
  said.setAttribute("aria-live", "polite");
  row.append(button(w.copy, async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch (_) {
      input.select();
      document.execCommand("copy");
    }
    said.textContent = w.copied;
  }));
  if (navigator.share) {
    row.append(button(w.share, () => navigator.share({ title: "chaikhana", url: link }).catch(() => {})));
  }
  row.append(said);
  box.append(row);
  return box;
}

// The top of every board: the score line and the "your turn" badge. While seats are still free it
// adds the waiting line and the link to share, puts the board in `root` and returns null; otherwise it
// returns the board for the game to fill.
/**
 * @param {HTMLElement} root
 * @param {import("./socket.js").ViewFrame} frame
 * @param {Node} score
 * @param {TopWords} w
 */
export function boardTop(root, frame, score, w) {
  const board = el("div", "table");
  board.dataset.status = frame.status;
  const head = el("div", "row");
  head.append(score);
  const badge = el("span", "your-turn", w.yourTurn);
  badge.id = "turn-badge";
  badge.hidden = frame.actions.length === 0;
  head.append(badge);
  if (frame.watching > 0) {
    const fa = (w.lang || "en") === "fa";
    const text = fa ? `${frame.watching.toLocaleString("fa")} تماشاگر` : `${frame.watching} watching`;
    const eye = el("span", "watching", text);
    eye.id = "watching-count";
    eye.title = fa ? "چند نفر با پیوند تماشا این میز را می‌بینند" : "How many people watch this table through its watch link";
    head.append(eye);
  }
  board.append(head);
  if (frame.level) board.append(levelLine(frame, w));
  if (frame.status === "waiting" || !frame.view) {
    // "Waiting for the link" only while a seat is free; a seat taken and left is away (away.js).
    const line = el("p", "status-line", waitingSentence(frame, w.waiting, w.lang || "en"));
    line.id = "waiting-line";
    board.append(line);
    if (frame.kind === "friends") board.append(waitingRoom(frame, w));
    // A watcher is given no seat link (its frames do not even name the table), and with every seat
    // taken the link would seat nobody.
    const free = frame.seats.filter((s) => s.who === "free").length;
    // With one seat left of several, the link is for one more person.
    const last = free === 1 && w.shareLinkLast ? { ...w, shareLink: w.shareLinkLast } : w;
    if (!frame.watcher && free) board.append(shareBox(frame.table, last));
    root.append(board);
    return null;
  }
  return board;
}

// The computer levels, gentlest first (as on the landing page).
/** @type {Array<"gentle" | "standard" | "clever" | "strong">} */
const LEVELS = ["gentle", "standard", "clever", "strong"];

const LEVEL_WORDS = {
  gentle: "You are playing the gentle computer.",
  standard: "You are playing the standard computer.",
  clever: "You are playing the clever computer.",
  strong: "You are playing the strong computer.",
  next: "Next match against:",
  names: { gentle: "gentle", standard: "standard", clever: "clever", strong: "strong" },
};
const LEVEL_WORDS_FA = {
  gentle: "حریف شما رایانهٔ ملایم است.",
  standard: "حریف شما رایانهٔ معمولی است.",
  clever: "حریف شما رایانهٔ زیرک است.",
  strong: "حریف شما رایانهٔ قوی است.",
  next: "حریف مسابقهٔ بعد:",
  names: { gentle: "ملایم", standard: "معمولی", clever: "زیرک", strong: "قوی" },
};

// What a watcher reads of the computers' level.
const WATCHED_LEVEL = {
  gentle: "Against the gentle computer.",
  standard: "Against the standard computer.",
  clever: "Against the clever computer.",
  strong: "Against the strong computer.",
};
const WATCHED_LEVEL_FA = {
  gentle: "در برابر رایانهٔ ملایم.",
  standard: "در برابر رایانهٔ معمولی.",
  clever: "در برابر رایانهٔ زیرک.",
  strong: "در برابر رایانهٔ قوی.",
};

// The level picked for the next match: kept here, since the board is drawn again on every frame
// and the choice must not fall back to the level just played.
/** @type {string | null} */
let nextLevel = null;

// At a computer table: which level the player faces, and once the match is over, the level of the
// next one (the rematch button reads it).
/**
 * @param {import("./socket.js").ViewFrame} frame
 * @param {TopWords} w
 */
function levelLine(frame, w) {
  if (frame.status !== "match-over") nextLevel = null;
  const fa = (w.lang || "en") === "fa";
  // A game's own words for the levels, where it has them, over the shared ones.
  const shared = fa ? LEVEL_WORDS_FA : LEVEL_WORDS;
  const words = { ...shared, ...(w.level || {}), names: { ...shared.names, ...(w.level?.names || {}) } };
  const box = el("div", "level-line");
  const watched = fa ? WATCHED_LEVEL_FA : WATCHED_LEVEL;
  const shown = el("p", "", frame.watcher ? watched[/** @type {keyof typeof watched} */ (frame.level)] : words[/** @type {keyof typeof watched} */ (frame.level)]);
  shown.id = "level-shown";
  shown.dataset.level = frame.level;
  box.append(shown);
  if (frame.status === "match-over" && !frame.watcher) {
    const choice = el("fieldset", "row");
    choice.id = "rematch-level";
    choice.append(el("legend", "", words.next));
    for (const level of LEVELS) {
      const label = el("label");
      const input = el("input");
      input.type = "radio";
      input.name = "rematch-level";
      input.value = level;
      input.checked = level === (nextLevel ?? frame.level);
      input.addEventListener("change", () => (nextLevel = level));
      label.append(input, " ", words.names[level]);
      choice.append(label);
    }
    box.append(choice);
  }
  return box;
}

const READY_WORDS = {
  en: {
    and: " and ",
    waitingFor: (/** @type {string} */ names) => `You are ready. Waiting for ${names}.`,
    ready: (/** @type {string} */ names, /** @type {boolean} */ many, /** @type {boolean} */ again) =>
      `${names} ${many ? "are" : "is"} ready ${again ? "to play again" : "for the next deal"}. It starts once you press too.`,
  },
  fa: {
    and: " و ",
    waitingFor: (/** @type {string} */ names) => `شما آماده‌اید. منتظر ${names}.`,
    ready: (/** @type {string} */ names, /** @type {boolean} */ many, /** @type {boolean} */ again) =>
      `${names} برای ${again ? "بازی دوباره" : "دست بعدی"} ${many ? "آماده‌اند" : "آماده است"}. وقتی شما هم بزنید شروع می‌شود.`,
  },
};

/**
 * At a friends table once a deal or a match is over: who has asked for the next one (it starts when
 * every person has), as a line for the result; null when nobody has yet or at a computer table.
 * `who` names a seat as the board does.
 */
/** The result zone a board shows once a deal is over: `#result`, headed by who won the match once it
 * is, in `lang`.
 * @param {string} className
 * @param {import("./socket.js").ViewFrame} frame
 * @param {(seat: number) => string} who
 * @param {string} [lang] */
export function matchResultZone(className, frame, who, lang = "en") {
  const zone = el("section", className);
  zone.id = "result";
  const winners = (frame.match.winners || []).map(who);
  // A Persian verb agrees with its subject: "شما" (you) takes the second person plural.
  const verb = winners.includes("شما") ? "بردید" : winners.length > 1 ? "بردند" : "برد";
  const won = lang === "fa" ? `${winners.join(" و ")} مسابقه را ${verb}.` : `${winners.join(" & ")} won the match.`;
  if (frame.status === "match-over") zone.append(el("h2", "", won));
  return zone;
}

/**
 * @param {import("./socket.js").ViewFrame} frame
 * @param {(seat: number) => string} who
 * @param {string} [lang]
 */
export function readyLine(frame, who, lang = "en") {
  if (frame.kind !== "friends" || !["deal-over", "match-over"].includes(frame.status)) return null;
  const w = READY_WORDS[/** @type {keyof typeof READY_WORDS} */ (lang)] || READY_WORDS.en;
  const people = frame.seats.filter((s) => s.who === "person" && s.seat !== frame.seat);
  const ready = people.filter((s) => s.ready).map((s) => who(s.seat));
  const waiting = people.filter((s) => !s.ready).map((s) => who(s.seat));
  let text;
  if (iAmReady(frame)) text = w.waitingFor(waiting.join(w.and));
  else if (ready.length) text = w.ready(ready.join(w.and), ready.length > 1, frame.status === "match-over");
  else return null;
  const line = el("p", "ready-line", text[0].toUpperCase() + text.slice(1));
  line.id = "ready-line";
  line.setAttribute("aria-live", "polite");
  return line;
}

/** Whether this seat has asked for the next deal or the rematch and waits for the others.
 * @param {import("./socket.js").ViewFrame} frame */
function iAmReady(frame) {
  return Boolean(frame.seats.find((s) => s.seat === frame.seat)?.ready);
}

/** The next-deal or rematch button, shown pressed (and not pressable again) once this seat asked.
 * @param {HTMLButtonElement} b
 * @param {import("./socket.js").ViewFrame} frame */
export function markAsked(b, frame) {
  if (iAmReady(frame)) {
    b.disabled = true;
    b.setAttribute("aria-pressed", "true");
  }
  return b;
}
