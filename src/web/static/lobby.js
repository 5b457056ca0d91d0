// A game's landing page meeting strangers: "Play a person now" (wait in the game's queue for the match
// length chosen, then go to the table made for everyone paired) and the game's open tables (friends
// tables their hosts listed, each with a button to take a free seat). The server pairs and lists; the
// page only asks, shows what it is told, and keeps the seat it is given.

import { el, button, showBanner } from "./ui.js";
import { keepSeat } from "./tables.js";

/**
 * A table listed as open (the server's JSON): its id, its host's name, its free seats of how many,
 * how long it has waited and its match length.
 * @typedef {{ table: string, name?: string, free: number, seats: number, waited_ms: number, length: { kind: string, target: number } }} OpenTable
 */

const FA = document.documentElement.lang === "fa";
const WORDS = FA
  ? {
      waiting: (/** @type {number} */ n, /** @type {number} */ s) => `در انتظار بازیکن دیگری… ${n === 1 ? "جز شما کسی در صف نیست" : `${n} نفر در صف (با شما)`} · ${s} ثانیه`,
      forming: "بازیکن پیدا شد؛ میز آماده می‌شود…",
      seated: "میز آماده است؛ می‌رویم سر میز…",
      stop: "دیگر منتظر نمی‌مانم",
      keepWaiting: "باز هم منتظر می‌مانم",
      computer: "به جایش با رایانه بازی می‌کنم",
      failed: "صف در دسترس نیست: ",
      none: (/** @type {string} */ person) => `فعلاً میز بازی نیست. میزی برای دوستان باز کنید و آن را در فهرست بگذارید، یا «${person}» را بزنید.`,
      length: { "deals-won": (/** @type {number} */ n) => `برندهٔ ${n} دور`, points: (/** @type {number} */ n) => `تا ${n} امتیاز`, deals: (/** @type {number} */ n) => `${n} دور` },
      table: (/** @type {OpenTable} */ t, /** @type {string} */ length) => `${t.name || "میزبانی بی‌نام"} · ${length} · ${t.free} جای خالی از ${t.seats} · ${t.waited_ms < 60000 ? "تازه باز شده" : `${Math.floor(t.waited_ms / 60000)} دقیقه در انتظار`}`,
      take: "نشستن سر این میز",
    }
  : {
      waiting: (/** @type {number} */ n, /** @type {number} */ s) => `Waiting for another player… ${n === 1 ? "nobody else is waiting yet" : `${n} waiting, you included`} · ${s} s`,
      forming: "Found someone: the table is being set…",
      seated: "Your table is ready: taking you there…",
      stop: "Stop waiting",
      keepWaiting: "Keep waiting",
      computer: "Play the computer instead",
      failed: "The queue cannot be reached: ",
      none: (/** @type {string} */ person) => `No open tables right now. Open a table for friends and list it, or press “${person}”.`,
      length: { "deals-won": (/** @type {number} */ n) => `first to ${n} deal${n === 1 ? "" : "s"}`, points: (/** @type {number} */ n) => `first to ${n} points`, deals: (/** @type {number} */ n) => `${n} deal${n === 1 ? "" : "s"}` },
      table: (/** @type {OpenTable} */ t, /** @type {string} */ length) => `${t.name || "A host"} · ${length} · ${t.free} of ${t.seats} seats free · ${t.waited_ms < 60000 ? "just opened" : `waiting ${Math.floor(t.waited_ms / 60000)} min`}`,
      take: "Take a seat",
    };

/** How often a waiting page asks where it stands, and the open list is read again (ms). */
const ASK_EVERY = 500;
const LIST_EVERY = 5000;
const BROWSER_KEY = "chaikhana.browser";

/** This browser's own random id: the server keeps one place in a queue per browser. */
function browserId() {
  let id = localStorage.getItem(BROWSER_KEY);
  if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(BROWSER_KEY, id);
  }
  return id;
}

/** POSTs `body` as JSON to the lobby's `path`: the answer's status and its JSON (`{}` if none).
 * @param {string} path
 * @param {unknown} body
 * @returns {Promise<{ status: number, data: any }>} `data`: the server's JSON, of the shape its route gives */
export async function post(path, body) {
  const answer = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    keepalive: path.endsWith("/leave"),
  });
  return { status: answer.status, data: await answer.json().catch(() => ({})) };
}

/** Goes to the table a ticket was seated at, keeping its seat.
 * @param {string} game
 * @param {{ table: string, token: string, link: string }} place */
function takeSeat(game, place) {
  keepSeat(place.table, place.token, game);
  location.assign(place.link);
}

/**
 * "Play a person now": waits in `game`'s queue for the length `length()` gives, in `panel`; after the
 * server's wait with nobody, offers the computer (`playComputer()`) or to keep waiting.
 * @param {HTMLElement} panel
 * @param {string} game
 * @param {() => number | string | null | undefined} length
 * @param {() => unknown} playComputer
 */
export function setUpPairing(panel, game, length, playComputer) {
  /** @type {string | null} */
  let ticket = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let offered = false;
  let keptWaiting = false;

  function stop() {
    clearTimeout(/** @type {number | undefined} */ (timer));
    if (ticket) post("/api/pairing/leave", { ticket }).catch(() => {});
    ticket = null;
    panel.hidden = true;
    panel.textContent = "";
  }

  // On a phone the line is below the button: brought into sight as the answer to the press, and
  // again when the computer is offered.
  const inSight = () => panel.scrollIntoView({ block: "nearest" });

  /** @param {string} text
   * @param {Node[]} [extra] */
  function show(text, extra = []) {
    panel.hidden = false;
    panel.replaceChildren(el("p", "pairing-line", text), ...extra);
    delete panel.dataset.controls;
  }

  /** @param {any} answer the queue's answer (the server's JSON): its state, the wait, the seat */
  function stand(answer) {
    // The wait was lost on the server between two answers (a node stopped mid-pairing): enter again.
    if (answer.state === "gone") {
      enter();
      return;
    }
    if (answer.state === "seated") {
      ticket = null;
      show(WORDS.seated);
      takeSeat(game, answer);
      return;
    }
    if (answer.state === "forming") {
      show(WORDS.forming);
    } else {
      const seconds = Math.floor(answer.waited_ms / 1000);
      const line = WORDS.waiting(answer.waiting, seconds);
      if (answer.offer_computer && !keptWaiting) {
        if (!offered) requestAnimationFrame(inSight);
        offered = true;
      }
      // The buttons are made again only when they change: a button under a finger or the mouse is
      // never swapped for another between the press and its release.
      const shown = offered ? "offered" : "waiting";
      const said = panel.querySelector(".pairing-line");
      if (said && panel.dataset.controls === shown) {
        said.textContent = line;
      } else {
        const controls = [button(WORDS.stop, stop, "pairing-stop")];
        if (offered) {
          controls.unshift(
            button(WORDS.computer, () => { stop(); playComputer(); }, "primary"),
            button(WORDS.keepWaiting, () => {
              keptWaiting = true;
              offered = false;
              // The offer goes at once; the next answer comes on the usual beat.
              clearTimeout(/** @type {number | undefined} */ (timer));
              stand(answer);
            }),
          );
        }
        show(line, [rowOf(controls)]);
        panel.dataset.controls = shown;
      }
      if (offered) panel.dataset.offered = "computer";
      else delete panel.dataset.offered;
    }
    timer = setTimeout(ask, ASK_EVERY);
  }

  async function ask() {
    if (!ticket) return;
    try {
      const { status, data } = await post("/api/pairing/ask", { ticket });
      if (!ticket) return;
      // The wait ended on the server (this page was asleep too long): enter again, as at first.
      if (status === 404) return enter();
      if (status !== 200) throw new Error(data.message || `status ${status}`);
      stand(data);
    } catch (e) {
      // Out of reach for a moment: ask again, the wait is kept a few seconds.
      timer = setTimeout(ask, ASK_EVERY * 2);
    }
  }

  async function enter() {
    clearTimeout(/** @type {number | undefined} */ (timer));
    try {
      /** @type {{ game: string, browser: string, length?: number | string }} */
      const body = { game, browser: browserId() };
      const chosen = length();
      if (chosen !== null && chosen !== undefined) body.length = chosen;
      const { status, data } = await post("/api/pairing", body);
      if (status !== 201) throw new Error(data.message || `status ${status}`);
      ticket = data.ticket;
      stand(data);
      inSight();
    } catch (e) {
      stop();
      showBanner(WORDS.failed + /** @type {Error} */ (e).message, true);
    }
  }

  // A page that goes away leaves the queue at once (and, if it cannot say so, within seconds).
  addEventListener("pagehide", () => { if (ticket) stop(); });
  return () => {
    keptWaiting = false;
    offered = false;
    return enter();
  };
}

/** @param {HTMLElement[]} controls */
function rowOf(controls) {
  const row = el("div", "row");
  row.append(...controls);
  return row;
}

/**
 * The game's open tables in `section`'s list, read again every few seconds while the page shows. A
 * free seat is taken as through a friend's link: by opening the table's page.
 * @param {HTMLElement} section
 * @param {string} game
 */
export function setUpOpenTables(section, game) {
  const list = /** @type {HTMLUListElement} */ (section.querySelector("ul"));
  const note = /** @type {HTMLElement} */ (section.querySelector(".open-tables-note"));

  async function refresh() {
    try {
      const answer = await fetch(`/api/open-tables/${game}`);
      if (answer.status !== 200) return;
      const { tables } = await answer.json();
      list.replaceChildren(
        ...tables.map((/** @type {OpenTable} */ t) => {
          const item = el("li", "open-table");
          const take = el("a", "button", WORDS.take);
          /** @type {HTMLAnchorElement} */ (take).href = `/t/${t.table}`;
          const length = WORDS.length[/** @type {keyof typeof WORDS.length} */ (t.length.kind)]?.(t.length.target) ?? "";
          item.append(el("span", "", WORDS.table(t, length)), " ", take);
          return item;
        }),
      );
      // The way to meet strangers named as its button says it (a Ganjifa table wants two people).
      note.textContent = tables.length ? "" : WORDS.none(document.getElementById("play-person")?.textContent?.trim() ?? "");
    } catch (_) {
      // Out of reach for a moment: the list as last read stays.
    }
  }

  refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, LIST_EVERY);
}
