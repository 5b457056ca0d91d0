// The Panjpar board. It draws only what the view says: the legal moves are the frame's `actions`,
// the sentences come from the view's `hints`.

import { cardElement, backElement } from "./cards.js";
import { announce, signalTurn, showBanner, el, button, markArrivals } from "./ui.js";
import { draggable } from "./drag.js";
import { WORDS, whyNot, notAnAttack, errorSentence, cardName, suitName } from "./panjpar-words.js";
import { boardTop } from "./share.js";

const sameSet = (a, b) => a.length === b.length && a.every((c) => b.includes(c));

export function createBoard(root, ctx) {
  let frame = null;
  let chosen = []; // the attack cards chosen so far
  let target = null; // the attack card being beaten
  let why = ""; // the line under the hand
  let lastSaid = "";

  const words = () => WORDS[ctx.lang()];
  const lang = () => ctx.lang();
  const other = () => 1 - frame.seat;
  const who = (seat) => {
    const w = words();
    if (seat === frame.seat) return w.you;
    return frame.kind === "computer" ? w.computer : w.friend;
  };
  const offered = (type) => frame.actions.filter((a) => a.type === type);
  const name = (code) => cardName(code, lang());

  function act(action) {
    ctx.act(action);
    chosen = [];
    why = "";
  }

  function pickHandCard(code) {
    const v = frame.view;
    if (offered("attack").length) {
      chosen = chosen.includes(code) ? chosen.filter((c) => c !== code) : [...chosen, code];
      const fits = offered("attack").some((a) => sameSet(a.cards, chosen));
      why = fits ? words().validAttack(chosen.length) : notAnAttack(v.hints.attack, chosen.length, v.counts[other()], lang());
      draw();
      root.querySelector(`[data-card="${code}"]`)?.focus();
      return;
    }
    defendWith(code);
  }

  // Beats the target with this card if the rules allow it; otherwise says why not.
  function defendWith(code) {
    const beat = offered("beat").find((a) => a.attack === target && a.with === code);
    if (beat) {
      act(beat);
      return;
    }
    const hint = (frame.view.hints.defend || []).find((h) => h.attack === target);
    const reason = hint && hint.not.find((r) => r.card === code);
    why = reason ? words().notBeater(name(code), whyNot(reason, target, lang())) : "";
    draw();
    root.querySelector(`.hand [data-card="${code}"]`)?.focus();
  }

  // While a card is dragged over an attack card, the hand shows what can beat that one.
  function dimFor(attack) {
    const hint = (frame.view.hints.defend || []).find((h) => h.attack === attack);
    for (const c of root.querySelectorAll(".hand [data-card]")) {
      c.setAttribute("aria-disabled", String(Boolean(hint) && !hint.beaten_by.includes(c.dataset.card)));
    }
  }

  function pickAttackCard(code) {
    target = code;
    draw();
    root.querySelector(`.battle [data-card="${code}"]`)?.focus();
  }

  function scoreLine() {
    const m = frame.match;
    const won = m.deals_won || [0, 0];
    return el("p", "score", words().score(won[frame.seat], won[other()], m.length.target));
  }

  function battleZone(v) {
    const w = words();
    const battle = v.battle || v.last_battle;
    if (!battle) return null;
    const zone = el("section", "zone battle");
    zone.append(el("h2", "", v.battle ? w.battle : w.lastBattle));
    const row = el("div", "cards");
    row.dir = "ltr";
    const covers = new Map(battle.covers.map(([a, b]) => [a, b]));
    const defending = v.battle && offered("beat").length > 0;
    for (const code of battle.attack) {
      const pair = el("div", "pair");
      const open = !covers.has(code);
      const pick = defending && open ? () => pickAttackCard(code) : undefined;
      const card = cardElement(code, { onPick: pick, lang: lang(), extraClass: target === code && pick ? "target" : "" });
      if (pick) {
        card.setAttribute("aria-pressed", String(target === code));
        card.dataset.open = "true";
      }
      pair.append(card);
      if (!open) {
        const cover = cardElement(covers.get(code), { lang: lang() });
        cover.setAttribute("aria-label", `${w.beaten} ${name(covers.get(code))}`);
        pair.append(cover);
      }
      row.append(pair);
    }
    zone.append(row);
    markArrivals("battle", frame.version, row);
    if (battle.finished) {
      zone.append(el("p", "", battle.picked_up.length ? w.pickedUp(battle.picked_up.length) : w.allBeaten));
    }
    return zone;
  }

  function pileZone(v) {
    const w = words();
    const zone = el("section", "zone stock-zone");
    if (v.trump) zone.append(el("strong", "", w.trump(suitName(v.trump, lang()))));
    const row = el("div", "pile");
    row.dir = "ltr";
    if (v.trump_card) {
      row.append(cardElement(v.trump_card, { lang: lang(), extraClass: "trump-card small" }));
      row.append(backElement(w.back, "small"));
    }
    zone.append(row);
    if (v.trump_card) zone.append(el("span", "", w.trumpUnder(name(v.trump_card))));
    else if (v.trump_drawn_by !== null && v.trump_drawn_by !== undefined) zone.append(el("span", "", w.trumpDrawn(who(v.trump_drawn_by))));
    zone.append(el("p", "stock-left", v.stock_left ? w.stockYes : w.stockNo));
    return zone;
  }

  function handZone(v) {
    const w = words();
    const zone = el("section", "zone hand");
    zone.append(el("h2", "", w.yourHand));
    const row = el("div", "cards");
    row.dir = "ltr";
    const attacking = offered("attack").length > 0;
    const defending = offered("beat").length > 0 || offered("pick-up").length > 0;
    const hint = (v.hints.defend || []).find((h) => h.attack === target);
    for (const code of v.hand) {
      const pick = attacking || defending ? () => pickHandCard(code) : undefined;
      const card = cardElement(code, { onPick: pick, lang: lang(), extraClass: chosen.includes(code) ? "chosen" : "" });
      if (attacking) card.setAttribute("aria-pressed", String(chosen.includes(code)));
      if (defending && hint && !hint.beaten_by.includes(code)) card.setAttribute("aria-disabled", "true");
      if (offered("beat").length) {
        draggable(card, {
          targets: ".battle [data-open]",
          onOver: (attack) => dimFor(attack ? attack.dataset.card : target),
          onDrop: (attack) => {
            target = attack.dataset.card;
            defendWith(code);
          },
        });
      }
      row.append(card);
    }
    zone.append(row);
    markArrivals("hand", frame.version, row);
    const line = el("p", "why", why);
    line.id = "why";
    line.setAttribute("aria-live", "polite");
    zone.append(line);
    const controls = el("div", "controls");
    if (attacking) {
      const fit = offered("attack").find((a) => sameSet(a.cards, chosen));
      const b = button(w.attackButton, () => fit && act(fit), "primary");
      b.id = "attack";
      b.disabled = !fit;
      controls.append(b);
    }
    if (offered("pick-up").length) {
      const b = button(w.pickUp, () => act(offered("pick-up")[0]));
      b.id = "pick-up";
      controls.append(b);
    }
    zone.append(controls);
    return zone;
  }

  function guessZone(v) {
    const w = words();
    const zone = el("section", "zone guess");
    const guesses = offered("guess");
    if (guesses.length) {
      zone.append(el("p", "status-line", w.guessAsk));
      const controls = el("div", "controls");
      for (const g of guesses) {
        const b = button(w[g.colour], () => act(g), "primary");
        b.dataset.colour = g.colour;
        controls.append(b);
      }
      zone.append(controls);
    } else {
      zone.append(el("p", "status-line", w.guessWait(who(v.guesser))));
    }
    return zone;
  }

  function statusLine(v) {
    const w = words();
    const mine = frame.actions.length > 0;
    if (v.phase.name === "attack") return mine ? w.attackTurn : w.attackWait(who(v.to_act));
    if (v.phase.name === "defend") {
      if (!mine) return w.defendWait(who(v.to_act));
      const open = (v.hints.defend || []).find((h) => h.attack === target);
      if (!open) return w.defendTurn;
      return open.beaten_by.length ? w.target(name(target)) : w.noBeater(name(target));
    }
    return "";
  }

  function resultZone(v) {
    const w = words();
    const zone = el("section", "result");
    zone.id = "result";
    const m = frame.match;
    if (frame.status === "match-over") {
      zone.append(el("h2", "", w.matchWon((m.winners || []).map(who).join(" & "))));
    }
    const winner = v.phase.winner;
    zone.append(el("p", "", winner === null || winner === undefined ? w.dealDrawn : w.dealWon(who(winner))));
    zone.append(scoreLine());
    if (v.hands_shown) {
      zone.append(el("h3", "", w.hands));
      [frame.seat, other()].forEach((seat) => {
        zone.append(el("p", "", `${who(seat)}:`));
        const row = el("div", "cards");
        row.dir = "ltr";
        v.hands_shown[seat].forEach((c) => row.append(cardElement(c, { lang: lang(), extraClass: "small" })));
        zone.append(row);
      });
    }
    const controls = el("div", "controls");
    if (frame.status === "match-over") {
      const b = button(w.rematch, () => ctx.rematch(), "primary");
      b.id = "rematch";
      controls.append(b);
    } else {
      const b = button(w.nextDeal, () => ctx.nextDeal(), "primary");
      b.id = "next-deal";
      controls.append(b);
    }
    zone.append(controls);
    return zone;
  }

  function narrate(v) {
    // One sentence for the latest move, said once.
    const w = words();
    let said = "";
    const battle = v.battle || v.last_battle;
    if (v.guess && v.phase.name !== "over" && !battle) said = w.guessMade(who(v.guesser), v.guess.colour, v.guess.right);
    if (battle) {
      const attacker = who(battle.attacker);
      const defender = who(1 - battle.attacker);
      if (battle.finished && battle.picked_up.length) said = w.tookUp(defender, battle.picked_up.length);
      else if (battle.covers.length) {
        const [a, b] = battle.covers[battle.covers.length - 1];
        said = w.beat(defender, name(a), name(b));
      } else said = w.played(attacker, battle.attack.map(name).join(", "));
      if (battle.finished && !battle.picked_up.length) said = w.allBeaten;
    }
    if (v.phase.name === "over") said = v.phase.winner === null ? w.dealDrawn : w.dealWon(who(v.phase.winner));
    if (said && said !== lastSaid) {
      lastSaid = said;
      announce(said);
    }
  }

  function draw() {
    const w = words();
    const v = frame.view;
    root.textContent = "";
    root.lang = lang();
    root.dir = lang() === "fa" ? "rtl" : "ltr";
    const board = boardTop(root, frame, scoreLine(), w);
    if (!board) return;
    const theirs = el("section", "zone opponent");
    theirs.append(el("h2", "", w.theirHand(who(other()), v.counts[other()])));
    const backs = el("div", "cards");
    backs.dir = "ltr";
    for (let i = 0; i < v.counts[other()]; i += 1) backs.append(backElement(w.back, "small"));
    theirs.append(backs);
    const absent = frame.seats[other()];
    if (absent && absent.who === "person" && !absent.connected) theirs.append(el("p", "why", w.absent(who(other()))));
    board.append(theirs);
    if (v.phase.name === "guess") board.append(guessZone(v));
    else {
      const status = el("p", "status-line", statusLine(v));
      status.id = "status";
      board.append(status);
      const middle = el("div", "board-two");
      const battle = battleZone(v);
      if (battle) middle.append(battle);
      middle.append(pileZone(v));
      board.append(middle);
    }
    if (frame.status === "deal-over" || frame.status === "match-over") board.firstElementChild.after(resultZone(v));
    else if (v.phase.name !== "guess") board.append(handZone(v));
    const moveLine = el("p", "move-line");
    moveLine.id = "move-line";
    moveLine.textContent = lastSaid;
    board.append(moveLine);
    root.append(board);
    signalTurn(frame.actions.length > 0, w.yourTurn);
  }

  return {
    render(next) {
      const fresh = !frame || next.version !== frame.version;
      frame = next;
      const v = frame.view;
      if (fresh) {
        chosen = [];
        why = "";
        const open = (v && v.hints.defend) || [];
        if (!open.some((h) => h.attack === target)) target = open.length ? open[0].attack : null;
      }
      if (v) narrate(v);
      draw();
    },
    error(errorFrame) {
      why = errorSentence(errorFrame, lang());
      showBanner(why, true);
      setTimeout(() => showBanner(""), 4000);
      if (frame) draw();
    },
  };
}
