// Round Ganjifa cards drawn as SVG by this page's own code. Every suit has its own emblem, colour and
// two-letter code, and a badge saying whether its numbers run ten high or one high.

import { faDigits } from "./persian.js";

/** @typedef {{ code: string, name: string, fa: string, colour: string, high: "ten" | "one" }} GSuit */

/** @type {Record<string, GSuit>} */
export const GSUITS = {
  taj: { code: "TA", name: "Taj", fa: "تاج", colour: "#8a5a00", high: "ten" },
  safed: { code: "SA", name: "Safed", fa: "سفید", colour: "#5b6470", high: "ten" },
  shamsher: { code: "SH", name: "Shamsher", fa: "شمشیر", colour: "#1d4f91", high: "ten" },
  ghulam: { code: "GH", name: "Ghulam", fa: "غلام", colour: "#6b2c91", high: "ten" },
  chang: { code: "CH", name: "Chang", fa: "چنگ", colour: "#0f7062", high: "one" },
  surkh: { code: "SU", name: "Surkh", fa: "سرخ", colour: "#b3261e", high: "one" },
  barat: { code: "BA", name: "Barat", fa: "برات", colour: "#4f6b16", high: "one" },
  qimash: { code: "QI", name: "Qimash", fa: "قماش", colour: "#9c3d6e", high: "one" },
};
export const SUIT_ORDER = ["taj", "safed", "shamsher", "ghulam", "chang", "surkh", "barat", "qimash"];
const BY_CODE = Object.fromEntries(Object.entries(GSUITS).map(([k, v]) => [v.code, k]));

/** @param {string} code */
export function parseGCard(code) {
  return { rank: code.slice(0, -2), suit: BY_CODE[code.slice(-2)] };
}

/** What a round card shows ("Mir SU 1↑"), then its name: its accessible name, which holds the words
 * a person sees on it. In Persian ("fa") the rank and suit are written in Persian ("شاه سرخ ۱↑، شاه سرخ").
 * @param {string} code
 * @param {string} [lang] */
export function gcardLabel(code, lang = "en") {
  return `${gcardShown(code, lang).join(" ")}${lang === "fa" ? "، " : ", "}${gcardName(code, lang)}`;
}

/** The three lines a round card shows: its rank, its suit's code, and which way the suit counts;
 * in Persian ("fa") the rank and the count in Persian.
 * @param {string} code
 * @param {string} lang */
function gcardShown(code, lang) {
  const { rank, suit } = parseGCard(code);
  const s = GSUITS[suit];
  if (lang === "fa") return [rank === "M" ? "شاه" : rank === "W" ? "وزیر" : faDigits(rank), s.fa, s.high === "ten" ? "۱۰↑" : "۱↑"];
  return [rank === "M" ? "Mir" : rank === "W" ? "Waz" : rank, s.code, s.high === "ten" ? "10↑" : "1↑"];
}

/** "Mir of Surkh", or in Persian ("fa") "شاه سرخ", "۵ چنگ".
 * @param {string} code
 * @param {string} [lang] */
export function gcardName(code, lang = "en") {
  const { rank, suit } = parseGCard(code);
  if (lang === "fa") return `${rank === "M" ? "شاه" : rank === "W" ? "وزیر" : faDigits(rank)} ${GSUITS[suit].fa}`;
  const r = rank === "M" ? "Mir" : rank === "W" ? "Wazir" : rank;
  return `${r} of ${GSUITS[suit].name}`;
}

/** Each suit's emblem, drawn around (50, 50).
 * @param {string} suit */
function emblem(suit) {
  switch (suit) {
    case "taj":
      return `<path d="M32 60 L34 40 L42 50 L50 34 L58 50 L66 40 L68 60 Z"/>`;
    case "safed":
      return `<circle cx="50" cy="50" r="14" fill="none" stroke-width="5"/><circle cx="50" cy="50" r="4"/>`;
    case "shamsher":
      return `<path d="M36 66 Q52 48 64 30 L67 33 Q57 52 40 70 Z"/><rect x="33" y="60" width="12" height="4" transform="rotate(45 39 62)"/>`;
    case "ghulam":
      return `<circle cx="50" cy="38" r="7"/><path d="M38 66 Q38 48 50 48 Q62 48 62 66 Z"/>`;
    case "chang":
      return `<path d="M38 66 L38 36 Q54 30 64 44 L60 48 Q52 40 43 42 L43 66 Z"/><path d="M45 46 L45 64 M50 45 L50 62 M55 46 L55 58" stroke-width="2"/>`;
    case "surkh":
      return `<circle cx="50" cy="50" r="15"/><circle cx="50" cy="50" r="8" fill="#fff"/>`;
    case "barat":
      return `<rect x="36" y="36" width="28" height="30" rx="3"/><path d="M41 44 H59 M41 51 H59 M41 58 H53" stroke="#fff" stroke-width="3"/>`;
    default:
      return `<path d="M34 40 L50 32 L66 40 L66 62 L50 70 L34 62 Z"/><path d="M34 40 L50 48 L66 40 M50 48 L50 70" stroke="#fff" stroke-width="2" fill="none"/>`;
  }
}

/** A round card's face. Its words are large for its size (a fifth of its width and more), so that
 * they stay readable on a phone's card of three rem: the rank on top, the suit's emblem beside its
 * code in the middle (in Persian the suit's name), and the way the suit counts underneath.
 * @param {string} code
 * @param {string} [lang] */
export function gcardSvg(code, lang = "en") {
  const { rank, suit } = parseGCard(code);
  const s = GSUITS[suit];
  const court = rank === "M" || rank === "W";
  const [top, middle, bottom] = gcardShown(code, lang);
  return `<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">` +
    `<circle class="face" cx="50" cy="50" r="47" fill="var(--card)" stroke="${s.colour}" stroke-width="5"/>` +
    `<text x="50" y="35" text-anchor="middle" font-size="${court ? 23 : 28}" font-weight="700" fill="${s.colour}">${top}</text> ` +
    // A Persian card names its suit in full, in the middle of the line, in place of the emblem and
    // the code: in the part of a card that a hand's fan leaves in sight (a long name is narrowed).
    (lang === "fa"
      ? `<text x="50" y="61" text-anchor="middle" font-size="21" font-weight="700" fill="${s.colour}"${middle.length > 3 ? ` textLength="44" lengthAdjust="spacingAndGlyphs"` : ""}>${middle}</text> `
      : `<g fill="${s.colour}" stroke="${s.colour}" transform="translate(28 54) scale(0.48) translate(-50 -50)">${emblem(suit)}</g>` +
        `<text x="39" y="61" font-size="21" font-weight="700" fill="${s.colour}">${middle}</text> `) +
    `<text x="50" y="86" text-anchor="middle" font-size="20" font-weight="700" fill="var(--ink)">${bottom}</text>` +
    `</svg>`;
}

export function gbackSvg() {
  return `<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">` +
    `<circle cx="50" cy="50" r="47" fill="var(--back)" stroke="var(--card-edge)" stroke-width="3"/>` +
    `<circle cx="50" cy="50" r="30" fill="none" stroke="#f1d9a6" stroke-width="3"/>` +
    `<path d="M50 26 L56 44 L74 50 L56 56 L50 74 L44 56 L26 50 L44 44 Z" fill="#f1d9a6"/></svg>`;
}

/** A round card: a button when it can be picked. `from` names the area (`data-area`) it slides in
 * from when it is new to the board (see motion.js); `lang` the language of its words.
 * @param {string} code
 * @param {{ onPick?: (code: string) => void, extraClass?: string, from?: string, lang?: string }} [options] */
export function gcardElement(code, { onPick, extraClass = "", from, lang = "en" } = {}) {
  const el = document.createElement(onPick ? "button" : "span");
  el.className = `gcard ${extraClass}`.replace(/\s+/g, " ").trim();
  el.dataset.card = code;
  if (from) el.dataset.from = from;
  el.innerHTML = gcardSvg(code, lang);
  if (onPick) {
    // A button is named by words inside it, read out and unseen, not by a label over what it shows:
    // a checker may not read a Persian suit name drawn on the card as text, and would find the
    // name and the card at odds.
    const name = document.createElement("span");
    name.className = "unseen";
    name.textContent = gcardLabel(code, lang);
    el.append(name);
    el.setAttribute("type", "button");
    el.addEventListener("click", () => onPick(code));
  } else {
    el.setAttribute("aria-label", gcardLabel(code, lang));
    el.setAttribute("role", "img");
  }
  return el;
}

/** A face-down card; `key` (its `data-card`) lets it travel like a face-up one.
 * @param {string} label
 * @param {() => void} [onPick]
 * @param {{ key?: string, from?: string, extraClass?: string }} [options] */
export function gbackElement(label, onPick, { key, from, extraClass = "" } = {}) {
  const el = document.createElement(onPick ? "button" : "span");
  el.className = `gcard back ${extraClass}`.trim();
  if (key) el.dataset.card = key;
  if (from) el.dataset.from = from;
  el.innerHTML = gbackSvg();
  el.setAttribute("aria-label", label);
  if (onPick) {
    el.setAttribute("type", "button");
    el.addEventListener("click", onPick);
  } else {
    el.setAttribute("role", "img");
  }
  return el;
}

/** The suit's name with its "10 high" or "1 high" badge, in words.
 * @param {string} suit */
export function suitBadge(suit) {
  const s = GSUITS[suit];
  const badge = document.createElement("span");
  badge.className = "suit-badge";
  badge.style.borderColor = s.colour;
  badge.textContent = `${s.name} (${s.code}) · ${s.high === "ten" ? "10 high" : "1 high"}`;
  return badge;
}

/** Fills every `[data-gcards]` row of a page with drawn round cards.
 * @param {ParentNode} [root] */
export function drawGExamples(root = document) {
  const lang = document.documentElement.lang === "fa" ? "fa" : "en";
  for (const row of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-gcards]"))) {
    row.classList.add("cards");
    row.setAttribute("dir", "ltr");
    for (const code of /** @type {string} */ (row.dataset.gcards).split(/\s+/).filter(Boolean)) row.append(gcardElement(code, { lang }));
  }
}
