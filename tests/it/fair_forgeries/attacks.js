// Forged frame sequences found by attacking the page's check (verify.js) as a dishonest table, each
// of which once ended green: in the shape of forgeries.js's SCENARIOS (a name, the states the page may
// end in, the play), run with them.

import { Page, Table, commit, playDeal, reveal, honestRounds, useGame, FRENCH, GANJIFA, panjparTo, ganjifaTo } from "./forge.js";
import { dealtRounds } from "./reveal.js";

/** A frame with its reveal changed by `change`. */
const withReveal = (frame, change) => ({ ...frame, deal: { ...frame.deal, reveal: change(frame.deal.reveal) } });

/** A fresh Panjpar page against the computer. */
async function panjpar() {
  await useGame("panjpar");
  return { ctx: { page: new Page() }, t: new Table({ seats: 2 }) };
}

/** The reveal of `committed` with the places in `hidden` (place numbers, not card names) hidden. */
function revealPlaces(committed, { numbers, pledges, rounds, hidden }) {
  return {
    cards: committed.cards.map((c, i) => (hidden.has(i) ? null : c)),
    salts: committed.salts.map((s, i) => (hidden.has(i) ? null : s)),
    leaves: committed.leaves.map((l, i) => (hidden.has(i) ? l : null)),
    to: committed.to,
    deal: committed.deal,
    pledges,
    numbers,
    rounds,
  };
}

// F3. Ganjifa: the table commits to a "pack" in which four 10s are replaced by second copies of
// four Mirs. In every reveal it hides one copy of each (as cards "played face down"), so eight
// distinct Mirs are shown and verify.js's voidRound takes every hidden place for a non-Mir
// (`allNeededShown`). Which copy it hides is chosen after the numbers are in; each choice makes
// other rounds void, so the table can pick between two (or more) different deals, each judged
// green. Returns the page of the deal the table picked, and the other option's page.
const DUPLICATED = ["TA", "SA", "SH", "GH"];
const DUP_ORDER = GANJIFA.map((c) => (DUPLICATED.some((s) => c === `10${s}`) ? `M${c.slice(2)}` : c));

export async function ganjifaChoice(attempts = 400) {
  await useGame("ganjifa");
  for (let a = 0; a < attempts; a += 1) {
    const store = {};
    const page = new Page(store, { owner: `dup${a}:tok` });
    const t = new Table({ game: "ganjifa", seats: 3, seat: 0 });
    const c = await commit(DUP_ORDER, ganjifaTo(2), 0, `d${a}`);
    await page.see(t.view({ status: "waiting", shuffle: t.asking(c), deal: null, view: null }));
    const pledges = [page.last("pledge").hash, null, null];
    await page.see(t.closed(c, pledges));
    const numbers = [page.last("contribute").value, null, null];
    // The table, holding every number now, works out each way of hiding one copy of each Mir.
    const all = await dealtRounds(c.commitment, { cards: c.cards, numbers, rounds: 60 });
    const copies = DUPLICATED.map((s) => c.cards.flatMap((x, i) => (x === `M${s}` ? [i] : [])));
    const options = new Map();
    for (let mask = 0; mask < 1 << copies.length; mask += 1) {
      const hidden = new Set(copies.map((cp, k) => cp[(mask >> k) & 1]));
      const mir = (i) => !hidden.has(i) && c.cards[i].startsWith("M");
      const isVoid = (dealt) => [0, 1, 2].some((s) => !dealt.some((i, j) => c.to[j] === s && mir(i)));
      const r = all.findIndex((dealt) => !isVoid(dealt));
      // A hidden copy must not be dealt to this page (it would see it).
      if (r < 0 || all[r].some((i, j) => c.to[j] === 0 && hidden.has(i))) continue;
      if (!options.has(r + 1)) options.set(r + 1, hidden);
    }
    if (options.size < 2) continue; // no choice this time: the table plays on (and tries next deal)
    const play = async (p, rounds, hidden) => {
      const order = all[rounds - 1];
      const hand = order.filter((_, j) => c.to[j] === 0).map((i) => c.cards[i]);
      const tt = new Table({ game: "ganjifa", seats: 3, seat: 0 });
      tt.version = t.version;
      const dealtAt = tt.version + 1;
      await p.see(tt.view({ status: "playing", deal: { commitment: c.commitment, dealt_at: dealtAt, reveal: null }, view: { hand } }));
      const r = revealPlaces(c, { numbers, pledges, rounds, hidden });
      await p.see(tt.view({ status: "deal-over", deal: { commitment: c.commitment, dealt_at: dealtAt, reveal: r }, view: { hand: [] } }));
      return { page: p, rounds, hand };
    };
    // The option with the most rounds is the one where the page judged a round void.
    const [[r1, h1], [r2, h2]] = [...options.entries()].sort((x, y) => x[0] - y[0]).slice(-2);
    // The same page (same storage, same number) shown either deal: both green.
    const other = await play(new Page(JSON.parse(JSON.stringify(store)), { owner: `dup${a}:tok` }), r1, h1);
    const picked = await play(page, r2, h2);
    return { attempt: a, picked, other };
  }
  return null;
}

/**
 * A Panjpar deal played with a hand of the table's choosing in views the page does not check (each
 * written by `unchecked(frame, committed)`), before the sealed first view and the reveal.
 */
async function forgedHandBeforeTheSeal(unchecked) {
  const { ctx, t } = await panjpar();
  const c = await commit(FRENCH, panjparTo(0), 0, "a");
  const forged = ["AS", "AH", "AD", "AC", "KS"];
  await playDeal(ctx, t, c, {
    after: async (step, x) => {
      if (step !== "close") return;
      for (let k = 0; k < 4; k += 1) {
        await x.page.see(unchecked(t.view({ status: "playing", view: { hand: forged.slice(k), trump_card: "2C" } }), c));
      }
    },
  });
  return ctx.page;
}

export const ATTACKS = [
  // F1. A deal revealed, another deal played and revealed, then the first commitment dealt again:
  // the "reused" check only looks at the deal in play, so a detour through any other deal clears it.
  ["a revealed deal played again after another deal (its number reused)", ["failed"], async () => {
    const { ctx, t } = await panjpar();
    const c0 = await commit(FRENCH, panjparTo(0), 0, "a");
    const c1 = await commit([...FRENCH].reverse(), panjparTo(1), 1, "b");
    let play0 = null;
    let end0 = null;
    await playDeal(ctx, t, c0, { next: c1, tweak: (f, step) => ((step === "play" ? (play0 = f) : step === "end" ? (end0 = f) : null), f) });
    await playDeal(ctx, t, c1);
    // Deal 0 again, as the table's third deal: the same commitment, the same numbers, the same cards.
    const v = t.version + 1;
    await ctx.page.see({ ...play0, version: v, deal: { ...play0.deal, dealt_at: v }, shuffle: null });
    await ctx.page.see({ ...end0, version: v + 1, deal: { ...end0.deal, dealt_at: v }, shuffle: null });
    return ctx.page;
  }],
  ["a revealed deal played again after a one-frame detour and a reload", ["failed"], async () => {
    const { ctx, t } = await panjpar();
    const c0 = await commit(FRENCH, panjparTo(0), 0, "a");
    let play0 = null;
    let end0 = null;
    await playDeal(ctx, t, c0, { tweak: (f, step) => ((step === "play" ? (play0 = f) : step === "end" ? (end0 = f) : null), f) });
    // One frame naming another commitment (with some reveal) moves the deal in play off deal 0.
    await ctx.page.see(t.view({ status: "deal-over", deal: { commitment: "ab".repeat(32), reveal: { cards: null } }, view: null }));
    ctx.page = ctx.page.reload();
    const v = t.version + 1;
    await ctx.page.see({ ...play0, version: v, deal: { ...play0.deal, dealt_at: v } });
    await ctx.page.see({ ...end0, version: v + 1, deal: { ...end0.deal, dealt_at: v } });
    return ctx.page;
  }],
  // F2. Cards shown in frames the check skips. The deal is played with a hand of the table's choosing
  // in views that carry no seal (`deal: null`) or no seat, then one sealed view at `dealt_at` shows the
  // hand really dealt, and the reveal follows: the page never checked the hand it played with.
  ["Panjpar played with a forged hand in views without a seal, the sealed first hand shown after", ["joined", "failed"], async () =>
    forgedHandBeforeTheSeal((f) => ({ ...f, deal: null }))],
  ["Panjpar played with a forged hand in sealed views without a seat", ["joined", "failed"], async () =>
    forgedHandBeforeTheSeal((f, c) => ({ ...f, seat: null, deal: { commitment: c.commitment, dealt_at: f.version, reveal: null } }))],
  ["Ganjifa: an honest first view, then cards from other hands shown as this page's in views without a seal", ["failed", "joined"], async () => {
    await useGame("ganjifa");
    const ctx = { page: new Page() };
    const t = new Table({ game: "ganjifa", seats: 3 });
    const c = await commit(GANJIFA, ganjifaTo(2), 0, "a");
    const numbers = (mine) => [mine, null, null];
    await playDeal(ctx, t, c, {
      numbers,
      after: async (step, x) => {
        if (step !== "play") return;
        // The table now shows this seat a hand of cards it dealt elsewhere (here: seat 1's).
        const mine = x.page.check.kept.data.deals[0].number;
        const rounds = await honestRounds(c, numbers(mine));
        const all = await dealtRounds(c.commitment, { cards: c.cards, numbers: numbers(mine), rounds });
        const others = all[rounds - 1].filter((_, j) => c.to[j] === 1).map((i) => c.cards[i]);
        await x.page.see(t.view({ status: "playing", deal: null, view: { hand: others } }));
      },
    });
    return ctx.page;
  }],
  // F2b. The same through a detour in sealed frames: a forged hand in sealed views, then the last
  // deal's reveal shown again (which resets what the page saw), then the deal's honest views.
  ["Ganjifa: a forged hand in sealed views, forgotten after the last deal's reveal is shown again", ["failed", "replaced"], async () => {
    await useGame("ganjifa");
    const ctx = { page: new Page() };
    const t = new Table({ game: "ganjifa", seats: 3 });
    const c0 = await commit(GANJIFA, ganjifaTo(2), 0, "a");
    const c1 = await commit([...GANJIFA].reverse(), ganjifaTo(0), 1, "b");
    let end0 = null;
    const numbers = (mine) => [mine, null, null];
    await playDeal(ctx, t, c0, { numbers, next: c1, tweak: (f, step) => ((step === "end" ? (end0 = f) : null), f) });
    await playDeal(ctx, t, c1, {
      numbers,
      after: async (step, x) => {
        if (step !== "close") return;
        // Deal 1 "played" with a hand of twelve Mirs-and-Wazirs of the table's choosing, sealed.
        const forged = GANJIFA.filter((g) => /^[MW]/.test(g)).slice(0, 12);
        const f = t.view({ status: "playing", view: { hand: forged } });
        await x.page.see({ ...f, deal: { commitment: c1.commitment, dealt_at: f.version, reveal: null } });
        // Deal 0's last frame again: the deal in play switches, what was seen is dropped.
        await x.page.see({ ...end0, version: t.version + 1 });
        t.version += 1;
      },
    });
    return ctx.page;
  }],
  // F3. Ganjifa void rounds chosen through duplicated Mirs hidden from this page (see ganjifaChoice).
  ["Ganjifa: two copies of four Mirs, the table choosing which copy to hide and so which round deals", ["partly", "failed"], async () => {
    const found = await ganjifaChoice();
    if (!found) throw new Error("no choice found in 400 deals");
    return found.picked.page;
  }],
];
