// Forged frame sequences found by attacking where the page's check (verify.js, and the games' hooks)
// places each card it is shown: Panjpar's draws from the pile worked out from the cards on show, and
// Pishe Pasha's stocks worked out from their counts. In the shape of forgeries.js's SCENARIOS (a name,
// the states the page may end in, the play); honest deals that must stay green are among them.

import { shownPiles } from "./stocks.js";
import { Page, Table, commit, playDeal, useGame, FRENCH, panjparTo, pisheTo } from "./forge.js";

/**
 * A Panjpar deal played as the real table plays it (RULINGS Panjpar 5 and 6), from the order the
 * players' shuffle dealt, seen by seat 0 (the guesser, who attacks first): each move gives the view
 * after it, which `lie(view, play)` may change; `play` may also be changed between moves.
 */
class Panjpar {
  constructor(order, lie = (v) => v) {
    const to = panjparTo(0);
    this.hands = [0, 1].map((s) => order.filter((_, j) => to[j] === s));
    this.pile = order.filter((_, j) => to[j] === "pile");
    this.trump = order[to.indexOf("trump")];
    this.trumpUnder = true;
    Object.assign(this, { attacker: 0, battle: null, last: null, over: false, lie, views: [] });
  }
  get defender() {
    return 1 - this.attacker;
  }
  show(skip = 0) {
    const copy = (x) => JSON.parse(JSON.stringify(x));
    const view = {
      hand: [...this.hands[0]],
      counts: this.hands.map((h) => h.length),
      trump_card: this.trumpUnder ? this.trump : null,
      battle: copy(this.battle),
      last_battle: copy(this.last),
      hands_shown: this.over ? copy(this.hands) : null,
    };
    this.views.push({ view: this.lie(view, this), skip });
  }
  attack(cards) {
    this.hands[this.attacker] = this.hands[this.attacker].filter((c) => !cards.includes(c));
    this.battle = { attacker: this.attacker, attack: cards, covers: [], picked_up: [], finished: false };
    this.last = null;
    this.show();
  }
  beat(attack, with_) {
    this.hands[this.defender] = this.hands[this.defender].filter((c) => c !== with_);
    this.battle.covers.push([attack, with_]);
    if (this.battle.covers.length === this.battle.attack.length) this.finish();
    this.show();
  }
  pickUp() {
    const covered = this.battle.covers.map(([a]) => a);
    this.battle.picked_up = this.battle.attack.filter((c) => !covered.includes(c));
    this.hands[this.defender].push(...this.battle.picked_up);
    this.finish();
    this.show();
  }
  finish() {
    this.battle.finished = true;
    this.last = this.battle;
    this.battle = null;
    const drawer = this.attacker;
    if (this.last.picked_up.length === 0) this.attacker = this.defender;
    this.draw(drawer);
    this.draw(1 - drawer);
    this.over = !this.trumpUnder && this.pile.length === 0 && this.hands.some((h) => h.length === 0);
  }
  draw(seat) {
    while (this.hands[seat].length < 5 && (this.pile.length > 0 || this.trumpUnder)) {
      if (this.pile.length > 0 && this.trumpTo !== seat) this.hands[seat].push(this.pile.pop());
      else {
        this.trumpTo = null;
        this.hands[seat].push(this.trump);
        this.trumpUnder = false;
      }
    }
  }
  /** One battle: the attacker lays its first card; the defender beats it, or picks it up. */
  battleOf(pickUp = false) {
    // (A card a forgery keeps in this seat's hand, `keep`, is laid only when nothing else is left.)
    const first = (s) => this.hands[s].find((c) => !this.keep?.includes(c)) ?? this.hands[s][0];
    const card = first(this.attacker);
    this.attack([card]);
    if (pickUp || this.hands[this.defender].length === 0) this.pickUp();
    else this.beat(card, first(this.defender));
  }
}

/** Plays a Panjpar deal seen by seat 0: `play(game)` makes its moves; `opts` as for playDeal. */
async function panjparDeal(play, lie, opts = {}) {
  await useGame("panjpar");
  const ctx = { page: new Page() };
  const t = new Table({ seats: 2 });
  const c = await commit(FRENCH, panjparTo(0), 0, "p");
  await playDeal(ctx, t, c, {
    plays: (order) => {
      const game = new Panjpar(order, lie);
      play(game, order);
      return game.views;
    },
    ...opts,
  });
  return ctx.page;
}

/** Honest battles until the deal ends (or `upTo` battles were played), every third picked up. */
function toTheEnd(game, from = 0, upTo = 200) {
  for (let k = from; !game.over && k < upTo; k += 1) game.battleOf(k % 3 === 2);
}

/** A lie that adds `extra[s]` to seat s's count in every view from now on (`game.extra`). */
const countsLie = (view, game) => ({ ...view, counts: view.counts.map((n, s) => n + (game.extra?.[s] ?? 0)) });

export const PLACES = [
  ["Panjpar: an honest deal to its end, with pick-ups, the trump card drawn last", ["fair"], () => panjparDeal((g) => toTheEnd(g))],
  ["Panjpar: an honest deal to its end, this seat picking up", ["fair"], () =>
    panjparDeal((g) => {
      for (let k = 0; !g.over && k < 200; k += 1) g.battleOf(g.attacker === 1 && k % 2 === 1);
    })],
  // The real table's first view comes before the trump colour is called, with no hand in it: a page
  // reloaded then still sees the hand dealt in the next view, and follows every draw after it.
  ["Panjpar: an honest deal, the page reloaded before the trump colour is called", ["fair"], () =>
    panjparDeal(
      (g) => {
        g.show();
        toTheEnd(g);
      },
      undefined,
      {
        first: { hand: [], counts: [0, 0], trump_card: null },
        after: async (step, x) => {
          if (step === "play") x.page = x.page.reload();
        },
      },
    )],
  // P1. This seat's own count shown one above the hand it is shown, from a draw on: the page counted
  // one more card out of the pile, so it took a card from one place deeper for its draw.
  ["Panjpar: this seat's count shown one above its hand, so its draw comes from deeper in the pile", ["failed"], () =>
    panjparDeal((g) => {
      g.battleOf();
      // The other seat attacks, this one beats: the other draws first, then this seat, one place deeper.
      const card = g.hands[1][0];
      g.attack([card]);
      g.pile.splice(-2, 1);
      g.extra = [1, 0];
      g.beat(card, g.hands[0][0]);
      toTheEnd(g, 2);
    }, countsLie)],
  // P2. The other seat shown holding six after a draw: the page gave it a third pile place, and
  // this seat's next draw comes from one place deeper.
  ["Panjpar: the other seat shown drawing past five, this seat's next draw one place deeper", ["failed"], () =>
    panjparDeal((g) => {
      const [a, b] = [g.hands[0][0], g.hands[1][0]];
      g.attack([a]);
      g.pile.splice(-3, 1);
      g.extra = [0, 1];
      g.beat(a, b);
      toTheEnd(g, 1);
    }, countsLie)],
  // P3. A finished battle with a pair whose first card was never laid (it stays in this seat's
  // hand), over a card of the other seat's: the pair counted aside, one pile place burned.
  ["Panjpar: a made-up cover pair over a card still in this seat's hand, one pile place burned", ["failed"], () =>
    panjparDeal((g) => madeUpPair(g, false), madeUpPairLie(false))],
  ["Panjpar: a card still in this seat's hand shown laid and beaten, one pile place burned", ["failed"], () =>
    panjparDeal((g) => madeUpPair(g, true), madeUpPairLie(true))],
  // P4. The trump card drawn by the other seat at the first draw, the pile still full: every later
  // draw of this seat one place off the order dealt.
  ["Panjpar: the trump card drawn while the pile lasts", ["failed"], () =>
    panjparDeal((g) => {
      g.trumpTo = 1;
      toTheEnd(g);
    })],
  // P5. A card of the table's choosing among those the other seat draws, shown "picked up" by this
  // seat though it was never in the attack: the page took it for a card from the battle, and gave
  // every place of that draw to the other seat.
  ["Panjpar: a card the other seat should draw shown picked up by this seat", ["failed"], () =>
    panjparDeal((g) => {
      g.battleOf();
      // The other seat attacks with three; this seat beats two and picks up the third.
      const attack = g.hands[1].slice(0, 3);
      g.attack(attack);
      g.beat(attack[0], g.hands[0][0]);
      g.beat(attack[1], g.hands[0][0]);
      g.battle.picked_up = [attack[2]];
      g.chosen = g.pile.pop();
      g.hands[0].push(attack[2], g.chosen);
      g.finish();
      g.show();
      toTheEnd(g, 3);
    }, (v, g) => (g.chosen && v.last_battle?.picked_up.length ? { ...v, last_battle: { ...v.last_battle, picked_up: [...v.last_battle.picked_up, g.chosen] } } : v))],
  // P6. The last battle shown again in the next view with another pair beaten (over a card kept in
  // this seat's hand): two pile places counted drawn once more by the other seat, one burned.
  ["Panjpar: the last battle shown again with another pair, a second draw", ["failed"], () =>
    panjparDeal((g) => {
      const [a, b, y, z] = [g.hands[0][0], g.hands[1][0], g.hands[1][1], g.hands[0][1]];
      g.keep = [z];
      g.attack([a]);
      g.beat(a, b);
      g.hands[1] = g.hands[1].filter((c) => c !== y);
      g.hands[1].push(g.pile.pop());
      g.pile.pop();
      g.show();
      g.views[g.views.length - 1].view.last_battle.covers.push([z, y]);
      toTheEnd(g, 1, 8);
    })],
];

/**
 * P3: this seat attacks with one card, beaten; the finished battle shows a second pair, `[z, y]`: z
 * a card this seat keeps in its hand (in the attack too where `inAttack`), y one of the other
 * seat's, which it lays; the other seat refills, and the pile place the page counts one further is
 * burned.
 */
function madeUpPair(g) {
  const [a, b, y, z] = [g.hands[0][0], g.hands[1][0], g.hands[1][1], g.hands[0][1]];
  Object.assign(g, { keep: [z], pair: [z, y] });
  g.attack([a]);
  g.hands[1] = g.hands[1].filter((c) => c !== y);
  g.pile.splice(-4, 1);
  g.beat(a, b);
  g.pair = null;
  // (The table reveals before this seat lays the card it keeps: a deal may end any time.)
  toTheEnd(g, 1, 8);
}

const madeUpPairLie = (inAttack) => (v, g) => {
  if (!g.pair || !v.last_battle) return v;
  const last = v.last_battle;
  const attack = inAttack ? [...last.attack, g.pair[0]] : last.attack;
  return { ...v, last_battle: { ...last, attack, covers: [...last.covers, g.pair] } };
};

/**
 * Pishe Pasha's views (seat 1 deals, seat 0 plays first) as `moves` give them, each a turn that
 * discards the top of the seat's stock (`under` takes the card that many below it instead; `turnOver`
 * logs a turn-over of the seat's stock first; `counts(stocks)` changes the counts shown).
 */
function pisheViews(order, moves, counts = (c) => c) {
  const to = pisheTo(1);
  const stocks = [0, 1].map((s) => order.filter((_, j) => to[j] === s));
  const piles = [[], []];
  let last = { seat: 1, steps: [] };
  return moves.map((m) => {
    const steps = m.turnOver ? [{ step: "turn-over", card: null, from: null }] : [];
    // An honest turn-over makes the discard pile the stock, its oldest card on top.
    if (m.turnOver && stocks[m.seat].length === 0) [stocks[m.seat], piles[m.seat]] = [piles[m.seat].reverse(), []];
    const card = stocks[m.seat].splice(stocks[m.seat].length - 1 - (m.under ?? 0), 1)[0];
    piles[m.seat].push(card);
    last = { seat: m.seat, steps: [...steps, { step: "discard", card, from: "stock" }] };
    const view = { stocks: counts(stocks.map((s) => s.length)), this_turn: { seat: 1 - m.seat, steps: [] }, last_turn: last, turned: null, piles: shownPiles(piles) };
    return { view };
  });
}

async function pisheDeal(moves, { first = [26, 26], counts } = {}) {
  await useGame("pishe-pasha");
  const ctx = { page: new Page() };
  const t = new Table({ game: "pishe-pasha", seats: 2 });
  const c = await commit(FRENCH, pisheTo(1), 0, "q");
  const start = { stocks: first, this_turn: { seat: 0, steps: [] }, last_turn: { seat: 1, steps: [] }, turned: null, piles: shownPiles([[], []]) };
  await playDeal(ctx, t, c, { first: start, plays: (order) => pisheViews(order, moves, counts) });
  return ctx.page;
}

const TURNS = [0, 1, 0, 1, 0, 1].map((seat) => ({ seat }));

PLACES.push(
  ["Pishe Pasha: an honest deal of six turns", ["fair"], () => pisheDeal(TURNS)],
  ["Pishe Pasha: an honest deal in which a stock runs out and is turned over", ["fair"], () => {
    const moves = Array.from({ length: 52 }, (_, i) => ({ seat: i % 2 }));
    return pisheDeal([...moves, { seat: 0, turnOver: true }, { seat: 1, turnOver: true }, { seat: 0 }]);
  }],
  ["Pishe Pasha: a card turned from a rebuilt stock from under its top", ["failed"], () => {
    const moves = Array.from({ length: 52 }, (_, i) => ({ seat: i % 2 }));
    return pisheDeal([...moves, { seat: 0, turnOver: true, under: 1 }, { seat: 1, turnOver: true }]);
  }],
  // S1. A turn-over logged while the stock still holds 24 cards: the page stops placing that stock's
  // cards, and the table turns one of its choosing from deep in it.
  ["Pishe Pasha: a turn-over of a stock that still held cards, then a card from deep in it", ["failed"], () =>
    pisheDeal(TURNS.map((m, i) => (i === 2 ? { ...m, turnOver: true, under: 10 } : m)))],
  // S2. The deal's first view shows a stock of 20: the page takes the card 20th from the bottom for
  // its top, and every card after it from six places deeper than dealt.
  ["Pishe Pasha: the deal's first view showing a stock shorter than dealt", ["failed"], () =>
    pisheDeal(TURNS.map((m) => (m.seat === 0 ? { ...m, under: 6 } : m)), { first: [20, 26], counts: (c) => [c[0] - 6, c[1]] })],
);

// The Panjpar page follows the pile from the first hand it is shown (the hand dealt, checked whole):
// a page that missed the view that first showed it never checked that hand ("joined").
const reloadAt = (step) => ({
  first: { hand: [], counts: [0, 0], trump_card: null },
  after: async (now, x) => {
    if (now === step) x.page = x.page.reload();
  },
});
PLACES.push(
  ["Panjpar: an honest deal, the page reloaded as its hand is first shown and sent that view again", ["fair"], () =>
    panjparDeal((g) => {
      g.show();
      g.show(-1);
      toTheEnd(g);
    }, undefined, reloadAt("more"))],
  ["Panjpar: the page reloaded before the trump colour is called, the hand first shown after a version it missed", ["joined"], () =>
    panjparDeal((g) => {
      g.show(1);
      toTheEnd(g);
    }, undefined, reloadAt("play"))],
);
