// The table page: takes or resumes the seat, opens the socket and hands each frame to the board.
// Around every drawing it keeps what the board cannot: the cards travel from where they were (see
// motion.js), focus stays on the same card or button, and the sounds of a move and of a turn play.
// While the connection is down the board is locked and says so: a move tried then is refused with
// a sentence, never dropped in silence. A table that is waking (503, or the socket closed with 1012 or
// 1013) is waited for, however long; one that has ended, expired, given this seat away or lost its
// record is said so, with the way on, and forgotten by this browser.

import { TableSocket } from "./socket.js";
import { DealCheck } from "./verify.js";
import { setUpContrast, showBanner, chosenLang, chooseLang, onTurnChange, restingTitle, el, handArrows, foldingHeader } from "./ui.js";
import { createVoice } from "./voice.js";
import { where, travel } from "./motion.js";
import { play, setUpSound } from "./sound.js";
import { createSocial } from "./social.js";
import { createReplay } from "./replay.js";
import { createCoach } from "./coach.js";
import { tokenOf, remember, forget, gameOf } from "./tables.js";
import { seatToken } from "./seat.js";
import { setAwayActions, offeredSentence } from "./away.js";
import { shareBox } from "./share.js";
import { createGuide } from "./guide.js";
import { goneNotice } from "./table-gone.js";
import { keepListed } from "./listed.js";
import { createTurnAlerts } from "./notify.js";
import { WORDS } from "./table-words.js";
import { gameTitle, loadBoard } from "./board.js";

/** @typedef {import("./socket.js").ViewFrame} ViewFrame */

const table = /** @type {string} */ (location.pathname.split("/").filter(Boolean).pop());
// Through a watch link (/w/{watch}) the page watches: no seat, no token, nothing to play or say.
const watching = location.pathname.startsWith("/w/");
let lang = /** @type {keyof typeof WORDS} */ (chosenLang());
let languages = ["en"];
/** The language the board speaks: the chosen one if the game is written in it. */
const tableLang = () => /** @type {keyof typeof WORDS} */ (languages.includes(lang) ? lang : "en");
/** @type {import("./board.js").Board | null} */
let board = null;
/** The guided first deal's panel (guide.js), when this browser asked for it at this table.
 * @type {ReturnType<typeof createGuide> | null} */
let guide = null;
/** @type {ViewFrame | null} */
let lastFrame = null;
/** @type {TableSocket | null} */
let socket = null;
// Whether this page asked to end the match (the socket's close then says "match-ended" to it too).
let endedHere = false;
// Once the table is gone for good (see gone()): nothing more is drawn.
/** @type {string | null} */
let goneFor = null;
const voice = createVoice(
  /** @type {HTMLElement} */ (document.getElementById("voice")),
  (frame) => socket && socket.send(frame),
  tableLang,
);
const social = createSocial({
  send: (frame) => Boolean(socket && socket.send(frame)),
  lang: tableLang,
  board: /** @type {HTMLElement} */ (document.getElementById("board")),
  watching,
});
// The deal check keeps what this page gave to each deal under its own address and its seat's token,
// never under an id a frame names, in the browser's lasting storage: every tab of this seat shares it,
// and it outlives a closed tab. A watcher's page gives nothing and keeps nothing.
const dealCheck = new DealCheck(
  document.getElementById("deal-check"),
  () => lang,
  watching ? null : (frame) => Boolean(socket && socket.send(frame)),
  globalThis.localStorage,
  () => (tokenOf(table) ? `${table}:${/** @type {string} */ (tokenOf(table)).slice(0, 8)}` : null),
);
const replay = createReplay({
  open: /** @type {HTMLElement} */ (document.getElementById("replay-open")),
  panel: /** @type {HTMLElement} */ (document.getElementById("replay")),
  send: (frame) => sent(Boolean(socket && socket.send(frame))),
  draw: (frame) => board && draw(frame, { quiet: true }),
  live: () => board && lastFrame && draw(lastFrame),
  lang: tableLang,
  // A watcher's replay has no coach: the coach judges a seat's own decisions.
  analysis: watching
    ? null
    : {
        head: (at) => coach.analysis.head(at),
        mark: (deal, step) => coach.analysis.mark(deal, step),
        note: (at) => coach.analysis.note(at),
      },
});
const coach = createCoach({
  hintButton: /** @type {HTMLElement} */ (document.getElementById("hint")),
  panel: /** @type {HTMLElement} */ (document.getElementById("coach")),
  send: (frame) => sent(Boolean(socket && socket.send(frame))),
  goTo: (step) => replay.goTo(step),
  redraw: () => replay.redraw(),
  lang: tableLang,
});

const turnAlerts = watching
  ? null
  : createTurnAlerts(/** @type {HTMLElement} */ (document.getElementById("turn-alerts")), { lang: tableLang, game: () => gameName() });
// Every board says when it is this seat's turn (ui.js's signalTurn): the notification follows it,
// for the live table only (a replay's steps are no one's turn).
onTurnChange((mine) => {
  if (!replay.on) turnAlerts?.turn(mine);
});
// The away seats' offer and end buttons (away.js) send their frames on this page's socket.
setAwayActions({
  offerSeat: (seat) => sent(Boolean(socket && socket.send({ type: "offer-seat", seat }))),
  endMatch: () => {
    const ok = sent(Boolean(socket && socket.send({ type: "end-match", version: socket.version })));
    if (ok) endedHere = true;
    return ok;
  },
});

/** The game's name as the page shows it, in the table's language. */
const gameName = () => gameTitle(tableLang());

/** The header's switches and links, in the table's language. */
function labelSwitches() {
  // The page's language is the table's: a screen reader reads the Persian words in Persian, and a
  // Persian page reads right to left.
  document.documentElement.lang = tableLang();
  document.documentElement.dir = tableLang() === "fa" ? "rtl" : "ltr";
  /** @type {HTMLElement} */ (document.getElementById("rules-link")).textContent = WORDS[lang].rules;
  /** @type {HTMLElement} */ (document.getElementById("watch-link")).textContent = WORDS[lang].watchLink;
  /** @type {HTMLElement} */ (document.getElementById("skip-link")).textContent = WORDS[lang].skip;
  /** @type {HTMLElement} */ (document.getElementById("more-toggle")).textContent = WORDS[lang].more;
  /** @type {HTMLElement} */ (document.getElementById("new-game-link")).textContent = WORDS[lang].newGame;
  // The site's name as the Persian pages write it, leading to the Persian home.
  const brand = /** @type {HTMLAnchorElement | null} */ (document.querySelector("header.site .brand"));
  if (brand) {
    brand.textContent = WORDS[lang].brand;
    brand.href = WORDS[lang].home;
  }
  const guidePanel = /** @type {HTMLElement} */ (document.getElementById("guide"));
  guidePanel.setAttribute("aria-label", WORDS[tableLang()].guide);
  guidePanel.dir = tableLang() === "fa" ? "rtl" : "ltr";
  document.getElementById("replay")?.setAttribute("aria-label", WORDS[tableLang()].replayBar);
  document.getElementById("voice")?.setAttribute("aria-label", WORDS[tableLang()].voice);
  for (const b of document.querySelectorAll("[data-contrast-switch]")) b.textContent = WORDS[lang].contrast;
  for (const b of document.querySelectorAll("[data-sound-switch]")) b.textContent = WORDS[lang].sound;
  turnAlerts?.relabel();
  nameTheGame();
}

/** The tab says which game this is ("Panjpar · chaikhana"; ui.js adds "● Your turn" on a turn). */
function nameTheGame() {
  if (!lastFrame?.game) return;
  document.body.dataset.gameName = gameName();
  /** @type {HTMLElement} */ (document.getElementById("table-heading")).textContent = gameName();
  if (!document.title.startsWith("●")) document.title = restingTitle();
}

/** @param {string} text */
function say(text) {
  const opening = document.getElementById("opening");
  if (opening) opening.textContent = text;
}

/**
 * A watcher's frame as the boards draw it: from the first seat's side (the view holds no hand), with
 * `watcher` set so that no seat is called "you".
 * @param {ViewFrame} frame
 * @returns {ViewFrame}
 */
function asShown(frame) {
  return watching ? { ...frame, seat: 0, watcher: true } : frame;
}

/** Asks the table for its watch link with this seat's token, and copies it.
 * @param {string} token
 */
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
  const line = /** @type {HTMLElement} */ (document.getElementById("watch-line"));
  const said = copied ? WORDS[lang].watchCopied(link) : WORDS[lang].watchShown(link);
  line.textContent = said;
  line.dataset.link = link;
  line.hidden = false;
  // Once copied, the line has said its piece and goes; a link shown to copy by hand stays.
  if (copied) setTimeout(() => line.textContent === said && (line.hidden = true), 8000);
}

/**
 * Above the board, once a seat of a friends table has been offered (away.js): the sentence that it
 * waits for whoever opens the link, and the link to share. (While the table waits with no deal on,
 * the board's own waiting room says it.)
 * @param {ViewFrame} frame
 */
function showOffered(frame) {
  const box = /** @type {HTMLElement} */ (document.getElementById("seat-offered"));
  const text = !watching && frame.status !== "waiting" && frame.view ? offeredSentence(frame, tableLang()) : null;
  if (!text) {
    box.hidden = true;
    box.textContent = "";
    delete box.dataset.said;
    return;
  }
  // Drawn again only when its words change, so that "Link copied." stays said.
  if (box.dataset.said === text) return;
  box.textContent = "";
  box.append(el("p", "", text), shareBox(table, WORDS[tableLang()]));
  box.dataset.said = text;
  box.hidden = false;
}

/**
 * Shows a frame as the table sent it: drawn as shown (`asShown`), and checked as sent, since a
 * watcher's frame names no seat and the deal check must not take the first seat's cards for its own.
 * @param {ViewFrame} told
 * @param {TableSocket} socket
 */
async function showFrame(told, socket) {
  const frame = asShown(told);
  if (goneFor) return;
  if (!board) {
    const module = await loadBoard(frame.game).catch(() => null);
    if (!module) {
      say(WORDS.en.noBoard(frame.game));
      return;
    }
    languages = module.LANGUAGES ?? ["en"];
    const root = /** @type {HTMLElement} */ (document.getElementById("board"));
    root.textContent = "";
    document.body.dataset.game = frame.game;
    const rules = /** @type {HTMLAnchorElement} */ (document.getElementById("rules-link"));
    rules.href = `${tableLang() === "en" ? "" : `/${tableLang()}`}/${frame.game}/rules`;
    rules.hidden = false;
    /** @type {HTMLAnchorElement} */ (document.getElementById("new-game-link")).href = `/${frame.game}`;
    // This browser's list of its tables (the home page's "Your games") learns the game.
    if (!watching) remember(table, frame.game);
    if (languages.length > 1) {
      /** @type {HTMLElement} */ (document.getElementById("lang-switch")).hidden = false;
    } else {
      lang = "en";
    }
    lastFrame = frame;
    labelSwitches();
    board = module.createBoard(root, {
      act: (action) => {
        // The deal check hears what this page chose (a blind pick's back), as the table cannot say it.
        dealCheck.acted(action);
        return sent(socket.act(action));
      },
      nextDeal: () => sent(socket.nextDeal()),
      // At a computer table the board's level choice, if shown, sets the next match's level.
      rematch: () => {
        const level = /** @type {HTMLInputElement | null} */ (document.querySelector("#rematch-level input:checked"));
        return sent(socket.rematch(level?.value));
      },
      lang: tableLang,
      guided: () => guide?.on ?? false,
    });
    // The table's computers wait for the guide's first words before they move.
    if (!watching) guide = createGuide(table, module, tableLang, () => socket.send({ type: "guide-shown" }));
    coach.speaks(module.coachWords ?? null);
    replay.speaks(module.moveWords ?? null);
  }
  const before = lastFrame === frame ? null : lastFrame;
  lastFrame = frame;
  showOffered(frame);
  replay.live(frame);
  coach.live(frame, watching);
  // While a replay is on the board the live table waits, undrawn, until the replay is left; the
  // deal check still follows every frame.
  if (!replay.on) {
    // The version the board shows, for whoever reads the page (a test comparing a replay with play).
    document.body.dataset.version = String(frame.version);
    draw(frame);
    if (before && frame.version > before.version && frame.actions.length && !before.actions.length) play("turn");
  }
  await dealCheck.follow(told);
}

/** Draws a frame: the cards travel from where they were, and focus stays where it was. A quiet
 * drawing (a replay's step) plays no sound.
 * @param {ViewFrame} frame
 */
function draw(frame, { quiet = false } = {}) {
  const root = /** @type {HTMLElement} */ (document.getElementById("board"));
  const active = document.activeElement;
  const onBoard = active !== root && root.contains(active);
  // A keyboard left with nothing to reach on the board (the turn passed, every control went) is
  // still the board's: the next drawing gives it a control again rather than leaving it on the page.
  const dropped = !onBoard && (!active || active === document.body) && boardFocus !== null;
  const hadFocus = onBoard || dropped;
  const focused = onBoard ? focusKey(/** @type {HTMLElement} */ (active)) : dropped ? boardFocus : null;
  const before = where(root);
  /** @type {import("./board.js").Board} */ (board).render(frame);
  // A replay's step is no moment of the deal being played: the guide waits for the table.
  if (!quiet) guide?.show(frame);
  if (travel(root, before, (key) => /** @type {import("./board.js").Board} */ (board).goneTo?.(key)) > 0 && !quiet) play("card");
  if (hadFocus && !root.contains(document.activeElement)) {
    // The control itself may be gone (a played card, a button of a turn that ended): the keyboard
    // then lands on what comes next, the action bar or the hand, rather than on the page.
    // A key may now name a card that is no control (a card played, lying in the battle).
    const control = ":is(button, summary, a[href], input, select, [tabindex]):not(:disabled)";
    const next = /** @type {HTMLElement | null} */ ((focused && root.querySelector(`${focused}${control}`)) ||
      root.querySelector("[data-area=actions] button:not(:disabled)") ||
      root.querySelector("[data-area=hand] button:not(:disabled)"));
    next?.focus({ preventScroll: true });
  }
  const now = document.activeElement;
  if (now !== root && root.contains(now)) boardFocus = focusKey(/** @type {HTMLElement} */ (now)) || "";
  else if (!hadFocus) boardFocus = null;
}

/** Where the keyboard was last on the board: its control's key ("" for one without), or `null` when
 * the keyboard went elsewhere. Kept as the keyboard moves, not only at a drawing: a control pressed
 * and taken away by the board before the table's answer (a card played) leaves the keyboard nowhere,
 * and the next drawing gives it back to the board. */
/** @type {string | null} */
let boardFocus = null;
{
  const root = /** @type {HTMLElement} */ (document.getElementById("board"));
  root.addEventListener("focusin", (event) => {
    if (event.target !== root) boardFocus = focusKey(/** @type {HTMLElement} */ (event.target)) || "";
  });
  root.addEventListener("focusout", (event) => {
    // Moved to another part of the page (not lost with its control): the keyboard is elsewhere.
    const to = /** @type {Node | null} */ (event.relatedTarget);
    if (to && !root.contains(to)) boardFocus = null;
  });
}

handArrows(/** @type {HTMLElement} */ (document.getElementById("board")));

foldingHeader();

/** A selector that finds the same control after a redraw: its card, its action, or its id.
 * @param {HTMLElement} element */
function focusKey(element) {
  if (element.dataset?.card) return `[data-card="${CSS.escape(element.dataset.card)}"]`;
  if (element.dataset?.key) return `[data-key="${CSS.escape(element.dataset.key)}"]`;
  if (element.id) return `#${CSS.escape(element.id)}`;
  return null;
}

/**
 * The table is gone for good: `reason` is "ended" (the match was ended), "expired" (no move for
 * `days`), "given-away" (this seat was offered to someone else while its player was away), "lost"
 * (its record is gone) or "closed" (no such table here). The board is taken away, since nothing on it
 * can be played any more; the panel says what happened and offers the way on: a new table of the same
 * game, and the home page. This browser forgets the table (its token included).
 */
/** @param {{ reason: string, days?: number }} why */
function gone({ reason, days }) {
  if (goneFor) return;
  goneFor = reason;
  const game = lastFrame?.game || (watching ? null : gameOf(table));
  if (!watching) forget(table);
  document.body.dataset.closed = reason;
  document.body.removeAttribute("data-offline");
  showBanner("");
  const kind = lastFrame ? lastFrame.kind : null;
  const { notice, head, said } = goneNotice({ reason, days }, { words: WORDS[tableLang()], game, kind, watching, endedHere, gameName: gameName() });
  const root = /** @type {HTMLElement} */ (document.getElementById("board"));
  root.lang = tableLang();
  root.dir = tableLang() === "fa" ? "rtl" : "ltr";
  root.replaceChildren(notice);
  // Nothing of the seat is left to use: its header controls and the bars above the board go too.
  for (const id of ["seat-offered", "replay", "replay-open", "watch-link", "watch-line", "turn-alerts", "name-button", "say-button", "name-form", "phrase-row", "voice", "deal-check"]) {
    const part = document.getElementById(id);
    if (part) part.hidden = true;
  }
  board = null;
  document.title = restingTitle();
  head.focus({ preventScroll: true });
  /** @type {HTMLElement} */ (document.getElementById("live")).textContent = `${head.textContent}. ${said}`;
}

/** How long a refusal stays in the banner before a passing state (reconnecting) may replace it. */
const REFUSAL_HOLD_MS = 4000;
let refusalUntil = 0;
/** @type {ReturnType<typeof setTimeout> | null} */
let laterBanner = null;

/**
 * Shows a sentence in the banner. A refusal (bad) is kept for a few seconds so the player can read
 * it: the socket's next retry says "Reconnecting…" only after that. An empty text (back online)
 * clears it at once.
 * @param {string} text
 */
function status(text, bad = false) {
  clearTimeout(/** @type {number | undefined} */ (laterBanner));
  const wait = refusalUntil - Date.now();
  if (bad) refusalUntil = Date.now() + REFUSAL_HOLD_MS;
  else if (!text) refusalUntil = 0;
  else if (wait > 0) {
    laterBanner = setTimeout(() => status(text), wait);
    return;
  }
  showBanner(text, bad);
}

/** Says so when a request could not be sent (the socket is down); answers whether it was.
 * @param {boolean} ok */
function sent(ok) {
  if (!ok) status(WORDS[lang].offline, true);
  return ok;
}

async function start() {
  setUpContrast();
  setUpSound();
  const switches = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-lang]"));
  for (const b of switches) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
    b.addEventListener("click", () => {
      lang = /** @type {keyof typeof WORDS} */ (b.dataset.lang);
      chooseLang(lang);
      for (const o of switches) {
        o.setAttribute("aria-pressed", String(o.dataset.lang === lang));
      }
      labelSwitches();
      if (lastFrame && !goneFor) showOffered(lastFrame);
      if (board && lastFrame && !replay.on) draw(lastFrame);
      replay.relabel();
      coach.relabel();
      voice.redraw();
      dealCheck.repeat();
    });
  }
  say(WORDS[lang].joining);
  const token = watching ? null : await seatToken(table, { words: () => WORDS[lang], say, gone });
  if (!token && !watching) return;
  const watchLink = /** @type {HTMLElement} */ (document.getElementById("watch-link"));
  if (watching) {
    document.body.dataset.watching = "";
    const line = /** @type {HTMLElement} */ (document.getElementById("watch-line"));
    line.textContent = WORDS[lang].watching;
    line.hidden = false;
  } else {
    watchLink.hidden = false;
    watchLink.addEventListener("click", () => shareWatchLink(/** @type {string} */ (token)));
    keepListed(table, token, tableLang);
  }
  let pending = Promise.resolve();
  let opened = false;
  socket = new TableSocket(table, token, {
    onView: (frame) => {
      if (!watching) {
        voice.render(frame);
        social.frame(frame);
      }
      pending = pending.then(() => showFrame(frame, /** @type {TableSocket} */ (socket)));
    },
    onError: (frame) => {
      if (voice.error(frame)) return;
      coach.error(frame);
      if (board) board.error(frame);
      else status(/** @type {string} */ (frame.message), true);
    },
    onSeats: (seats, count) => {
      voice.seats(seats);
      if (goneFor) return;
      if (lastFrame) lastFrame = { ...lastFrame, seats, watching: count };
      if (lastFrame) showOffered(lastFrame);
      if (board && lastFrame && !replay.on) draw(lastFrame);
    },
    onReplay: (frame) => board && replay.frame(asShown(/** @type {ViewFrame} */ (frame))),
    onSignal: (frame) => voice.signal(frame),
    onCoach: (frame) => {
      coach.frame(frame);
      // The board points at the move the coach recommends.
      if (frame.type === "hint" && !replay.on) board?.hint?.(frame.action, frame.why?.best);
    },
    // The coming deal's pledges, closed: the deal check sends this page's number.
    onShuffle: (frame) => dealCheck.follow(frame),
    onPhrase: (frame) => lastFrame && social.heard(frame, lastFrame.seats, watching ? null : lastFrame.seat),
    onState: (state, detail) => {
      // The board is locked while the connection is down (see site.css).
      document.body.toggleAttribute("data-offline", state !== "open");
      if (state === "open" && opened && !watching) voice.reopened();
      if (state === "open") opened = true;
      if (state === "open" && !watching) social.opened();
      if (state === "open") status("");
      else if (state === "reconnecting") status(WORDS[lang].reconnecting);
      else if (state === "waking") status(WORDS[lang].waking);
      else if (state === "gone") gone(/** @type {import("./socket.js").Gone} */ (detail));
    },
  });
}

start();
