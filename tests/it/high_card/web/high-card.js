// High card's board: draws what the server's view says (the hands, the rounds played, who is to
// play) and sends the move a card's button offers. It knows no rule: the cards it offers are the
// view's actions, and the rounds taken are the view's count.

import { cardElement, backElement } from "./cards.js";
import { el, button } from "./ui.js";
import { seatName } from "./social.js";
import { boardTop } from "./share.js";

export { hooks } from "./high-card-hooks.js";

export const LANGUAGES = ["en"];

/** The words the shared top of the board (share.js) asks every board for. */
const W = {
  lang: "en",
  yourTurn: "Your turn",
  waiting: "Waiting for your friend to open the link…",
  shareLink: "Send this link to the person you want to play:",
  copy: "Copy link",
  copied: "Link copied.",
  share: "Share",
  level: {
    standard: "Against the standard computer",
    strong: "Against the strong computer",
    next: "Next match against:",
    names: { standard: "standard", strong: "strong" },
  },
};

export function createBoard(root, ctx) {
  let frame = null;
  const mine = (seat) => seat === frame.seat && !frame.watcher;
  const named = (seat) => (mine(seat) ? "You" : seatName(frame, seat));

  function seatLine(seat) {
    const v = frame.view;
    const line = el("p", "seat-line", `${named(seat)}: ${v.taken[seat]} taken, ${v.held[seat]} held`);
    line.dataset.seat = String(seat);
    return line;
  }

  function rounds() {
    const v = frame.view;
    const zone = el("section", "rounds");
    zone.setAttribute("aria-label", "Rounds");
    const count = Math.max(v.played[0].length, v.played[1].length);
    for (let r = 0; r < count; r++) {
      const round = el("div", "round");
      round.append(el("span", "round-name", `Round ${r + 1}`));
      for (const seat of [0, 1]) {
        const card = v.played[seat][r];
        if (card) round.append(cardElement(card, { key: card }));
      }
      zone.append(round);
    }
    return zone;
  }

  function hand() {
    const zone = el("section", "hand");
    zone.dataset.area = "hand";
    zone.setAttribute("aria-label", "Your hand");
    const offered = new Set(frame.actions.map((a) => a.card));
    for (const card of frame.view.hand) {
      const pick = offered.has(card) ? () => ctx.act({ type: "play", card }) : undefined;
      const face = cardElement(card, { onPick: pick, key: card });
      if (!pick && face instanceof HTMLButtonElement) face.disabled = true;
      zone.append(face);
    }
    return zone;
  }

  function status() {
    const v = frame.view;
    if (frame.status === "match-over") return "The match is over.";
    if (frame.status === "deal-over") return "The deal is over.";
    if (v.to_act === null) return "";
    return mine(v.to_act) ? "Your turn: play a card." : `${seatName(frame, v.to_act)} to play.`;
  }

  function bar() {
    const zone = el("section", "bar");
    zone.dataset.area = "actions";
    zone.append(el("p", "status", status()));
    const offer = (label, id, onClick) => {
      const control = button(label, onClick);
      control.id = id;
      zone.append(control);
    };
    if (!frame.watcher && frame.status === "deal-over") offer("Next deal", "next-deal", () => ctx.nextDeal());
    if (!frame.watcher && frame.status === "match-over") offer("New match", "rematch", () => ctx.rematch());
    return zone;
  }

  return {
    render(next) {
      frame = next;
      root.replaceChildren();
      const score = el("span", "score", `Deals won: ${(frame.match?.deals_won || []).join(" to ")}`);
      const table = boardTop(root, frame, score, W);
      if (!table) return;
      table.classList.add("hc");
      const other = frame.watcher ? 1 : 1 - frame.seat;
      const me = frame.watcher ? 0 : frame.seat;
      const theirs = el("section", "theirs");
      theirs.setAttribute("aria-label", `${named(other)}: cards held`);
      for (let i = 0; i < frame.view.held[other]; i++) theirs.append(backElement("A card not yet played"));
      table.append(seatLine(other), theirs, rounds(), seatLine(me));
      if (!frame.watcher) table.append(hand());
      table.append(bar());
      root.append(table);
    },
    error(refused) {
      root.querySelector(".status")?.replaceChildren(refused.message || "That move was refused.");
    },
  };
}
