// The Pishe Pasha board, one screen: the other seat's stock, turned card and discard pile along the
// top, the four suit piles in the middle, yours at the bottom with Give / Turn a card / Keep it always
// in the same place, the line that says what to do now, and the turn log in a drawer. Every card
// carries its code (a stock's back a key of its own) so that table.js makes it travel: a card turned
// slides out of its stock, a gift crosses to the other pile, a card going home flies to its suit pile,
// a pile turned over goes back into the stock. The board draws only what the frame says.

import { cardElement, backElement, cardName, parseCard } from "./cards.js";
import { announce, signalTurn, showBanner, el, button, markArrivals, moveLine, withinSentence } from "./ui.js";
import { boardTop, readyLine, markAsked, matchResultZone } from "./share.js";
import { seatName } from "./social.js";
import { awayLine, awayNow } from "./away.js";
import { play } from "./sound.js";
import { wordsIn, shortName, stepSays, cannotGive, errorSentence } from "./pishe-pasha-words.js";
import { SUITS, newSteps, origins, goneAreas } from "./pishe-pasha-travel.js";

/** @typedef {import("./pishe-pasha-travel.js").Log} Log */
/** @typedef {import("./pishe-pasha-travel.js").SeatStep} SeatStep */

export { coachWords, moveWords } from "./pishe-pasha-words.js";
export { hooks } from "./pishe-pasha-hooks.js";
export { guideStep, guideLeave } from "./pishe-pasha-guide.js";

/** The languages this board is written in (the table page offers the switch). */
export const LANGUAGES = ["en", "fa"];

/** @typedef {import("./socket.js").ViewFrame} ViewFrame */
/** @typedef {import("./socket.js").Action} Action */

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
/** @type {Record<string, string>} */
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

// A card is turned by itself when that is the only move (the player has nothing to decide), unless
// the player has switched that off on this device, or the guided first deal is teaching the turn (it
// is off there until the player ticks it); the beat before it lets the player see the board.
const AUTO_TURN_KEY = "chaikhana-auto-turn";
const AUTO_TURN_MS = 700;

/**
 * @param {HTMLElement} root
 * @param {import("./board.js").BoardContext} ctx
 * @returns {import("./board.js").Board}
 */
export function createBoard(root, ctx) {
  // Read only once the first frame is drawn.
  /** @type {ViewFrame} */
  let frame = /** @type {ViewFrame} */ (/** @type {unknown} */ (null));
  let lastSaid = "";
  /** @type {ReturnType<typeof setTimeout> | null} */
  let pending = null; // a move sent and not answered yet: further clicks wait for the answer
  /** @type {ReturnType<typeof setTimeout> | null} */
  let autoTurn = null; // the turn-over made for the player when it is the only move (see autoTurnBox)
  const autoTurnOn = () => {
    const chosen = localStorage.getItem(AUTO_TURN_KEY);
    return ctx.guided() ? chosen === "on" : chosen !== "off";
  };
  /** @type {boolean | null} */
  let logOpen = null; // the player's own choice for the turn log drawer (null: the layout's default)
  /** @type {Record<number, { count: number, card: string } | null>} */
  const under = {}; // per seat: the card known to lie under its pile's top (seen there before)
  /** @type {Map<string, string>} */
  let gone = new Map(); // card key -> the area a card that left the board went to

  const lang = () => ctx.lang();
  // The coach's hint for one view: the step it recommends, whose button is marked.
  let recommended = { version: -1, type: "" };
  // The words of the board's language, read afresh at each drawing (the switch redraws the board).
  let W = wordsIn(lang());
  // A watcher (see table.js) is shown the table from seat 0's side, but no seat is "you" to it.
  const who = (/** @type {number} */ seat) =>
    seat === frame.seat && !frame.watcher ? W.you : frame.kind === "computer" && seat !== 0 ? W.computer : seatName(frame, seat, lang());
  const isYou = (/** @type {number} */ seat) => seat === frame.seat && !frame.watcher;
  // The seats as a score names them: yours first, or both in order to a watcher.
  const seatsInOrder = () => (frame.watcher ? [0, 1] : [frame.seat, 1 - frame.seat]);
  const offered = (/** @type {string} */ type) => frame.actions.find((a) => a.type === type);

  /** Remembers the card under each pile's top: the previous top, when exactly one card came on.
   * @param {any} v the deal's view (the table's JSON)
   * @param {ViewFrame | null} old
   */
  function followPiles(v, old) {
    for (const seat of [0, 1]) {
      const pile = v.piles[seat];
      const was = old?.view?.piles[seat];
      if (was && was.top && pile.count === was.count + 1 && pile.top !== was.top) {
        under[seat] = { count: pile.count, card: was.top };
      } else if (!(under[seat] && was && pile.count === was.count && pile.top === was.top)) {
        under[seat] = null;
      }
    }
  }

  /**
   * @param {string} kind
   * @param {string} area
   * @param {string} caption
   * @param {string} label
   */
  function slot(kind, area, caption, label) {
    const box = el("figure", `pp-slot pp-${kind}`);
    if (area) box.dataset.area = area;
    box.setAttribute("aria-label", label);
    const place = el("div", "pp-place");
    box.append(place);
    box.append(el("figcaption", "", caption));
    return { box, place };
  }

  /** @param {number} count */
  function depth(count) {
    return count > 18 ? "3" : count > 6 ? "2" : count > 1 ? "1" : "0";
  }

  /**
   * @param {any} v the deal's view (the table's JSON)
   * @param {number} seat
   * @param {Map<string, string>} from
   */
  function stockSlot(v, seat, from) {
    const count = v.stocks[seat];
    const { box, place } = slot("stock", `stock-${seat}`, W.stockCaption(count), W.stockLabel(count));
    box.dataset.depth = depth(count);
    if (count) {
      const back = backElement(W.back);
      back.dataset.card = `back:stock:${seat}`;
      const turnedOver = from.get(back.dataset.card);
      if (turnedOver) back.dataset.from = turnedOver;
      place.append(back);
    } else place.append(el("span", "card empty", ""));
    return box;
  }

  /**
   * @param {any} v the deal's view (the table's JSON)
   * @param {number} seat
   * @param {string | undefined} from where its top card came from, if it is new
   * @param {boolean} target
   */
  function pileSlot(v, seat, from, target) {
    const pile = v.piles[seat];
    const { box, place } = slot("pile", `pile-${seat}`, W.pileCaption(pile.count), W.pileLabel(pile.count));
    box.dataset.depth = depth(pile.count);
    if (under[seat] && pile.count > 1) place.append(still(/** @type {{ card: string }} */ (under[seat]).card));
    if (pile.top) place.append(faceCard(pile.top, from, target ? "target" : ""));
    else place.append(el("span", "card empty", ""));
    markArrivals(`pp-pile-${seat}`, frame.version, box);
    return box;
  }

  /**
   * @param {any} v the deal's view (the table's JSON)
   * @param {number} seat
   * @param {Map<string, string>} from
   */
  function turnedSlot(v, seat, from) {
    const mine = v.turned && v.to_act === seat;
    const { box, place } = slot("turned", `turned-${seat}`, mine ? W.turnedCaption : "", mine ? W.turnedLabel : W.noneTurned);
    if (mine) place.append(faceCard(v.turned, from.get(v.turned)));
    else box.classList.add("pp-idle");
    markArrivals(`pp-turned-${seat}`, frame.version, box);
    return box;
  }

  /** A face-up card that travels (it carries its code), from `from` if it is new to the board.
   * @param {string} code
   * @param {string | undefined} from
   */
  function faceCard(code, from, extraClass = "") {
    const card = cardElement(code, { extraClass, lang: lang() });
    if (from) card.dataset.from = from;
    return card;
  }

  /** A card drawn under another, to be seen only while the one on top travels: no key, no motion.
   * @param {string} code
   */
  function still(code) {
    const card = cardElement(code, { extraClass: "pp-under", lang: lang() });
    delete card.dataset.card;
    card.setAttribute("aria-hidden", "true");
    card.removeAttribute("role");
    return card;
  }

  /**
   * @param {any} v the deal's view (the table's JSON)
   * @param {number} seat
   * @param {Map<string, string>} from
   */
  function seatRow(v, seat, from) {
    const mine = seat === frame.seat;
    const row = el("section", `pp-seat ${mine ? "pp-mine" : "pp-theirs"}`);
    row.setAttribute("aria-label", isYou(seat) ? W.yourRow : W.theirRow(who(seat)));
    if (mine) row.dataset.area = "hand";
    if (v.to_act === seat) row.classList.add("pp-acting");
    const name = el("div", "pp-name");
    name.append(el("strong", "", who(seat)));
    name.append(el("span", "pp-holds", W.holds(v.stocks[seat] + v.piles[seat].count)));
    if (v.to_act === seat) {
      const mark = awayNow(frame, seat, who(seat), lang()) ? W.awayMark : isYou(seat) ? W.yourTurnMark : W.playingMark;
      name.append(el("span", "pp-to-play", mark));
    }
    row.append(name);
    const spread = el("div", "pp-cards");
    spread.dir = "ltr";
    // The card a give would go onto is framed: the top of the other seat's pile.
    const target = !mine && (offered("give") !== undefined);
    spread.append(stockSlot(v, seat, from), turnedSlot(v, seat, from), pileSlot(v, seat, from.get(v.piles[seat].top), target));
    row.append(spread);
    return row;
  }

  /**
   * @param {any} v the deal's view (the table's JSON)
   * @param {Map<string, string>} from
   */
  function suitPiles(v, from) {
    const centre = el("section", "pp-centre");
    centre.dataset.area = "suit-piles";
    centre.setAttribute("aria-label", W.suitPiles);
    centre.dir = "ltr";
    for (const suit of SUITS) {
      const top = v.suit_piles[suit];
      const name = top ? W.suitUpTo(suit, top) : W.suitEmpty(suit);
      const { box, place } = slot("suit", `suit-${suit}`, top ? shortName(top, lang()) : W.suitCaption(suit), name);
      if (top) {
        const rank = RANKS.indexOf(parseCard(top).rank);
        if (rank > 0) place.append(still(`${RANKS[rank - 1]}${parseCard(top).suit}`));
        place.append(faceCard(top, from.get(top)));
      } else {
        const empty = el("span", "card empty pp-suit-mark", SYMBOL[suitLetter(suit)]);
        place.append(empty);
      }
      markArrivals(`pp-suit-${suit}`, frame.version, box);
      centre.append(box);
    }
    return centre;
  }

  const suitLetter = (/** @type {string} */ suit) => /** @type {Record<string, string>} */ ({ spades: "S", hearts: "H", diamonds: "D", clubs: "C" })[suit];

  /** @param {Action | undefined} action */
  function act(action) {
    if (!action || pending) return;
    if (ctx.act(action) === false) return; // table.js says it was not sent; nothing is lost or cleared
    pending = setTimeout(() => (pending = null), 4000);
  }

  /**
   * @param {string} key
   * @param {string} label
   * @param {string} aria
   * @param {Action | undefined} action
   * @param {boolean} primary
   */
  function actionButton(key, label, aria, action, primary) {
    const b = button(label, () => act(action), primary ? "primary" : "");
    b.id = key;
    b.dataset.key = key;
    if (aria) b.setAttribute("aria-label", aria);
    // Never `disabled`: a disabled button drops focus, and "Turn a card" keeps it through the other turn.
    b.setAttribute("aria-disabled", String(!action));
    if (recommended.version === frame.version && recommended.type === key) b.classList.add("recommended");
    return b;
  }

  /** The player's choice to have a card turned for them whenever turning is all they may do. */
  function autoTurnBox() {
    const label = el("label", "pp-auto live-only");
    const box = el("input");
    box.type = "checkbox";
    box.id = "auto-turn";
    box.dataset.key = "auto-turn";
    box.checked = autoTurnOn();
    box.addEventListener("change", () => {
      localStorage.setItem(AUTO_TURN_KEY, box.checked ? "on" : "off");
      turnIfOnlyMove();
    });
    label.append(box, W.autoTurn);
    return label;
  }

  /** With the choice on, turns a card after a short beat when no other move is open. */
  function turnIfOnlyMove() {
    clearTimeout(/** @type {number | undefined} */ (autoTurn));
    const only = frame.status === "playing" && frame.actions.length === 1 && frame.actions[0].type === "turn";
    if (!only || !autoTurnOn()) return;
    const version = frame.version;
    autoTurn = setTimeout(() => {
      if (frame.version === version) act(frame.actions[0]);
    }, AUTO_TURN_MS);
  }

  /** Why the deal was won, and what it scored.
   * @param {{ winner: number, points: number }} result the view's result (the table's JSON)
   */
  function resultWhy({ winner, points }) {
    return W.dealWhy(who(winner), who(1 - winner), points);
  }

  /** Whether this seat has a step to take in this view (its choices: a replay's step has the
   * seat's choices of that moment, with no move open). */
  const choosing = (/** @type {any} */ v) => Boolean(v.choices.turn || v.choices.give || v.choices.keep);

  /** @param {any} v the deal's view (the table's JSON) */
  function statusWords(v) {
    if (v.result) return "";
    if (!choosing(v)) return awayNow(frame, v.to_act, who(v.to_act), lang()) ?? W.playing(who(v.to_act), isYou(v.to_act));
    const give = v.choices.give;
    if (v.choices.keep) return W.giveOrKeep(give);
    if (give) return W.giveOrTurn(give);
    return W.turnOnly;
  }

  /** @param {any} v the deal's view (the table's JSON) */
  function bar(v) {
    const box = el("section", "pp-bar");
    const status = el("p", "status-line live-only", statusWords(v));
    status.id = "status";
    box.append(status);
    const mine = v.piles[frame.seat]?.top;
    const theirs = v.piles[1 - frame.seat]?.top;
    const why = el("p", "why live-only", choosing(v) && v.choices.cannot_give ? W.noGive(cannotGive(v.choices, mine, theirs, lang())) : "");
    why.id = "why";
    if (why.textContent) why.title = why.textContent;
    box.append(why);
    // A watcher sees the play and has no control over it.
    if (!frame.watcher) {
      const row = el("div", "controls pp-actions");
      row.dataset.area = "actions";
      const give = offered("give");
      const gift = v.choices.give;
      // The name says what the button shows, then the card in words.
      const named = gift ? `${W.giveCard(shortName(gift, lang()))} (${cardName(gift, lang())})` : W.give;
      row.append(actionButton("give", gift ? W.giveCard(shortName(gift, lang())) : W.give, named, give, true));
      row.append(actionButton("turn", W.turn, "", offered("turn"), !give || !offered("keep")));
      row.append(actionButton("keep", W.keep, W.keepLabel, offered("keep"), false));
      box.append(row, autoTurnBox());
    }
    const line = moveLine(lastSaid);
    line.title = lastSaid;
    box.append(line);
    return box;
  }

  /** The end of a deal: who won and why, the points, and the way on; `choice` is the next match's
   * level, chosen here beside the button that starts it.
   * @param {any} v the deal's view (the table's JSON)
   * @param {Element | null} choice
   */
  function resultZone(v, choice) {
    const zone = matchResultZone("result pp-result", frame, who, lang());
    const m = frame.match;
    if (v.result && frame.status !== "match-over") zone.append(el("h2", "", W.dealWon(who(v.result.winner))));
    const [a, b] = seatsInOrder();
    const points = W.pointsOf(withinSentence(who(a)), m.totals[a], withinSentence(who(b)), m.totals[b]);
    zone.append(el("p", "result-why", W.points(v.result ? resultWhy(v.result) : "", points)));
    const row = el("div", "controls");
    row.dataset.area = "actions";
    if (frame.watcher) {
      // A watcher deals nothing: the seats do.
    } else if (frame.status === "match-over") {
      if (choice) row.append(choice);
      const b = button(W.rematch, () => ctx.rematch(), "primary");
      b.id = "rematch";
      b.dataset.key = "rematch";
      row.append(markAsked(b, frame));
    } else {
      const b = button(W.nextDeal, () => ctx.nextDeal(), "primary");
      b.id = "next-deal";
      b.dataset.key = "next-deal";
      row.append(markAsked(b, frame));
    }
    zone.append(row);
    const ready = readyLine(frame, who, lang());
    if (ready) zone.append(ready);
    return zone;
  }

  /**
   * @param {Log} log
   * @param {string | null} [turned] the card turned in this turn and waiting to be given or kept
   */
  function logList(log, turned = null) {
    const list = el("ol", "log");
    for (const step of log.steps) {
      // The sentence says "(by rule)" itself; the mark is the item's shape.
      list.append(el("li", step.forced ? "forced" : "", stepSays(step, lang(), who(1 - /** @type {number} */ (log.seat)))));
    }
    if (turned) list.append(el("li", "pp-waits", W.turnedWaits(cardName(turned, lang()))));
    else if (!log.steps.length) list.append(el("li", "pp-none", W.nothingYet));
    return list;
  }

  /** @param {any} v the deal's view (the table's JSON) */
  function turnLog(v) {
    // In a replay the list of moves beside the board tells the turns instead.
    const drawer = el("details", "pp-log live-only");
    drawer.id = "turn-log";
    const wide = window.matchMedia("(min-width: 64rem) and (min-height: 34rem)").matches;
    drawer.open = logOpen ?? wide;
    drawer.addEventListener("toggle", () => (logOpen = drawer.open));
    const summary = el("summary", "", W.turnLog);
    summary.dataset.key = "turn-log";
    drawer.append(summary);
    const body = el("div", "pp-log-body");
    const seatName = (/** @type {Log} */ log) => (log.seat === null ? "" : W.logSeat(who(log.seat)));
    body.append(el("h2", "", W.thisTurn(seatName(v.this_turn))), logList(v.this_turn, v.turned));
    body.append(el("h2", "", W.turnBefore(seatName(v.last_turn))), logList(v.last_turn));
    const rules = el("a", "", W.rules);
    rules.href = W.rulesHref;
    rules.target = "_blank";
    const more = el("p", "pp-rules-link");
    more.append(rules);
    body.append(more);
    drawer.append(body);
    return drawer;
  }

  /**
   * @param {SeatStep[]} steps
   * @param {ViewFrame | null} old
   */
  function draw(steps, old) {
    const v = frame.view;
    root.textContent = "";
    // A Persian board reads right to left; its rows of cards stay left to right.
    root.lang = lang();
    root.dir = lang() === "fa" ? "rtl" : "ltr";
    const m = frame.match;
    const [a, b] = seatsInOrder();
    const totals = W.totalsOf(who(a), m.totals[a], withinSentence(who(b)), m.totals[b]);
    // The match's length in a part of its own, which a narrow phone leaves out (the title keeps it).
    const score = el("p", "score", totals);
    score.append(el("span", "pp-length", ` (${W.length(m.length)})`));
    score.title = W.score(totals, W.length(m.length));
    const board = boardTop(root, frame, score, W);
    if (!board) return;
    board.classList.add("pp");
    board.dataset.version = String(frame.version);
    // A seat whose person has gone is kept for them: away, with for how long, in the top strip.
    for (const seat of [0, 1]) {
      if (isYou(seat)) continue;
      const away = awayLine(frame, seat, who(seat), lang());
      if (away) board.append(away);
    }
    const top = el("div", "pp-top");
    top.append(...board.children);
    board.append(top);
    const from = origins(v, steps, Boolean(old) && /** @type {ViewFrame} */ (old).version < frame.version);
    gone = goneAreas(v, old, steps);
    followPiles(v, old);
    board.append(seatRow(v, 1 - frame.seat, from));
    board.append(suitPiles(v, from));
    board.append(seatRow(v, frame.seat, from));
    if (frame.status === "deal-over" || frame.status === "match-over") board.append(resultZone(v, top.querySelector("#rematch-level")));
    else board.append(bar(v));
    board.append(turnLog(v));
    root.append(board);
    signalTurn(frame.actions.length > 0, W.yourTurn);
  }

  /** What to say about the steps since the frame before: every sentence to screen readers, the
   * newest on the move line.
   * @param {any} v the deal's view (the table's JSON)
   * @param {SeatStep[]} steps
   * @param {boolean} fresh
   */
  function say(v, steps, fresh) {
    let said = steps.map(({ seat, step }) => W.said(who(seat), stepSays(step, lang(), who(1 - seat))));
    if (!fresh) {
      const log = v.this_turn.steps.length ? v.this_turn : v.last_turn;
      const last = log.steps[log.steps.length - 1];
      said = last ? [W.said(who(log.seat), stepSays(last, lang(), who(1 - /** @type {number} */ (log.seat))))] : [];
    }
    if (!said.length) {
      // A moment with nothing yet to tell (a deal just dealt, a replay's first step) clears the line.
      if (!fresh) lastSaid = "";
      return;
    }
    lastSaid = said[said.length - 1];
    announce(said.join(" "));
  }

  return {
    render(next) {
      const old = frame;
      frame = next;
      W = wordsIn(lang());
      if (pending) clearTimeout(pending);
      pending = null;
      const v = frame.view;
      // What changed since the frame drawn before: nothing on a redraw, and a new deal starts afresh.
      const fresh = Boolean(v && old?.view && frame.version > old.version && !(old.view.result && !v.result));
      const steps = fresh ? newSteps(v, old) : [];
      if (v && (!old?.view || fresh || old.version !== frame.version)) say(v, steps, fresh);
      if (fresh && !old.view.result && v.result && !frame.watcher) play(v.result.winner === frame.seat ? "won" : "lost");
      draw(steps, old?.view && old.version <= frame.version && !(old.view.result && !v?.result) ? old : null);
      turnIfOnlyMove();
    },
    goneTo(key) {
      return gone.get(key) ?? null;
    },
    /** The coach recommends `action`: its button is marked until the next view.
     * @param {Action} action */
    hint(action) {
      if (!frame) return;
      recommended = { version: frame.version, type: action.type };
      root.querySelector(`[data-area=actions] #${CSS.escape(action.type)}`)?.classList.add("recommended");
    },
    error(errorFrame) {
      if (pending) clearTimeout(pending);
      pending = null;
      showBanner(/** @type {string} */ (errorSentence(errorFrame, lang())), true);
      setTimeout(() => showBanner(""), 4000);
    },
  };
}
