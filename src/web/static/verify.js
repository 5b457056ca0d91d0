// Fair deals, checked by the page itself (the scheme is on /fair and in docs/fair.md). Before a deal
// the table commits to its own order of the pack (`shuffle.commitment`), naming the deal by its
// number at the table (`shuffle.deal`). This page answers each deal number once, ever: it draws a
// number, pledges its hash, and sends the number itself only once the table has shown the closed list
// of every seat's pledge with its own in it. It keeps all of that in the browser under its own
// address and seat token, never under ids a frame gives. The cards are dealt from the players'
// shuffle of the committed order, which this page works out itself from the commitment and every
// seat's number. Once the deal ends it checks, from the reveal, that the places hash to the
// commitment for the deal it answered, that the numbers are the ones pledged in the list it saw, its
// own among them, that the deal was shuffled again only where the game deals again, and that every
// card it saw was where the shuffle put it (reveal.js reads the reveal and judges). Nothing here needs
// a page: Node.js runs it in the tests.

import { WORDS } from "./verify-words.js";
import { boardHooks } from "./board.js";
import { hex, hexList, judge, pledgeOf } from "./reveal.js";

/** @typedef {import("./board.js").Hooks} Hooks */
/** @typedef {import("./socket.js").Action} Action */
/** @typedef {import("./reveal.js").Reveal} Reveal */
/** @typedef {import("./reveal.js").Place} Place */
/** @typedef {import("./reveal.js").Verdict} Verdict */

/** A view's `deal`: the commitment of the deal in play, the version it was dealt at, its reveal at
 * the end. @typedef {{ commitment: string, dealt_at?: number, reveal?: Reveal }} Sealed */

/** The coming deal's shuffle (a view's or a `shuffle` frame's `shuffle`): its commitment, the table's
 * number for the deal, the pledges so far, whether the list is closed, which seats gave their number.
 * @typedef {{ commitment: string, deal: number, pledges?: Array<string | null> | null, closed?: boolean, contributed?: boolean[] }} Shuffle */

/** A deal this page answered, as kept: the commitment, its number and pledge, its seat, the closed
 * list it answered, whether the deal was dealt and revealed.
 * @typedef {{ commitment: string, number?: string, pledge?: string | null, seat?: number, closed?: Array<string | null> | null, dealt?: boolean, revealed?: boolean }} KeptDeal */

/** The deal in play, as kept: what this page saw of it.
 * @typedef {{ commitment: string, deal: number | null, revealed: boolean, replaced: boolean, reused: boolean, blind: boolean, fromStart: boolean, version?: number, whole?: boolean, memo?: Record<string, any> }} InPlay */

/** What a page keeps for one table and seat (see `Kept`).
 * @typedef {{ deals: Record<string, KeptDeal>, highest: number | null, flag: { why: string, deal: number | null } | null, inPlay: InPlay | null, seen: Record<string, Place>, start: string[] | null, blind?: boolean }} KeptData */

/** The browser's storage, or a stand-in for it. @typedef {{ getItem: (key: string) => string | null, setItem: (key: string, value: string) => void }} Store */

/** What the page's line is: an element, or (in the tests) a stand-in with the same fields.
 * @typedef {{ textContent: string | null, title: string, dataset: Record<string, string | undefined>, hidden: HTMLElement["hidden"], append: (...nodes: Array<Node | string>) => void }} Mark */

/** The cards a view shows face up, each with where it was dealt when that is certain (else null):
 * the game's to say (its board's hooks, board.js).
 * @param {{ view?: any, seat?: number | null, [field: string]: any }} frame a view frame (its `view` the game's JSON)
 * @param {boolean} first
 * @param {Record<string, any>} [memo] */
function cardsShown(frame, first, whole = false, memo = {}, continuous = false) {
  if (!frame.view) return [];
  return boardHooks().shown(frame.view, frame.seat ?? null, { first, whole, memo, continuous });
}

/** Adds cards seen to `seen` (card → where it was dealt, or null): every place a card was seen to
 * come from is kept, and the reveal must put it at a place all of them allow.
 * @param {Record<string, Place>} seen
 * @param {Array<[string, Place]>} cards */
function note(seen, cards) {
  for (const [card, from] of cards) {
    const had = seen[card] ?? null;
    if (had === null) seen[card] = from;
    else if (from !== null) {
      const all = (typeof had === "object" ? had.all : undefined) ?? [had];
      if (!all.some((p) => JSON.stringify(p) === JSON.stringify(from))) seen[card] = { all: [...all, from] };
    }
  }
}

/** The part of the browser's storage a page keeps for one table and seat: every deal it answered
 * (`deals`, by the table's deal number), the highest, a flag once the table asked twice, and the deal
 * in play with the cards seen in it. */
class Kept {
  /** @param {Store | null | undefined} store
   * @param {string} key */
  constructor(store, key) {
    this.store = store;
    this.key = key;
    /** @type {any} */ // what the browser kept, JSON of any shape until checked below
    let kept = null;
    try {
      kept = JSON.parse(store?.getItem(key) || "null");
    } catch (_) {
      kept = null;
    }
    /** @type {KeptData} */
    const fresh = { deals: {}, highest: null, flag: null, inPlay: null, seen: {}, start: null };
    /** @type {KeptData} */
    this.data = kept && typeof kept.deals === "object" && kept.deals !== null ? { ...fresh, ...kept } : fresh;
  }

  save() {
    // The deals answered are kept whole but for their numbers, which only the last few need.
    for (const [deal, entry] of Object.entries(this.data.deals)) {
      if (Number(deal) < (this.data.highest ?? 0) - 4) {
        this.data.deals[deal] = { commitment: entry.commitment, dealt: entry.dealt, revealed: entry.revealed };
      }
    }
    try {
      this.store?.setItem(this.key, JSON.stringify(this.data));
    } catch (_) {
      // A browser that keeps nothing still plays; after a reload it says it joined after the shuffle.
    }
  }
}

/** 16 random bytes from the browser, as 32 hex digits. */
const freshNumber = () => hex(crypto.getRandomValues(new Uint8Array(16)));

export class DealCheck {
  /**
   * `mark` shows the result; `lang` gives the page's language; `send` sends a frame on the table's
   * socket (none for a watcher's page); `owner` gives this page's own key for what it keeps (its
   * table's id from its own address and its seat's token), or null while it has none.
   * @param {Mark | null} mark
   * @param {() => string} lang
   * @param {((frame: Record<string, any>) => boolean) | null} [send]
   * @param {Store | null} [store]
   * @param {() => string | null} [owner]
   */
  constructor(mark, lang, send = null, store = globalThis.localStorage, owner = () => null) {
    this.mark = mark;
    this.lang = lang;
    this.send = send;
    this.store = store;
    this.owner = owner;
    /** @type {Kept | null} */
    this.kept = null;
    /** @type {{ data: KeptData, save: () => void }} */
    this.watcher = { data: { deals: {}, highest: null, flag: null, inPlay: null, seen: {}, start: null }, save() {} };
    /** @type {number | null} */
    this.lastVersion = null;
    /** @type {string | null} */
    this.checked = null;
    /** @type {Verdict | null} */
    this.verdict = null;
    /** @type {number | null | undefined} */
    this.seat = undefined;
    this.queue = Promise.resolve();
  }

  /** Follows one frame from the table (a view, or a `shuffle` frame): one at a time, in order.
   * @param {import("./socket.js").Frame} frame */
  follow(frame) {
    this.queue = this.queue.then(() => this.step(frame)).catch(() => this.setVerdict({ state: "failed", why: "malformed" }));
    return this.queue;
  }

  /** @param {import("./socket.js").Frame} frame */
  async step(frame) {
    // What this page keeps is read afresh at every frame: the browser's other tabs of the same seat
    // share it, so that none of them answers a deal another already answered.
    if (this.send) {
      const key = this.owner();
      this.kept = key ? new Kept(this.store, `chaikhana-fair:${key}`) : null;
    }
    // A seat's page without its own key yet (no token) checks nothing of its own.
    if (this.send && !this.kept) return;
    if (frame?.type === "shuffle") return this.answer(frame.shuffle, this.seat);
    const continuous = this.lastVersion !== null && frame.version === this.lastVersion + 1;
    this.lastVersion = frame.version;
    const kept = this.kept || this.watcher;
    const data = kept.data;
    const sealed = frame.deal;
    if (this.kept && (!Number.isInteger(frame.seat) || !sealed?.commitment)) {
      // A frame this seat's page does not check (no seat, or no seal) yet showing cards: the deal
      // in play, or the next to begin, was not seen whole.
      if (cardsShown({ ...frame, seat: null }, false).length > 0) {
        if (data.inPlay && !data.inPlay.revealed) data.inPlay.blind = true;
        else data.blind = true;
        kept.save();
      }
      // A seat's page stays a seat's page whatever a frame says: a frame with no seat is not its own.
      if (!Number.isInteger(frame.seat)) return;
    }
    if (this.kept) this.seat = frame.seat;
    // The deal in play is marked dealt before the coming one is answered: a frame carries both.
    const playing = this.kept && sealed?.commitment ? this.dealOf(data, sealed.commitment) : null;
    const entry = playing === null ? null : data.deals[playing];
    const arriving = data.inPlay?.commitment !== sealed?.commitment;
    // A deal seen begun (or shown whole) that comes back after another: what this page saw of it
    // was dropped between, or one shuffle is being played twice.
    const returning = Boolean(entry?.dealt && arriving);
    const reused = Boolean(entry?.revealed && arriving);
    if (entry) entry.dealt = true;
    if (this.kept) await this.answer(frame.shuffle, frame.seat);
    if (!sealed?.commitment) return;
    if (arriving) {
      const replaced = Boolean(this.kept && data.inPlay && !data.inPlay.revealed) || returning;
      const blind = Boolean(data.blind);
      data.blind = false;
      // The deal's first view is the one whose version the deal names (`dealt_at`); a page that
      // reloaded just before it still sees it whole.
      const first = Number.isInteger(sealed.dealt_at) ? frame.version === sealed.dealt_at : frame.version === 1 || continuous;
      data.inPlay = { commitment: sealed.commitment, deal: playing, revealed: false, replaced, reused, blind, fromStart: first && !blind };
      data.seen = {};
      data.start = null;
      this.checked = null;
      this.verdict = null;
      this.show(replaced ? this.words().replacedNow : "", replaced ? "replaced" : "");
      this.showFlag(data);
    }
    const inPlay = /** @type {InPlay} */ (data.inPlay); // set above when the deal arrived, else the one in play
    // This frame follows the last this seat's pages saw of the deal (the same version again, or the
    // next): the game's hooks may then check what changed between the two.
    const following = Number.isInteger(inPlay.version) && frame.version - /** @type {number} */ (inPlay.version) <= 1 && frame.version >= /** @type {number} */ (inPlay.version);
    inPlay.version = frame.version;
    // A deal shown whole, then played again: one shuffle, two deals.
    if (inPlay.reused || (inPlay.revealed && !sealed.reveal)) {
      inPlay.reused = true;
      kept.save();
      return this.setVerdict({ state: "failed", why: "reused" });
    }
    if (!sealed.reveal) {
      // Seen whole: every frame since the deal began, one version after another (across reloads:
      // what this seat's pages kept of the deal says which version they saw last).
      inPlay.whole = inPlay.whole === undefined ? inPlay.fromStart : inPlay.whole && following;
      // The first hand shown, before any draw, where the game says it is the hand dealt (Panjpar's,
      // once the trump colour is called); other games' hands are checked card by card.
      const hand = frame.view?.hand;
      const first = inPlay.whole && data.start === null && boardHooks().firstHand && hand?.length > 0;
      if (first) data.start = hand;
      inPlay.memo ??= {};
      note(data.seen, cardsShown(frame, first, inPlay.whole, inPlay.memo, following));
      kept.save();
      return;
    }
    if (this.checked === sealed.commitment) return this.repeat();
    this.checked = sealed.commitment;
    note(data.seen, cardsShown(frame, false, false, inPlay.memo ?? {}, following));
    inPlay.revealed = true;
    if (entry) entry.revealed = true;
    kept.save();
    const mine = entry?.number ? { deal: playing, number: entry.number, closed: entry.closed ?? null } : null;
    this.setVerdict(
      await judge(sealed, {
        seat: this.kept ? frame.seat : null,
        mine,
        flag: data.flag,
        replaced: inPlay.replaced,
        blind: Boolean(inPlay.blind),
        fromStart: Boolean(inPlay.fromStart),
        seen: data.seen,
        memo: inPlay.memo,
        start: data.start,
        hooks: boardHooks(),
      }),
    );
  }

  /** This page sent `action` in the deal in play: kept with its notes, for the game's hooks to hold
   * the table to what it chose (the last few only).
   * @param {Action} action */
  acted(action) {
    const key = this.send ? this.owner() : null;
    const kept = key ? new Kept(this.store, `chaikhana-fair:${key}`) : null;
    const inPlay = kept?.data.inPlay;
    if (!inPlay || inPlay.revealed) return;
    inPlay.memo ??= {};
    inPlay.memo.acted = [...(inPlay.memo.acted ?? []), action].slice(-4);
    kept.save();
    // A frame being followed meanwhile saves what it read before: it keeps this action too, lest
    // its save drop a move this page made (a face-down card it laid would then read as not its own).
    const following = this.kept?.key === kept.key ? this.kept.data.inPlay : null;
    if (following && following !== inPlay && following.commitment === inPlay.commitment && !following.revealed) {
      following.memo ??= {};
      if (!(following.memo.acted ?? []).includes(action)) following.memo.acted = [...(following.memo.acted ?? []), action].slice(-4);
    }
  }

  /** The deal number this page answered `commitment` for, or null.
   * @param {KeptData} data
   * @param {string} commitment */
  dealOf(data, commitment) {
    const found = Object.entries(data.deals).find(([, entry]) => entry.commitment === commitment);
    return found ? Number(found[0]) : null;
  }

  /** Remembers for the table's life that it asked twice (or otherwise broke the one-number rule).
   * @param {KeptData} data
   * @param {string} why
   * @param {number | null} deal */
  raise(data, why, deal) {
    if (!data.flag) data.flag = { why, deal };
    /** @type {Kept} */ (this.kept).save();
    this.showFlag(data);
  }

  /**
   * Takes this page's part in the coming deal's shuffle, as `shuffle` (a view's or a `shuffle`
   * frame's) shows it: the first time a deal number is asked, a fresh number, pledged; once the list
   * of pledges is closed with its pledge in it, the number. A deal number asked again with another
   * commitment, a lower one asked after a higher, a deal asked while the one answered before it was
   * never dealt, or a closed list that changed is refused and remembered.
   * @param {Shuffle | null | undefined} shuffle
   * @param {number | null | undefined} seat
   */
  async answer(shuffle, seat) {
    if (!this.kept || !shuffle?.commitment) return;
    if (!globalThis.crypto?.getRandomValues || !globalThis.crypto?.subtle) return;
    const deal = shuffle.deal;
    if (!Number.isSafeInteger(deal) || deal < 0 || typeof shuffle.commitment !== "string") return;
    const data = this.kept.data;
    let entry = data.deals[deal];
    // A page just opened knows its seat from its first view; a deal it answered, from what it kept.
    seat = Number.isInteger(seat) ? seat : entry?.seat;
    if (!Number.isInteger(seat)) return;
    if (!entry) {
      if (data.highest !== null && deal <= data.highest) return this.raise(data, "askedAgain", deal);
      const before = data.highest === null ? null : data.deals[data.highest];
      if (before && !before.dealt) return this.raise(data, "skipped", data.highest);
      const number = freshNumber();
      entry = { commitment: shuffle.commitment, number, pledge: await pledgeOf(number), seat: /** @type {number} */ (seat), closed: null, dealt: false };
      data.deals[deal] = entry;
      data.highest = deal;
      this.kept.save();
    }
    if (entry.commitment !== shuffle.commitment) return this.raise(data, "askedTwice", deal);
    if (!entry.number || entry.seat !== seat) return;
    const pledges = shuffle.pledges;
    if (!shuffle.closed) {
      if (!Array.isArray(pledges) || pledges[/** @type {number} */ (seat)] !== entry.pledge) {
        /** @type {(frame: Record<string, any>) => boolean} */ (this.send)({ type: "pledge", commitment: shuffle.commitment, hash: entry.pledge });
      }
      return;
    }
    if (!hexList(pledges, pledges?.length ?? 0, 64) || pledges[/** @type {number} */ (seat)] !== entry.pledge) return;
    if (entry.closed && JSON.stringify(entry.closed) !== JSON.stringify(pledges)) return this.raise(data, "listChanged", deal);
    if (!entry.closed) {
      entry.closed = pledges;
      this.kept.save();
    }
    if (!shuffle.contributed?.[/** @type {number} */ (seat)]) /** @type {(frame: Record<string, any>) => boolean} */ (this.send)({ type: "contribute", commitment: shuffle.commitment, value: entry.number });
  }

  words() {
    return WORDS[/** @type {keyof typeof WORDS} */ (this.lang())] || WORDS.en;
  }

  /** @param {Verdict} verdict */
  setVerdict(verdict) {
    this.verdict = verdict;
    this.repeat();
  }

  /** Once the table asked twice, the line says so at once, and keeps saying it.
   * @param {KeptData} data */
  showFlag(data) {
    if (data.flag && !this.verdict) this.setVerdict({ state: "asked", why: data.flag.why, arg: data.flag.deal });
  }

  /** Shows the last verdict in the page's language now (after a language switch too). */
  repeat() {
    if (!this.verdict) return;
    const words = this.words();
    const { state, why, arg } = this.verdict;
    const head = words.heads[/** @type {keyof typeof words.heads} */ (state)];
    const reason =
      typeof words[/** @type {keyof typeof words} */ (why)] === "function"
        ? /** @type {(arg: any) => string} */ (words[/** @type {keyof typeof words} */ (why)])(arg)
        : /** @type {string} */ (words[/** @type {keyof typeof words} */ (why)]);
    this.show(state === "failed" ? `${head}${reason}` : head, state, state === "failed" ? "" : reason);
  }

  /** @param {string} text
   * @param {string} state */
  show(text, state, title = "") {
    if (!this.mark) return;
    this.mark.textContent = text;
    this.mark.title = title;
    this.mark.dataset.state = state;
    this.mark.hidden = !text;
    if (text && globalThis.document) {
      const how = document.createElement("a");
      how.href = this.lang() === "fa" ? "/fa/fair" : "/fair";
      how.textContent = this.words().how;
      how.className = "deal-check-how";
      this.mark.append(" ", how);
    }
  }
}
