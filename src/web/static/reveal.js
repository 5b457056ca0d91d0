// A deal's reveal, read and judged (the scheme is on /fair and in docs/fair.md): the hashes, the
// players' shuffle of the committed order, where each card of the reveal went, and the verdict on an
// ended deal from what a page saw of it. Pure functions of their arguments: the page's deal check
// (verify.js) keeps what it saw and asks them; Node.js runs them in the tests.

/** @typedef {import("./board.js").Hooks} Hooks */

/**
 * A deal's reveal (docs/fair.md), as the table sends it once the deal ends: each place's card (null
 * where hidden from this page) with its salt, or its leaf where hidden; where each dealt place went (a
 * seat, "trump" or "pile"); every seat's number and pledge; how many rounds of the players' shuffle
 * were dealt, and whether draws in play came from the numbers (`open_draws`, Ganjifa's blind leads).
 * `wellFormed` checks this shape before anything else reads it.
 * @typedef {{ deal?: number | null, cards: Array<string | null>, salts: Array<string | null>, leaves: Array<string | null>, to: Array<number | string>, numbers: Array<string | null>, rounds: number, pledges?: Array<string | null> | null, open_draws?: boolean }} Reveal
 */

/** A place a card was dealt to as a game's hooks name it (see `placesOf`).
 * @typedef {number | string | null | { to?: Place, at?: number, among?: Place[], all?: Place[] }} Place */

/** A verdict on a deal: its state, the key of its words in WORDS and their argument (a card, a seat,
 * a deal number). @typedef {{ state: string, why: string, arg?: any }} Verdict */

/** SHA-256 of bytes, or null where the browser offers no SubtleCrypto (a page that is not secure).
 * @param {Uint8Array<ArrayBuffer>} bytes */
async function digest(bytes) {
  if (!globalThis.crypto?.subtle) return null;
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** @param {Uint8Array} bytes */
export const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** The hex SHA-256 of a text, or null without SubtleCrypto.
 * @param {string} text */
export async function sha256(text) {
  const d = await digest(new TextEncoder().encode(text));
  return d && hex(d);
}

/** SHA-256 in counter mode under a 32-byte key, read as big-endian 32-bit words (see docs/fair.md). */
export class Stream {
  /** @param {Uint8Array | null} key */
  constructor(key) {
    this.key = key;
    this.counter = 0;
    /** @type {Uint8Array<ArrayBuffer> | null} */
    this.block = null;
    this.used = 32;
  }

  /** @param {string} text */
  static async of(text) {
    return new Stream(await digest(new TextEncoder().encode(text)));
  }

  async word() {
    if (this.used === 32) {
      const input = new Uint8Array(36);
      input.set(/** @type {Uint8Array} */ (this.key));
      new DataView(input.buffer).setUint32(32, this.counter);
      this.block = await digest(input);
      this.counter += 1;
      this.used = 0;
    }
    const word = new DataView(/** @type {Uint8Array<ArrayBuffer>} */ (this.block).buffer).getUint32(this.used);
    this.used += 4;
    return word;
  }

  /** A number below m, each as likely: words at or above the last whole multiple of m are skipped.
   * @param {number} m */
  async below(m) {
    const limit = 2 ** 32 - (2 ** 32 % m);
    for (;;) {
      const word = await this.word();
      if (word < limit) return word % m;
    }
  }

  /** The next Fisher–Yates shuffle of n places: the place each new place takes its card from.
   * @param {number} n */
  async shuffle(n) {
    const places = [...Array(n).keys()];
    for (let i = n - 1; i > 0; i -= 1) {
      const j = await this.below(i + 1);
      [places[i], places[j]] = [places[j], places[i]];
    }
    return places;
  }
}

/** The players' stream of a deal: keyed by its commitment and every seat's number, in seat order.
 * @param {string} commitment
 * @param {Array<string | null>} numbers */
export function playersStream(commitment, numbers) {
  return Stream.of(`chaikhana-deal|${commitment}|${numbers.map((n) => n || "").join(",")}`);
}

/** The pledge a number gives: the hash a page sends before its number. */
export const pledgeOf = (/** @type {string} */ number) => sha256(`chaikhana-pledge|${number}`);

/** The commitment a reveal gives for the table's deal number `deal` (none for a deal kept from before
 * deals were named): each shown place's leaf worked out, each hidden one as sent.
 * @param {Reveal} reveal
 * @param {number | null | undefined} [deal] */
export async function commitmentOf(reveal, deal = reveal.deal) {
  const leaves = [];
  for (let i = 0; i < reveal.cards.length; i += 1) {
    if (reveal.cards[i] === null) leaves.push(reveal.leaves[i]);
    else leaves.push(await sha256(`${i}|${reveal.cards[i]}|${reveal.salts[i]}`));
  }
  const named = deal === null || deal === undefined ? "" : `|${deal}`;
  return sha256(`${leaves.join(",")}|${reveal.to.join(",")}${named}`);
}

/** Each round of the players' shuffle as the table's place at every dealt place; the last dealt.
 * @param {string} commitment
 * @param {Reveal} reveal */
export async function dealtRounds(commitment, reveal) {
  const stream = await playersStream(commitment, reveal.numbers);
  const n = reveal.cards.length;
  let dealt = [...Array(n).keys()];
  const rounds = [];
  for (let r = 0; r < reveal.rounds; r += 1) {
    const shuffle = await stream.shuffle(n);
    dealt = shuffle.map((j) => dealt[j]);
    rounds.push(dealt);
  }
  return rounds;
}

/** The deal as dealt, for the replay's panel: each dealt place's card (null when hidden) and where it went.
 * @param {{ commitment: string, reveal: Reveal }} sealed */
export async function dealtOrder(sealed) {
  const rounds = await dealtRounds(sealed.commitment, sealed.reveal);
  const dealt = rounds[rounds.length - 1] || [];
  return dealt.map((i, j) => ({ card: sealed.reveal.cards[i], to: sealed.reveal.to[j] }));
}

/** Whether `list` is an array of `n` entries, each null or a string of `digits` lowercase hex digits.
 * @param {unknown} list
 * @param {number} n
 * @param {number} digits
 * @returns {list is Array<string | null>} */
export function hexList(list, n, digits) {
  const hexOf = new RegExp(`^[0-9a-f]{${digits}}$`);
  return Array.isArray(list) && list.length === n && list.every((x) => x === null || (typeof x === "string" && hexOf.test(x)));
}

/** Whether a reveal has the shape the scheme gives it; anything else is FAILED, never read further.
 * @param {any} reveal the table's JSON, of a shape not yet known
 * @returns {reveal is Reveal} */
function wellFormed(reveal) {
  if (!reveal || typeof reveal !== "object") return false;
  const { cards, salts, leaves, to, numbers, rounds, pledges } = reveal;
  const n = Array.isArray(cards) ? cards.length : 0;
  if (n === 0 || !Array.isArray(salts) || !Array.isArray(leaves) || !Array.isArray(to)) return false;
  if (salts.length !== n || leaves.length !== n || to.length !== n) return false;
  const places = [...Array(n).keys()];
  const leaf = /^[0-9a-f]{64}$/;
  const shownOrHidden = places.every((/** @type {number} */ i) =>
    cards[i] === null ? salts[i] === null && typeof leaves[i] === "string" && leaf.test(leaves[i]) : typeof cards[i] === "string" && typeof salts[i] === "string",
  );
  const seats = 1 + Math.max(-1, ...to.filter((/** @type {unknown} */ t) => Number.isInteger(t)));
  // `t`: the table's JSON, checked here.
  const allTo = to.every((/** @type {any} */ t) => (Number.isInteger(t) && t >= 0) || t === "trump" || t === "pile");
  const numbersOk = Array.isArray(numbers) && numbers.length === seats && numbers.every((/** @type {unknown} */ x) => x === null || (typeof x === "string" && /^[0-9a-f]{32}$/.test(x)));
  const pledgesOk = pledges === null || pledges === undefined || hexList(pledges, seats, 64);
  return shownOrHidden && allTo && numbersOk && pledgesOk && Number.isInteger(rounds) && rounds >= 1 && rounds <= 1000;
}

/**
 * Whether a round of a game with void deals was void (some seat's hand holds none of the cards every
 * hand needs): true or false where the reveal decides it, null where hidden places leave it open. A
 * hidden place may hold a needed card whatever the reveal shows: the page cannot see that the places it
 * was not shown hold the rest of the pack (a second copy of a Mir would hide as well as any card).
 * @param {Reveal} reveal
 * @param {number[]} dealt
 * @param {Partial<Hooks>} hooks
 */
function voidRound(reveal, dealt, hooks) {
  const needs = (/** @type {string | null} */ card) => card !== null && /** @type {(card: string) => boolean} */ (hooks.voids)(card);
  let open = false;
  for (const seat of new Set(reveal.to.filter((t) => Number.isInteger(t)))) {
    const places = dealt.filter((_, j) => reveal.to[j] === seat);
    if (places.some((i) => needs(reveal.cards[i]))) continue;
    if (places.every((i) => reveal.cards[i] !== null)) return true;
    open = true;
  }
  return open ? null : false;
}

/**
 * The dealt places (indices of `to`) a place as a game's hooks name it may be: null (not known: any
 * place), where the card was dealt (a seat's number, "trump" or "pile": every place dealt there),
 * `{ to, at }` (the place `at` among those dealt to `to`, in the order dealt; from the end where
 * negative, -1 being the last), `{ among: [...] }` (any of those places) or `{ all: [...] }` (a place
 * each of those allows).
 * @param {Array<number | string>} to
 * @param {Place | undefined} place
 * @returns {number[] | null}
 */
export function placesOf(to, place) {
  if (place === null || place === undefined) return null;
  if (typeof place !== "object") return to.flatMap((t, j) => (String(t) === String(place) ? [j] : []));
  if (Array.isArray(place.among)) return place.among.flatMap((p) => placesOf(to, p) ?? []);
  if (Array.isArray(place.all)) {
    return place.all.reduce((/** @type {number[] | null} */ within, p) => {
      const these = placesOf(to, p);
      return these === null ? within : within === null ? these : within.filter((j) => these.includes(j));
    }, null);
  }
  if (place.to === undefined || place.to === null || typeof place.to === "object" || !Number.isInteger(place.at)) return [];
  const all = /** @type {number[]} */ (placesOf(to, place.to));
  const nth = /** @type {number} */ (place.at);
  const at = all[nth < 0 ? all.length + nth : nth];
  return at === undefined ? [] : [at];
}

/**
 * The verdict on one ended deal, from what this page saw: `{ state, why, arg }`, `state` being "fair",
 * "missing", "joined", "watched", "replaced", "asked", "partly", "failed" or "unchecked", and `why` a
 * key of WORDS with its argument. `page` says: `seat` (null for a watcher's page), `mine` (what this
 * page gave to this deal: its deal number, number, pledge and the closed list it answered, or null),
 * `flag` (the table asked twice, or changed a list, at any deal: kept for the table's life),
 * `replaced` (a deal it saw begin was never revealed), `seen` (each card seen face up, with the place
 * it was dealt to as [`placesOf`] reads it), `memo` (the game's hooks' notes on the deal: `broken`,
 * what they saw come out of its order as a reason and its argument; `gap`, that they missed views
 * and stopped placing cards exactly), `start` (the hand it was first shown, when it
 * saw the deal begin), `fromStart` (it saw the deal's first view), `blind` (a frame it could not
 * check showed cards of this deal) and `hooks`
 * (the game's: firstHand, voidDeals, voids).
 * @param {{ commitment: string, reveal: unknown }} sealed
 * @param {{ seat: number | null, mine: { deal: number | null, number: string, closed: Array<string | null> | null } | null, flag: { why: string, deal: number | null } | null, replaced?: boolean, blind?: boolean, fromStart?: boolean, seen: Record<string, Place>, memo?: Record<string, any>, start: string[] | null, hooks?: Partial<Hooks> }} page
 * @returns {Promise<Verdict>}
 */
export async function judge(sealed, page) {
  /** @param {string} why @param {any} [arg] @returns {Verdict} */
  const fail = (why, arg) => ({ state: "failed", why, arg });
  const { reveal, commitment } = sealed;
  if (!wellFormed(reveal)) return fail("malformed");
  const hooks = page.hooks || {};
  const deal = page.mine ? page.mine.deal : reveal.deal;
  const leaves = await commitmentOf(reveal, deal);
  if (leaves === null) return { state: "unchecked", why: "noCrypto" };
  if (leaves !== commitment) return fail("badHash");
  const shown = reveal.cards.filter((c) => c !== null);
  if (new Set(shown).size !== shown.length) return fail("repeated");
  if (reveal.rounds > 1 && !hooks.voidDeals) return fail("rounds", reveal.rounds);
  const rounds = await dealtRounds(commitment, reveal);
  const dealt = rounds[rounds.length - 1];
  let undecided = false;
  if (hooks.voidDeals) {
    for (const earlier of rounds.slice(0, -1)) {
      const isVoid = voidRound(reveal, earlier, hooks);
      if (isVoid === false) return fail("notVoid");
      if (isVoid === null) undecided = true;
    }
    if (voidRound(reveal, dealt, hooks) === true) return fail("dealtVoid");
  }
  const placeOf = new Map(dealt.map((i, j) => [reveal.cards[i], j]));
  const memo = page.memo ?? {};
  if (Array.isArray(memo.broken)) return fail(.../** @type {[string, any]} */ (memo.broken));
  for (const [card, from] of Object.entries(page.seen)) {
    const j = placeOf.get(card);
    if (j === undefined) return fail("unshown", card);
    const allowed = placesOf(reveal.to, from);
    if (allowed !== null && !allowed.includes(j)) return fail("notDealt", card);
  }
  // What the game drew in play from the deal's seed (Ganjifa's blind leads), where it says.
  const cardAt = (/** @type {number} */ j) => reveal.cards[dealt[j]] ?? null;
  const drawn = hooks.checkDraws ? await hooks.checkDraws(memo, { reveal, commitment, cardAt, sha256 }) : null;
  if (drawn?.failed) return fail(...drawn.failed);
  if (page.start && page.seat !== null) {
    const dealtToMe = dealt
      .map((i, j) => /** @type {[string | null, number | string]} */ ([reveal.cards[i], reveal.to[j]]))
      .filter(([, to]) => to === page.seat)
      .map(([card]) => card);
    /** @type {Set<string | null>} */
    const start = new Set(page.start);
    if (dealtToMe.length !== start.size || dealtToMe.some((c) => !start.has(c))) return fail("notYourHand");
  }
  // The numbers against the pledges: a number nobody pledged, or one that is not its pledge's, is a
  // contradiction; a pledged number left out is a deal this page cannot call fair.
  let pledgeLeftOut = false;
  if (Array.isArray(reveal.pledges)) {
    for (let s = 0; s < reveal.numbers.length; s += 1) {
      const [pledge, number] = [reveal.pledges[s], reveal.numbers[s]];
      if (pledge === null && number !== null) return fail("unpledged", s);
      if (pledge !== null && number === null) pledgeLeftOut = true;
      if (pledge !== null && number !== null && (await pledgeOf(number)) !== pledge) return fail("badPledge", s);
    }
  } else if (reveal.numbers.some((n) => n !== null)) {
    pledgeLeftOut = true;
  }
  const { mine } = page;
  if (mine?.closed && JSON.stringify(mine.closed) !== JSON.stringify(reveal.pledges)) return fail("listChanged");
  if (page.seat === null) return { state: "watched", why: "watched" };
  if (page.flag) return { state: "asked", why: page.flag.why, arg: page.flag.deal };
  if (page.replaced) return { state: "replaced", why: "replaced" };
  if (!mine) return { state: "joined", why: "joined" };
  if (!mine.closed) return { state: "missing", why: "notAsked" };
  const theirs = reveal.numbers[page.seat];
  if (theirs === null) return { state: "missing", why: "dropped" };
  if (theirs !== mine.number) return { state: "missing", why: "notYours" };
  if (pledgeLeftOut) return { state: "missing", why: "pledgeLeftOut" };
  // A page that did not see the deal's first view did not see it played from the start.
  if ((hooks.firstHand && !page.start) || page.blind || !page.fromStart) return { state: "joined", why: "joinedLate" };
  if (undecided) return { state: "partly", why: "voidUnseen" };
  if (memo.gap) return { state: "partly", why: "gap" };
  if (drawn?.partly) return { state: "partly", why: drawn.partly };
  return { state: "fair", why: "fair" };
}
