// The table page: takes or resumes the seat, opens the socket and hands each frame to the board.
// Around every drawing it keeps what the board cannot: the cards travel from where they were (see
// motion.js), focus stays on the same card or button, and the sounds of a move and of a turn play.
// While the connection is down the board is locked and says so: a move tried then is refused with
// a sentence, never dropped in silence.

import { TableSocket } from "./socket.js";
import { DealCheck } from "./verify.js";
import { setUpContrast, showBanner, chosenLang, chooseLang } from "./ui.js";
import { createVoice } from "./voice.js";
import { where, travel } from "./motion.js";
import { play, setUpSound } from "./sound.js";
import { createSocial } from "./social.js";
import { createReplay } from "./replay.js";

// Each game's board is the module named for the game; the languages it is written in are its
// LANGUAGES (English alone when it says none).
const loadBoard = (game) => (/^[a-z][a-z-]*$/.test(game) ? import(`./${game}.js`) : Promise.reject(new Error(game)));

const WORDS = {
  en: {
    full: "This table is full: every seat has been taken. Ask for a new link, or start a table of your own.",
    closed: "This table has closed. Start a new one from the home page.",
    watching: "You are watching: you see what everyone at the table sees, and no one's hand.",
    watchLink: "Watch link",
    watchCopied: (link) => `Watch link copied: ${link} (whoever opens it can watch, never play).`,
    watchShown: (link) => `Watch link: ${link} (whoever opens it can watch, never play).`,
    closedRestart: "This table has closed: it has ended, or the server restarted (tables kept in memory alone do not survive a restart). Nothing more can be played here.",
    startAnother: "Start another table",
    rules: "Rules",
    newGame: "New game",
    joining: "Taking your seat…",
    reconnecting: "Connection lost. Reconnecting… your seat is kept for you.",
    failed: "The seat could not be taken just now. Reload the page to try again.",
    offline: "Not sent: the connection is down. Your seat is kept; make the move again once it is back.",
    contrast: "High contrast",
    sound: "Sound",
  },
  fa: {
    full: "این میز پر است و همهٔ جاها گرفته شده. پیوند تازه‌ای بخواهید یا میز خودتان را باز کنید.",
    closed: "این میز بسته شده است. از صفحهٔ اول میز تازه‌ای باز کنید.",
    watching: "شما تماشاگرید: هر آنچه همهٔ سر میز می‌بینند می‌بینید، و دست هیچ‌کس را نه.",
    watchLink: "پیوند تماشا",
    watchCopied: (link) => `پیوند تماشا رونوشت شد: ${link} (هر که بازش کند می‌تواند تماشا کند، نه بازی).`,
    watchShown: (link) => `پیوند تماشا: ${link} (هر که بازش کند می‌تواند تماشا کند، نه بازی).`,
    closedRestart: "این میز بسته شده است: یا تمام شده یا سرور دوباره راه‌اندازی شده (میزهایی که فقط در حافظه‌اند پس از آن نمی‌مانند). اینجا دیگر بازی نمی‌شود.",
    startAnother: "میز تازه‌ای باز کنید",
    rules: "قواعد",
    newGame: "بازی تازه",
    joining: "در حال نشستن سر میز…",
    reconnecting: "ارتباط قطع شد. دوباره وصل می‌شویم… جای شما نگه داشته شده است.",
    failed: "اکنون نشد سر میز بنشینید. صفحه را دوباره بار کنید.",
    offline: "فرستاده نشد: ارتباط قطع است. جای شما نگه داشته شده؛ وقتی ارتباط برگشت دوباره بازی کنید.",
    contrast: "کنتراست بالا",
    sound: "صدا",
  },
};

const table = location.pathname.split("/").filter(Boolean).pop();
// Through a watch link (/w/{watch}) the page watches: no seat, no token, nothing to play or say.
const watching = location.pathname.startsWith("/w/");
let lang = chosenLang();
let languages = ["en"];
/** The language the board speaks: the chosen one if the game is written in it. */
const tableLang = () => (languages.includes(lang) ? lang : "en");
let board = null;
let lastFrame = null;
let socket = null;
const voice = createVoice(
  document.getElementById("voice"),
  (frame) => socket && socket.send(frame),
  tableLang,
);
const social = createSocial({
  send: (frame) => Boolean(socket && socket.send(frame)),
  lang: tableLang,
  board: document.getElementById("board"),
  watching,
});
const dealCheck = new DealCheck(document.getElementById("deal-check"), () => lang, (frame) => Boolean(socket && socket.send(frame)));
const replay = createReplay({
  open: document.getElementById("replay-open"),
  bar: document.getElementById("replay"),
  send: (frame) => sent(Boolean(socket && socket.send(frame))),
  draw: (frame) => board && draw(frame, { quiet: true }),
  live: () => board && lastFrame && draw(lastFrame),
  lang: tableLang,
});

/** The header's switches and links, in the table's language. */
function labelSwitches() {
  document.getElementById("rules-link").textContent = WORDS[lang].rules;
  document.getElementById("watch-link").textContent = WORDS[lang].watchLink;
  document.getElementById("new-game-link").textContent = WORDS[lang].newGame;
  for (const b of document.querySelectorAll("[data-contrast-switch]")) b.textContent = WORDS[lang].contrast;
  for (const b of document.querySelectorAll("[data-sound-switch]")) b.textContent = WORDS[lang].sound;
}

function say(text) {
  const opening = document.getElementById("opening");
  if (opening) opening.textContent = text;
}

async function seatToken() {
  const kept = localStorage.getItem(table);
  if (kept) return kept;
  const answer = await fetch(`/api/tables/${table}/join`, { method: "POST" });
  if (answer.status === 201) {
    const ticket = await answer.json();
    localStorage.setItem(table, ticket.token);
    return ticket.token;
  }
  if (answer.status === 409) say(WORDS[lang].full);
  else if (answer.status === 404) closeTable();
  else say(WORDS[lang].failed);
  document.body.dataset.refused = String(answer.status);
  return null;
}

/**
 * A watcher's frame as the boards draw it: from the first seat's side (the view holds no hand), with
 * `watcher` set so that no seat is called "you".
 */
function asShown(frame) {
  return watching ? { ...frame, seat: 0, watcher: true } : frame;
}

/** Asks the table for its watch link with this seat's token, and copies it. */
async function shareWatchLink(token) {
  const answer = await fetch(`/api/tables/${table}/watch`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });
  if (!answer.ok) return;
  const link = `${location.origin}${(await answer.json()).watch}`;
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch (_) {
    // Without the clipboard (a page not on https, a browser that says no) the link is shown.
  }
  const line = document.getElementById("watch-line");
  line.textContent = copied ? WORDS[lang].watchCopied(link) : WORDS[lang].watchShown(link);
  line.dataset.link = link;
  line.hidden = false;
}

async function showFrame(frame, socket) {
  if (!board) {
    let module;
    try {
      [module] = await Promise.all([loadBoard(frame.game), boardStyle(frame.game)]);
    } catch {
      say(`This site has no board for ${frame.game} tables; they can be played over the WebSocket protocol only.`);
      return;
    }
    languages = module.LANGUAGES ?? ["en"];
    const root = document.getElementById("board");
    root.textContent = "";
    document.body.dataset.game = frame.game;
    const rules = document.getElementById("rules-link");
    rules.href = `${tableLang() === "en" ? "" : `/${tableLang()}`}/${frame.game}/rules`;
    rules.hidden = false;
    document.getElementById("new-game-link").href = `/${frame.game}`;
    if (languages.length > 1) {
      document.getElementById("lang-switch").hidden = false;
      labelSwitches();
    } else {
      lang = "en";
    }
    board = module.createBoard(root, {
      act: (action) => sent(socket.act(action)),
      nextDeal: () => sent(socket.nextDeal()),
      // At a computer table the board's level choice, if shown, sets the next match's level.
      rematch: () => sent(socket.rematch(document.querySelector("#rematch-level input:checked")?.value)),
      lang: tableLang,
    });
  }
  const before = lastFrame;
  lastFrame = frame;
  replay.live(frame);
  // While a replay is on the board the live table waits, undrawn, until the replay is left; the
  // deal check still follows every frame.
  if (!replay.on) {
    draw(frame);
    if (before && frame.version > before.version && frame.actions.length && !before.actions.length) play("turn");
  }
  await dealCheck.follow(frame);
}

/** The game's own stylesheet, loaded beside the site's before its board is first drawn. */
function boardStyle(game) {
  return new Promise((done) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = `/static/${game}.css`;
    link.onload = link.onerror = done;
    document.head.append(link);
  });
}

/** Draws a frame: the cards travel from where they were, and focus stays where it was. A quiet
 * drawing (a replay's step) plays no sound. */
function draw(frame, { quiet = false } = {}) {
  const root = document.getElementById("board");
  const active = document.activeElement;
  const hadFocus = active !== root && root.contains(active);
  const focused = hadFocus ? focusKey(active) : null;
  const before = where(root);
  board.render(frame);
  if (travel(root, before, (key) => board.goneTo?.(key)) > 0 && !quiet) play("card");
  if (hadFocus && !root.contains(document.activeElement)) {
    // The control itself may be gone (a played card, a button of a turn that ended): the keyboard
    // then lands on what comes next, the action bar or the hand, rather than on the page.
    const next = (focused && root.querySelector(focused)) ||
      root.querySelector("[data-area=actions] button:not(:disabled)") ||
      root.querySelector("[data-area=hand] button:not(:disabled)");
    next?.focus({ preventScroll: true });
  }
}

/** A selector that finds the same control after a redraw: its card, its action, or its id. */
function focusKey(element) {
  if (element.dataset?.card) return `[data-card="${CSS.escape(element.dataset.card)}"]`;
  if (element.dataset?.key) return `[data-key="${CSS.escape(element.dataset.key)}"]`;
  if (element.id) return `#${CSS.escape(element.id)}`;
  return null;
}

/**
 * The table is gone (ended, or lost in a restart of a server that keeps tables in memory only): the
 * board is taken away, since nothing on it can be played any more, and the way on is offered.
 */
function closeTable() {
  status(WORDS[lang].closed, true);
  document.body.dataset.closed = "";
  const root = document.getElementById("board");
  const notice = document.createElement("div");
  notice.className = "notice closed-table";
  notice.id = "closed-table";
  const line = document.createElement("p");
  line.textContent = WORDS[lang].closedRestart;
  const again = document.createElement("a");
  again.className = "button primary";
  again.id = "start-another";
  again.href = lastFrame ? `/${lastFrame.game}` : "/";
  again.textContent = WORDS[lang].startAnother;
  notice.append(line, again);
  root.replaceChildren(notice);
  board = null;
}

/** How long a refusal stays in the banner before a passing state (reconnecting) may replace it. */
const REFUSAL_HOLD_MS = 4000;
let refusalUntil = 0;
let laterBanner = null;

/**
 * Shows a sentence in the banner. A refusal (bad) is kept for a few seconds so the player can read
 * it: the socket's next retry says "Reconnecting…" only after that. An empty text (back online)
 * clears it at once.
 */
function status(text, bad = false) {
  clearTimeout(laterBanner);
  const wait = refusalUntil - Date.now();
  if (bad) refusalUntil = Date.now() + REFUSAL_HOLD_MS;
  else if (!text) refusalUntil = 0;
  else if (wait > 0) {
    laterBanner = setTimeout(() => status(text), wait);
    return;
  }
  showBanner(text, bad);
}

/** Says so when a request could not be sent (the socket is down); answers whether it was. */
function sent(ok) {
  if (!ok) status(WORDS[lang].offline, true);
  return ok;
}

async function start() {
  setUpContrast();
  setUpSound();
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
    b.addEventListener("click", () => {
      lang = b.dataset.lang;
      chooseLang(lang);
      for (const o of document.querySelectorAll("[data-lang]")) {
        o.setAttribute("aria-pressed", String(o.dataset.lang === lang));
      }
      labelSwitches();
      if (board && lastFrame && !replay.on) draw(lastFrame);
      replay.relabel();
      voice.redraw();
    });
  }
  say(WORDS[lang].joining);
  const token = watching ? null : await seatToken();
  if (!token && !watching) return;
  const watchLink = document.getElementById("watch-link");
  if (watching) {
    document.body.dataset.watching = "";
    const line = document.getElementById("watch-line");
    line.textContent = WORDS[lang].watching;
    line.hidden = false;
  } else {
    watchLink.hidden = false;
    watchLink.addEventListener("click", () => shareWatchLink(token));
  }
  let pending = Promise.resolve();
  let opened = false;
  socket = new TableSocket(table, token, {
    onView: (frame) => {
      if (!watching) {
        voice.render(frame);
        social.frame(frame);
      }
      pending = pending.then(() => showFrame(asShown(frame), socket));
    },
    onError: (frame) => {
      if (voice.error(frame)) return;
      if (board) board.error(frame);
      else status(frame.message, true);
    },
    onSeats: (seats, count) => {
      voice.seats(seats);
      if (lastFrame) lastFrame = { ...lastFrame, seats, watching: count };
      if (board && lastFrame && !replay.on) draw(lastFrame);
    },
    onReplay: (frame) => board && replay.frame(asShown(frame)),
    onSignal: (frame) => voice.signal(frame),
    onPhrase: (frame) => lastFrame && social.heard(frame, lastFrame.seats, watching ? null : lastFrame.seat),
    onState: (state) => {
      // The board is locked while the connection is down (see site.css).
      document.body.toggleAttribute("data-offline", state !== "open");
      if (state === "open" && opened && !watching) voice.reopened();
      if (state === "open") opened = true;
      if (state === "open" && !watching) social.opened();
      if (state === "open") status("");
      else if (state === "reconnecting") status(WORDS[lang].reconnecting);
      else if (state === "closed") closeTable();
    },
  });
}

start();
