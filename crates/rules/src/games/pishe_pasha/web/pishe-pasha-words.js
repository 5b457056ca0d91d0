// Every sentence of the Pishe Pasha board, in English (the board's one language). The server sends
// each step's own sentence in the view; the board's captions, buttons and the sentences about the
// turn and the deal are worded here.

import { cardName } from "./cards.js";
import { withinSentence as within } from "./ui.js";

const cards = (/** @type {number} */ n) => `${n} ${n === 1 ? "card" : "cards"}`;

export const WORDS = {
  en: {
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
    level: {
      gentle: "Against the gentle computer",
      standard: "Against the standard computer",
      clever: "Against the clever computer",
      strong: "Against the strong computer",
      next: "Next match against:",
      names: { gentle: "gentle", standard: "standard", clever: "clever", strong: "strong" },
    },
    // The match's length, on the score line.
    length: (/** @type {{ kind: string, target: number }} */ length) => (length.kind === "points" ? `first to ${length.target}` : "one deal"),
    // The seats' rows.
    stockCaption: (/** @type {number} */ n) => `Stock ${n}`,
    stockLabel: (/** @type {number} */ n) => `Stock: ${cards(n)}`,
    pileCaption: (/** @type {number} */ n) => `Pile ${n}`,
    pileLabel: (/** @type {number} */ n) => `Discard pile: ${cards(n)}`,
    turnedCaption: "Turned",
    turnedLabel: "The card just turned",
    noneTurned: "No card turned",
    yourRow: "Your stock and pile",
    theirRow: (/** @type {string} */ who) => `${who}: stock and pile`,
    holds: (/** @type {number} */ n) => `holds ${n}`,
    yourTurnMark: "your turn",
    playingMark: "playing",
    awayMark: "away",
    // The suit piles in the middle.
    suitPiles: "Suit piles, ace up to king",
    suitUpTo: (/** @type {string} */ suit, /** @type {string} */ top) => `${suit}: up to ${cardName(top).replace(/^the /, "the ")}`,
    suitEmpty: (/** @type {string} */ suit) => `${suit}: empty`,
    // The bar under your row.
    autoTurn: " Turn a card by itself when that is the only move",
    playing: (/** @type {string} */ who, /** @type {boolean} */ you) => `${who} ${you ? "are" : "is"} playing…`,
    giveOrKeep: (/** @type {string} */ card) => `Your turn: give the ${card} to their pile, or keep it and end your turn.`,
    giveOrTurn: (/** @type {string} */ card) => `Your turn: give the ${card}, or turn a card.`,
    turnOnly: "Your turn: turn a card.",
    noGive: (/** @type {string} */ hint) => `No give: ${hint}`,
    give: "Give",
    giveCard: (/** @type {string} */ card) => `Give ${card}`,
    turn: "Turn a card",
    keep: "Keep it",
    keepLabel: "Keep it (your turn ends)",
    // The end of a deal and of the match.
    dealWon: (/** @type {string} */ who) => `${who} won the deal.`,
    dealWhy: (/** @type {string} */ winner, /** @type {string} */ loser, /** @type {number} */ points) =>
      `${winner} ran out of cards first: a point for each of the ${points} ${points === 1 ? "card" : "cards"} ${within(loser)} still held.`,
    points: (/** @type {string} */ why, /** @type {string} */ points) => `${why ? `${why} ` : ""}Points: ${points}.`,
    pointsOf: (/** @type {string} */ a, /** @type {number} */ x, /** @type {string} */ b, /** @type {number} */ y) => `${a} ${x}, ${b} ${y}`,
    pointsYours: (/** @type {number} */ mine, /** @type {number} */ theirs) => `you ${mine}, them ${theirs}`,
    rematch: "Play again",
    nextDeal: "Next deal",
    // The score line at the top.
    totalsOf: (/** @type {string} */ a, /** @type {number} */ x, /** @type {string} */ b, /** @type {number} */ y) => `${a} ${x} · ${b} ${y}`,
    totalsYours: (/** @type {number} */ mine, /** @type {number} */ theirs) => `You ${mine} · them ${theirs}`,
    score: (/** @type {string} */ totals, /** @type {string} */ length) => `${totals} (${length})`,
    // The turn log.
    turnLog: "Turn log",
    nothingYet: "Nothing yet.",
    thisTurn: (/** @type {string} */ seat) => `This turn${seat}`,
    turnBefore: (/** @type {string} */ seat) => `The turn before${seat}`,
    logSeat: (/** @type {string} */ who) => ` (${who})`,
    rules: "How to play",
    rulesHref: "/pishe-pasha/rules",
    said: (/** @type {string} */ who, /** @type {string} */ says) => `${who}: ${says}`,
    // A replayed deal's moves (replay.js): the actions name no card; the step's board shows it.
    turned: (/** @type {string} */ who) => `${who} turned a card from the stock.`,
    gave: (/** @type {string} */ who) => `${who} gave a card to the other pile.`,
    kept: (/** @type {string} */ who) => `${who} kept the card just turned; the turn ended.`,
    // The guided first deal (guide.js).
    guide: {
      over: {
        title: "The deal is over",
        text: "The panel below says who won, and why.",
      },
      computer: {
        title: "The computer's turn",
        text: "Watch its turn in the log: cards that fit a suit pile go home by themselves, and it gives you any card it may, making your pile bigger.",
      },
      keep: {
        title: "Give it, or keep it",
        text: "The card you turned fits only their pile: one rank above or below their top card. Give it and you have one card fewer; keep it and it goes on your pile, ending your turn.",
      },
      give: {
        title: "A card to give",
        text: "The top of your pile is one rank from the top of theirs, so you may give it: every card you give away brings you closer to winning. Or turn a card from your stock.",
      },
      turn: {
        title: "Turn a card",
        text: "Nothing can be given, so turn the top card of your stock: it goes home if it fits a suit pile (ace up to king), and a card that fits nowhere lands on your pile and ends your turn. Get rid of every card first to win.",
      },
    },
  },
};

/**
 * The coach's moves and the rules' reasons (see table-words.js, `coachSentence`), from the values the
 * table sends: a turn, a give (with the card and whether it was just turned or the top of the seat's
 * pile, when the seat could see it) and a keep with its card. Worded in English and Persian, though the
 * board itself is in English alone.
 */
/** @type {import("./board.js").CoachWords} */
export const coachWords = {
  move(play, lang) {
    const fa = lang === "fa";
    const card = play.card ? cardName(play.card, lang) : null;
    switch (play.type) {
      case "turn":
        return fa ? "برگرداندن کارت روی دستهٔ خودتان" : "turning the top card of your stock";
      case "give":
        if (!card) return fa ? "دادن کارت به حریف" : "giving the card to the other seat";
        if (play.from === "turned") return fa ? `دادن ${card}، که تازه برگشته بود، به حریف` : `giving ${card}, just turned, to the other seat`;
        return fa ? `دادن ${card} از روی دستهٔ دورریز خودتان به حریف` : `giving ${card} from the top of your discard pile to the other seat`;
      case "keep":
        if (!card) return fa ? "نگه‌داشتن کارت روی دستهٔ دورریز خودتان" : "keeping the card on your discard pile";
        return fa ? `نگه‌داشتن ${card} روی دستهٔ دورریز خودتان` : `keeping ${card} on your discard pile`;
      default:
        throw new Error(`a move this page cannot word: ${play.type}`);
    }
  },
  rule(rule, lang) {
    if (rule.rule !== "giving-feeds-their-pile") throw new Error(`a reason of the rules this page cannot word: ${rule.rule}`);
    const n = rule.count;
    if (lang === "fa") {
      return `هر کارتی که می‌دهید یکی کمتر برای بیرون‌کردن دارید و یکی بیشتر روی دستهٔ حریف، که آن‌گاه ${String(n).replace(/\d/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[Number(d)])} کارت دارد.`;
    }
    return `Each card you give is one fewer for you to play off and one more on their pile, which then holds ${cards(n)}.`;
  },
};

/**
 * The moves of a replayed deal, told about the seat that made them (see replay.js). English alone,
 * like the board.
 * @type {import("./board.js").MoveWords}
 */
export const moveWords = {
  told(play, who) {
    const w = WORDS.en;
    switch (play?.type) {
      case "turn":
        return w.turned(who);
      case "give":
        return w.gave(who);
      case "keep":
        return w.kept(who);
      default:
        throw new Error(`a move this page cannot word: ${play?.type}`);
    }
  },
};
