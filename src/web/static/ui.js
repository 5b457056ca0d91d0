// Shared page furniture: the spoken move line, high contrast, the language choice, "your turn".

const CONTRAST_KEY = "chaikhana.contrast";
const LANG_KEY = "chaikhana.lang";

/** Applies the remembered contrast choice and wires every `[data-contrast-switch]` button. */
export function setUpContrast() {
  /** @param {boolean} on */
  const apply = (on) => {
    document.documentElement.classList.toggle("contrast", on);
    for (const b of document.querySelectorAll("[data-contrast-switch]")) {
      b.setAttribute("aria-pressed", String(on));
    }
  };
  apply(localStorage.getItem(CONTRAST_KEY) === "on");
  for (const b of document.querySelectorAll("[data-contrast-switch]")) {
    b.addEventListener("click", () => {
      const on = !document.documentElement.classList.contains("contrast");
      localStorage.setItem(CONTRAST_KEY, on ? "on" : "off");
      apply(on);
    });
  }
}

/** The remembered language for the Panjpar table: "en" or "fa". */
export function chosenLang() {
  return localStorage.getItem(LANG_KEY) === "fa" ? "fa" : "en";
}

/** @param {string} lang */
export function chooseLang(lang) {
  localStorage.setItem(LANG_KEY, lang);
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** A seat's name as it reads in the middle of an English sentence: "you", "the computer", else as
 * given (a person's own name keeps its capitals).
 * @param {string} name */
export function withinSentence(name) {
  return name === "You" || name === "The computer" ? name.charAt(0).toLowerCase() + name.slice(1) : name;
}

/** Says a sentence to screen readers only.
 * @param {string} text */
export function speak(text) {
  const live = document.getElementById("live");
  if (live) live.textContent = text;
}

/** Says a sentence to screen readers (and shows it on the board's move line).
 * @param {string} text */
export function announce(text) {
  speak(text);
  const line = document.getElementById("move-line");
  if (line) line.textContent = text;
}

/** The board's move line, `#move-line`, saying `text`; `announce` keeps it current.
 * @param {string} text */
export function moveLine(text) {
  const line = el("p", "move-line", text);
  line.id = "move-line";
  return line;
}

let turnShown = false;
/** @type {((mine: boolean) => void) | null} */
let turnListener = null;
// The page's own title, to come back to once the turn has passed.
const PAGE_TITLE = document.title.replace(/^● [^·]*· /, "");

/** `listener(mine)` hears each change of turn the boards signal (table.js: the notification).
 * @param {(mine: boolean) => void} listener */
export function onTurnChange(listener) {
  turnListener = listener;
}

/**
 * The tab's title when it is not this seat's turn: "Panjpar · chaikhana" once the table page has
 * named its game (`document.body.dataset.gameName`), else the page's own title.
 */
export function restingTitle() {
  const game = document.body?.dataset.gameName;
  return game ? `${game} · chaikhana` : PAGE_TITLE;
}

/**
 * The "your turn" signal, given by every board from the view's own fields: the tab title ("● Your
 * turn · Panjpar · chaikhana", so a tab in the background says it), a short vibration where phones
 * allow, and the listener's notification.
 * @param {boolean} mine
 * @param {string} words
 */
export function signalTurn(mine, words) {
  document.title = mine ? `● ${words} · ${restingTitle()}` : restingTitle();
  // Browsers refuse (and complain of) a vibration before the player has touched the page.
  const touched = navigator.userActivation?.hasBeenActive ?? false;
  if (mine && !turnShown && touched && navigator.vibrate && !reducedMotion()) navigator.vibrate(80);
  const changed = mine !== turnShown;
  turnShown = mine;
  if (changed) turnListener?.(mine);
  const badge = document.getElementById("turn-badge");
  if (badge) {
    badge.hidden = !mine;
    badge.textContent = words;
  }
}

/** Shows a message from the server (or about the connection) in the banner.
 * @param {string} text */
export function showBanner(text, bad = false) {
  const banner = document.getElementById("banner");
  if (!banner) return;
  banner.textContent = text;
  banner.classList.toggle("bad", bad);
  banner.hidden = !text;
}

/** Makes an element with a class and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @returns {HTMLElementTagNameMap[K]} */
export function el(tag, className = "", text = "") {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}

/** @param {string} label
 * @param {(event: MouseEvent) => void} onClick */
export function button(label, onClick, className = "") {
  const b = el("button", className, label);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

// The cards each zone showed, by zone, with the version of the frame they were drawn for.
/** @type {Map<string, { version: number, seen: Set<string | undefined>, fresh: Set<string | undefined> }>} */
const shown = new Map();

/** Marks the cards in `zone` that were not in it at the previous version: the last move. They glow
 * once as they arrive (see site.css); the travel itself is motion.js's.
 * @param {string} key
 * @param {number} version
 * @param {ParentNode} zone */
export function markArrivals(key, version, zone) {
  const cards = [.../** @type {NodeListOf<HTMLElement>} */ (zone.querySelectorAll("[data-card]"))];
  let entry = shown.get(key);
  const first = !entry || entry.version !== version;
  if (first) {
    const seen = new Set(cards.map((c) => c.dataset.card));
    const was = entry;
    const fresh = was ? [...seen].filter((c) => !was.seen.has(c)) : [];
    entry = { version, seen, fresh: new Set(fresh) };
    shown.set(key, entry);
  }
  // Only on the version's first drawing: drawn again (a seat joins, a language changes), it stays still.
  if (!first) return;
  const { fresh } = /** @type {{ fresh: Set<string | undefined> }} */ (entry);
  for (const c of cards) {
    if (fresh.has(c.dataset.card)) c.classList.add("last-move");
  }
}

/** Arrow keys move along a hand's cards, as along any row of choices.
 * @param {HTMLElement} root */
export function handArrows(root) {
  root.addEventListener("keydown", (event) => {
    /** @type {Record<string, number>} */
    const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    const step = keys[event.key];
    const target = /** @type {HTMLElement} */ (event.target);
    const hand = target.closest?.("[data-area=hand]");
    if (!step || !hand || event.altKey || event.ctrlKey || event.metaKey) return;
    const cards = [.../** @type {NodeListOf<HTMLButtonElement>} */ (hand.querySelectorAll("button:not(:disabled)"))];
    const at = cards.indexOf(/** @type {HTMLButtonElement} */ (target));
    if (at < 0 || cards.length < 2) return;
    event.preventDefault();
    cards[(at + step + cards.length) % cards.length].focus();
  });
}

/**
 * The table page header's "More" (a phone's): shows or folds away the header's other controls. It
 * folds again once one of them is used (a switch such as Sound stays open for the next).
 */
export function foldingHeader() {
  const toggle = /** @type {HTMLElement} */ (document.getElementById("more-toggle"));
  const header = /** @type {HTMLElement} */ (document.querySelector("header.site"));
  /** @param {boolean} open */
  const fold = (open) => {
    header.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
  };
  toggle.addEventListener("click", () => fold(!header.classList.contains("open")));
  /** @type {HTMLElement} */ (document.getElementById("more")).addEventListener("click", (event) => {
    const used = /** @type {HTMLElement} */ (event.target).closest("button");
    if (used && !used.hasAttribute("aria-pressed")) fold(false);
  });
  header.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && header.classList.contains("open")) {
      fold(false);
      toggle.focus();
    }
  });
}
