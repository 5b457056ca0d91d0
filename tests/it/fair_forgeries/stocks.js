// Pishe Pasha's stocks as a dishonest table would turn them, for the page's own check (verify.js):
// every card turned from a stock must be the one the committed shuffle put at that stock's top. In
// the shape of forgeries.js's SCENARIOS (a name, the states the page may end in, the play).

import { Page, Table, commit, playDeal, useGame, FRENCH, pisheTo } from "./forge.js";

/** A fresh page at a Pishe Pasha table against the computer (seat 1 deals, seat 0 plays first). */
async function pishePasha() {
  await useGame("pishe-pasha");
  return { ctx: { page: new Page() }, t: new Table({ game: "pishe-pasha", seats: 2 }), c: await commit(FRENCH, pisheTo(1), 0) };
}

/**
 * The views of a deal in which `moves` are played from the stocks `order` deals (each a list, top
 * last). A move: `{ seat, kind }`, `kind` "discard" (turned, fits nowhere, the turn ends), "turn"
 * (turned, waiting to be given), "give" (the card waiting, given) or "home" (the top of the seat's
 * discard pile sent home); `under` takes the card that many below the top instead; `lie` shifts the count shown for that seat's stock from then on; `skip`
 * leaves that many versions out before the view.
 */
function stockViews(order, moves) {
  const to = pisheTo(1);
  const stocks = [0, 1].map((s) => order.filter((_, j) => to[j] === s));
  const piles = [[], []];
  const lies = [0, 0];
  let [last, now, turned] = [{ seat: 1, steps: [] }, { seat: 0, steps: [] }, null];
  const take = (seat, under = 0) => stocks[seat].splice(stocks[seat].length - 1 - under, 1)[0];
  return moves.map((m) => {
    lies[m.seat] += m.lie ?? 0;
    if (m.kind === "turn") turned = take(m.seat, m.under);
    if (m.kind === "home") {
      const pile = piles[m.seat];
      const card = pile.splice(pile.length - 1 - (m.under ?? 0), 1)[0];
      now = { seat: m.seat, steps: [...(now.seat === m.seat ? now.steps : []), { step: "home", card, from: "pile" }] };
    }
    if (m.kind === "give") {
      now = { seat: m.seat, steps: [...now.steps, { step: "give", card: turned, from: "stock" }] };
      piles[1 - m.seat].push(turned);
      turned = null;
    }
    if (m.kind === "discard") {
      const steps = now.seat === m.seat ? now.steps : [];
      const card = take(m.seat, m.under);
      piles[m.seat].push(card);
      last = { seat: m.seat, steps: [...steps, { step: "discard", card, from: "stock" }] };
      now = { seat: 1 - m.seat, steps: [] };
    }
    const view = { stocks: stocks.map((s, i) => s.length + lies[i]), this_turn: now, last_turn: last, turned, piles: shownPiles(piles) };
    return { view, skip: m.skip ?? 0 };
  });
}

/** The discard piles as a view shows them: each top card and count. */
export const shownPiles = (piles) => piles.map((pile) => ({ top: pile.at(-1) ?? null, count: pile.length }));

const HONEST = [
  { seat: 0, kind: "discard" },
  { seat: 1, kind: "discard" },
  { seat: 0, kind: "turn" },
  { seat: 0, kind: "give" },
  { seat: 0, kind: "discard" },
  { seat: 1, kind: "turn" },
  { seat: 1, kind: "give" },
  { seat: 1, kind: "discard" },
  { seat: 0, kind: "discard" },
];

/** Plays `moves` as the table shows them to seat 0's page; `after` as for playDeal. */
async function stockDeal(moves, after = async () => {}) {
  const { ctx, t, c } = await pishePasha();
  const first = { stocks: [26, 26], this_turn: { seat: 0, steps: [] }, last_turn: { seat: 1, steps: [] }, turned: null, piles: shownPiles([[], []]) };
  await playDeal(ctx, t, c, { first, plays: (order) => stockViews(order, moves), after });
  return ctx.page;
}

export const STOCKS = [
  ["Pishe Pasha: an honest deal, every card turned from the top", ["fair"], () => stockDeal(HONEST)],
  ["Pishe Pasha: an honest deal, reloaded between two moves", ["fair"], () => {
    let views = 0;
    return stockDeal(HONEST, async (step, x) => {
      if (step === "more" && (views += 1) === 4) x.page = x.page.reload();
    });
  }],
  ["Pishe Pasha: an honest deal, moves missed while the page was away", ["partly"], () =>
    stockDeal(HONEST.map((m, i) => (i === 5 ? { ...m, skip: 2 } : m)))],
  ["Pishe Pasha: a card turned from under the top, the count true", ["failed"], () =>
    stockDeal(HONEST.map((m, i) => (i === 1 ? { ...m, under: 1 } : m)))],
  ["Pishe Pasha: a card turned from under the top, the count jumping past the one it skipped", ["failed"], () =>
    stockDeal(HONEST.map((m, i) => (i === 1 ? { ...m, under: 1, lie: -1 } : m)))],
  ["Pishe Pasha: a card from under the top, the count jumping, then the skipped card turned", ["failed"], () =>
    stockDeal([{ seat: 0, kind: "discard", under: 1, lie: -1 }, { seat: 1, kind: "discard" }, { seat: 0, kind: "discard", lie: 1 }])],
  ["Pishe Pasha: a card from under the top behind a gap", ["partly", "failed"], () =>
    stockDeal(HONEST.map((m, i) => (i === 1 ? { ...m, under: 1, lie: -1, skip: 1 } : m)))],
  ["Pishe Pasha: an honest deal, a discard pile's top sent home", ["fair"], () =>
    stockDeal([...HONEST.slice(0, 2), { seat: 0, kind: "home" }, ...HONEST.slice(2)])],
  ["Pishe Pasha: a card sent home from under a discard pile's top", ["failed"], () => {
    const moves = [{ seat: 0, kind: "discard" }, { seat: 1, kind: "discard" }, { seat: 0, kind: "turn" }, { seat: 0, kind: "give" }];
    return stockDeal([...moves, { seat: 0, kind: "discard" }, { seat: 1, kind: "home", under: 1 }]);
  }],
  ["Pishe Pasha: a card turned from the stock but logged as from the discard pile", ["failed"], () =>
    stockDeal([...HONEST.slice(0, 2), { seat: 0, kind: "home", lie: -1 }])],
  ["Pishe Pasha: a turn left out of the log", ["failed"], () => {
    const moves = [...HONEST];
    moves.splice(2, 0, { seat: 0, kind: "hidden" });
    return stockDeal(moves.map((m) => (m.kind === "hidden" ? { seat: 0, kind: "none", lie: -1 } : m)));
  }],
];
