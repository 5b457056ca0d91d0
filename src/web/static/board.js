// A game's board as the shared modules see it. The table page loads the board module named for the
// game (`/static/{game}.js`, from the game's folder) with its stylesheet; the module exports
// `createBoard`, `LANGUAGES` (English alone when it says none) and `hooks`: what the game tells the
// shared modules about itself. replay.js, verify.js and table.js ask through the hooks instead of
// branching on the game's name, so a new game brings its own. Each game keeps its hooks in `{game}-hooks.js`, which touches no page when imported, so that
// Node.js can run verify.js with them in the tests. Nothing here knows a rule: the hooks only say how
// the game's cards look and where its view shows them.

import { backElement, cardElement } from "./cards.js";

/**
 * @typedef {Object} Hooks
 * @property {Record<string, string>} names The game's name in each language its board speaks ("en", "fa").
 * @property {(code: string, lang: string) => HTMLElement} card A face-up card drawn as on its board.
 * @property {(label: string) => HTMLElement} back A card's back, `label` saying why it is hidden.
 * @property {"hand" | "stock"} dealt What a seat is dealt: a hand, or a stock (top card first).
 * @property {boolean} firstHand Whether a seat's first hand, shown before any draw, is the hand dealt
 *   to it (checked as one against the reveal).
 * @property {boolean} voidDeals Whether the game deals again when a shuffle gives a void deal (Ganjifa:
 *   a hand with no Mir): only then may a reveal count more than one round of the players' shuffle.
 * @property {(card: string) => boolean} [voids] For a game with void deals: whether `card` is one a
 *   hand needs (a Mir), so that a hand without any makes the deal void.
 * @property {(memo: Record<string, any>, deal: Drawn) => Promise<{ failed?: [string, any], partly?: string } | null>} [checkDraws]
 *   For a game that draws in play from the deal's seed (Ganjifa's blind leads): at the reveal, checks
 *   what the hooks noted of those draws; a contradiction is `failed`, what it cannot say `partly`.
 * @property {(view: any, seat: number | null, seen: Seen) => Array<[string, Place]>} shown The cards a
 *   view shows face up, each with the place it was dealt as the deal check reads places (verify.js,
 *   `placesOf`: a seat, "trump" or "pile", one place among those dealt there, or any of several) when
 *   that is certain, else null.
 */

/**
 * A revealed deal, for `checkDraws`: the reveal, the commitment, the card at each dealt place (null
 * where hidden from this page) and SHA-256.
 * @typedef {{ reveal: import("./reveal.js").Reveal, commitment: string, cardAt: (j: number) => string | null, sha256: (text: string) => Promise<string | null> }} Drawn
 */

/**
 * What the deal check knows of the frames it saw: `first` (this view holds the first hand),
 * `whole` (every frame of the deal was seen, one version after another), `continuous` (this view
 * follows the last one seen of the deal, or repeats it) and `memo` (the game's own notes on the deal
 * in play, kept with the check's through reloads; a game that finds a card drawn out of its order
 * sets `memo.broken` to the reason and its argument).
 * @typedef {{ first: boolean, whole: boolean, continuous: boolean, memo: Record<string, any> }} Seen
 */

/** @typedef {import("./socket.js").ViewFrame} ViewFrame */
/** @typedef {import("./socket.js").ErrorFrame} ErrorFrame */
/** @typedef {import("./socket.js").Action} Action */
/** @typedef {import("./reveal.js").Place} Place */

/**
 * What a board may do at the table (table.js gives it): play an offered action, ask for the next
 * deal or a rematch (each false while the connection is down), the language it speaks, and whether
 * the guided first deal (guide.js) is speaking at the table.
 * @typedef {{ act: (action: Action) => boolean, nextDeal: () => boolean, rematch: () => boolean, lang: () => string, guided: () => boolean }} BoardContext
 */

/**
 * A board drawn at the table: `render` draws a view, `error` says a refusal, `goneTo(key)` names the
 * area a card that left the board went to (motion.js), `hint(action, best)` points at the move the
 * coach recommends for the view drawn (`best`: the whole play its reason names, as the game writes it,
 * where it takes more than one move).
 * @typedef {{ render: (frame: ViewFrame) => void, error: (frame: ErrorFrame) => void, goneTo?: (key: string) => string | null | undefined, hint?: (action: Action, best?: any) => void }} Board
 */

/** A step of the guided first deal (guide.js): its words and the controls it is about (CSS).
 * @typedef {{ title: string, text: string, targets?: string[] }} GuideStep */

/**
 * A board's words for the coach (coach.js, `coachSentence`): a move (an action, as the board sends
 * it; `list` joins words in a list) and a reason of the rules (the table's JSON, named by `rule`; `list` as for a move).
 * @typedef {{ move: (play: Action, lang: string, list: (items: string[]) => string) => string, rule: (rule: { rule: string, [field: string]: any }, lang: string, list: (items: string[]) => string) => string }} CoachWords
 */

/**
 * A board's words for the moves of a replayed deal (replay.js's list of moves): `told(play, who, lang,
 * list)` says who did what, as the board's move line would, from the action as the table told it to
 * this viewer (null where it would name a card this viewer never saw); `who` is the seat as the board
 * calls it at the start of a sentence ("You", a name). `before(lang)`, for a game whose first moves
 * come before its cards are dealt, names the replay's first step instead of "as dealt".
 * @typedef {{ told: (play: Action | null, who: string, lang: string, list: (items: string[]) => string) => string, before?: (lang: string) => string }} MoveWords
 */

/**
 * A game's board module (`/static/{game}.js`).
 * @typedef {Object} BoardModule
 * @property {(root: HTMLElement, ctx: BoardContext) => Board} createBoard
 * @property {string[]} [LANGUAGES]
 * @property {Partial<Hooks>} [hooks]
 * @property {(frame: ViewFrame, lang: string) => GuideStep | null | undefined} [guideStep]
 * @property {(lang: string) => string} [guideLeave]
 * @property {CoachWords} [coachWords]
 * @property {MoveWords} [moveWords]
 */

/** @type {Hooks} French cards, dealt in hands, and nothing known of a view. */
export const DEFAULT_HOOKS = {
  names: {},
  card: (code, lang) => cardElement(code, { lang }),
  back: (label) => backElement(label),
  dealt: "hand",
  firstHand: false,
  voidDeals: false,
  shown: () => [],
};

let current = DEFAULT_HOOKS;

/** The loaded board's hooks (the defaults until a board is loaded). */
export const boardHooks = () => current;

/** The game's name in `lang`: its board's words, else (before a board is loaded) the name the
 * server wrote on the table page.
 * @param {string} lang */
export function gameTitle(lang) {
  const names = current.names;
  return names[lang] || names.en || globalThis.document?.body.dataset.gameTitle || "";
}

/** Takes the hooks of the board module `module`.
 * @param {{ hooks?: Partial<Hooks> } | null | undefined} module */
export function useBoard(module) {
  current = { ...DEFAULT_HOOKS, ...(module?.hooks || {}) };
}

/** Loads the board module of `game` and its stylesheet, and takes its hooks; answers the module.
 * @param {string} game
 * @returns {Promise<BoardModule>} */
export async function loadBoard(game) {
  if (!/^[a-z][a-z-]*$/.test(game)) throw new Error(game);
  /** @type {[BoardModule, unknown]} */
  const [module] = await Promise.all([import(`./${game}.js`), boardStyle(game)]);
  useBoard(module);
  return module;
}

/** The game's own stylesheet, loaded beside the site's before its board is first drawn.
 * @param {string} game */
function boardStyle(game) {
  return new Promise((done) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = `/static/${game}.css`;
    link.onload = link.onerror = done;
    document.head.append(link);
  });
}

/** Collects the cards a view shows: `add(card, from)` notes one, `all(cards, from)` several. */
export function collector() {
  /** @type {Array<[string, Place]>} */
  const seen = [];
  /** @param {string | null | undefined} card @param {Place} [from] */
  const add = (card, from = null) => {
    if (card) seen.push([card, from]);
  };
  /** @param {Array<string | null> | null | undefined} cards @param {Place} [from] */
  const all = (cards, from = null) => (cards || []).forEach((c) => add(c, from));
  return { seen, add, all };
}
