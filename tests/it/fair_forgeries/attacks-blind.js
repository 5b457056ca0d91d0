// Ganjifa's blind leads as a dishonest table would show them, for the page's own check (verify.js):
// every blind pick must give the card at the back picked of the leader's hand of that moment,
// shuffled from the deal's seed. In the shape of forgeries.js's SCENARIOS (a name, the states the
// page may end in, the play). This page is seat 0; seat 1 leads blind unless told, seat 2 picks.

import { Page, Table, commit, playDeal, useGame, GANJIFA, ganjifaTo } from "./forge.js";
import { sha256 } from "./reveal.js";

/**
 * A Ganjifa deal whose views after the first are `plays(deal)`'s (each `{ view, skip }`), `deal`
 * giving: `hand` (this page's), `lead` (the leader's hand dealt), `backs(hand, nth)` (a hand laid
 * face down for the deal's blind lead `nth`), `handOf(seat)` and `ctx` (its page); `opts` as
 * playDeal's.
 */
async function blindGame(plays, leader = 1, opts = {}) {
  await useGame("ganjifa");
  const { blindBacks, blindSeed } = await import("./ganjifa-hooks.js");
  const ctx = { page: new Page() };
  const t = new Table({ game: "ganjifa", seats: 3 });
  const c = await commit(GANJIFA, ganjifaTo(2), 0, "x");
  await playDeal(ctx, t, c, {
    plays: async (order, numbers) => {
      const seed = await blindSeed(sha256, c.commitment, numbers);
      const handOf = (s) => order.filter((_, j) => c.to[j] === s);
      return plays({ ctx, hand: handOf(0), lead: handOf(leader), backs: (hand, nth) => blindBacks(hand, seed, nth), handOf });
    },
    ...opts,
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
/** A talafa `leader` laid face down, its card unseen by this page (seat 0), and no other card. */
const faceDown = (leader) => ({ ...trick(leader, []), kind: { kind: "talafa", suit: "taj", face_down: true }, face_down_by: leader });
/** A face-down talafa by `leader` as an honest table shows it: the hukm `hukm` played by `holder`. */
const downWith = (leader, holder, hukm, fields = {}) => ({ ...faceDown(leader), winner: holder, cards: [0, 1, 2].map((s) => (s === holder ? [hukm] : [])), ...fields });

/**
 * The leader plays `unseen` face down (its trick ended), then leads blind from the rest (`laid`
 * backs, the table giving back 3 of `pickFrom`), then plays `after` face up. Without `down`, no
 * face-down talafa is shown at all.
 */
function afterFaceDown({ hand, lead, backs }, { unseen, laid, pickFrom, after, down: shown = true, honest = pickFrom }) {
  // (A forged pick names a back at which the hand the page must work out, `honest`, gives another card.)
  const back = [...pickFrom.keys()].find((b) => backs(pickFrom, 0)[b] !== backs(honest, 0)[b]) ?? 3;
  const card = backs(pickFrom, 0)[back];
  const led = blind(1, card, back, 0, laid);
  const later = trick(1, after.filter((c) => c !== card));
  // This page holds the hukm of the talafa's suit.
  const [hukm, held] = [hand[0], hand.slice(1)];
  const down = shown ? downWith(1, 0, hukm) : null;
  return [
    { view: { hand: held, trick: null, last_trick: down, played: [hukm, ...unseen] } },
    { view: { hand: held, trick: led, last_trick: down, played: [hukm, ...unseen, card] } },
    { view: { hand: held, trick: null, last_trick: led, played: [hukm, ...unseen, card] } },
    { view: { hand: held, trick: null, last_trick: later, played: [hukm, ...unseen, ...after] } },
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
/** As `choose`, trying every back, against the hand an honest table would lay (`honest`): as
 * [choice, card, back]. */
function chooseAt(choices, hand, backs, honest, barred = []) {
  for (let back = 0; back < honest.length; back += 1) {
    for (const choice of choices) {
      const card = backs(hand(choice), 0)[back];
      if (card && card !== backs(honest, 0)[back] && !barred.includes(card) && !choice.includes(card)) return [choice, card, back];
    }
  }
  throw new Error("no choice gives another card");
}

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
      return afterFaceDown(deal, { unseen: deal.lead.slice(0, 1), laid: deal.lead.length, pickFrom: deal.lead, after: rest, honest: rest });
    })],
  ["Ganjifa: a blind lead that lays one card fewer than the leader held, none played face down", ["failed"], () =>
    blindGame((deal) => {
      const [[gone]] = choose(singles(deal.lead), (c) => without(deal.lead, c), deal.backs, deal.backs(deal.lead, 0)[3]);
      const kept = without(deal.lead, [gone]);
      return afterFaceDown(deal, { unseen: [], laid: kept.length, pickFrom: kept, after: kept, down: false });
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

// Forgeries from an attack on the blind lead's inference of the leader's hand: B1 to B7 ended green
// before the hooks were fixed; B8 on ended rightly and are kept so that they stay so. Honest deals
// that must stay green (or "partly", where the page cannot decide) are among them.

BLIND.push(
  // B1. The trick before the blind lead shown only as the last trick in the blind lead's first view:
  // its cards counted as still held at the blind lead.
  ["Ganjifa: the leader's trick before a blind lead shown only in the blind lead's first view", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const run = lead.slice(0, 2);
      const want = backs(lead, 0)[3];
      return [{ view: { hand, trick: blind(1, want, 3, 0, lead.length), last_trick: trick(1, run), played: [...run, want] } }];
    })],
  // B2. No `laid` after a face-down card: the leader's hand taken as every card not seen played.
  ["Ganjifa: a blind lead without its count of backs after a face-down card", ["failed"], () =>
    blindGame((deal) => {
      const rest = deal.lead.slice(1);
      return afterFaceDown(deal, { unseen: [], laid: undefined, pickFrom: deal.lead, after: rest, honest: rest });
    })],
  // B3. A face-down talafa seen in progress, then ended without its `face_down_by`: not counted.
  ["Ganjifa: a face-down talafa whose end no longer says face down", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const fd = downWith(1, 0, hand[0]);
      const card = backs(lead, 0)[3];
      const led = blind(1, card, 3, 0, lead.length);
      return [
        { view: { hand: hand.slice(1), trick: fd, played: [hand[0]] } },
        { view: { hand: hand.slice(1), trick: null, last_trick: { ...fd, face_down_by: null }, played: [hand[0]] } },
        { view: { hand: hand.slice(1), trick: led, last_trick: { ...fd, face_down_by: null }, played: [hand[0], card] } },
      ];
    })],
  // B4. A face-down trick with no card shown, in progress, then gone.
  ["Ganjifa: a face-down trick with no card shown that vanishes before a blind lead", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const card = backs(lead, 0)[3];
      return [
        { view: { hand, trick: faceDown(1), played: [] } },
        { view: { hand, trick: null, last_trick: null, played: [] } },
        { view: { hand, trick: blind(1, card, 3, 0, lead.length), played: [card] } },
      ];
    })],
  // B5. A face-down talafa, then the blind lead's hand taken without a card the leader still shows
  // face up; the card really played face down shown played later.
  ["Ganjifa: a card the leader still shows face up named as its face-down card", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const [[shown], card, back] = chooseAt(singles(lead.slice(1)), (z) => without(lead, z), backs, without(lead, [lead[0]]));
      const fd = downWith(1, 0, hand[0]);
      const led = blind(1, card, back, 0, lead.length - 1);
      const later = trick(1, without(lead, [shown, card]));
      const faceUp = [[], [shown], []];
      const h = hand.slice(1);
      return [
        { view: { hand: h, face_up: faceUp, trick: null, last_trick: fd, played: [hand[0]] } },
        { view: { hand: h, face_up: faceUp, trick: led, last_trick: fd, played: [hand[0], card] } },
        { view: { hand: h, face_up: faceUp, trick: null, last_trick: led, played: [hand[0], card] } },
        { view: { hand: h, face_up: faceUp, trick: null, last_trick: later, played: [hand[0], ...without(lead, [shown])] } },
      ];
    })],
  // B6. One face-down talafa shown ended twice (its `need` changed): counted as two.
  ["Ganjifa: one face-down talafa shown ended twice, two cards of the table's choosing taken out", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const pairs = lead.slice(1, 12).flatMap((a, i) => lead.slice(i + 2, 12).map((b) => [a, b]));
      const [gone, card, back] = chooseAt(pairs, (z) => without(lead, z), backs, without(lead, [lead[0]]));
      const fd = downWith(1, 0, hand[0]);
      const led = blind(1, card, back, 0, lead.length - 2);
      const later = trick(1, without(lead, [...gone, card]));
      const h = hand.slice(1);
      return [
        { view: { hand: h, trick: null, last_trick: fd, played: [hand[0]] } },
        { view: { hand: h, trick: null, last_trick: { ...fd, need: [0, 1, 0] }, played: [hand[0]] } },
        { view: { hand: h, trick: led, last_trick: { ...fd, need: [0, 1, 0] }, played: [hand[0], card] } },
        { view: { hand: h, trick: null, last_trick: led, played: [hand[0], card] } },
        { view: { hand: h, trick: null, last_trick: later, played: [hand[0], ...without(lead, gone)] } },
      ];
    })],
  // B7. A face-down talafa shown only as the last trick in the blind lead's first view.
  ["Ganjifa: a face-down talafa shown ended only in the blind lead's first view", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const card = backs(lead, 0)[3];
      const fd = downWith(1, 0, hand[0]);
      return [{ view: { hand: hand.slice(1), trick: blind(1, card, 3, 0, lead.length), last_trick: fd, played: [hand[0], card] } }];
    })],
);

BLIND.push(
  ["Ganjifa: an honest face-down talafa seen in progress, then ended, then a blind lead", ["fair"], () =>
    blindGame(({ hand, lead, backs }) => {
      const hukm = hand[0];
      const rest = lead.slice(1);
      const card = backs(rest, 0)[3];
      const down = downWith(1, 0, hukm);
      const ended = { ...down, cards: [[hukm], [], []], need: [0, 0, 0] };
      const led = blind(1, card, 3, 0, rest.length);
      const h = hand.slice(1);
      return [
        { view: { hand: h, trick: { ...down, need: [0, 0, 1] }, played: [hukm] } },
        { view: { hand: h, trick: null, last_trick: ended, played: [hukm] } },
        { view: { hand: h, trick: led, last_trick: ended, played: [hukm, card] } },
        { view: { hand: h, trick: null, last_trick: led, played: [hukm, card] } },
        { view: { hand: h, trick: null, last_trick: trick(1, without(rest, [card])), played: [hukm, ...rest] } },
      ];
    })],
  // B8. A second face-down talafa shown as the first one's trick, ended again with a new card: one
  // face-down card counted where two were laid.
  ["Ganjifa: a second face-down talafa passed off as the first one ending again", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const [h1, h2] = hand;
      const card = backs(lead.slice(1), 0)[3];
      const first = downWith(1, 0, h1);
      const again = { ...first, cards: [[h1, h2], [], []] };
      const led = blind(1, card, 3, 0, lead.length - 1);
      return [
        { view: { hand: hand.slice(1), trick: null, last_trick: first, played: [h1] } },
        { view: { hand: hand.slice(2), trick: null, last_trick: again, played: [h1, h2] } },
        { view: { hand: hand.slice(2), trick: led, last_trick: again, played: [h1, h2, card] } },
        { view: { hand: hand.slice(2), trick: null, last_trick: trick(1, without(lead.slice(1), [card])), played: [h1, h2, ...lead.slice(1)] } },
      ];
    })],
  // B9.
  ["Ganjifa: a card shown in the trick in progress and in the last trick at once", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const card = backs(lead, 0)[3];
      const first = downWith(1, 0, hand[0]);
      return [
        { view: { hand: hand.slice(1), trick: first, last_trick: first, played: [hand[0]] } },
        { view: { hand: hand.slice(1), trick: blind(1, card, 3, 0, lead.length), last_trick: first, played: [hand[0], card] } },
      ];
    })],
);

/**
 * The leader (seat 1) lays `downs` face down in talafas, each over a hukm of this page's, then leads
 * blind, then plays the rest face up; `upFront` of its cards are shown face up in its hand until
 * played; `laterDowns` more it lays face down after the blind lead.
 */
function talafasThenBlind({ hand, lead, backs }, { downs = [lead[0]], upFront = [], laterDowns = 0 } = {}) {
  const before = without(lead, downs);
  const card = backs(before, 0)[3];
  const downAfter = without(before, [card]).slice(0, laterDowns);
  const rest = without(before, downAfter);
  const views = [];
  let played = [];
  const mine = [...hand];
  const faceUp = (gone) => [[], upFront.filter((c) => !gone.includes(c)), []];
  const gone = [];
  let last = null;
  const talafa = (down) => {
    const hukm = mine.shift();
    last = downWith(1, 0, hukm);
    gone.push(down);
    played = [...played, hukm];
    views.push({ view: { hand: [...mine], face_up: faceUp(gone), trick: { ...last, need: [0, 0, 1] }, last_trick: null, played } });
    views.push({ view: { hand: [...mine], face_up: faceUp(gone), trick: null, last_trick: last, played } });
  };
  downs.forEach(talafa);
  const led = blind(1, card, 3, 0, before.length);
  gone.push(card);
  played = [...played, card];
  views.push({ view: { hand: [...mine], face_up: faceUp(gone), trick: led, last_trick: last, played } });
  views.push({ view: { hand: [...mine], face_up: faceUp(gone), trick: null, last_trick: led, played } });
  downAfter.forEach(talafa);
  const others = without(rest, [card]);
  gone.push(...others);
  views.push({ view: { hand: [...mine], face_up: faceUp(gone), trick: null, last_trick: trick(1, others), played: [...played, ...others] } });
  return views;
}

BLIND.push(
  ["Ganjifa: an honest blind lead after two face-down talafas", ["fair"], () =>
    blindGame((deal) => talafasThenBlind(deal, { downs: deal.lead.slice(0, 2) }))],
  ["Ganjifa: an honest blind lead after a face-down talafa of a card dealt face up", ["fair"], () =>
    blindGame((deal) => talafasThenBlind(deal, { upFront: deal.lead.slice(0, 3) }))],
  ["Ganjifa: an honest blind lead between two face-down talafas, all of them shown at the reveal", ["partly"], () =>
    blindGame((deal) => talafasThenBlind(deal, { laterDowns: 1 }))],
);

/** This page opened again after every view of the deal (the browser's storage kept). */
const reloading = { after: async (step, x) => { if (step === "more") x.page = x.page.reload(); } };

BLIND.push(
  ["Ganjifa: an honest blind lead after a face-down talafa, the page reloaded after every view", ["fair"], () =>
    blindGame((deal) => talafasThenBlind(deal, { upFront: deal.lead.slice(0, 2) }), 1, reloading)],
  ["Ganjifa: this page's own blind lead after its own face-down talafa", ["fair"], () =>
    blindGame(({ ctx, hand, backs, handOf }) => {
      const [mine, hukm] = [hand[0], handOf(1)[0]];
      // This page laid it: its board told the deal check so.
      ctx.page.check.acted({ type: "talafa", suit: "taj", card: mine });
      const down = { ...trick(0, [mine]), kind: { kind: "talafa", suit: "taj", face_down: true }, face_down_by: 0, winner: 1, cards: [[mine], [hukm], []] };
      const rest = hand.slice(1);
      const card = backs(rest, 0)[3];
      const led = blind(0, card, 3, 0, rest.length);
      return [
        { view: { hand: rest, trick: null, last_trick: down, played: [mine, hukm] } },
        { view: { hand: without(rest, [card]), trick: led, last_trick: down, played: [mine, hukm, card] } },
      ];
    }, 0)],
  ["Ganjifa: two honest blind leads by two leaders, the second leader having played in the first", ["fair"], () =>
    blindGame(({ hand, backs, handOf }) => twoBlinds(hand, backs, handOf, false))],
  // B10.
  ["Ganjifa: a second blind lead from a hand still holding the card its leader played in the first", ["failed"], () =>
    blindGame(({ hand, backs, handOf }) => twoBlinds(hand, backs, handOf, true))],
  ["Ganjifa: a face-down talafa within versions this page missed, then a blind lead", ["partly"], () =>
    blindGame(({ hand, lead, backs }) => {
      const card = backs(lead, 0)[3];
      const down = downWith(1, 0, hand[0]);
      return [
        { view: { hand: hand.slice(1), trick: null, last_trick: down, played: [hand[0]] }, skip: 2 },
        { view: { hand: hand.slice(1), trick: blind(1, card, 3, 0, lead.length), last_trick: down, played: [hand[0], card] } },
      ];
    })],
  // B11.
  ["Ganjifa: a face-down talafa whose leader is named as text, so it is not counted", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const card = backs(lead, 0)[3];
      const down = { ...downWith(1, 0, hand[0]), leader: "1" };
      return [
        { view: { hand: hand.slice(1), trick: null, last_trick: down, played: [hand[0]] } },
        { view: { hand: hand.slice(1), trick: blind(1, card, 3, 0, lead.length), last_trick: down, played: [hand[0], card] } },
      ];
    })],
  // B12.
  ["Ganjifa: a face-down talafa whose leader changes as it ends, counted for both seats", ["failed"], () =>
    blindGame(({ hand, lead, backs }) => {
      const [[gone], card, back] = chooseAt(singles(lead), (z) => without(lead, z), backs, lead);
      const down = downWith(2, 0, hand[0]);
      const led = blind(1, card, back, 0, lead.length - 1);
      return [
        { view: { hand: hand.slice(1), trick: down, played: [hand[0]] } },
        { view: { hand: hand.slice(1), trick: null, last_trick: { ...down, leader: 1, face_down_by: 1 }, played: [hand[0]] } },
        { view: { hand: hand.slice(1), trick: led, last_trick: { ...down, leader: 1, face_down_by: 1 }, played: [hand[0], card] } },
        { view: { hand: hand.slice(1), trick: null, last_trick: trick(1, without(lead, [gone, card])), played: [hand[0], ...without(lead, [gone])] } },
      ];
    })],
);

/**
 * Seat 1 leads blind (seat 2 plays a card into it), then seat 2 leads blind; `keep` shows the
 * second from seat 2's hand with the card it played in the first still in it.
 */
function twoBlinds(hand, backs, handOf, keep) {
  const [one, two] = [handOf(1), handOf(2)];
  const first = backs(one, 0)[3];
  const follow = two[0];
  const led = { ...blind(1, first, 3, 0, one.length), cards: [[hand[0]], [first], [follow]], winner: 0 };
  const held = keep ? two : two.slice(1);
  const back = [...held.keys()].find((b) => backs(held, 1)[b] !== backs(two.slice(1), 1)[b]) ?? 3;
  const second = backs(held, 1)[back];
  const next = blind(2, second, back, 1, held.length);
  return [
    { view: { hand: hand.slice(1), trick: null, last_trick: led, played: [hand[0], first, follow] } },
    { view: { hand: hand.slice(1), trick: next, last_trick: led, played: [hand[0], first, follow, second] } },
  ];
}

// This page's own blind leads (this page is seat 0 and leads blind). Its own hand is no inference:
// at its blind lead it held the hand it was shown with the card the pick took out, which must be its
// cards dealt less those it saw itself play; and no card of its own goes face down unless this page
// (a tab of this seat) laid it.

/** A face-down talafa led by this page's seat over seat 1's hukm `hukm`, its own card `mine` shown
 * to it (as an honest table shows this seat its own card), or hidden when `mine` is null. */
const ownDown = (mine, hukm) => ({
  ...faceDown(0),
  winner: 1,
  cards: [mine === null ? [] : [mine], [hukm], []],
});

/**
 * This page's seat lays `down` face down (unless null: no talafa), having clicked `clicked` (a card
 * it chose, or null: it clicked nothing), then leads blind from `held` (the table naming back
 * `back` and giving `card`), then plays the rest face up; `shownHand` is the hand shown from the
 * talafa on (by default `held`).
 */
function ownBlind({ ctx, handOf }, { down = null, hidden = false, clicked = down, held, back, card, shownHand = held }) {
  const views = [];
  let played = [];
  let last = null;
  if (down !== null || hidden) {
    const hukm = handOf(1)[0];
    if (clicked !== null) ctx.page.check.acted({ type: "talafa", suit: "taj", card: clicked });
    last = ownDown(hidden ? null : down, hukm);
    played = [hukm, ...(hidden ? [] : [down])];
    views.push({ view: { hand: shownHand, trick: { ...last, need: [0, 0, 1] }, last_trick: null, played } });
    views.push({ view: { hand: shownHand, trick: null, last_trick: last, played } });
  }
  ctx.page.check.acted({ type: "give-up-lead" });
  const led = blind(0, card, back, 0, held.length);
  const after = without(shownHand, [card]);
  played = [...played, card];
  views.push({ view: { hand: after, trick: led, last_trick: last, played } });
  views.push({ view: { hand: after, trick: null, last_trick: led, played } });
  views.push({ view: { hand: [], trick: null, last_trick: trick(0, after), played: [...played, ...after] } });
  return views;
}

/**
 * A forged blind lead of this page's own, from its hand less one card of the table's choosing (among
 * `among(hand)`), so that the back picked gives the card the table wants; `play(gone, hand)` says
 * what the frames show of the card taken out (see `ownBlind`).
 */
const shrunkOwnBlind = (play, among = (hand) => hand) => () =>
  blindGame((deal) => {
    const { hand, backs } = deal;
    const [[gone], card, back] = chooseAt(singles(among(hand)), (z) => without(hand, z), backs, among(hand));
    return ownBlind(deal, { ...play(gone, hand), held: without(hand, [gone]), back, card });
  }, 0);

BLIND.push(
  ["Ganjifa: this page's own honest blind lead", ["fair"], () =>
    blindGame((deal) => ownBlind(deal, { held: deal.hand, back: 3, card: deal.backs(deal.hand, 0)[3] }), 0)],
  ["Ganjifa: this page's own honest blind lead, the page reloaded after every view", ["fair"], () =>
    blindGame((deal) => ownBlind(deal, { held: deal.hand, back: 3, card: deal.backs(deal.hand, 0)[3] }), 0, reloading)],
  ["Ganjifa: this page's own honest blind lead after its own face-down talafa, clicked here", ["fair"], () =>
    blindGame((deal) => {
      const held = deal.hand.slice(1);
      return ownBlind(deal, { down: deal.hand[0], held, back: 3, card: deal.backs(held, 0)[3] });
    }, 0)],
  ["Ganjifa: this page's own honest blind lead after its own face-down talafa, the page reloaded after every view", ["fair"], () =>
    blindGame((deal) => {
      const held = deal.hand.slice(1);
      return ownBlind(deal, { down: deal.hand[0], held, back: 3, card: deal.backs(held, 0)[3] });
    }, 0, reloading)],
  // B13. A card of this page's own counted as laid face down by its seat, hidden from this page (as
  // from another seat's), and left out of the hand it is shown: the hand at its blind lead one card
  // smaller, the card left out the table's choice, so that the back picked gives the card it wants.
  ["Ganjifa: a face-down card this seat never laid, hidden from its own page, before its blind lead", ["failed"],
    shrunkOwnBlind(() => ({ hidden: true, clicked: null }))],
  // B14. The same with the card shown to this page, as its own face-down card is: a talafa this page
  // never clicked. Another device of the seat may have laid it, so the page cannot call it forged: its
  // blind lead is left unchecked (partly), never green.
  ["Ganjifa: a face-down talafa this page never clicked, before its own blind lead", ["partly"],
    shrunkOwnBlind((gone) => ({ down: gone, clicked: null }))],
  // B15. This page laid one card face down, and the table shows another of its cards gone down (as
  // when another device of the seat laid first): partly, never green.
  ["Ganjifa: this page laid one card face down and the table showed another laid, before its blind lead", ["partly"],
    shrunkOwnBlind((gone, hand) => ({ down: gone, clicked: hand[0] }), (hand) => hand.slice(1))],
  // B16. No face-down play at all: the hand this page is shown at its blind lead leaves out a card it
  // never played, and the backs laid are counted from that hand.
  ["Ganjifa: this page's own blind lead from a hand shown without a card it still held", ["failed"],
    shrunkOwnBlind(() => ({}))],
);
