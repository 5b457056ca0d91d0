// The Panjpar board. It draws only what the view says: the legal moves are the frame's `actions`,
// the sentences come from the view's `hints`.
//
// One screen, laid out as a card table (panjpar.css): the other seat's hand along the top, the battle
// and the pile in the middle, the line that says what to do now, your hand and the action bar at the
// bottom. Every card carries a `data-card` key so that table.js can make it travel (motion.js): a card
// new to the board comes from the pile (`data-from="stock"`) or from the other hand, one that leaves
// goes to the other hand or out of play (`goneTo`). The log of the deal's moves opens on demand.

import { cardElement, backElement, cardLabel } from "./cards.js";
import { announce, speak, signalTurn, showBanner, el, button, markArrivals, moveLine } from "./ui.js";
import { draggable } from "./drag.js";
import { play } from "./sound.js";
import { WORDS, whyNot, notAnAttack, errorSentence, cardName } from "./panjpar-words.js";
import { MoveLog, pileZone, movesDrawer, handRows, scoreLine, resultWords, resultZone, latestMove } from "./panjpar-zones.js";
import { boardTop, readyLine, markAsked } from "./share.js";
import { seatName } from "./social.js";
import { awayLine, awayNow } from "./away.js";
export { hooks } from "./panjpar-hooks.js";
export { guideStep, guideLeave } from "./panjpar-guide.js";
export { coachWords, moveWords } from "./panjpar-words.js";

/** @typedef {import("./socket.js").ViewFrame} ViewFrame */
/** @typedef {import("./socket.js").Action} Action */

/**
 * What the view's hints say of an attack card (the table's JSON): the hand's cards that beat it, and
 * for each reason why not (a code) the cards that cannot.
 * @typedef {{ attack: string, beaten_by: string[], not: Record<string, string[]> }} DefendHint
 */

const sameSet = (/** @type {string[]} */ a, /** @type {string[]} */ b) => a.length === b.length && a.every((c) => b.includes(c));
const ended = (/** @type {ViewFrame | null} */ f) => f && f.view && f.view.phase.name === "over";

/** The languages this board is written in (the table page offers the switch). */
export const LANGUAGES = ["en", "fa"];

/**
 * @param {HTMLElement} root
 * @param {import("./board.js").BoardContext} ctx
 * @returns {import("./board.js").Board}
 */
export function createBoard(root, ctx) {
  // Read only once the first frame is drawn.
  /** @type {ViewFrame} */
  let frame = /** @type {ViewFrame} */ (/** @type {unknown} */ (null));
  /** @type {string[]} */
  let chosen = []; // the attack cards chosen so far
  /** @type {string | null} */
  let target = null; // the attack card being beaten
  /** @type {{ version: number, cards: string[], button: string | null }} */
  let recommended = { version: -1, cards: [], button: null }; // the coach's hint's cards or button, for one view
  let why = ""; // the line above the buttons
  let lastSaid = "";
  let saidTheEnd = false; // whether the end of the deal on the board has been told
  // This deal's moves, said once each, kept through a reload.
  const log = new MoveLog(location.pathname);
  let logRead = false;
  let restoring = false; // the first view after a reload: its moves are in the kept log already
  let logOpen = false;
  /** @type {string | null} */
  let formerTrump = null; // the trump card the previous frame showed under the pile

  const words = () => WORDS[/** @type {keyof typeof WORDS} */ (ctx.lang())];
  const lang = () => ctx.lang();
  const other = () => 1 - frame.seat;
  const theirArea = () => `hand-${other()}`;
  const who = (/** @type {number} */ seat) => {
    const w = words();
    // A watcher (see table.js) is shown the table from seat 0's side, but no seat is "you" to it.
    if (seat === frame.seat && !frame.watcher) return w.you;
    if (frame.kind === "computer" && seat !== 0) return w.computer;
    return seatName(frame, seat, lang());
  };
  const offered = (/** @type {string} */ type) => frame.actions.filter((a) => a.type === type);
  const name = (/** @type {string} */ code) => cardName(code, lang());

  /** Sends a move. While the connection is down it is refused (table.js says so): the choice stays.
   * @param {Action} action
   */
  function act(action) {
    if (ctx.act(action) === false) {
      why = words().notSent;
      refresh();
      return false;
    }
    chosen = [];
    why = "";
    return true;
  }

  /** @param {string} code */
  function pickHandCard(code) {
    const v = frame.view;
    if (!frame.actions.length) {
      // Not this seat's turn: the card stays, and the line says whose turn it is.
      why = statusLine(v);
      refresh();
      return;
    }
    if (offered("attack").length) {
      chosen = chosen.includes(code) ? chosen.filter((c) => c !== code) : [...chosen, code];
      const fits = offered("attack").some((a) => sameSet(a.cards, chosen));
      why = fits ? words().validAttack(chosen.length) : notAnAttack(v.hints.attack, chosen.length, v.counts[other()], lang());
      refresh();
      return;
    }
    defendWith(code);
  }

  // Beats the target with this card if the rules allow it; otherwise says why not.
  /** @param {string} code */
  function defendWith(code) {
    const beat = offered("beat").find((a) => a.attack === target && a.with === code);
    if (beat) {
      act(beat);
      return;
    }
    const hint = (frame.view.hints.defend || []).find((/** @type {DefendHint} */ h) => h.attack === target);
    const reason = hint && Object.keys(hint.not).find((c) => hint.not[c].includes(code));
    why = reason ? words().notBeater(name(code), whyNot(reason, /** @type {string} */ (target), lang())) : "";
    refresh();
  }

  // While a card is dragged over an attack card, the hand shows what can beat that one.
  /** @param {string | null | undefined} attack */
  function dimFor(attack) {
    const hint = (frame.view.hints.defend || []).find((/** @type {DefendHint} */ h) => h.attack === attack);
    for (const c of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".hand [data-card]"))) {
      c.setAttribute("aria-disabled", String(Boolean(hint) && !hint.beaten_by.includes(/** @type {string} */ (c.dataset.card))));
    }
  }

  /** @param {string} code */
  function pickAttackCard(code) {
    target = code;
    why = "";
    refresh();
  }

  /** Brings the marks, the lines and the Attack button up to date without redrawing the cards, so
   * that a chosen card lifts smoothly and focus stays where it is. */
  function refresh() {
    if (!frame || !frame.view) return;
    const v = frame.view;
    const attacking = offered("attack").length > 0;
    const defending = offered("beat").length > 0 || offered("pick-up").length > 0;
    const hint = (v.hints.defend || []).find((/** @type {DefendHint} */ h) => h.attack === target);
    for (const card of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".hand [data-card]"))) {
      const code = /** @type {string} */ (card.dataset.card);
      card.classList.toggle("chosen", chosen.includes(code));
      if (attacking) card.setAttribute("aria-pressed", String(chosen.includes(code)));
      if (defending) {
        if (hint && !hint.beaten_by.includes(code)) card.setAttribute("aria-disabled", "true");
        else card.removeAttribute("aria-disabled");
      }
    }
    for (const card of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".battle [data-open]"))) {
      const on = card.dataset.card === target;
      card.classList.toggle("target", on);
      card.setAttribute("aria-pressed", String(on));
    }
    const line = root.querySelector("#why");
    if (line) line.textContent = why;
    const status = root.querySelector("#status");
    if (status) status.textContent = statusLine(v);
    markRecommended();
    const attack = /** @type {HTMLButtonElement | null} */ (root.querySelector("#attack"));
    if (attack) attack.disabled = !offered("attack").some((a) => sameSet(a.cards, chosen));
  }

  /** The other seat's hand: face down while the deal is on, face up once it has ended.
   * @param {any} v the deal's view (the table's JSON)
   */
  function theirZone(v) {
    return closedHand(v, other(), "zone opponent", theirArea(), "small");
  }

  /** A hand this page does not hold, seen from outside (its name, its count, its backs, and its
   * faces once the deal has ended) in the area `area`: the other seat's, and for a watcher the
   * first seat's, which lies where a player's own hand would.
   * @param {any} v the deal's view (the table's JSON)
   * @param {number} seat
   * @param {string} className
   * @param {string} area
   * @param {string} size
   */
  function closedHand(v, seat, className, area, size) {
    const w = words();
    const zone = el("section", className);
    zone.dataset.area = area;
    zone.append(el("h2", "", w.theirHand(who(seat), v.counts[seat])));
    const row = el("div", "cards fan");
    row.dir = "ltr";
    const shown = v.hands_shown ? v.hands_shown[seat] : null;
    if (shown) {
      for (const c of shown) row.append(cardElement(c, { lang: lang(), extraClass: size, from: area }));
    } else {
      for (let i = 0; i < v.counts[seat]; i += 1) {
        row.append(backElement(w.back, size, { key: `back:${seat}:${i}`, from: "stock" }));
      }
    }
    row.style.setProperty("--n", String(Math.max(1, row.children.length)));
    zone.append(row);
    // A seat whose person has gone is kept for them: away, with for how long (away.js).
    const away = awayLine(frame, seat, who(seat), lang(), "why");
    if (away) zone.append(away);
    return zone;
  }

  /** @param {any} v the deal's view (the table's JSON) */
  function battleZone(v) {
    const w = words();
    const battle = v.battle || v.last_battle;
    const zone = el("section", "zone battle");
    zone.dataset.area = "battle";
    if (!battle) {
      zone.append(el("h2", "", w.noBattle));
      const empty = el("div", "cards");
      empty.dir = "ltr";
      zone.append(empty);
      return zone;
    }
    zone.classList.toggle("finished", !v.battle);
    zone.append(el("h2", "", v.battle ? w.battle(who(battle.attacker)) : w.lastBattle(who(battle.attacker))));
    const row = el("div", "cards");
    row.dir = "ltr";
    /** @type {Map<string, string>} */
    const covers = new Map(battle.covers.map((/** @type {[string, string]} */ [a, b]) => [a, b]));
    const defending = v.battle && offered("beat").length > 0;
    for (const code of battle.attack) {
      const pair = el("div", "pair");
      const open = !covers.has(code);
      const taken = battle.picked_up.includes(code);
      const pick = defending && open ? () => pickAttackCard(code) : undefined;
      const card = cardElement(code, {
        onPick: pick,
        lang: lang(),
        // A card picked up lies in a hand now; here it is only remembered, faintly.
        key: taken ? `taken:${code}` : code,
        extraClass: `${target === code && pick ? "target" : ""} ${taken ? "taken" : ""}`.trim(),
        from: theirArea(),
      });
      if (taken) card.setAttribute("aria-label", `${cardLabel(code, lang())}, ${w.taken}`);
      if (pick) {
        card.setAttribute("aria-pressed", String(target === code));
        card.dataset.open = "true";
      }
      pair.append(card);
      if (!open) {
        const cover = cardElement(/** @type {string} */ (covers.get(code)), { lang: lang(), extraClass: "cover", from: theirArea() });
        cover.setAttribute("aria-label", `${w.beaten} ${cardLabel(/** @type {string} */ (covers.get(code)), lang())}`);
        pair.append(cover);
      }
      row.append(pair);
    }
    zone.append(row);
    markArrivals("battle", frame.version, row);
    if (battle.finished) {
      zone.append(el("p", "battle-end", battle.picked_up.length ? w.pickedUp(battle.picked_up.length) : w.allBeaten));
    }
    return zone;
  }

  /** @param {any} v the deal's view (the table's JSON) */
  function handZone(v) {
    // A watcher sees the table from the first seat's side, and that seat's hand as the other's.
    if (frame.watcher) return closedHand(v, frame.seat, "zone hand", "hand", "");
    const w = words();
    const zone = el("section", "zone hand");
    zone.dataset.area = "hand";
    zone.setAttribute("aria-label", w.yourHand);
    const row = el("div", "cards");
    row.dir = "ltr";
    const over = frame.status === "deal-over" || frame.status === "match-over";
    const attacking = offered("attack").length > 0;
    const defending = offered("beat").length > 0 || offered("pick-up").length > 0;
    const hint = (v.hints.defend || []).find((/** @type {DefendHint} */ h) => h.attack === target);
    const cards = over && v.hands_shown ? v.hands_shown[frame.seat] : v.hand;
    /** @type {HTMLElement[]} */
    const drawn = [];
    for (const code of cards) {
      // Always a button, so that focus can rest on a card while the other seat plays.
      const pick = over ? undefined : () => pickHandCard(code);
      const card = cardElement(code, { onPick: pick, lang: lang(), extraClass: chosen.includes(code) ? "chosen" : "", from: "stock" });
      if (attacking) card.setAttribute("aria-pressed", String(chosen.includes(code)));
      if (defending && hint && !hint.beaten_by.includes(code)) card.setAttribute("aria-disabled", "true");
      if (offered("beat").length) {
        draggable(card, {
          targets: ".battle [data-open]",
          onOver: (attack) => dimFor(attack ? attack.dataset.card : target),
          onDrop: (attack) => {
            target = /** @type {string} */ (attack.dataset.card);
            defendWith(code);
          },
        });
      }
      drawn.push(card);
    }
    row.append(...handRows(drawn));
    row.style.setProperty("--n", String(Math.max(1, cards.length)));
    zone.append(row);
    markArrivals("hand", frame.version, row);
    return zone;
  }

  /** The bar under the hand: why a choice is not a move, and the buttons.
   * @param {Element | null} levelLine
   */
  function actionBar(levelLine) {
    const w = words();
    const bar = el("div", "action-bar");
    bar.dataset.area = "actions";
    const line = el("p", "why", why);
    line.id = "why";
    line.setAttribute("aria-live", "polite");
    bar.append(line);
    const controls = el("div", "controls");
    for (const g of offered("guess")) {
      const b = button(w[/** @type {"red" | "black"} */ (g.colour)], () => act(g), `primary guess ${g.colour}`);
      b.dataset.colour = g.colour;
      b.dataset.key = `guess-${g.colour}`;
      controls.append(b);
    }
    if (offered("attack").length) {
      const fit = () => offered("attack").find((a) => sameSet(a.cards, chosen));
      const b = button(w.attackButton, () => fit() && act(/** @type {Action} */ (fit())), "primary");
      b.id = "attack";
      b.disabled = !fit();
      controls.append(b);
    }
    if (offered("pick-up").length) {
      const b = button(w.pickUp, () => act(offered("pick-up")[0]));
      b.id = "pick-up";
      controls.append(b);
    }
    if (frame.watcher) {
      // A watcher deals nothing: the seats do.
    } else if (frame.status === "match-over") {
      const choice = levelLine && levelLine.querySelector("#rematch-level");
      if (choice) controls.append(choice);
      const b = button(w.rematch, () => ctx.rematch(), "primary");
      b.id = "rematch";
      controls.append(markAsked(b, frame));
    } else if (frame.status === "deal-over") {
      const b = button(w.nextDeal, () => ctx.nextDeal(), "primary");
      b.id = "next-deal";
      controls.append(markAsked(b, frame));
    }
    bar.append(controls);
    const ready = readyLine(frame, who, lang());
    if (ready) bar.append(ready);
    return bar;
  }

  /** @param {any} v the deal's view (the table's JSON) */
  function statusLine(v) {
    const w = words();
    // This seat's turn is said as such even with nothing to press (a replay's step shows the turn as
    // the seat saw it then).
    const me = !frame.watcher && v.to_act === frame.seat;
    const mine = frame.actions.length > 0 || me;
    // A seat whose person is away is said to be away, not to be choosing.
    const waiting = (/** @type {number} */ seat, /** @type {(who: string) => string} */ said) => awayNow(frame, seat, who(seat), lang()) ?? said(who(seat));
    if (v.phase.name === "guess") return offered("guess").length || (!frame.watcher && v.guesser === frame.seat) ? w.guessAsk : waiting(v.guesser, w.guessWait);
    if (v.phase.name === "attack") return mine ? w.attackTurn : waiting(v.to_act, w.attackWait);
    if (v.phase.name === "defend") {
      if (!mine) return waiting(v.to_act, w.defendWait);
      const open = (v.hints.defend || []).find((/** @type {DefendHint} */ h) => h.attack === target);
      if (!open) return w.defendTurn;
      if (open.beaten_by.length) return w.target(name(/** @type {string} */ (target)));
      // With no other open attack card this hand can beat, picking up is the one way on.
      const another = v.hints.defend.some((/** @type {DefendHint} */ h) => h.attack !== target && h.beaten_by.length > 0);
      return (another ? w.noBeater : w.noBeaterOnly)(name(/** @type {string} */ (target)));
    }
    // The end of the deal is told by the result panel alone.
    return "";
  }

  /** @param {any} v the deal's view (the table's JSON) */
  function narrate(v) {
    // One sentence for the latest move, said once.
    const said = latestMove(v, who, words());
    // A moment with no move yet to tell (a deal just dealt, a replay's first step) clears the line.
    if (said !== lastSaid) {
      lastSaid = said;
      if (said) {
        if (!restoring) log.lines.push(said);
        log.keep(frame.match);
        announce(said);
      }
    }
    // The deal's end is told once, in the result panel: the move line keeps the last move, and
    // screen readers hear the result with its reason.
    if (v.phase.name === "over" && !saidTheEnd) {
      saidTheEnd = true;
      const result = resultWords(frame, v, who, words());
      if (!restoring) log.lines.push(result.join(" "));
      log.keep(frame.match);
      speak(result.join(" "));
    }
    if (v.phase.name !== "over") saidTheEnd = false;
  }

  function draw() {
    const w = words();
    const v = frame.view;
    root.textContent = "";
    root.lang = lang();
    root.dir = lang() === "fa" ? "rtl" : "ltr";
    const board = boardTop(root, frame, scoreLine(frame, who, w), w);
    if (!board) return;
    board.classList.add("panjpar");
    const top = /** @type {HTMLElement} */ (board.firstElementChild);
    top.classList.add("top-bar");
    const levelLine = board.querySelector(".level-line");
    if (levelLine) top.append(levelLine);
    const rules = el("a", "button rules-link", w.rules);
    rules.href = w.rulesHref;
    rules.target = "_blank";
    rules.rel = "noopener";
    rules.dataset.key = "rules";
    top.append(movesDrawer(w, log.lines, logOpen, (open) => (logOpen = open), levelLine), rules);
    board.append(theirZone(v));
    const over = frame.status === "deal-over" || frame.status === "match-over";
    board.append(over ? resultZone(frame, v, who, w) : battleZone(v));
    board.append(pileZone(v, w, lang(), who));
    const status = el("p", "status-line", statusLine(v));
    status.id = "status";
    if (frame.actions.length) status.classList.add("mine");
    board.append(status);
    board.append(handZone(v));
    board.append(actionBar(levelLine));
    board.append(moveLine(lastSaid));
    root.append(board);
    signalTurn(frame.actions.length > 0, w.yourTurn);
    markRecommended();
  }

  /** Marks the hand cards, or the button, of the coach's hint while its view is shown. */
  function markRecommended() {
    const now = recommended.version === frame.version;
    for (const card of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".hand [data-card]"))) {
      card.classList.toggle("recommended", now && recommended.cards.includes(/** @type {string} */ (card.dataset.card)));
    }
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".action-bar button"))) {
      b.classList.toggle("recommended", now && recommended.button !== null && b.matches(recommended.button));
    }
  }

  return {
    render(next) {
      const before = frame;
      const fresh = !frame || next.version !== frame.version;
      formerTrump = frame && frame.view ? frame.view.trump_card : null;
      frame = next;
      const v = frame.view;
      // A new view that leaves this seat the same moves keeps the line about its choice; chosen
      // attack cards stay chosen while this seat still attacks and holds them (a draw may come in
      // while the player is choosing).
      const same = before && JSON.stringify(before.actions) === JSON.stringify(next.actions);
      if (fresh) {
        const attacking = next.actions.some((a) => a.type === "attack");
        const hand = (v && v.hand) || [];
        chosen = attacking ? chosen.filter((c) => hand.includes(c)) : [];
        if (!same) why = "";
        const open = (v && v.hints.defend) || [];
        if (!open.some((/** @type {DefendHint} */ h) => h.attack === target)) target = open.length ? open[0].attack : null;
      }
      if (v && !logRead) {
        logRead = true;
        restoring = log.read(frame.match);
      }
      if (v) {
        if (v.phase.name === "guess") {
          log.lines = [];
          log.keep(frame.match);
        }
        narrate(v);
        restoring = false;
      }
      draw();
      // A deal that ends in this very frame is heard once; drawn again, it stays quiet.
      if (before && before.view && ended(frame) && !ended(before)) {
        const winner = v.phase.winner;
        if (frame.watcher) {
          // A watcher neither wins nor loses.
        } else if (winner === frame.seat) play("won");
        else if (winner !== null && winner !== undefined) play("lost");
      }
    },
    /** Where a card that left the board went: the other hand, or out of play. */
    goneTo(key) {
      if (!frame || !frame.view || key.includes(":")) return null;
      const v = frame.view;
      if (v.phase.name === "guess") return null;
      const last = v.last_battle;
      if (last && last.picked_up.includes(key) && last.attacker === frame.seat) return theirArea();
      if (key === formerTrump && v.trump_drawn_by === other()) return theirArea();
      return "discard";
    },
    /** The coach recommends `action`, the first move of the defence `best` (its beats and the cards
     * it picks up): the attack card it beats becomes the one to beat, and the hand cards of the whole
     * defence, and Pick up if it ends in one, are marked until the next view, so the board shows what
     * the hint says.
     * @param {Action} action
     * @param {any} [best] */
    hint(action, best) {
      if (!frame) return;
      const beats = Array.isArray(best?.beats) ? best.beats.map((/** @type {[string, string]} */ [, card]) => card) : [];
      const cards = action.type === "beat" ? [action.with, ...beats] : action.type === "attack" ? action.cards : [];
      const picks = action.type === "pick-up" || (action.type === "beat" && best?.pick_up?.length > 0);
      const button = picks ? "#pick-up" : action.type === "guess" ? `[data-colour="${action.colour}"]` : null;
      recommended = { version: frame.version, cards, button };
      if (action.type === "beat" && offered("beat").some((a) => a.attack === action.attack)) target = action.attack;
      refresh();
    },
    error(errorFrame) {
      why = /** @type {string} */ (errorSentence(errorFrame, lang()));
      showBanner(why, true);
      setTimeout(() => showBanner(""), 4000);
      if (frame) refresh();
    },
  };
}
