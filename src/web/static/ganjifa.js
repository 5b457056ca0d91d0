// The Ganjifa board: three seats round a felt, the trick in the middle, your hand and the action bar
// at the bottom, on one screen. Every move is one of the frame's `actions`; the ladder's reasons come
// from the view's `lead_hints` and open on demand, as does the suit tracker. Every card carries a
// stable `data-card` so that table.js can make it travel (see motion.js): a card played from a hand
// slides into the trick, a card no one saw before slides in from its seat, and a won trick flies to
// its winner's pile.

import { gcardElement, gbackElement, gcardName, parseGCard, GSUITS, SUIT_ORDER } from "./gcards.js";
import { announce, signalTurn, showBanner, el, button, markArrivals, moveLine, withinSentence } from "./ui.js";
import { boardTop, readyLine, markAsked, matchResultZone } from "./share.js";
import { seatName } from "./social.js";
import { awayLine } from "./away.js";
import { play } from "./sound.js";

const W = {
  yourTurn: "Your turn",
  waiting: "Waiting for every seat to be taken: three players open this room.",
  shareLink: "Send this link to both people you want to play:",
  copy: "Copy link",
  copied: "Link copied.",
  share: "Share",
};
const RUNGS = { run: "Run (dukkal)", deni: "Deni", choice: "Talafa or utari", blind: "Blind lead" };
const KINDS = { opening: "the opening", run: "a run", utari: "an utari", deni: "a deni", talafa: "a talafa", blind: "a blind lead" };

const cardsOf = (a) => (a.cards ? a.cards : a.card ? [a.card] : []);
const sameSet = (a, b) => a.length === b.length && a.every((c) => b.includes(c));
const cardCount = (n) => (n === 1 ? "1 card" : `${n} cards`);
const actionKey = (a) => `act:${a.type}:${a.suit || ""}:${cardsOf(a).join(".")}`;

/** A score with its sign: +5, −23 (a true minus sign), 0. */
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

export function createBoard(root, ctx) {
  let frame = null;
  let chosen = [];
  let lastSaid = "";
  // The drawers the player left open, kept across redraws.
  const openDrawers = new Set();
  // Where the cards of the trick shown before this frame went: the winner's pile.
  let goneTrick = { cards: new Set(), to: null };
  // The board being drawn.
  let shownBoard = null;

  const me = () => frame.seat ?? 0;
  const who = (seat) => {
    // A watcher (see table.js) is shown the table from seat 0's side, but no seat is "you" to it.
    if (seat === frame.seat && !frame.watcher) return "You";
    if (frame.kind === "computer" && seat !== 0) return `Computer ${seat}`;
    return seatName(frame, seat);
  };
  // The same, in the middle of a sentence ("led by you").
  const whoWithin = (seat) => withinSentence(who(seat));
  const offered = (type) => frame.actions.filter((a) => a.type === type);
  const mine = () => frame.actions.length > 0;

  function actionLabel(a) {
    switch (a.type) {
      case "run":
        return `Lead the run in ${GSUITS[a.suit].name}`;
      case "deni":
        return `Deni: call with the ${gcardName(a.card)}`;
      case "burn":
        return `Keep the lone Wazir of ${GSUITS[a.suit].name} (it burns)`;
      case "talafa": {
        const own = parseGCard(a.card).suit === a.suit;
        return own ? `Talafa in ${GSUITS[a.suit].name} with the ${gcardName(a.card)}` : `Talafa in ${GSUITS[a.suit].name}, the ${gcardName(a.card)} face down`;
      }
      case "utari":
        return `Utari: lead ${a.cards.length} ${a.cards.length === 1 ? "hukm" : "hukms"}`;
      case "give-up-lead":
        return "Give up the lead (blind)";
      default:
        return a.type;
    }
  }

  /** Sends an offered action; when it could not be sent (offline) everything stays as it was. */
  function act(a) {
    return ctx.act(a) !== false;
  }

  /** Draws again for a change on this page alone (a card chosen, a drawer opened), keeping focus
   * on the same card or control (table.js does the same around the frames it is sent). */
  function redraw() {
    const at = /** @type {HTMLElement | null} */ (document.activeElement);
    const key = at && root.contains(at) ? (at.dataset.card ? `[data-card="${CSS.escape(at.dataset.card)}"]` : at.dataset.key ? `[data-key="${CSS.escape(at.dataset.key)}"]` : null) : null;
    draw();
    if (key) root.querySelector(key)?.focus({ preventScroll: true });
  }

  function pickHand(code) {
    const put = offered("put-down").find((a) => a.card === code);
    if (put) {
      act(put);
      return;
    }
    chosen = chosen.includes(code) ? chosen.filter((c) => c !== code) : [...chosen, code];
    redraw();
    root.querySelector(`.ghand [data-card="${CSS.escape(code)}"]`)?.focus({ preventScroll: true });
  }

  // ---- Your hand: suit by suit, the cards a little over each other. ----
  function handZone(v) {
    if (v.stage === "blind-pick" && offered("pick").length) return pickZone();
    const zone = el("section", "ghand");
    zone.dataset.area = "hand";
    zone.setAttribute("aria-label", `Your cards (${v.hand.length})`);
    zone.dir = "ltr";
    const playable = new Set(frame.actions.flatMap(cardsOf));
    const shown = new Set(v.face_up[me()] || []);
    for (const suit of SUIT_ORDER) {
      const cards = v.hand.filter((c) => parseGCard(c).suit === suit);
      if (!cards.length) continue;
      const s = GSUITS[suit];
      const group = el("div", "g-suit");
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", `${s.name}, ${s.high === "ten" ? "10 high" : "1 high"}`);
      group.style.setProperty("--suit", s.colour);
      for (const code of cards) {
        const can = playable.has(code);
        const classes = [can ? "playable" : "", chosen.includes(code) ? "chosen" : "", shown.has(code) ? "face-up" : ""];
        const card = gcardElement(code, {
          onPick: can ? () => pickHand(code) : undefined,
          extraClass: classes.join(" "),
          from: "trick",
        });
        if (shown.has(code)) card.title = `${gcardName(code)}: face up, the others see it`;
        if (can && v.stage === "lead") card.setAttribute("aria-pressed", String(chosen.includes(code)));
        group.append(card);
      }
      zone.append(group);
    }
    if (!v.hand.length && !frame.watcher) zone.append(el("p", "g-empty", "Your hand is empty."));
    return zone;
  }

  // ---- A blind pick: the leader's cards face down, where your hand lies. Your own cards play no
  // part in the pick, and the hand's place is the one always in sight and in reach (the felt can be
  // a thin strip on a phone). ----
  function pickZone() {
    const zone = el("section", "ghand g-pick");
    zone.dataset.area = "hand";
    zone.setAttribute("aria-label", `The leader's face-down cards (${offered("pick").length}): pick one`);
    zone.dir = "ltr";
    const row = el("div", "backs g-backs");
    for (const a of offered("pick")) {
      const b = gbackElement(`face-down card ${a.back + 1}`, () => act(a), { key: `pick:${a.back}`, from: "trick" });
      b.dataset.key = `pick:${a.back}`;
      row.append(b);
    }
    zone.append(row);
    return zone;
  }

  // ---- Another seat: name, counts, dots, its face-up cards and a stack of its hidden ones. ----
  function seatZone(v, seat, side) {
    const zone = el("section", `g-seat ${side}`);
    zone.dataset.area = `hand-${seat}`;
    zone.dataset.seat = String(seat);
    if (v.to_act === seat) zone.classList.add("acting");
    const head = el("h2", "g-name", who(seat));
    if (v.to_act === seat) head.append(el("span", "g-acting", v.stage === "lead" ? "leading" : "to play"));
    zone.append(head);
    // A seat whose person has gone is kept for them: away, with for how long (away.js).
    const away = awayLine(frame, seat, who(seat));
    if (away) zone.append(away);
    const facts = el("p", "g-facts");
    facts.append(el("span", "", `${cardCount(v.counts[seat])}:`));
    facts.append(wonChip(v, seat));
    const dots = "●".repeat(v.marks[seat]);
    const lost = el("span", "g-dots", dots || "○");
    lost.title = dots ? `Lost the lead ${v.marks[seat]} times` : "Has not lost the lead";
    lost.setAttribute("aria-label", lost.title);
    facts.append(lost);
    const hidden = v.counts[seat] - v.face_up[seat].length;
    if (hidden > 0) {
      const stack = el("span", "g-stack");
      stack.append(gbackElement(`${cardCount(hidden)} face down`));
      stack.append(el("span", "g-count", `×${hidden}`));
      facts.append(stack);
    }
    zone.append(facts);
    const row = el("div", "g-open");
    row.dir = "ltr";
    for (const c of v.face_up[seat]) row.append(gcardElement(c, { extraClass: "seat-card" }));
    zone.append(row);
    return zone;
  }

  /** A seat's pile of won cards: where a trick it wins flies. */
  function wonChip(v, seat) {
    const chip = el("span", "g-won", `won ${v.won[seat]}`);
    chip.dataset.area = `won-${seat}`;
    return chip;
  }

  // ---- The middle: the trick on the felt, each seat's cards on its side. ----
  function trickZone(v) {
    const zone = el("section", "g-centre trick");
    zone.dataset.area = "trick";
    // On a phone the felt may scroll: a keyboard reaches it to scroll it too.
    zone.tabIndex = 0;
    zone.setAttribute("aria-label", "The trick");
    const t = v.trick || v.last_trick;
    if (t) {
      const title = `${v.trick ? "This trick" : "The last trick"}: ${KINDS[t.kind.kind] || t.kind.kind}, led by ${whoWithin(t.leader)}`;
      zone.append(el("h2", "", v.trick ? title : `${title}; ${whoWithin(t.winner)} won it`));
      const piles = el("div", "g-piles");
      const order = [(me() + 1) % 3, (me() + 2) % 3, me()];
      const places = ["left", "right", "mine"];
      order.forEach((s, i) => {
        const pile = el("div", `g-pile ${places[i]}`);
        if (s === t.leader) pile.classList.add("leader");
        const label = el("p", "g-pile-name", who(s));
        if (s === t.leader) label.append(el("span", "g-tag", "led"));
        if (!v.trick && s === t.winner) label.append(el("span", "g-tag won", "won"));
        pile.append(label);
        const cards = el("div", "g-pile-cards");
        cards.dir = "ltr";
        // The leader's cards in a call are the ones being answered: a dashed frame.
        const answered = v.trick && s === t.leader && t.kind.kind !== "opening";
        for (const c of t.cards[s]) {
          cards.append(gcardElement(c, { extraClass: `trick-card${answered ? " target" : ""}`, from: `hand-${s}` }));
        }
        if (t.face_down_by === s && s !== frame.seat) {
          cards.append(gbackElement("a card played face down", undefined, { key: `down:${s}:${t.kind.suit || ""}`, from: `hand-${s}`, extraClass: "trick-card" }));
        }
        const owed = t.need[s];
        if (v.trick && owed > 0) {
          const slot = el("span", "g-owed", `owes ${owed}`);
          cards.append(slot);
        }
        pile.append(cards);
        piles.append(pile);
      });
      zone.append(piles);
      markArrivals("trick", frame.version, zone);
    } else if (v.stage !== "blind-pick") {
      zone.append(el("h2", "", "The felt is empty"));
    }
    if (v.stage === "blind-pick" && offered("pick").length) {
      zone.append(el("h2", "", `${who(v.to_act === me() ? (me() + 2) % 3 : v.to_act)} gave up the lead: pick one of the cards below`));
    }
    if (frame.status === "deal-over" || frame.status === "match-over") zone.append(resultZone(v));
    zone.append(moveLine(lastSaid));
    return zone;
  }

  function resultZone(v) {
    const zone = matchResultZone("result", frame, who);
    const m = frame.match;
    if (frame.status !== "match-over") {
      const best = v.scores ? Math.max(...v.scores) : null;
      const top = v.scores ? [0, 1, 2].filter((s) => v.scores[s] === best).map(who).join(" & ") : "";
      zone.append(el("h2", "", v.scores ? `The deal is over: ${top} did best (${signed(best)}).` : "The deal is over."));
    }
    if (v.scores) {
      // Each seat's score is the cards it won less its share of the pack; the share is what the
      // server's score leaves over, so the page never works it out itself.
      const list = el("ul", "g-scores");
      list.id = "deal-scores";
      for (const s of [0, 1, 2]) {
        const share = v.won[s] - v.scores[s];
        list.append(el("li", "", `${who(s)}: won ${v.won[s]} − share ${share} = ${signed(v.scores[s])}`));
      }
      zone.append(el("p", "result-why", "This deal, each seat scores the cards it won less its share of the pack:"), list);
    }
    zone.append(el("p", "", `Totals: ${[0, 1, 2].map((s) => `${who(s)} ${signed(m.totals[s])}`).join(", ")}.`));
    const level = shownBoard?.querySelector(".level-line");
    if (level && frame.status === "match-over") zone.append(level);
    return zone;
  }

  // ---- The action bar: the one line that says what to do now, and the buttons. ----
  function leadStatus() {
    if (offered("run").length) return "Your lead: you hold a run, and you must lead it.";
    if (offered("burn").length) return "Your lead: call with your lone Wazir, or keep it and it burns.";
    if (offered("deni").length) return "Your lead: a deni is due. Pick the card to call with.";
    const can = [];
    if (offered("talafa").length) can.push("a talafa");
    if (offered("utari").length) can.push("an utari");
    if (!can.length) return "Your lead: you must give up the lead; the next seat picks one of your cards.";
    const blind = offered("give-up-lead").length ? ", or give up the lead" : "";
    return `Your lead: make ${can.join(" or ")}${blind}.`;
  }

  function statusText(v) {
    // The end of the deal is told by the result panel alone.
    if (frame.status === "deal-over" || frame.status === "match-over") return "";
    if (!mine()) {
      if (v.to_act === null || v.to_act === undefined) return "";
      return v.stage === "lead" ? `${who(v.to_act)} is leading.` : `${who(v.to_act)} to play.`;
    }
    if (v.stage === "blind-pick") return "Pick one of the leader's face-down cards: it is led as a call.";
    if (v.stage === "lead") return leadStatus();
    if (v.to_put_down) return v.to_put_down === 1 ? "Put down 1 card: click it in your hand." : `Put down ${v.to_put_down} cards: click them in your hand, one at a time.`;
    return "Your move.";
  }

  /** What may be chosen in the hand for a lead, in words, from the actions offered alone. */
  function choiceWords() {
    const parts = [];
    const denis = offered("deni").length;
    const talafas = offered("talafa").length;
    const utaris = offered("utari");
    if (denis > 1) parts.push("the card to call with for a deni");
    if (talafas > 1 || (talafas === 1 && denis + utaris.length > 0)) parts.push("a card for a talafa");
    if (utaris.length > 1) parts.push("your hukms for an utari");
    return parts;
  }

  function actionBar(v) {
    const bar = el("section", "g-bar");
    bar.dataset.area = "actions";
    bar.setAttribute("aria-label", "What to do now");
    const line = el("div", "g-line");
    const status = el("p", "status-line", statusText(v));
    status.id = "status";
    line.append(status);
    if (v.lead_hints && mine()) line.append(drawerToggle("ladder", "Why?"));
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
        why.textContent = chosen.length && !picked.length
          ? `That choice is not one of your leads: choose ${parts.join(", or ")}.`
          : `Choose in your hand ${parts.join(", or ")}.`;
      }
    }
    if ((frame.status === "deal-over" || frame.status === "match-over") && ctx.nextDeal && !frame.watcher) {
      const over = frame.status === "match-over";
      const b = button(over ? "Play again" : "Next deal", () => (over ? ctx.rematch() : ctx.nextDeal()), "primary");
      b.id = over ? "rematch" : "next-deal";
      row.append(markAsked(b, frame));
    }
    bar.append(row);
    bar.append(why);
    const ready = readyLine(frame, who);
    if (ready) bar.append(ready);
    const you = el("p", "g-you");
    const dots = "●".repeat(v.marks[me()]);
    const cards = frame.watcher ? v.counts?.[me()] ?? v.hand.length : v.hand.length;
    you.append(el("span", "", `${who(me())}: ${cardCount(cards)}`), wonChip(v, me()));
    const lost = el("span", "g-dots", dots || "○");
    lost.title = dots
      ? `${who(me())} lost the lead ${v.marks[me()]} times`
      : frame.watcher ? `${who(me())} has not lost the lead` : "You have not lost the lead";
    lost.setAttribute("aria-label", lost.title);
    you.append(lost);
    bar.append(you);
    return bar;
  }

  function actionButton(a) {
    const b = button(actionLabel(a), () => act(a), "primary");
    b.dataset.action = a.type;
    b.dataset.key = actionKey(a);
    return b;
  }

  // ---- Drawers: the ladder's reasons, the suit tracker, the rules, opened on demand. ----
  function drawerToggle(name, label) {
    const b = button(label, () => {
      if (openDrawers.has(name)) openDrawers.delete(name);
      else openDrawers.add(name);
      redraw();
    }, "g-toggle");
    b.dataset.key = `drawer:${name}`;
    b.setAttribute("aria-expanded", String(openDrawers.has(name)));
    b.setAttribute("aria-controls", `drawer-${name}`);
    return b;
  }

  function drawer(name, title, body) {
    const box = el("section", "g-drawer");
    box.id = `drawer-${name}`;
    box.setAttribute("aria-label", title);
    const head = el("div", "g-drawer-head");
    head.append(el("h2", "", title));
    const close = button("Close", () => {
      openDrawers.delete(name);
      draw();
      root.querySelector(`[data-key="drawer:${name}"]`)?.focus({ preventScroll: true });
    }, "g-close");
    close.dataset.key = `close:${name}`;
    head.append(close);
    box.append(head, body);
    return box;
  }

  function ladderBody(v) {
    const body = el("div", "lead");
    for (const hint of v.lead_hints || []) {
      const rung = el("div", `rung ${hint.allowed ? "open" : "shut"}`);
      rung.append(el("strong", "", `${RUNGS[hint.rung]}: ${hint.allowed ? "open" : "shut"}. `));
      rung.append(el("span", "", hint.why));
      body.append(rung);
    }
    return body;
  }

  function trackerBody(v) {
    const grid = el("div", "tracker");
    for (const t of v.tracker) {
      const s = GSUITS[t.suit];
      const cell = el("div", "g-track");
      cell.style.setProperty("--suit", s.colour);
      cell.append(el("strong", "", `${s.name} (${s.code}, ${s.high === "ten" ? "10" : "1"} high)`));
      cell.append(el("span", "", ` ${t.out.join(" ") || "none out"}${t.burnt ? " · a card burnt" : ""}`));
      grid.append(cell);
    }
    return grid;
  }

  function topBar(board, v) {
    const head = board.firstElementChild;
    head.classList.add("g-top");
    const level = board.querySelector(".level-line");
    if (level) head.append(level);
    const tools = el("div", "g-tools");
    tools.append(drawerToggle("tracker", "Tracker"));
    const rules = el("a", "button g-toggle", "Rules");
    rules.href = "/ganjifa/rules";
    rules.target = "_blank";
    rules.rel = "noopener";
    rules.dataset.key = "rules";
    tools.append(rules);
    head.append(tools);
    const phase = `${v.time === "day" ? "Day" : "Night"}: the ${gcardName(v.opening_mir)} opens${v.second_phase ? " · second phase" : ""}`;
    head.querySelector(".score")?.append(el("span", "g-phase", phase));
  }

  function draw() {
    const v = frame.view;
    root.textContent = "";
    const m = frame.match;
    const deal = Math.min(m.deals_dealt + (frame.status === "playing" ? 1 : 0), m.length.target);
    const score = el("p", "score", ctx.heading || `Deal ${Math.max(deal, 1)} of ${m.length.target}`);
    if (!ctx.heading) score.append(el("span", "g-totals", `totals ${[0, 1, 2].map((s) => `${who(s)} ${signed(m.totals[s])}`).join(", ")}`));
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
    const awayHere = frame.watcher ? awayLine(frame, me(), who(me())) : null;
    if (awayHere) board.append(awayHere);
    board.append(actionBar(v));
    board.append(handZone(v));
    // Drawers lie over the felt only: the action bar and the hand stay in sight and in reach.
    if (openDrawers.has("ladder") && v.lead_hints && mine()) felt.append(drawer("ladder", "Your lead: the ladder", ladderBody(v)));
    if (openDrawers.has("tracker")) felt.append(drawer("tracker", "Suit tracker: the cards you have not seen played", trackerBody(v)));
    root.append(board);
    signalTurn(mine(), "Your turn");
  }

  /** The cards of the trick shown now, and the pile they go to once it is cleared away. */
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
      const v = frame.view;
      const t = v && (v.trick || v.last_trick);
      if (t) {
        const said = v.trick ? `${who(t.leader)} led ${KINDS[t.kind.kind] || t.kind.kind}.` : `${who(t.winner)} won the trick.`;
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
    error(errorFrame) {
      showBanner(errorFrame.message, true);
      setTimeout(() => showBanner(""), 4000);
    },
  };
}

/**
 * The guided first deal's step for `frame` (guide.js): what this seat is to do now and why, worded
 * from the view alone (the stage, whose turn, the leads and plays it offers), and the controls it is
 * about.
 */
export function guideStep(frame) {
  const v = frame.view;
  if (!v || frame.watcher) return null;
  const has = (type) => frame.actions.some((a) => a.type === type);
  const call = "the holder of the called suit's hukm (its best card left) must play it, the third player adds any card, and the hukm wins the trick";
  if (frame.status === "deal-over" || frame.status === "match-over") {
    return {
      title: "The deal is over",
      text: "Each seat scored the cards it won less its share of the pack: the panel shows the sums. Play on to see the next deal, or read the rules for the finer points.",
      targets: ["#rematch", "#next-deal"],
    };
  }
  if (!frame.actions.length) {
    return {
      title: v.stage === "lead" ? "Another seat leads" : "The trick goes round",
      text: "Only a suit's hukm, its best card not yet played, wins a trick in that suit, and nobody has to follow suit. Watch which cards come out: each one played makes the next card of its suit the hukm.",
      targets: [],
    };
  }
  if (v.stage === "blind-pick") {
    return {
      title: "Pick a face-down card",
      text: `The leader gave up the lead: pick one of their cards unseen. It is led as a call in its suit: ${call}.`,
      targets: [".g-pick button"],
    };
  }
  if (v.stage === "lead") {
    if (has("run")) {
      return {
        title: "Lead your run",
        text: "You hold two or more top cards of a suit in a row, and must lead them (all but the lowest). The others each put down as many cards, and you win them all and lead again.",
        targets: ["[data-area=actions] button"],
      };
    }
    if (has("deni") || has("burn")) {
      return {
        title: "A deni is due",
        text: `You hold a suit's Wazir while another hand holds its Mir: you must call that suit with a lower card of it, and ${call}.${has("burn") ? " With the Wazir alone you may call with it, or keep it and let it burn (it then ranks lowest)." : ""}`,
        targets: [".ghand button.playable", "[data-area=actions] button"],
      };
    }
    const talafa = has("talafa");
    const utari = has("utari");
    if (talafa || utari) {
      return {
        title: "Choose your lead",
        text: `${utari ? "An utari leads your hukms at once, one per suit: the others put down as many cards and you win them all. " : ""}${talafa ? `A talafa calls a suit where you hold its second-best card and someone else the best: ${call}. ` : ""}Choose in your hand, or press a lead's button.`,
        targets: [".ghand button.playable", "[data-area=actions] button"],
      };
    }
    return {
      title: "Give up the lead",
      text: `With no hukm, run, deni or talafa to lead, you give up the lead: the next player picks one of your cards unseen, and it is led as a call.`,
      targets: ["[data-area=actions] button"],
    };
  }
  if (has("put-down") && v.trick?.kind?.kind === "opening") {
    return {
      title: "The opening trick",
      text: "The holder of the opening Mir lays it with one other card, the other two put down two cards each, and the opener takes all six and leads. Nobody can win it away: put down cards you can spare.",
      targets: [".ghand button.playable"],
    };
  }
  if (has("put-down")) {
    return {
      title: "Put down your cards",
      text: "Put down as many cards as the lead asks, any you like: you do not have to follow suit. Keep your hukms and the cards next below them; throw the cards that cannot win.",
      targets: [".ghand button.playable"],
    };
  }
  return {
    title: "Your play",
    text: "Play a card: only a suit's hukm wins a trick in that suit, and you never have to follow suit.",
    targets: [".ghand button.playable"],
  };
}
