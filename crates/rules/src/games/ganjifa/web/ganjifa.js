// The Ganjifa board: three seats round a felt, the trick in the middle, your hand and the action bar
// at the bottom, on one screen. Every move is one of the frame's `actions`; the ladder's reasons come
// from the view's `lead_hints` and open on demand, as does the suit tracker. Every card carries a
// stable `data-card` so that table.js can make it travel (see motion.js): a card played from a hand
// slides into the trick, a card no one saw before slides in from its seat, and a won trick flies to
// its winner's pile.

import { gcardElement, gbackElement, parseGCard, GSUITS, SUIT_ORDER } from "./gcards.js";
import { announce, signalTurn, showBanner, el, button, markArrivals, moveLine, withinSentence } from "./ui.js";
import { boardTop, readyLine, markAsked } from "./share.js";
import { seatName } from "./social.js";
import { awayLine, awayNow } from "./away.js";
import { play } from "./sound.js";
import { wordsIn, errorSentence, signed } from "./ganjifa-words.js";
import { ladderBody, trackerBody, hiddenStack, leadDots, openRow, resultZone, totalsWords, explained, Drawers } from "./ganjifa-panels.js";
import { guideStep } from "./ganjifa-guide.js";
export { hooks } from "./ganjifa-hooks.js";
export { guideStep, guideLeave } from "./ganjifa-guide.js";
export { coachWords, moveWords } from "./ganjifa-words.js";

/** The languages this board is written in (the table page offers the switch). */
export const LANGUAGES = ["en", "fa"];

/** @typedef {import("./socket.js").Action} Action */
/** @typedef {import("./socket.js").ViewFrame} ViewFrame */

/**
 * What the board may do: the table's context (board.js), or the staged deal's, which plays no move,
 * asks for no deal and heads the board with its own line.
 * @typedef {{ act: (action: Action) => boolean | void, lang: () => string, nextDeal?: () => boolean, rematch?: () => boolean, guided?: () => boolean, heading?: string }} GanjifaContext
 */

const cardsOf = (/** @type {Action} */ a) => /** @type {string[]} */ ((a.cards ? a.cards : a.card ? [a.card] : []));
const sameSet = (/** @type {string[]} */ a, /** @type {string[]} */ b) => a.length === b.length && a.every((c) => b.includes(c));
const actionKey = (/** @type {Action} */ a) => `act:${a.type}:${a.suit || ""}:${cardsOf(a).join(".")}`;

/**
 * @param {HTMLElement} root
 * @param {GanjifaContext} ctx
 * @returns {import("./board.js").Board}
 */
export function createBoard(root, ctx) {
  // Read only once the first frame is drawn.
  /** @type {ViewFrame} */
  let frame = /** @type {ViewFrame} */ (/** @type {unknown} */ (null));
  /** @type {string[]} */
  let chosen = [];
  // The coach's hint for one view: the hand cards it plays, the control that makes it.
  /** @type {{ version: number, cards: string[], key: string }} */
  let recommended = { version: -1, cards: [], key: "" };
  const isRecommended = (/** @type {string} */ key, /** @type {string[]} */ cards = []) =>
    recommended.version === frame.version && (recommended.key === key || cards.some((c) => recommended.cards.includes(c)));
  let lastSaid = "";
  // The drawers the player left open, kept across redraws.
  const drawers = new Drawers(root, { redraw: () => redraw(), draw: () => draw() });
  // Where the cards of the trick shown before this frame went: the winner's pile.
  /** @type {{ cards: Set<string>, to: string | null }} */
  let goneTrick = { cards: new Set(), to: null };
  // The board being drawn.
  /** @type {HTMLElement | null} */
  let shownBoard = null;
  // The board's words, in the language it is drawn in (each drawing takes the table's).
  let W = wordsIn(ctx.lang());
  const lang = () => W.lang;

  const me = () => frame.seat ?? 0;
  const who = (/** @type {number} */ seat) => {
    // A watcher (see table.js) is shown the table from seat 0's side, but no seat is "you" to it.
    if (seat === frame.seat && !frame.watcher) return W.you;
    if (frame.kind === "computer" && seat !== 0) return W.computer(seat);
    return seatName(frame, seat, lang());
  };
  // The same, in the middle of a sentence ("led by you").
  const whoWithin = (/** @type {number} */ seat) => withinSentence(who(seat));
  const offered = (/** @type {string} */ type) => frame.actions.filter((a) => a.type === type);
  const mine = () => frame.actions.length > 0;

  /** @param {Action} a */
  function actionLabel(a) {
    switch (a.type) {
      case "run":
        return W.action.run(a.suit);
      case "deni":
        return W.action.deni(a.card);
      case "burn":
        return W.action.burn(a.suit);
      case "talafa": {
        const own = parseGCard(a.card).suit === a.suit;
        return own ? W.action.talafaOwn(a.suit, a.card) : W.action.talafaDown(a.suit, a.card);
      }
      case "utari":
        return W.action.utari(a.cards.length);
      case "give-up-lead":
        return W.action.giveUp;
      default:
        return a.type;
    }
  }

  /** Sends an offered action; when it could not be sent (offline) everything stays as it was.
   * @param {Action} a
   */
  function act(a) {
    return ctx.act(a) !== false;
  }

  /** Draws again for a change on this page alone (a card chosen, a drawer opened), keeping focus
   * on the same card or control (table.js does the same around the frames it is sent). */
  function redraw() {
    const at = /** @type {HTMLElement | null} */ (document.activeElement);
    const key = at && root.contains(at) ? (at.dataset.card ? `[data-card="${CSS.escape(at.dataset.card)}"]` : at.dataset.key ? `[data-key="${CSS.escape(at.dataset.key)}"]` : null) : null;
    draw();
    if (key) /** @type {HTMLElement | null} */ (root.querySelector(key))?.focus({ preventScroll: true });
  }

  /** @param {string} code */
  function pickHand(code) {
    const put = offered("put-down").find((a) => a.card === code);
    if (put) {
      act(put);
      return;
    }
    chosen = chosen.includes(code) ? chosen.filter((c) => c !== code) : [...chosen, code];
    redraw();
    /** @type {HTMLElement | null} */ (root.querySelector(`.ghand [data-card="${CSS.escape(code)}"]`))?.focus({ preventScroll: true });
  }

  /** Whether this seat picks a card of a blind lead now: the view says how many it picks from. */
  const picking = (/** @type {any} */ v) => v.stage === "blind-pick" && v.backs > 0;

  // ---- Your hand: suit by suit, the cards a little over each other. ----
  /** @param {any} v the deal's view (the table's JSON) */
  function handZone(v) {
    if (frame.watcher) return watchedZone(v);
    const zone = el("section", "ghand");
    zone.dataset.area = "hand";
    zone.setAttribute("aria-label", W.yourCards(v.hand.length));
    zone.dir = "ltr";
    if (picking(v)) zone.append(pickRow(v));
    const playable = new Set(frame.actions.flatMap(cardsOf));
    const shown = new Set(v.face_up[me()] || []);
    for (const suit of SUIT_ORDER) {
      const cards = v.hand.filter((/** @type {string} */ c) => parseGCard(c).suit === suit);
      if (!cards.length) continue;
      const s = GSUITS[suit];
      const group = el("div", "g-suit");
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", W.suitGroup(s));
      group.style.setProperty("--suit", s.colour);
      for (const code of cards) {
        const can = playable.has(code);
        const classes = [can ? "playable" : "", chosen.includes(code) ? "chosen" : "", shown.has(code) ? "face-up" : "", isRecommended("", [code]) ? "recommended" : ""];
        const card = gcardElement(code, {
          onPick: can ? () => pickHand(code) : undefined,
          extraClass: classes.join(" "),
          from: "trick",
          lang: lang(),
        });
        if (shown.has(code)) card.title = W.faceUp(code);
        if (can && v.stage === "lead") card.setAttribute("aria-pressed", String(chosen.includes(code)));
        group.append(card);
      }
      zone.append(group);
    }
    // At the deal's end the result says it all; the hand's place goes to the felt.
    const over = frame.status === "deal-over" || frame.status === "match-over";
    if (!v.hand.length && !frame.watcher && !over) zone.append(el("p", "g-empty", W.handEmpty));
    return zone;
  }

  // ---- To a watcher, the first seat's place shows what anyone at the table sees of it: its face-up
  // cards and a stack of its hidden ones, as another seat's zone does. ----
  /** @param {any} v the deal's view (the table's JSON) */
  function watchedZone(v) {
    const zone = el("section", "ghand g-watched");
    zone.setAttribute("aria-label", W.seatHolds(who(me()), v.counts[me()]));
    zone.dir = "ltr";
    const stack = hiddenStack(v, me(), W);
    if (stack) zone.append(stack);
    zone.append(openRow(v, me(), lang()));
    return zone;
  }

  // ---- A blind pick: the leader's cards face down, in a row of their own above your hand: the
  // hand's place is the one always in sight and in reach (the felt can be a thin strip on a phone),
  // and your own cards stay in view while you pick. ----
  /** @param {any} v the deal's view (the table's JSON) */
  function pickRow(v) {
    const row = el("div", "backs g-backs");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", W.pickCards(v.backs));
    // The view says how many cards this seat picks from; the moves offered make them clickable (a
    // replay's step offers none, and draws them as play did).
    for (let back = 0; back < v.backs; back++) {
      const a = offered("pick").find((pick) => pick.back === back);
      const b = gbackElement(W.pickCard(back + 1), a ? () => act(a) : undefined, { key: `pick:${back}`, from: "trick" });
      b.dataset.key = `pick:${back}`;
      if (a && isRecommended(actionKey(a))) b.classList.add("recommended");
      row.append(b);
    }
    return row;
  }

  // ---- Another seat: name, counts, dots, its face-up cards and a stack of its hidden ones. ----
  /**
   * @param {any} v the deal's view (the table's JSON)
   * @param {number} seat
   * @param {string} side
   */
  function seatZone(v, seat, side) {
    const zone = el("section", `g-seat ${side}`);
    zone.dataset.area = `hand-${seat}`;
    zone.dataset.seat = String(seat);
    if (v.to_act === seat) zone.classList.add("acting");
    const head = el("h2", "g-name", who(seat));
    const mark = awayNow(frame, seat, who(seat), lang()) ? W.awayMark : v.stage === "lead" ? W.leading : W.toPlay;
    if (v.to_act === seat) head.append(el("span", "g-acting", mark));
    zone.append(head);
    // A seat whose person has gone is kept for them: away, with for how long (away.js).
    const away = awayLine(frame, seat, who(seat), lang());
    if (away) zone.append(away);
    const facts = el("p", "g-facts");
    facts.append(el("span", "g-holds", W.holds(v.counts[seat])));
    facts.append(wonChip(v, seat), totalChip(seat));
    facts.append(leadDots(v.marks[seat], v.marks[seat] ? W.lostLead(v.marks[seat]) : W.keptLead, W));
    const stack = hiddenStack(v, seat, W);
    if (stack) facts.append(stack);
    zone.append(facts, openRow(v, seat, lang()));
    return zone;
  }

  /** A seat's pile of won cards: where a trick it wins flies.
   * @param {any} v the deal's view (the table's JSON)
   * @param {number} seat
   */
  function wonChip(v, seat) {
    const chip = el("span", "g-won", W.won(v.won[seat]));
    chip.dataset.area = `won-${seat}`;
    return chip;
  }

  /** A seat's total in the match so far, beside its won cards: shown where the top line has no
   * room for the totals (a phone held upright).
   * @param {number} seat */
  function totalChip(seat) {
    return el("span", "g-total", W.matchTotal(signed(frame.match.totals[seat], lang())));
  }

  // ---- The middle: the trick on the felt, each seat's cards on its side. ----
  /** @param {any} v the deal's view (the table's JSON) */
  function trickZone(v) {
    const zone = el("section", "g-centre trick");
    zone.dataset.area = "trick";
    // On a phone the felt may scroll: a keyboard reaches it to scroll it too.
    zone.tabIndex = 0;
    zone.setAttribute("aria-label", W.trick);
    const t = v.trick || v.last_trick;
    if (t) {
      const title = W.trickTitle(Boolean(v.trick), W.kinds[/** @type {keyof typeof W.kinds} */ (t.kind.kind)] || t.kind.kind, whoWithin(t.leader));
      zone.append(el("h2", "", v.trick ? title : W.trickWon(title, whoWithin(t.winner))));
      const piles = el("div", "g-piles");
      const order = [(me() + 1) % 3, (me() + 2) % 3, me()];
      const places = ["left", "right", "mine"];
      order.forEach((s, i) => {
        const pile = el("div", `g-pile ${places[i]}`);
        if (s === t.leader) pile.classList.add("leader");
        const label = el("p", "g-pile-name", who(s));
        if (s === t.leader) label.append(el("span", "g-tag", W.ledTag));
        if (!v.trick && s === t.winner) label.append(el("span", "g-tag won", W.wonTag));
        pile.append(label);
        const cards = el("div", "g-pile-cards");
        cards.dir = "ltr";
        // The leader's cards in a call are the ones being answered: a dashed frame.
        const answered = v.trick && s === t.leader && t.kind.kind !== "opening";
        for (const c of t.cards[s]) {
          cards.append(gcardElement(c, { extraClass: `trick-card${answered ? " target" : ""}`, from: `hand-${s}`, lang: lang() }));
        }
        if (t.face_down_by === s && s !== frame.seat) {
          cards.append(gbackElement(W.playedFaceDown, undefined, { key: `down:${s}:${t.kind.suit || ""}`, from: `hand-${s}`, extraClass: "trick-card" }));
        }
        const owed = t.need[s];
        if (v.trick && owed > 0) {
          const slot = el("span", "g-owed", W.owes(owed));
          cards.append(slot);
        }
        pile.append(cards);
        piles.append(pile);
      });
      zone.append(piles);
      markArrivals("trick", frame.version, zone);
    } else if (v.stage !== "blind-pick") {
      zone.append(el("h2", "", W.feltEmpty));
    }
    if (picking(v)) {
      zone.append(el("h2", "", W.gaveUp(who(v.to_act === me() ? (me() + 2) % 3 : v.to_act))));
    }
    // The result first, over the last trick: on a phone the felt is small and it is what matters now.
    if (frame.status === "deal-over" || frame.status === "match-over") zone.prepend(resultZone(frame, v, who, W));
    zone.append(moveLine(lastSaid));
    return zone;
  }

  // ---- The action bar: the one line that says what to do now, and the buttons. ----
  function leadStatus() {
    if (offered("run").length) return W.leadRun;
    if (offered("burn").length) return W.leadBurn;
    if (offered("deni").length) return W.leadDeni;
    const can = [];
    if (offered("talafa").length) can.push(W.aTalafa);
    if (offered("utari").length) can.push(W.anUtari);
    if (!can.length) return W.leadGiveUp;
    const blind = offered("give-up-lead").length ? W.orGiveUp : "";
    return W.leadMake(can, blind);
  }

  /** @param {any} v the deal's view (the table's JSON) */
  function statusText(v) {
    // The end of the deal is told by the result panel alone.
    if (frame.status === "deal-over" || frame.status === "match-over") return "";
    if (!mine()) {
      if (v.to_act === null || v.to_act === undefined) return "";
      return awayNow(frame, v.to_act, who(v.to_act), lang()) ?? (v.stage === "lead" ? W.isLeading : W.isToPlay)(who(v.to_act));
    }
    if (v.stage === "blind-pick") return W.pickStatus;
    if (v.stage === "lead") return leadStatus();
    if (v.to_put_down) return v.to_put_down === 1 ? W.putDownOne : W.putDown(v.to_put_down);
    return W.yourMove;
  }

  /** What may be chosen in the hand for a lead, in words, from the actions offered alone. */
  function choiceWords() {
    const parts = [];
    const denis = offered("deni").length;
    const talafas = offered("talafa").length;
    const utaris = offered("utari");
    if (denis > 1) parts.push(W.chooseDeni);
    if (talafas > 1 || (talafas === 1 && denis + utaris.length > 0)) parts.push(W.chooseTalafa);
    if (utaris.length > 1) parts.push(W.chooseUtari);
    return parts;
  }

  /** @param {any} v the deal's view (the table's JSON) */
  function actionBar(v) {
    const bar = el("section", "g-bar");
    bar.dataset.area = "actions";
    bar.setAttribute("aria-label", W.whatNow);
    const line = el("div", "g-line");
    const status = el("p", "status-line", statusText(v));
    status.id = "status";
    line.append(status);
    // What this moment asks and what its words (hukm, deni, talafa…) mean, on a tap: the guided
    // deal's words for it, when the guide is not already saying them.
    const about = mine() && !ctx.guided?.() ? guideStep(frame, lang()) : null;
    if (about) {
      const mark = explained("g-about", about.title, about.text);
      mark.prepend("?");
      line.append(mark);
    }
    if (v.lead_hints && mine()) line.append(drawers.toggle("ladder", W.why));
    bar.append(line);
    const row = el("div", "controls");
    const why = el("p", "why", "");
    why.id = "why";
    if (v.stage === "lead" && mine()) {
      const direct = frame.actions.filter((a) => ["run", "burn", "give-up-lead"].includes(a.type));
      const utaris = offered("utari");
      if (utaris.length) direct.push(utaris.reduce((a, b) => (b.cards.length > a.cards.length ? b : a)));
      const calls = [...offered("deni"), ...offered("talafa")];
      // A single call needs no choosing: its button is there at once.
      if (calls.length === 1 && utaris.length <= 1) direct.push(calls[0]);
      const picked = frame.actions.filter((a) => chosen.length && cardsOf(a).length && sameSet(cardsOf(a), chosen) && !direct.includes(a));
      for (const a of [...picked, ...direct]) row.append(actionButton(a));
      const parts = choiceWords();
      if (parts.length) {
        // Cards chosen on the way to a lead (the first hukms of an utari) are not a mistake.
        const onTheWay = frame.actions.some((a) => cardsOf(a).length > chosen.length && chosen.every((c) => cardsOf(a).includes(c)));
        why.textContent = !chosen.length || picked.length ? W.chooseInHand(parts) : onTheWay ? W.chooseMore(parts) : W.notALead(parts);
      }
    }
    if ((frame.status === "deal-over" || frame.status === "match-over") && ctx.nextDeal && !frame.watcher) {
      const over = frame.status === "match-over";
      // The next match's level is chosen beside the button that starts it.
      const choice = over ? shownBoard?.querySelector("#rematch-level") : null;
      if (choice) row.append(choice);
      const b = button(over ? W.rematch : W.nextDeal, () => (over ? /** @type {() => boolean} */ (ctx.rematch)() : /** @type {() => boolean} */ (ctx.nextDeal)()), "primary");
      b.id = over ? "rematch" : "next-deal";
      row.append(markAsked(b, frame));
    }
    bar.append(row);
    bar.append(why);
    const ready = readyLine(frame, who, lang());
    if (ready) bar.append(ready);
    const you = el("p", "g-you");
    const marks = v.marks[me()];
    const cards = frame.watcher ? v.counts?.[me()] ?? v.hand.length : v.hand.length;
    you.append(el("span", "g-holds", W.seatHolds(who(me()), cards)), wonChip(v, me()), totalChip(me()));
    you.append(leadDots(marks, marks ? W.seatLostLead(who(me()), marks) : frame.watcher ? W.seatKeptLead(who(me())) : W.youKeptLead, W));
    bar.append(you);
    return bar;
  }

  /** @param {Action} a */
  function actionButton(a) {
    const b = button(actionLabel(a), () => act(a), "primary");
    b.dataset.action = a.type;
    b.dataset.key = actionKey(a);
    if (isRecommended(b.dataset.key)) b.classList.add("recommended");
    return b;
  }

  /**
   * @param {HTMLElement} board
   * @param {any} v the deal's view (the table's JSON)
   */
  function topBar(board, v) {
    const head = /** @type {HTMLElement} */ (board.firstElementChild);
    head.classList.add("g-top");
    const level = board.querySelector(".level-line");
    if (level) head.append(level);
    const tools = el("div", "g-tools");
    tools.append(drawers.toggle("tracker", W.tracker));
    const rules = el("a", "button g-toggle", W.rules);
    rules.href = W.rulesHref;
    rules.target = "_blank";
    rules.rel = "noopener";
    rules.dataset.key = "rules";
    tools.append(rules);
    head.append(tools);
    const phase = W.phase(v.time === "day", v.opening_mir, v.second_phase);
    // Day or night, and the second phase, say what they mean on a tap.
    const said = explained("g-phase", phase, W.phaseWhy(v.second_phase), true);
    head.querySelector(".score")?.append(said);
  }

  function draw() {
    const v = frame.view;
    W = wordsIn(ctx.lang());
    root.textContent = "";
    root.lang = lang();
    root.dir = lang() === "fa" ? "rtl" : "ltr";
    const m = frame.match;
    const deal = Math.min(m.deals_dealt + (frame.status === "playing" ? 1 : 0), m.length.target);
    const score = el("p", "score", ctx.heading || W.deal(Math.max(deal, 1), m.length.target));
    if (!ctx.heading) score.append(el("span", "g-totals", W.totalsLine(totalsWords(m.totals, who, W))));
    const board = boardTop(root, frame, score, W);
    if (!board) return;
    board.classList.add("gtable");
    shownBoard = board;
    topBar(board, v);
    const felt = el("div", "g-felt");
    felt.append(seatZone(v, (me() + 1) % 3, "left"));
    felt.append(trickZone(v));
    felt.append(seatZone(v, (me() + 2) % 3, "right"));
    board.append(felt);
    // A watcher sees the table from the first seat's side, which has no seat zone: if away, it is said here.
    const awayHere = frame.watcher ? awayLine(frame, me(), who(me()), lang()) : null;
    if (awayHere) board.append(awayHere);
    board.append(actionBar(v));
    board.append(handZone(v));
    // Drawers lie over the felt only: the action bar and the hand stay in sight and in reach.
    if (drawers.open("ladder") && v.lead_hints && mine()) felt.append(drawers.panel("ladder", W.ladder, ladderBody(v, W), W.close));
    if (drawers.open("tracker")) felt.append(drawers.panel("tracker", W.trackerTitle, trackerBody(v, W), W.close));
    root.append(board);
    signalTurn(mine(), W.yourTurn);
  }

  /** The cards of the trick shown now, and the pile they go to once it is cleared away.
   * @param {ViewFrame | null} f
   */
  function shownTrick(f) {
    const v = f?.view;
    const t = v && (v.trick || v.last_trick);
    if (!t) return { cards: new Set(), to: null };
    const cards = new Set(t.cards.flat());
    if (t.face_down_by !== null && t.face_down_by !== undefined) cards.add(`down:${t.face_down_by}:${t.kind.suit || ""}`);
    return { cards, to: `won-${t.winner}` };
  }

  return {
    render(next) {
      const before = frame;
      if (!frame || next.version !== frame.version) chosen = [];
      goneTrick = shownTrick(before);
      frame = next;
      W = wordsIn(ctx.lang());
      const v = frame.view;
      const t = v && (v.trick || v.last_trick);
      if (t) {
        const said = v.trick ? W.led(who(t.leader), W.kinds[/** @type {keyof typeof W.kinds} */ (t.kind.kind)] || t.kind.kind) : W.wonTrick(who(t.winner));
        if (said !== lastSaid) {
          lastSaid = said;
          announce(said);
        }
      }
      draw();
      // The deal's end sounds once, on the frame where it ended.
      const ended = v?.stage === "over" && before?.view && before.view.stage !== "over" && next.version > before.version;
      if (ended && v.scores) play(v.scores[me()] >= Math.max(...v.scores) ? "won" : "lost");
    },
    goneTo(key) {
      return goneTrick.cards.has(key) ? goneTrick.to : null;
    },
    /** The coach recommends `action`: its cards in the hand, or the button or face-down card that
     * makes it, are marked until the next view, so the board shows what the hint says.
     * @param {Action} action */
    hint(action) {
      if (!frame) return;
      recommended = { version: frame.version, cards: cardsOf(action), key: actionKey(action) };
      redraw();
    },
    error(errorFrame) {
      showBanner(errorSentence(errorFrame, lang()), true);
      setTimeout(() => showBanner(""), 4000);
    },
  };
}
