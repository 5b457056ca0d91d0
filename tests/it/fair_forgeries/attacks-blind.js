// Ganjifa's blind leads as a dishonest table would show them, for the page's own check (verify.js):
// every blind pick must give the card at the back picked of the leader's hand of that moment,
// shuffled from the deal's seed. In the shape of forgeries.js's SCENARIOS (a name, the states the
// page may end in, the play). This page is seat 0; seat 1 leads blind unless told, seat 2 picks.

import { Page, Table, commit, playDeal, useGame, GANJIFA, ganjifaTo } from "./forge.js";
import { sha256 } from "./verify.js";

/**
 * A Ganjifa deal whose views after the first are `plays(deal)`'s (each `{ view, skip }`), `deal`
 * giving: `hand` (this page's), `lead` (the leader's hand dealt), `backs(hand, nth)` (a hand laid
 * face down for the deal's blind lead `nth`) and `ctx` (its page).
 */
async function blindGame(plays, leader = 1) {
  await useGame("ganjifa");
  const { blindBacks, blindSeed } = await import("./ganjifa-hooks.js");
  const ctx = { page: new Page() };
  const t = new Table({ game: "ganjifa", seats: 3 });
  const c = await commit(GANJIFA, ganjifaTo(2), 0, "x");
  await playDeal(ctx, t, c, {
    plays: async (order, numbers) => {
      const seed = await blindSeed(sha256, c.commitment, numbers);
      const handOf = (s) => order.filter((_, j) => c.to[j] === s);
      return plays({ ctx, hand: handOf(0), lead: handOf(leader), backs: (hand, nth) => blindBacks(hand, seed, nth) });
    },
  });
  return ctx.page;
}

/**
 * A trick led by `leader` with `cards` of its own: a blind lead's (back `back` of `laid`, lead
 * `nth`) or a run.
 */
const trick = (leader, cards, blind = null) => ({
  leader,
  kind: blind ? { kind: "blind", suit: "taj", back: blind.back, nth: blind.nth, laid: blind.laid } : { kind: "run", suit: "taj" },
  winner: leader,
  cards: [0, 1, 2].map((s) => (s === leader ? cards : [])),
  face_down_by: null,
  need: [0, 0, 0],
});
const blind = (leader, card, back, nth, laid) => trick(leader, [card], { back, nth, laid });
/** A talafa `leader` laid face down, its card unseen by this page (seat 0). */
const faceDown = (leader) => ({ ...trick(leader, []), kind: { kind: "talafa", suit: "taj", face_down: true }, face_down_by: leader });

/**
 * The leader plays `unseen` face down (its trick ended), then leads blind from the rest (`laid`
 * backs, the table giving back 3 of `pickFrom`), then plays `after` face up.
 */
function afterFaceDown({ hand, lead, backs }, { unseen, laid, pickFrom, after }) {
  const card = backs(pickFrom, 0)[3];
  const led = blind(1, card, 3, 0, laid);
  const later = trick(1, after.filter((c) => c !== card));
  return [
    { view: { hand, trick: null, last_trick: faceDown(1), played: unseen } },
    { view: { hand, trick: led, last_trick: faceDown(1), played: [...unseen, card] } },
    { view: { hand, trick: null, last_trick: led, played: [...unseen, card] } },
    { view: { hand, trick: null, last_trick: later, played: [...unseen, ...after] } },
  ];
}
const without = (hand, cards) => hand.filter((c) => !cards.includes(c));

/**
 * The table's pick among `choices` (each a list of the leader's cards to count as played or not, as
 * `hand(choice)` says): the first whose hand gives at back 3 a card other than `honest`, not in
 * `barred`; as [choice, card].
 */
function choose(choices, hand, backs, honest, barred = []) {
  for (const choice of choices) {
    const card = backs(hand(choice), 0)[3];
    if (card !== honest && !barred.includes(card) && !choice.includes(card)) return [choice, card];
  }
  throw new Error("no choice gives another card");
}
const singles = (cards) => cards.map((c) => [c]);

export const BLIND = [
  ["Ganjifa: an honest blind lead whose trick ended at once, seen only as the last trick", ["fair"], () =>
    blindGame(({ hand, lead, backs }) => {
      const card = backs(lead, 0)[3];
      return [{ view: { hand, trick: null, last_trick: blind(1, card, 3, 0), played: [card] } }];
    })],
  ["Ganjifa: a blind lead whose trick ended at once, seen only as the last trick, giving another card", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const card = backs(lead, 0)[4];
      return [{ view: { hand, trick: null, last_trick: blind(1, card, 3, 0), played: [card] } }];
    })],
  ["Ganjifa: an honest blind lead after the leader played, over several views", ["fair"], () =>
    blindGame(({ hand, lead, backs }) => {
      const run = lead.slice(0, 2);
      const card = backs(without(lead, run), 0)[3];
      const led = blind(1, card, 3, 0);
      return [
        { view: { hand, trick: trick(1, run), played: run } },
        { view: { hand, trick: null, last_trick: trick(1, run), played: run } },
        { view: { hand, trick: led, last_trick: trick(1, run), played: [...run, card] } },
        { view: { hand, trick: led, last_trick: trick(1, run), played: [...run, card] } },
        { view: { hand, trick: null, last_trick: led, played: [...run, card] } },
      ];
    })],
  ["Ganjifa: a second blind lead numbered as the first, giving the card the table chose", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const card = backs(lead, 0)[3];
      const chosen = without(lead, [card, backs(without(lead, [card]), 1)[3]])[0];
      return [
        { view: { hand, trick: blind(1, card, 3, 0), played: [card] } },
        { view: { hand, trick: null, last_trick: blind(1, card, 3, 0), played: [card] } },
        { view: { hand, trick: blind(1, chosen, 3, 0), last_trick: blind(1, card, 3, 0), played: [card, chosen] } },
      ];
    })],
  ["Ganjifa: a first blind lead numbered so that the back named gives the card the table chose", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const want = lead.find((c) => c !== backs(lead, 0)[3]);
      const nth = [...Array(2000).keys()].find((n) => backs(lead, n)[3] === want);
      return [{ view: { hand, trick: blind(1, want, 3, nth), played: [want] } }];
    })],
  ["Ganjifa: a blind lead's card changed after its first view", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const card = backs(lead, 0)[3];
      const other = backs(lead, 0)[4];
      return [
        { view: { hand, trick: blind(1, card, 3, 0), played: [card] } },
        { view: { hand, trick: blind(1, other, 3, 0), played: [other] } },
        { view: { hand, trick: null, last_trick: blind(1, other, 3, 0), played: [other] } },
      ];
    })],
  ["Ganjifa: the played cards list leader's cards never played, so the seed gives the card the table chose", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const [gone, want] = choose(singles(lead), (s) => without(lead, s), backs, backs(lead, 0)[3]);
      return [{ view: { hand, trick: blind(1, want, 3, 0), played: [...gone, want] } }];
    })],
  ["Ganjifa: the played cards leave out cards the leader played, so the seed gives the card the table chose", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const run = lead.slice(0, 6);
      const subsets = [...Array(64).keys()].map((m) => run.filter((_, i) => m & (1 << i)));
      const [kept, want] = choose(subsets, (s) => without(lead, s), backs, backs(without(lead, run), 0)[3], run);
      return [
        { view: { hand, trick: trick(1, run), played: run } },
        { view: { hand, trick: null, last_trick: trick(1, run), played: run } },
        { view: { hand, trick: blind(1, want, 3, 0), played: [...kept, want] } },
      ];
    })],
  ["Ganjifa: a card shown played and taken back before a blind lead", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const [[flashed], want] = choose(singles(lead), (s) => without(lead, s), backs, backs(lead, 0)[3]);
      return [
        { view: { hand, trick: trick(1, [flashed]), played: [flashed] } },
        { view: { hand, trick: null, played: [flashed] } },
        { view: { hand, trick: blind(1, want, 3, 0), played: [flashed, want] } },
      ];
    })],
  ["Ganjifa: a card shown played before a blind lead and played again after it", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const [[twice], want] = choose(singles(lead), (s) => without(lead, s), backs, backs(lead, 0)[3]);
      const led = blind(1, want, 3, 0);
      return [
        { view: { hand, trick: trick(1, [twice]), played: [twice] } },
        { view: { hand, trick: null, last_trick: trick(1, [twice]), played: [twice] } },
        { view: { hand, trick: led, last_trick: trick(1, [twice]), played: [twice, want] } },
        { view: { hand, trick: null, last_trick: led, played: [twice, want] } },
        { view: { hand, trick: trick(1, [twice]), last_trick: led, played: [twice, want] } },
      ];
    })],
  ["Ganjifa: this page clicked two backs before the table's answer, and the table took the first", ["fair"], () =>
    blindGame(({ ctx, hand, lead, backs }) => {
      ctx.page.check.acted({ type: "pick", back: 3 });
      ctx.page.check.acted({ type: "pick", back: 5 });
      const card = backs(lead, 0)[3];
      return [{ view: { hand, trick: blind(2, card, 3, 0), played: [card] } }];
    }, 2)],
  ["Ganjifa: this page picked, and the table named a back it did not click", ["failed"], () =>
    blindGame(({ ctx, hand, lead, backs }) => {
      ctx.page.check.acted({ type: "pick", back: 3 });
      ctx.page.check.acted({ type: "pick", back: 5 });
      const card = backs(lead, 0)[4];
      return [{ view: { hand, trick: blind(2, card, 4, 0), played: [card] } }];
    }, 2)],
  ["Ganjifa: an honest blind lead after the leader played a card face down unseen here", ["fair"], () =>
    blindGame((deal) => {
      const rest = deal.lead.slice(1);
      return afterFaceDown(deal, { unseen: deal.lead.slice(0, 1), laid: rest.length, pickFrom: rest, after: rest });
    })],
  ["Ganjifa: a blind lead that lays every card dealt though the leader played one face down", ["failed"], () =>
    blindGame((deal) => {
      const rest = deal.lead.slice(1);
      return afterFaceDown(deal, { unseen: deal.lead.slice(0, 1), laid: deal.lead.length, pickFrom: deal.lead, after: rest });
    })],
  ["Ganjifa: a blind lead that lays one card fewer than the leader held, none played face down", ["failed"], () =>
    blindGame((deal) => {
      const [[gone]] = choose(singles(deal.lead), (c) => without(deal.lead, c), deal.backs, deal.backs(deal.lead, 0)[3]);
      const kept = without(deal.lead, [gone]);
      return afterFaceDown(deal, { unseen: [], laid: kept.length, pickFrom: kept, after: kept }).slice(1);
    })],
  // The page cannot tell which card a leader played face down until it sees the others played, so
  // a table could name another one, as long as it then shows the leader playing the rest: the same
  // choice as the leader's own, which a dishonest table already makes for anyone it plays for.
  ["Ganjifa: after a face-down card, another one never seen played stands for it", ["fair"], () =>
    blindGame((deal) => {
      const [[gone]] = choose(singles(deal.lead.slice(1)), (c) => without(deal.lead, c), deal.backs, deal.backs(deal.lead.slice(1), 0)[3]);
      const kept = without(deal.lead, [gone]);
      return afterFaceDown(deal, { unseen: [], laid: kept.length, pickFrom: kept, after: kept }).map((v, i) =>
        i === 0 ? { view: { ...v.view, played: [deal.lead[0]] } } : v);
    })],
  ["Ganjifa: a blind lead played wholly within versions this page missed", ["partly"], () =>
    blindGame(({ hand, lead }) => {
      const chosen = lead[0];
      const next = trick(1, [lead[1]]);
      return [{ view: { hand, trick: null, last_trick: next, played: [chosen, lead[1]] }, skip: 3 }];
    })],
];
