// The Ganjifa board: three seats, round cards, the lead ladder as the view weighs it. Every move is
// one of the frame's `actions`; the ladder's reasons come from the view's `lead_hints`.

import { gcardElement, gbackElement, gcardName, parseGCard, suitBadge, GSUITS, SUIT_ORDER } from "./gcards.js";
import { announce, signalTurn, showBanner, el, button, markArrivals } from "./ui.js";
import { boardTop } from "./share.js";

const W = {
  yourTurn: "Your turn",
  back: "a face-down card",
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

export function createBoard(root, ctx) {
  let frame = null;
  let chosen = [];
  let lastSaid = "";

  const who = (seat) => {
    if (seat === frame.seat) return "You";
    return frame.kind === "computer" ? `Computer ${seat}` : `Player ${seat + 1}`;
  };
  const offered = (type) => frame.actions.filter((a) => a.type === type);

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

  function pickHand(code) {
    const put = offered("put-down").find((a) => a.card === code);
    if (put) {
      ctx.act(put);
      return;
    }
    chosen = chosen.includes(code) ? chosen.filter((c) => c !== code) : [...chosen, code];
    draw();
    root.querySelector(`.ghand [data-card="${code}"]`)?.focus();
  }

  function handZone(v) {
    const zone = el("section", "zone ghand");
    zone.append(el("h2", "", `Your cards (${v.hand.length})`));
    const playable = new Set(frame.actions.flatMap(cardsOf));
    for (const suit of SUIT_ORDER) {
      const cards = v.hand.filter((c) => parseGCard(c).suit === suit);
      if (!cards.length) continue;
      const row = el("div", "suit-row");
      row.dir = "ltr";
      row.append(suitBadge(suit));
      for (const code of cards) {
        const can = playable.has(code);
        const card = gcardElement(code, {
          onPick: can ? () => pickHand(code) : undefined,
          extraClass: `${can ? "playable" : ""} ${chosen.includes(code) ? "chosen" : ""}`,
        });
        if (can && frame.view.stage === "lead") card.setAttribute("aria-pressed", String(chosen.includes(code)));
        row.append(card);
      }
      zone.append(row);
    }
    return zone;
  }

  function leadZone(v) {
    const zone = el("section", "zone lead");
    zone.append(el("h2", "", "Your lead: the ladder"));
    for (const hint of v.lead_hints || []) {
      const rung = el("div", `rung ${hint.allowed ? "open" : "shut"}`);
      rung.append(el("strong", "", `${RUNGS[hint.rung]}: ${hint.allowed ? "open" : "shut"}. `));
      rung.append(el("span", "", hint.why));
      zone.append(rung);
    }
    const row = el("div", "controls");
    const direct = frame.actions.filter((a) => ["run", "burn", "give-up-lead"].includes(a.type));
    const utaris = offered("utari");
    if (utaris.length) direct.push(utaris.reduce((a, b) => (b.cards.length > a.cards.length ? b : a)));
    const picked = frame.actions.filter((a) => chosen.length && cardsOf(a).length && sameSet(cardsOf(a), chosen) && !direct.includes(a));
    for (const a of [...direct, ...picked]) {
      const b = button(actionLabel(a), () => ctx.act(a), "primary");
      b.dataset.action = a.type;
      row.append(b);
    }
    zone.append(row);
    const needsCard = offered("deni").length + offered("talafa").length + utaris.length > 1;
    const line = el("p", "why", needsCard
      ? (chosen.length && !picked.length ? "That choice is not one of your leads: pick a card for a deni or talafa, or your hukms for an utari." : "Choose a card in your hand for a deni or a talafa, or several hukms for an utari.")
      : "");
    line.id = "why";
    zone.append(line);
    return zone;
  }

  function seatZone(v, seat) {
    const zone = el("section", "zone");
    const dots = "●".repeat(v.marks[seat]);
    zone.append(el("h2", "", `${who(seat)}: ${v.counts[seat]} cards, won ${v.won[seat]}`));
    const marks = el("p", "dots", dots ? `Lost the lead: ${dots} (${v.marks[seat]})` : "Has not lost the lead");
    zone.append(marks);
    const row = el("div", "cards");
    row.dir = "ltr";
    for (const c of v.face_up[seat]) row.append(gcardElement(c, { extraClass: "small" }));
    zone.append(row);
    return zone;
  }

  function trickZone(v) {
    const t = v.trick || v.last_trick;
    if (!t) return null;
    const zone = el("section", "zone trick");
    zone.append(el("h2", "", `${v.trick ? "This trick" : "The last trick"}: ${KINDS[t.kind.kind] || t.kind.kind}, led by ${who(t.leader)}`));
    for (let s = 0; s < 3; s += 1) {
      const row = el("div", "suit-row");
      row.dir = "ltr";
      row.append(el("span", "", `${who(s)}:`));
      for (const c of t.cards[s]) row.append(gcardElement(c, { extraClass: "small" }));
      if (t.face_down_by === s && s !== frame.seat) row.append(gbackElement("a card played face down"));
      zone.append(row);
    }
    if (!v.trick) zone.append(el("p", "", `${who(t.winner)} won it.`));
    markArrivals("trick", frame.version, zone);
    return zone;
  }

  function trackerZone(v) {
    const zone = el("details", "zone");
    zone.open = window.matchMedia("(min-width: 52rem)").matches;
    zone.append(el("summary", "", "Suit tracker: the top cards still out"));
    const grid = el("div", "tracker");
    for (const t of v.tracker) {
      const cell = el("div", "");
      cell.append(suitBadge(t.suit));
      cell.append(el("div", "", `${t.out.slice(0, 4).join(" ") || "none"}${t.burnt ? " · a card burnt" : ""}`));
      grid.append(cell);
    }
    zone.append(grid);
    return zone;
  }

  function resultZone(v) {
    const zone = el("section", "result");
    zone.id = "result";
    const m = frame.match;
    if (frame.status === "match-over") zone.append(el("h2", "", `${(m.winners || []).map(who).join(" & ")} won the match.`));
    if (v.scores) zone.append(el("p", "", `This deal: ${[0, 1, 2].map((s) => `${who(s)} ${v.scores[s] > 0 ? "+" : ""}${v.scores[s]}`).join(", ")}.`));
    zone.append(el("p", "", `Totals: ${[0, 1, 2].map((s) => `${who(s)} ${m.totals[s]}`).join(", ")}.`));
    // A board without a table behind it (the staged deal) has no next deal to offer.
    if (!ctx.nextDeal) return zone;
    const row = el("div", "controls");
    const b = frame.status === "match-over"
      ? button("Play again", () => ctx.rematch(), "primary")
      : button("Next deal", () => ctx.nextDeal(), "primary");
    b.id = frame.status === "match-over" ? "rematch" : "next-deal";
    row.append(b);
    zone.append(row);
    return zone;
  }

  function statusText(v) {
    const mine = frame.actions.length > 0;
    if (!mine) return v.to_act === null || v.to_act === undefined ? "" : `${who(v.to_act)} to play.`;
    if (v.stage === "blind-pick") return "Pick one of the leader's face-down cards: it is led as a call.";
    if (v.stage === "lead") return "Your lead.";
    if (v.to_put_down) return v.to_put_down === 1 ? "Put down 1 card: click it in your hand." : `Put down ${v.to_put_down} cards: click them in your hand, one at a time.`;
    return "Your move.";
  }

  function draw() {
    const v = frame.view;
    root.textContent = "";
    const m = frame.match;
    const score = el("p", "score", ctx.heading || `Deals finished: ${m.deals_dealt} of ${m.length.target} · totals: ${[0, 1, 2].map((s) => `${who(s)} ${m.totals[s]}`).join(", ")}`);
    const board = boardTop(root, frame, score, W);
    if (!board) return;
    if (frame.status === "deal-over" || frame.status === "match-over") board.append(resultZone(v));
    board.append(el("p", "", `${v.time === "day" ? "Day" : "Night"}: the ${gcardName(v.opening_mir)} opens.${v.second_phase ? " Second phase: every seat has lost the lead." : ""}`));
    const others = el("div", "seats3");
    for (const s of [1, 2].map((d) => (frame.seat + d) % 3)) others.append(seatZone(v, s));
    board.append(others);
    const status = el("p", "status-line", statusText(v));
    status.id = "status";
    board.append(status);
    const trick = trickZone(v);
    if (trick) board.append(trick);
    if (v.stage === "blind-pick" && offered("pick").length) {
      const zone = el("section", "zone backs");
      const row = el("div", "cards");
      row.dir = "ltr";
      offered("pick").forEach((a) => row.append(gbackElement(`face-down card ${a.back + 1}`, () => ctx.act(a))));
      zone.append(row);
      board.append(zone);
    }
    if (v.stage === "lead" && frame.actions.length) board.append(leadZone(v));
    board.append(handZone(v));
    const mine = el("p", "", `You: won ${v.won[frame.seat]} cards; lost the lead ${"●".repeat(v.marks[frame.seat]) || "never"}.`);
    board.append(mine);
    board.append(trackerZone(v));
    const line = el("p", "move-line");
    line.id = "move-line";
    line.textContent = lastSaid;
    board.append(line);
    root.append(board);
    signalTurn(frame.actions.length > 0, "Your turn");
  }

  return {
    render(next) {
      if (!frame || next.version !== frame.version) chosen = [];
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
    },
    error(errorFrame) {
      showBanner(errorFrame.message, true);
      setTimeout(() => showBanner(""), 4000);
    },
  };
}
