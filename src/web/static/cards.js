// French cards drawn as SVG by this page's own code: every suit has its own shape and letter,
// so no card is told apart by colour alone.

import { faDigits } from "./persian.js";

/** @type {Record<string, { name: string, fa: string, red: boolean }>} */
const SUITS = {
  S: { name: "spades", fa: "پیک", red: false },
  H: { name: "hearts", fa: "دل", red: true },
  D: { name: "diamonds", fa: "خشت", red: true },
  C: { name: "clubs", fa: "گشنیز", red: false },
};
/** @type {Record<string, string>} */
const RANK_NAMES = { J: "jack", Q: "queen", K: "king", A: "ace" };
/** @type {Record<string, string>} */
const RANK_FA = { J: "سرباز", Q: "بی‌بی", K: "شاه", A: "آس" };
/** @type {Record<string, string>} */
const SUIT_BY_NAME = { spades: "S", hearts: "H", diamonds: "D", clubs: "C" };

/** Splits a code like "10H" into rank "10" and suit letter "H".
 * @param {string} code */
export function parseCard(code) {
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

/** @param {string} name */
export function suitLetter(name) {
  return SUIT_BY_NAME[name];
}

/** A card's accessible name: what its corner shows ("Q S"), so that a person who speaks to the page
 * can say what they see, then its name ("the queen of spades", or its Persian form).
 * @param {string} code
 * @param {string} [lang] */
export function cardLabel(code, lang = "en") {
  const { rank, suit } = parseCard(code);
  // The corner's rank and suit, and a court card's large letter, in the order the card draws them.
  const shown = isCourt(rank) ? [rank, suit, rank] : [rank, suit];
  return `${shown.join(" ")}, ${cardName(code, lang)}`;
}

/** Whether a card of this rank is a court card, drawn as a crowned figure with its letter large.
 * @param {string} rank */
const isCourt = (rank) => rank === "J" || rank === "Q" || rank === "K";

/** "the queen of spades" (or its Persian form).
 * @param {string} code
 * @param {string} [lang] */
export function cardName(code, lang = "en") {
  const { rank, suit } = parseCard(code);
  if (lang === "fa") return `${RANK_FA[rank] || faDigits(rank)} ${SUITS[suit].fa}`;
  return `the ${RANK_NAMES[rank] || rank} of ${SUITS[suit].name}`;
}

/** @param {string} name
 * @param {string} [lang] */
export function suitName(name, lang = "en") {
  const letter = SUIT_BY_NAME[name];
  return lang === "fa" ? SUITS[letter].fa : name;
}

/** The suit's own outline, drawn in a 20x20 box centred on (cx, cy).
 * @param {string} letter
 * @param {number} cx
 * @param {number} cy
 * @param {number} size */
export function suitShape(letter, cx, cy, size) {
  const k = size / 20;
  /** @param {number} x @param {number} y */
  const t = (x, y) => `${(cx + (x - 10) * k).toFixed(2)},${(cy + (y - 10) * k).toFixed(2)}`;
  switch (letter) {
    case "H":
      return `<path d="M${t(10, 18)} C${t(-2, 9)} ${t(3, -1)} ${t(10, 5)} C${t(17, -1)} ${t(22, 9)} ${t(10, 18)}Z"/>`;
    case "D":
      return `<path d="M${t(10, 1)} L${t(17, 10)} L${t(10, 19)} L${t(3, 10)}Z"/>`;
    case "S":
      return `<path d="M${t(10, 1)} C${t(22, 11)} ${t(16, 18)} ${t(10.6, 13)} L${t(12.5, 19)} L${t(7.5, 19)} L${t(9.4, 13)} C${t(4, 18)} ${t(-2, 11)} ${t(10, 1)}Z"/>`;
    default: {
      const r = (4.2 * k).toFixed(2);
      const [a, b, c] = [t(10, 5.5), t(5.4, 11.5), t(14.6, 11.5)].map((p) => p.split(","));
      return `<circle cx="${a[0]}" cy="${a[1]}" r="${r}"/><circle cx="${b[0]}" cy="${b[1]}" r="${r}"/>` +
        `<circle cx="${c[0]}" cy="${c[1]}" r="${r}"/><path d="M${t(9, 10)} L${t(11, 10)} L${t(12.5, 19)} L${t(7.5, 19)}Z"/>`;
    }
  }
}

/** @type {Record<string, number[][]>} */
// The pips stand a little right of the card's middle, clear of the corner's large rank and letter.
const PIPS = {
  2: [[53, 22], [53, 118]],
  3: [[53, 22], [53, 70], [53, 118]],
  4: [[36, 25], [70, 25], [36, 115], [70, 115]],
  5: [[36, 25], [70, 25], [53, 70], [36, 115], [70, 115]],
  6: [[36, 25], [70, 25], [36, 70], [70, 70], [36, 115], [70, 115]],
  7: [[36, 25], [70, 25], [53, 47], [36, 70], [70, 70], [36, 115], [70, 115]],
  8: [[36, 25], [70, 25], [53, 47], [36, 70], [70, 70], [53, 93], [36, 115], [70, 115]],
  9: [[36, 22], [70, 22], [36, 53], [70, 53], [53, 70], [36, 87], [70, 87], [36, 118], [70, 118]],
  // Narrower columns, so the pips keep clear of the two-digit corner.
  10: [[41, 22], [67, 22], [54, 38], [41, 55], [67, 55], [41, 85], [67, 85], [54, 102], [41, 118], [67, 118]],
};

/** @param {string} rank
 * @param {string} suit
 * @param {string} colour */
function court(rank, suit, colour) {
  // A simple crowned figure: the rank's letter large, with a crown for kings and queens and a cap for jacks.
  const crown = rank === "J"
    ? `<path d="M40 46 Q54 32 68 46 Z" fill="${colour}"/>`
    : `<path d="M38 50 L42 34 L48 44 L54 30 L60 44 L66 34 L70 50 Z" fill="${colour}"/>`;
  return `<rect x="30" y="28" width="48" height="88" rx="6" fill="none" stroke="${colour}" stroke-width="2"/>` +
    crown +
    // The space apart from the corner's letters keeps the words the card shows apart (its label).
    ` <text x="54" y="92" text-anchor="middle" font-size="36" font-weight="700" fill="${colour}">${rank}</text>` +
    `<g fill="${colour}">${suitShape(suit, 54, 105, 13)}</g>`;
}

/** The SVG markup of a face-up card.
 * @param {string} code */
export function cardSvg(code) {
  const { rank, suit } = parseCard(code);
  const colour = SUITS[suit].red ? "var(--red)" : "var(--black)";
  let middle;
  if (rank === "A") middle = `<g fill="${colour}">${suitShape(suit, 50, 70, 42)}</g>`;
  else if (isCourt(rank)) middle = court(rank, suit, colour);
  else middle = `<g fill="${colour}">${PIPS[rank].map(([x, y]) => suitShape(suit, x, y, 15)).join("")}</g>`;
  return `<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<rect class="face" x="2" y="2" width="96" height="136" rx="9" fill="var(--card)" stroke="var(--card-edge)" stroke-width="2"/>` +
    `<text x="6" y="26" font-size="25" font-weight="700" fill="${colour}"${rank.length > 1 ? ' textLength="25" lengthAdjust="spacingAndGlyphs"' : ""}>${rank}</text> ` +
    `<text x="7" y="48" font-size="21" font-weight="700" fill="${colour}">${suit}</text>` +
    `<g fill="${colour}">${suitShape(suit, 84, 17, 14)}</g>` +
    middle + `</svg>`;
}

/** The SVG markup of a card's back. */
export function backSvg() {
  return `<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<rect x="2" y="2" width="96" height="136" rx="9" fill="var(--back)" stroke="var(--card-edge)" stroke-width="2"/>` +
    `<rect x="11" y="11" width="78" height="118" rx="5" fill="none" stroke="#f1d9a6" stroke-width="2"/>` +
    `<path d="M50 24 L78 70 L50 116 L22 70 Z" fill="none" stroke="#f1d9a6" stroke-width="2"/>` +
    `<circle cx="50" cy="70" r="9" fill="#f1d9a6"/></svg>`;
}

/** A card as an element: a <button> when `onPick` is given, else a picture with a name. `key` is
 * its `data-card` when the code alone would not be unique on the board; `from` names the area a card
 * new to the board comes from (see motion.js).
 * @param {string} code
 * @param {{ onPick?: (code: string, el: HTMLElement) => void, lang?: string, extraClass?: string, key?: string, from?: string }} [options] */
export function cardElement(code, { onPick, lang = "en", extraClass = "", key = code, from = "" } = {}) {
  const el = document.createElement(onPick ? "button" : "span");
  el.className = `card ${extraClass}`.trim();
  el.dataset.card = key;
  if (from) el.dataset.from = from;
  el.innerHTML = cardSvg(code);
  el.setAttribute("aria-label", cardLabel(code, lang));
  if (onPick) {
    el.setAttribute("type", "button");
    el.addEventListener("click", () => onPick(code, el));
  } else {
    el.setAttribute("role", "img");
  }
  return el;
}

/** A face-down card; give it a `key` (its `data-card`, such as "back:1:3") and a `from` area for it
 * to travel (see motion.js).
 * @param {string} label
 * @param {string} [extraClass]
 * @param {{ key?: string, from?: string }} [place] */
export function backElement(label, extraClass = "", { key = "", from = "" } = {}) {
  const el = document.createElement("span");
  el.className = `card back ${extraClass}`.trim();
  if (key) el.dataset.card = key;
  if (from) el.dataset.from = from;
  el.innerHTML = backSvg();
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  return el;
}

/** Fills every `<span data-cards="QS QH 4D">` on a rules page with drawn cards.
 * @param {ParentNode} [root] */
export function drawExamples(root = document) {
  const lang = document.documentElement.lang === "fa" ? "fa" : "en";
  for (const row of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-cards]"))) {
    row.classList.add("cards");
    row.setAttribute("dir", "ltr");
    for (const code of /** @type {string} */ (row.dataset.cards).split(/\s+/).filter(Boolean)) {
      row.append(code === "back" ? backElement(lang === "fa" ? "پشت کارت" : "a face-down card") : cardElement(code, { lang }));
    }
  }
}
