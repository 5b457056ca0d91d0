// "Your games" on the home page: the tables this browser holds a seat at (tables.js), asked about in
// one request, `POST /api/tables/mine` with the seats' tokens in its body (never in an address), and
// listed with their game, who sits at them, the score, whose turn it is and how long ago the last move
// was. A link resumes each (its token is in this browser's storage); "Forget" removes one from this
// browser. A table the server says is closed for good is said so once, then forgotten.

import { el, button } from "./ui.js";
import { keptTables, tokenOf, forget } from "./tables.js";
import { isAway, awaySentence, awayTime } from "./away.js";
import { faDigits } from "./persian.js";

/** At most this many tables are asked about, the newest first. */
const MOST = 50;
/** How often the list is asked about again while the page is in sight. */
const EVERY_MS = 60_000;

/**
 * A table in the list: as the server tells of it (its JSON: open or why closed, this browser's seat,
 * the seats, the score, whose turn, the status, the last move's time), or as this browser remembers it
 * (`remembered`: its id and game only).
 * @typedef {{ id: string, game?: string | null, remembered?: boolean, open?: boolean, reason?: string, seat?: number, seats?: import("./socket.js").SeatInfo[], score?: number[], turn?: string, status?: string, last_move?: number | null }} MyTable
 */

/** A game's name as the site's header links to it (from the catalog). */
const gameName = (/** @type {string | null | undefined} */ game) => {
  const links = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("header.site a[data-game]"));
  return [...links].find((a) => a.dataset.game === game)?.textContent || WORDS.aTable;
};

const EN = {
  computer: "the computer",
  computers: (/** @type {number} */ n) => `${n} computers`,
  friend: "a friend",
  free: "a seat nobody has taken yet",
  you: "You",
  computerN: (/** @type {number | null} */ n) => (n ? `Computer ${n}` : "Computer"),
  friendN: (/** @type {number | null} */ n) => (n ? `Friend ${n}` : "Friend"),
  number: (/** @type {number} */ n) => String(n),
  with: (/** @type {string} */ names) => `with ${names}`,
  and: (/** @type {string[]} */ list) => (list.length < 2 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`),
  turn: { you: "Your turn", other: "Their turn" },
  status: { waiting: "Waiting for players", "deal-over": "Deal over", "match-over": "Match over", playing: "In play" },
  lastMove: (/** @type {string} */ ago) => `last move ${ago}`,
  noMove: "no move yet",
  justNow: "just now",
  ago: (/** @type {string} */ time) => `${time} ago`,
  score: "Score",
  resume: "Resume",
  resumeLabel: (/** @type {string} */ what) => `Resume ${what}`,
  forget: "Forget",
  forgetLabel: (/** @type {string} */ what) => `Forget ${what} on this device`,
  forgotten: (/** @type {string} */ what) => `${what} is no longer listed on this device.`,
  closed: {
    expired: "expired after a long time without a move",
    ended: "the match was ended",
    lost: "its record was lost",
    "given-away": "your seat was given to someone else while you were away",
    unknown: "it no longer exists",
    "wrong-token": "this device no longer holds a seat at it",
  },
  closedLine: (/** @type {string} */ what, /** @type {string} */ why) => `${what}: ${why}. It has been taken off this list.`,
  someTable: "A table this device had a seat at",
  aTable: "A table",
  heldSince: (/** @type {number | null | undefined} */ at) => (at ? `opened here ${new Date(at).toLocaleDateString()}` : "an older table"),
  unchecked: "The tables could not be checked just now; they are listed as this device remembers them.",
  waking: "The tables are waking up; their state follows in a moment.",
  unsure: "Some tables could not be checked just now; they are listed as this device remembers them.",
};

/** @type {typeof EN} */
const FA = {
  computer: "رایانه",
  computers: (n) => `${faDigits(n)} رایانه`,
  friend: "یک دوست",
  free: "جایی که هنوز کسی نگرفته",
  you: "شما",
  computerN: (n) => (n ? `رایانهٔ ${faDigits(n)}` : "رایانه"),
  friendN: (n) => (n ? `دوست ${faDigits(n)}` : "دوست"),
  number: (n) => faDigits(n),
  with: (names) => `با ${names}`,
  and: (list) => (list.length < 2 ? list.join("") : `${list.slice(0, -1).join("، ")} و ${list[list.length - 1]}`),
  turn: { you: "نوبت شما", other: "نوبت دیگری" },
  status: { waiting: "در انتظار بازیکنان", "deal-over": "دست تمام شد", "match-over": "بازی تمام شد", playing: "در حال بازی" },
  lastMove: (ago) => `آخرین حرکت ${ago}`,
  noMove: "هنوز حرکتی نشده",
  justNow: "همین حالا",
  ago: (time) => `${time} پیش`,
  score: "امتیاز",
  resume: "ادامه",
  resumeLabel: (what) => `ادامهٔ ${what}`,
  forget: "فراموش کن",
  forgetLabel: (what) => `${what} را روی این دستگاه فراموش کن`,
  forgotten: (what) => `${what} دیگر روی این دستگاه فهرست نمی‌شود.`,
  closed: {
    expired: "پس از مدتی طولانی بی‌حرکت، بسته شد",
    ended: "بازی به پایان رسانده شد",
    lost: "سابقه‌اش از دست رفت",
    "given-away": "وقتی نبودید جایتان به کس دیگری داده شد",
    unknown: "دیگر وجود ندارد",
    "wrong-token": "این دستگاه دیگر جایی سر آن میز ندارد",
  },
  closedLine: (what, why) => `${what}: ${why}. از این فهرست برداشته شد.`,
  someTable: "میزی که این دستگاه جایی سرش داشت",
  aTable: "یک میز",
  heldSince: (at) => (at ? `باز شده در ${new Date(at).toLocaleDateString("fa-IR")}` : "میزی قدیمی‌تر"),
  unchecked: "میزها همین حالا بررسی نشدند؛ همان‌طور که این دستگاه به یاد دارد فهرست شده‌اند.",
  waking: "میزها در حال بیدار شدن‌اند؛ وضعشان تا لحظه‌ای دیگر می‌آید.",
  unsure: "برخی میزها همین حالا بررسی نشدند؛ همان‌طور که این دستگاه به یاد دارد فهرست شده‌اند.",
};

/** The words of the page's language. */
const WORDS = document.documentElement.lang === "fa" ? FA : EN;
const LANG = document.documentElement.lang === "fa" ? "fa" : "en";

/** @type {ReturnType<typeof setTimeout> | null} */
let shownBy = null; // the timer of the next check

/** Sets up "Your games" in `section` (hidden while this browser holds no seat anywhere).
 * @param {HTMLElement} section */
export function setUpYourGames(section) {
  const list = /** @type {HTMLElement} */ (section.querySelector("#your-games-list"));
  const note = /** @type {HTMLElement} */ (section.querySelector("#your-games-note"));
  const closed = /** @type {HTMLElement} */ (section.querySelector("#your-games-closed"));
  let delay = 2000;
  // Once the last table is forgotten, the note saying so stays and the list goes.
  const hideIfEmpty = () => {
    list.hidden = !list.childElementCount;
  };

  let busy = false;
  async function check() {
    clearTimeout(/** @type {number | undefined} */ (shownBy));
    // One check at a time (the page coming back into sight may ask while one is on its way).
    if (busy) return;
    busy = true;
    try {
      await checkNow();
    } finally {
      busy = false;
    }
  }

  async function checkNow() {
    const tables = keptTables().slice(0, MOST);
    section.hidden = tables.length === 0 && !closed.childElementCount;
    if (!tables.length) {
      list.textContent = "";
      return;
    }
    const body = { tables: tables.map((t) => ({ id: t.id, token: tokenOf(t.id) })) };
    let answer = null;
    try {
      const reply = await fetch("/api/tables/mine", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        cache: "no-store",
      });
      if (reply.ok) answer = await reply.json();
      else note.textContent = reply.status === 503 ? WORDS.waking : WORDS.unchecked;
    } catch (_) {
      note.textContent = WORDS.unchecked;
    }
    if (!answer || !Array.isArray(answer.tables)) {
      // As remembered: a link to each, to be checked again soon.
      section.dataset.state = "unchecked";
      draw(list, tables.map((t) => ({ id: t.id, game: t.game, remembered: true })), hideIfEmpty);
      shownBy = setTimeout(check, delay);
      delay = Math.min(delay * 2, EVERY_MS);
      return;
    }
    note.textContent = "";
    section.dataset.state = "checked";
    /** @type {MyTable[]} */
    const open = [];
    let unsure = false;
    for (const [i, t] of answer.tables.entries()) {
      const asked = tables[i];
      if (!t || !asked || t.id !== asked.id) continue;
      if (t.open) {
        open.push(t);
      } else if (!WORDS.closed[/** @type {keyof typeof WORDS.closed} */ (t.reason)]) {
        // Not closed for good (its record is recovering, say): kept, listed as remembered, and
        // asked about again soon.
        open.push({ id: t.id, game: asked.game, remembered: true });
        unsure = true;
      } else {
        // Closed for good: said once here, and forgotten with its token.
        const game = t.game || asked.game;
        const what = game ? `${gameName(game)} (${WORDS.heldSince(asked.at)})` : WORDS.someTable;
        const line = el("li", "", WORDS.closedLine(what, WORDS.closed[/** @type {keyof typeof WORDS.closed} */ (t.reason)]));
        line.dataset.table = t.id;
        line.dataset.reason = t.reason || "unknown";
        closed.append(line);
        forget(t.id);
      }
    }
    closed.hidden = !closed.childElementCount;
    if (unsure) note.textContent = WORDS.unsure;
    // Your turn first, then the most recent move first.
    open.sort((a, b) => Number(b.turn === "you") - Number(a.turn === "you") || (b.last_move || 0) - (a.last_move || 0));
    draw(list, open, hideIfEmpty);
    section.hidden = !open.length && !closed.childElementCount;
    // A table that could not be read is asked about again, less and less often; all read, once a minute.
    if (unsure) {
      shownBy = setTimeout(check, delay);
      delay = Math.min(delay * 2, EVERY_MS);
    } else {
      delay = 2000;
      shownBy = setTimeout(check, EVERY_MS);
    }
  }

  // Back to the page after a while: ask again, since the other players may have moved.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") check();
    else clearTimeout(/** @type {number | undefined} */ (shownBy));
  });
  // "last move 5 min ago" and "away (4 min)" follow the clock between checks.
  setInterval(() => {
    for (const t of /** @type {NodeListOf<HTMLElement>} */ (list.querySelectorAll("[data-last-move]"))) t.textContent = lastMoveText(Number(t.dataset.lastMove));
  }, 30_000);
  check();
}

/** "last move 5 min ago", by this page's clock.
 * @param {number | null | undefined} at */
function lastMoveText(at) {
  if (!at) return WORDS.noMove;
  const ago = Date.now() - at;
  return WORDS.lastMove(ago < 60_000 ? WORDS.justNow : WORDS.ago(awayTime(ago, LANG)));
}

/** What the table is called in the list: "Panjpar with Arash".
 * @param {MyTable} t */
function titleOf(t) {
  const others = (t.seats || []).filter((s) => s.seat !== t.seat);
  if (!others.length) return gameName(t.game);
  const computers = others.filter((s) => s.who === "computer").length;
  /** @type {string[]} */
  const names = [];
  if (computers === 1) names.push(WORDS.computer);
  if (computers > 1) names.push(WORDS.computers(computers));
  for (const s of others) {
    if (s.who === "person") names.push(s.name || WORDS.friend);
    if (s.who === "free") names.push(WORDS.free);
  }
  return `${gameName(t.game)} ${WORDS.with(WORDS.and(names))}`;
}

/** How a seat is named in the score line.
 * @param {MyTable} t
 * @param {import("./socket.js").SeatInfo} s */
function seatLabel(t, s) {
  if (s.seat === t.seat) return WORDS.you;
  if (s.name) return s.name;
  const computers = /** @type {import("./socket.js").SeatInfo[]} */ (t.seats).filter((o) => o.who === "computer");
  if (s.who === "computer") return WORDS.computerN(computers.length > 1 ? computers.indexOf(s) + 1 : null);
  const friends = /** @type {import("./socket.js").SeatInfo[]} */ (t.seats).filter((o) => o.who !== "computer" && o.seat !== t.seat);
  return WORDS.friendN(friends.length > 1 ? friends.indexOf(s) + 1 : null);
}

/** @param {MyTable} t */
function turnText(t) {
  if (t.status === "playing" && t.turn) return WORDS.turn[/** @type {keyof typeof WORDS.turn} */ (t.turn)] || WORDS.status.playing;
  return WORDS.status[/** @type {keyof typeof WORDS.status} */ (t.status)] || WORDS.status.playing;
}

/** @param {HTMLElement} list
 * @param {MyTable[]} tables
 * @param {() => void} forgotten */
function draw(list, tables, forgotten) {
  list.textContent = "";
  list.hidden = !tables.length;
  for (const t of tables) list.append(entry(t, forgotten));
}

/** @param {MyTable} t
 * @param {() => void} forgotten */
function entry(t, forgotten) {
  const item = el("li", "your-game");
  item.dataset.table = t.id;
  const what = t.remembered ? gameName(t.game) : titleOf(t);
  const head = el("h3", "", what);
  head.id = `your-game-${t.id}`;
  item.append(head);
  if (!t.remembered) {
    const turn = el("p", `your-game-turn ${t.turn === "you" && t.status === "playing" ? "mine" : ""}`.trim(), turnText(t));
    item.dataset.turn = t.status === "playing" ? t.turn || "" : t.status;
    item.append(turn);
    const facts = el("p", "your-game-facts");
    if (Array.isArray(t.score) && t.seats) {
      const score = t.seats.map((s) => `${seatLabel(t, s)} ${WORDS.number(/** @type {number[]} */ (t.score)[s.seat] ?? 0)}`).join(" · ");
      facts.append(el("span", "", `${WORDS.score}: ${score}`));
    }
    const when = el("span", "your-game-when", lastMoveText(t.last_move));
    if (t.last_move) when.dataset.lastMove = String(t.last_move);
    facts.append(when);
    item.append(facts);
    for (const s of t.seats || []) {
      if (s.seat !== t.seat && isAway(s)) {
        const line = el("p", "your-game-away", awaySentence(seatLabel(t, s), s, LANG));
        item.append(line);
      }
    }
  }
  const row = el("div", "row");
  const resume = el("a", `button ${t.turn === "you" ? "primary" : ""}`.trim(), WORDS.resume);
  resume.href = `/t/${t.id}`;
  resume.setAttribute("aria-label", WORDS.resumeLabel(what));
  resume.dataset.resume = t.id;
  const drop = button(WORDS.forget, () => {
    forget(t.id);
    /** @type {HTMLElement} */ (document.getElementById("your-games-note")).textContent = WORDS.forgotten(what);
    // The keyboard goes on to the next table, else to the list's heading.
    const next = item.nextElementSibling || item.previousElementSibling;
    item.remove();
    (next?.querySelector("a") || document.getElementById("your-games-heading"))?.focus();
    forgotten();
  });
  drop.setAttribute("aria-label", WORDS.forgetLabel(what));
  drop.dataset.forget = t.id;
  row.append(resume, drop);
  item.append(row);
  return item;
}
