// The Pishe Pasha board: four suit piles, both discard piles and stocks, Give / Turn / Keep as the
// frame offers them, and the steps of this turn and the last one as the view lists them.

import { cardElement, backElement, cardName } from "./cards.js";
import { announce, signalTurn, showBanner, el, button, markArrivals } from "./ui.js";
import { boardTop } from "./share.js";
import { openTable } from "./landing.js";

const W = {
  yourTurn: "Your turn",
  you: "You",
  computer: "The computer",
  friend: "Your friend",
  back: "a face-down card",
  waiting: "Waiting for your friend to open the link…",
  shareLink: "Send this link to the person you want to play:",
  copy: "Copy link",
  copied: "Link copied.",
  share: "Share",
};

const LABELS = { "one-deal": "one deal", 50: "first to 50", 100: "first to 100" };
const lengthWords = (length) => (length.kind === "points" ? `first to ${length.target} points` : "one deal");

export function createBoard(root, ctx) {
  let frame = null;
  let lastSaid = "";

  const who = (seat) => (seat === frame.seat ? W.you : frame.kind === "computer" ? W.computer : W.friend);
  const offered = (type) => frame.actions.find((a) => a.type === type);

  function pileBlock(title, pile, id) {
    const box = el("div", "counted");
    box.id = id;
    box.append(el("h3", "", title));
    if (pile.top) box.append(cardElement(pile.top));
    else box.append(el("span", "card empty", "—"));
    box.append(el("span", "", `${pile.count} ${pile.count === 1 ? "card" : "cards"}`));
    markArrivals(id, frame.version, box);
    return box;
  }

  function stockBlock(title, count, id) {
    const box = el("div", "counted");
    box.id = id;
    box.append(el("h3", "", title));
    if (count) box.append(backElement(W.back));
    else box.append(el("span", "card empty", "—"));
    box.append(el("span", "", `${count} ${count === 1 ? "card" : "cards"}`));
    return box;
  }

  function seatZone(v, seat) {
    const zone = el("section", "zone");
    zone.append(el("h2", "", seat === frame.seat ? "Your stock and pile" : `${who(seat)}: stock and pile`));
    const row = el("div", "row");
    row.dir = "ltr";
    row.append(stockBlock("Stock", v.stocks[seat], `stock-${seat === frame.seat ? "mine" : "theirs"}`));
    row.append(pileBlock("Discard pile", v.piles[seat], `pile-${seat === frame.seat ? "mine" : "theirs"}`));
    if (v.turned && v.to_act === seat) {
      const box = el("div", "counted");
      box.append(el("h3", "", "Just turned"));
      box.append(cardElement(v.turned));
      markArrivals("turned", frame.version, box);
      row.append(box);
    }
    zone.append(row);
    return zone;
  }

  function logList(log) {
    const list = el("ol", "log");
    for (const step of log.steps) {
      list.append(el("li", "", step.forced ? `${step.says} (forced)` : step.says));
    }
    return list;
  }

  function controls(v) {
    const zone = el("section", "zone");
    const row = el("div", "controls");
    const give = offered("give");
    const giveButton = button(v.choices.give ? `Give ${cardName(v.choices.give)}` : "Give", () => give && ctx.act(give), "primary");
    giveButton.id = "give";
    giveButton.disabled = !give;
    row.append(giveButton);
    const turn = offered("turn");
    if (turn || !offered("keep")) {
      const b = button("Turn a card", () => turn && ctx.act(turn), "primary");
      b.id = "turn";
      b.disabled = !turn;
      row.append(b);
    }
    const keep = offered("keep");
    if (keep) {
      const b = button("Keep it", () => ctx.act(keep));
      b.id = "keep";
      row.append(b);
    }
    zone.append(row);
    const why = el("p", "why", frame.actions.length && v.choices.hint ? `No give: ${v.choices.hint}` : "");
    why.id = "why";
    zone.append(why);
    return zone;
  }

  function resultZone(v) {
    const zone = el("section", "result");
    zone.id = "result";
    const m = frame.match;
    if (v.result) zone.append(el("p", "", `${who(v.result.winner)} won the deal and scored ${v.result.points}.`));
    zone.append(el("p", "", `Points: you ${m.totals[frame.seat]}, them ${m.totals[1 - frame.seat]}.`));
    const row = el("div", "controls");
    if (frame.status === "match-over") {
      zone.prepend(el("h2", "", `${(m.winners || []).map(who).join(" & ")} won the match.`));
      const b = button("Play again", () => ctx.rematch(), "primary");
      b.id = "rematch";
      row.append(b);
      if (frame.kind === "computer") {
        for (const length of ["one-deal", 50, 100]) {
          row.append(button(`New match: ${LABELS[length]}`, () => openTable("pishe-pasha", "computer", length)));
        }
      }
    } else {
      const b = button("Next deal", () => ctx.nextDeal(), "primary");
      b.id = "next-deal";
      row.append(b);
    }
    zone.append(row);
    return zone;
  }

  function draw() {
    const v = frame.view;
    root.textContent = "";
    const m = frame.match;
    const score = el("p", "score", `Points: you ${m.totals[frame.seat]}, them ${m.totals[1 - frame.seat]} (${lengthWords(m.length)})`);
    const board = boardTop(root, frame, score, W);
    if (!board) return;
    board.append(seatZone(v, 1 - frame.seat));
    const home = el("section", "zone");
    home.append(el("h2", "", "Suit piles (ace up to king)"));
    const piles = el("div", "suit-piles");
    piles.dir = "ltr";
    for (const suit of ["spades", "hearts", "diamonds", "clubs"]) {
      const top = v.suit_piles[suit];
      const box = el("div", "counted");
      box.append(top ? cardElement(top) : el("span", "card empty", "—"));
      box.append(el("span", "", suit));
      markArrivals(`suit-${suit}`, frame.version, box);
      piles.append(box);
    }
    home.append(piles);
    board.append(home);
    board.append(seatZone(v, frame.seat));
    const mine = frame.actions.length > 0;
    const status = el("p", "status-line", v.result ? "" : mine ? "Your turn: give or turn a card." : `${who(v.to_act)} is playing.`);
    status.id = "status";
    board.append(status);
    if (frame.status === "deal-over" || frame.status === "match-over") board.firstElementChild.after(resultZone(v));
    else board.append(controls(v));
    const logs = el("div", "board-two");
    const now = el("section", "zone");
    now.append(el("h2", "", v.this_turn.seat === null ? "This turn" : `This turn (${who(v.this_turn.seat)})`));
    now.append(logList(v.this_turn));
    logs.append(now);
    const before = el("section", "zone");
    before.append(el("h2", "", v.last_turn.seat === null ? "The turn before" : `The turn before (${who(v.last_turn.seat)})`));
    before.append(logList(v.last_turn));
    logs.append(before);
    board.append(logs);
    const line = el("p", "move-line");
    line.id = "move-line";
    line.textContent = lastSaid;
    board.append(line);
    root.append(board);
    signalTurn(mine, "Your turn");
  }

  return {
    render(next) {
      frame = next;
      const v = frame.view;
      const steps = v ? v.this_turn.steps : [];
      const said = steps.length ? `${who(v.this_turn.seat)}: ${steps[steps.length - 1].says}` : "";
      if (said && said !== lastSaid) {
        lastSaid = said;
        announce(said);
      }
      draw();
    },
    error(errorFrame) {
      showBanner(errorFrame.message, true);
      setTimeout(() => showBanner(""), 4000);
    },
  };
}
