// Every way we know for a server to choose a deal, tried on the page's own check as whole frame
// sequences (forge.js), each with the state the page must end in; and honest deals, which must end
// green. Run by `cargo test --test it fair_shuffle::forged_frame_sequences` (Node.js): it prints one
// line per scenario, "ok" or what went wrong, and the count of honest Ganjifa deals judged.

import { Page, Table, commit, playDeal, reveal, dealt, useGame, friendNumber, FRENCH, GANJIFA, panjparTo, ganjifaTo } from "./forge.js";
import { pledgeOf, sha256 } from "./reveal.js";
import { ATTACKS } from "./attacks.js";
import { STOCKS } from "./stocks.js";
import { PLACES } from "./attacks-places.js";
import { BLIND } from "./attacks-blind.js";

const NOT_GREEN = ["missing", "joined", "replaced", "asked", "partly", "failed"];

/** A fresh page at a fresh Panjpar table against the computer, and the table's first commitment. */
async function panjpar({ seats = 2, deal = 0, tag = "s", order = FRENCH } = {}) {
  await useGame("panjpar");
  return { ctx: { page: new Page() }, t: new Table({ seats }), c: await commit(order, panjparTo(0), deal, tag) };
}

const friendPledge = async (s = 1) => pledgeOf(friendNumber(s));

/**
 * A Ganjifa deal in which `leader` gives up the lead at once and seat 0's page sees a blind pick
 * named as back `name` give the card the deal's numbers put at back `give`; `open` is what the reveal
 * says of its draws, and `chose` the back this page picked, when it is the picker.
 */
async function ganjifaBlind({ give = 3, name = 3, open = true, leader = 1, chose = null } = {}) {
  await useGame("ganjifa");
  const { blindBacks, blindSeed } = await import("./ganjifa-hooks.js");
  const ctx = { page: new Page() };
  const t = new Table({ game: "ganjifa", seats: 3 });
  const c = await commit(GANJIFA, ganjifaTo(2), 0, "b");
  const plays = async (order, numbers) => {
    const leaders = order.filter((_, j) => c.to[j] === leader);
    const backs = blindBacks(leaders, await blindSeed(sha256, c.commitment, numbers), 0);
    const picked = backs[give];
    const kind = { kind: "blind", suit: "taj", back: name, nth: 0 };
    const cards = [0, 1, 2].map((s) => (s === leader ? [picked] : []));
    const trick = { leader, kind, winner: leader, cards, face_down_by: null, need: [1, 1, 1] };
    // This page picked (it is the seat after the leader): it chose back `chose`.
    if (chose !== null) ctx.page.check.acted({ type: "pick", back: chose });
    const hand = order.filter((_, j) => c.to[j] === 0);
    return [{ view: { hand, trick, played: [picked] } }];
  };
  const tweak = (frame, step) => (step === "end" && !open ? withReveal(frame, (r) => ({ ...r, open_draws: false })) : frame);
  await playDeal(ctx, t, c, { plays, tweak });
  return ctx.page;
}

/** The cards the honest Panjpar deal gives seat 0, from the cards at the dealt places. */
const mineOf = (order) => order.filter((_, j) => panjparTo(0)[j] === 0);

/**
 * A Panjpar deal in which this page (seat 0) attacks with one card, the other seat beats it with
 * one of its own, and the attacker then draws the card `drawn(order)` gives (honestly the pile's
 * last place), the other seat one after it; `fields` changes the view after the draw.
 */
async function panjparDraw(drawn, fields = {}) {
  const { ctx, t, c } = await panjpar();
  const first = (order) => ({ hand: mineOf(order), counts: [5, 5], trump_card: order[10] });
  const plays = (order) => {
    const [attack, beating] = [mineOf(order)[0], order[1]];
    const laid = { attacker: 0, attack: [attack], covers: [[attack, beating]], picked_up: [], finished: false };
    const attacked = { ...first(order), hand: mineOf(order).slice(1), counts: [4, 5], battle: { ...laid, covers: [] } };
    const beaten = { ...attacked, counts: [4, 4], battle: laid };
    const after = { ...beaten, hand: [...mineOf(order).slice(1), drawn(order)], counts: [5, 5], battle: null, last_battle: { ...laid, finished: true }, ...fields };
    return [attacked, beaten, after].map((view) => ({ view }));
  };
  await playDeal(ctx, t, c, { plays });
  return ctx.page;
}

/** The scenarios: a name, the states the page may end in, and the play. */
export const SCENARIOS = [
  ["an honest deal against the computer", ["fair"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c);
    return ctx.page;
  }],
  ["an honest deal among friends", ["fair"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { others: { 1: await friendPledge() } });
    return ctx.page;
  }],
  ["an honest deal, the page reloaded mid-deal", ["fair"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { after: async (step, x) => { if (step === "play") x.page = x.page.reload(); } });
    return ctx.page;
  }],
  ["an honest deal, the page reloaded before its number was asked for", ["fair"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { after: async (step, x) => { if (step === "ask") x.page = x.page.reload(); } });
    return ctx.page;
  }],
  ["an honest second deal, its commitment shown during the first", ["fair"], async () => {
    const { ctx, t, c } = await panjpar();
    const second = await commit(FRENCH, panjparTo(1), 1, "t");
    await playDeal(ctx, t, c, { next: second });
    await playDeal(ctx, t, second, { next: await commit(FRENCH, panjparTo(0), 2, "u") });
    return ctx.page;
  }],
  ["an honest first deal, the next one's commitment shown with it", ["fair"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { next: await commit(FRENCH, panjparTo(1), 1, "t") });
    return ctx.page;
  }],
  ["a watcher of an honest deal", ["watched"], async () => {
    const { ctx, t, c } = await panjpar();
    let end = null;
    await playDeal(ctx, t, c, { tweak: (f, step) => (step === "end" ? (end = f) : f) });
    const watcher = new Page({}, { watcher: true });
    await watcher.see({ ...end, seat: null, table: null });
    return watcher;
  }],
  // 1. Asking again for the same deal, with and without a reload, after a "restart", 40 times.
  ["the same deal asked for twice, played with the first number", ["asked"], async () => {
    const { ctx, t, c } = await panjpar();
    const c2 = await commit([...FRENCH].reverse(), panjparTo(0), 0, "x");
    await askOnly(ctx.page, t, c);
    const [pledge, number] = [ctx.page.last("pledge").hash, ctx.page.last("contribute").value];
    await playDeal(ctx, t, c2, {
      numbers: () => [number, null],
      tweak: (f, step) => (step === "end" ? withReveal(f, (r) => ({ ...r, pledges: [pledge, null] })) : f),
    });
    return ctx.page;
  }],
  ["the same deal asked for twice across a reload", ["asked"], async () => {
    const { ctx, t, c } = await panjpar();
    await askOnly(ctx.page, t, c);
    ctx.page = ctx.page.reload();
    await playDeal(ctx, t, await commit([...FRENCH].reverse(), panjparTo(0), 0, "x"));
    return ctx.page;
  }],
  ["the same deal asked for again after a 'restart' (versions from 0)", ["asked"], async () => {
    const { ctx, t, c } = await panjpar();
    await askOnly(ctx.page, t, c);
    const again = new Table();
    ctx.page = ctx.page.reload();
    await playDeal(ctx, again, await commit([...FRENCH].reverse(), panjparTo(0), 0, "x"));
    return ctx.page;
  }],
  ["asked 40 times, the deal the server liked best played", ["asked"], async () => {
    const { ctx, t, c } = await panjpar();
    for (let k = 0; k < 40; k += 1) await askOnly(ctx.page, t, await commit(FRENCH, panjparTo(0), 0, `k${k}`));
    await playDeal(ctx, t, c);
    return ctx.page;
  }],
  ["the same deal asked again among friends", ["asked"], async () => {
    const { ctx, t, c } = await panjpar();
    await askOnly(ctx.page, t, c, { 1: await friendPledge() });
    await playDeal(ctx, t, await commit([...FRENCH].reverse(), panjparTo(0), 0, "x"), { others: { 1: await friendPledge() } });
    return ctx.page;
  }],
  ["a deal answered, never dealt, and the next deal asked instead", ["asked"], async () => {
    const { ctx, t, c } = await panjpar();
    await askOnly(ctx.page, t, c);
    await playDeal(ctx, t, await commit(FRENCH, panjparTo(0), 1, "x"));
    return ctx.page;
  }],
  ["an earlier deal asked for after a later one", ["asked"], async () => {
    const { ctx, t } = await panjpar();
    await playDeal(ctx, t, await commit(FRENCH, panjparTo(0), 5, "a"));
    await playDeal(ctx, t, await commit(FRENCH, panjparTo(0), 4, "b"));
    return ctx.page;
  }],
  // 2. Another seat's number chosen after this page's was seen.
  ["a friend's number that was never pledged", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { numbers: (mine) => [mine, friendNumber(9)] });
    return ctx.page;
  }],
  ["a friend's number that is not the one pledged", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { others: { 1: await friendPledge() }, numbers: (mine) => [mine, friendNumber(7)] });
    return ctx.page;
  }],
  ["a friend's pledge left out after this page's number", ["missing"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { others: { 1: await friendPledge() }, numbers: (mine) => [mine, null] });
    return ctx.page;
  }],
  ["the closed list shown again with another friend's pledge", ["asked", "failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await askOnly(ctx.page, t, c, { 1: await friendPledge(1) });
    await playDeal(ctx, t, c, { others: { 1: await friendPledge(2) } });
    return ctx.page;
  }],
  ["a reveal whose pledges are not the list this page answered", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    const f2 = await friendPledge(2);
    await playDeal(ctx, t, c, {
      others: { 1: await friendPledge(1) },
      numbers: (mine) => [mine, friendNumber(2)],
      tweak: (f, step) => (step === "end" ? withReveal(f, (r) => ({ ...r, pledges: [r.pledges[0], f2] })) : f),
    });
    return ctx.page;
  }],
  ["a computer seat that 'gives' a number", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { numbers: (mine) => [mine, "computer-5"] });
    return ctx.page;
  }],
  ["a third number at a two-seat table", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { tweak: (f, step) => (step === "end" ? withReveal(f, (r) => ({ ...r, numbers: [...r.numbers, friendNumber(3)], pledges: [...r.pledges, null] })) : f) });
    return ctx.page;
  }],
  // 3. Rounds where the game has none.
  ["Panjpar shuffled three times", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { rounds: 3 });
    return ctx.page;
  }],
  // 4. A commitment used for two deals.
  ["a commitment played again after its reveal", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c);
    await ctx.page.see(t.view({ status: "playing", deal: { commitment: c.commitment, reveal: null }, view: { hand: ["2S"], trump_card: "3S" } }));
    return ctx.page;
  }],
  ["a commitment played again after its reveal and a reload", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c);
    ctx.page = ctx.page.reload();
    await ctx.page.see(t.view({ status: "playing", deal: { commitment: c.commitment, reveal: null }, view: { hand: ["2S"], trump_card: "3S" } }));
    return ctx.page;
  }],
  // 5. A version gap at the deal's first frame: the hand shown is the server's choice.
  ["the deal's first frame after a gap, with a hand of the server's choosing", ["joined"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, {
      hand: ["AS", "AH", "AD", "AC", "KS"],
      tweak: (f, step) => (step === "play" ? { ...f, version: f.version + 1 } : f),
    });
    return ctx.page;
  }],
  // 7. Another table id in the frames after a "restart": the page's memory is its own.
  ["a deal begun, then another under a new table id", ["replaced", "asked"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { tweak: (f, step) => (step === "end" ? { ...f, deal: { commitment: "ef".repeat(32), reveal: null }, status: "waiting" } : f) });
    const other = new Table({ table: "another" });
    await playDeal(ctx, other, await commit(FRENCH, panjparTo(0), 1, "y"));
    return ctx.page;
  }],
  // 8. Frames that try to make a seat's page a watcher, and malformed reveals.
  ["a last frame with no seat, its reveal forged", ["", "failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { tweak: (f, step) => (step === "end" ? withReveal({ ...f, seat: null }, (r) => ({ ...r, cards: [...r.cards].reverse() })) : f) });
    return ctx.page;
  }],
  ["a reveal whose numbers are not a list", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { tweak: (f, step) => (step === "end" ? withReveal(f, (r) => ({ ...r, numbers: "x" })) : f) });
    return ctx.page;
  }],
  ["a reveal with no cards", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { tweak: (f, step) => (step === "end" ? withReveal(f, (r) => ({ ...r, cards: null })) : f) });
    return ctx.page;
  }],
  // The pledges never closed: the page's number never left it.
  ["a deal dealt without ever closing the pledges", ["missing"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { tweak: (f, step) => (step === "close" ? { type: "noise" } : f), numbers: () => [null, null] });
    return ctx.page;
  }],
  // A deal revealed the moment the page's number is in ("burned"), never seen played.
  ["a deal revealed at once after the page's number, never seen played", ["joined"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { tweak: (f, step) => (step === "play" ? { type: "noise" } : f) });
    return ctx.page;
  }],
  ["this page's number lost on the way, the deal dealt without it", ["missing"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, { numbers: () => [null, null] });
    return ctx.page;
  }],
  ["a gap, the server naming the frame after it the deal's first, with a hand of its choosing", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    await playDeal(ctx, t, c, {
      hand: ["AS", "AH", "AD", "AC", "KS"],
      tweak: (f, step) => (step === "play" ? { ...f, version: f.version + 1, deal: { ...f.deal, dealt_at: f.version + 1 } } : f),
    });
    return ctx.page;
  }],
  // Ganjifa: void rounds judged from what the reveal shows.
  ["Panjpar: an honest draw, the attacker first", ["fair"], () => panjparDraw((order) => order[51])],
  ["Panjpar: the attacker given the defender's draw", ["failed"], () => panjparDraw((order) => order[50])],
  ["Panjpar: a card dealt to the other seat 'drawn' into this page's hand", ["failed"], () =>
    panjparDraw((order) => order.find((_, j) => panjparTo(0)[j] === 1 && j > 1))],
  ["Panjpar: a card drawn from deep in the pile", ["failed"], () => panjparDraw((order) => order[20])],
  ["Panjpar: a card drawn although the cards on show say the pile gave none", ["failed"], () =>
    panjparDraw((order) => order[51], { counts: [5, 3] })],
  ["Panjpar: the other seat lays a card dealt to this page", ["failed"], async () => {
    const { ctx, t, c } = await panjpar();
    const battle = (order) => ({ attacker: 1, attack: [mineOf(order)[0]], covers: [], picked_up: [], finished: false });
    const view = (order) => ({ hand: mineOf(order).slice(1), counts: [4, 5], battle: battle(order), trump_card: order[10] });
    await playDeal(ctx, t, c, { plays: (order) => [{ view: view(order) }] });
    return ctx.page;
  }],
  ["Ganjifa: an honest blind lead", ["fair"], () => ganjifaBlind()],
  ["Ganjifa: a blind lead whose back gave another of the leader's cards", ["failed"], () => ganjifaBlind({ give: 4 })],
  ["Ganjifa: a blind lead of a deal that says its draws are not from the numbers", ["partly"], () => ganjifaBlind({ open: false })],
  ["Ganjifa: this page's own blind pick, honest", ["fair"], () => ganjifaBlind({ leader: 2, chose: 3 })],
  ["Ganjifa: the table names another back than the one this page picked", ["failed"], () =>
    ganjifaBlind({ leader: 2, chose: 3, give: 5, name: 5 })],
  ["Ganjifa shuffled again although every hand had a Mir", ["failed"], async () => {
    await useGame("ganjifa");
    const ctx = { page: new Page() };
    const t = new Table({ game: "ganjifa", seats: 3 });
    const c = await commit(GANJIFA, ganjifaTo(2), 0);
    await playDeal(ctx, t, c, { rounds: (honest) => honest + 1 });
    return ctx.page;
  }],
];

/** A frame with its reveal changed by `change`. */
function withReveal(frame, change) {
  return { ...frame, deal: { ...frame.deal, reveal: change(frame.deal.reveal) } };
}

/** The table asks for `committed` and closes its pledges, taking the page's number; no deal follows. */
async function askOnly(page, t, committed, others = {}) {
  await page.see(t.view({ status: "waiting", shuffle: t.asking(committed), deal: null, view: null }));
  const mine = page.last("pledge")?.hash ?? null;
  const pledges = Array.from({ length: t.seats }, (_, s) => (s === t.seat ? mine : (others[s] ?? null)));
  await page.see(t.closed(committed, pledges));
}

/** Runs every scenario; each line "ok NAME" or "WRONG NAME: STATE LINE". */
export async function runAll() {
  const out = [];
  for (const [name, want, run] of [...SCENARIOS, ...ATTACKS, ...STOCKS, ...PLACES, ...BLIND]) {
    const page = await run();
    const ok = want.includes(page.state) && (page.state !== "fair" || !NOT_GREEN.includes(page.state));
    out.push(ok ? `ok ${name}` : `WRONG ${name}: wanted ${want.join("/")}, got ${page.line}`);
  }
  return out;
}

/**
 * `count` honest Ganjifa deals (from the `from`th) against two computers, each judged from every seat with the cards
 * played face down (up to four a deal, Mirs among them) hidden from the other seats' reveals: the
 * verdicts, counted by state.
 */
export async function honestGanjifa(count, from = 0) {
  await useGame("ganjifa");
  const states = {};
  for (let d = from; d < from + count; d += 1) {
    const order = [...GANJIFA];
    // A different order each deal (the table's choice does not matter to fairness).
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = (d * 7919 + i * 104729) % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    const c = await commit(order, ganjifaTo(d % 3), 0, `g${d}`);
    for (let seat = 0; seat < 3; seat += 1) {
      const t = new Table({ game: "ganjifa", seats: 3, seat });
      const ctx = { page: new Page({}, { owner: `g${d}:${seat}` }) };
      // Up to four cards of the other seats went down face down: the reveal hides them from this seat.
      const hide = (order2) => order2.filter((_, j) => c.to[j] !== seat && (j * 31 + d) % 23 === 0).slice(0, 4);
      await playDeal(ctx, t, c, { numbers: (mine) => [0, 1, 2].map((s) => (s === seat ? mine : null)), hide });
      states[ctx.page.state] = (states[ctx.page.state] || 0) + 1;
    }
  }
  return states;
}
