// Every sentence of the Pishe Pasha board, in English and Persian. The server sends each step's own
// sentence in the view in English, with the step's kind, card and source, from which the Persian board
// words it here; the board's captions, buttons and the sentences about the turn and the deal are worded
// here in both.

import { cardName, parseCard } from "./cards.js";
import { withinSentence as within } from "./ui.js";
import { refusalSentence } from "./table-words.js";
import { faDigits } from "./persian.js";

const cards = (/** @type {number} */ n) => `${n} ${n === 1 ? "card" : "cards"}`;


// A Persian verb agrees with its subject: "شما" (you) takes the second person plural.
const you = (/** @type {string} */ who, /** @type {string} */ third, /** @type {string} */ second) => (who === "شما" ? second : third);

/** @type {Record<string, string>} */
const SUIT_FA = { spades: "پیک", hearts: "دل", diamonds: "خشت", clubs: "گشنیز" };
/** @type {Record<string, string>} */
const RANK_FA = { A: "آس", J: "سرباز", Q: "بی‌بی", K: "شاه" };
/** @type {Record<string, string>} */
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** A card as a button or a caption shows it: "7♦", "Q♠" (in Persian "۷♦", "بی‌بی♠").
 * @param {string} code
 * @param {string} lang */
export function shortName(code, lang) {
  const { rank, suit } = parseCard(code);
  if (lang === "fa") return `${RANK_FA[rank] ?? faDigits(rank)}${SYMBOL[suit]}`;
  return `${rank}${SYMBOL[suit]}`;
}

/** A rank alone, in Persian: "۹", "شاه".
 * @param {string} code */
const rankFa = (code) => {
  const { rank } = parseCard(code);
  return RANK_FA[rank] ?? faDigits(rank);
};

export const WORDS = {
  en: {
    lang: "en",
    yourTurn: "Your turn",
    you: "You",
    computer: "The computer",
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
    pileCaption: (/** @type {number} */ n) => `Discards ${n}`,
    pileLabel: (/** @type {number} */ n) => `Discard pile: ${cards(n)}`,
    turnedCaption: "Turned",
    turnedLabel: "The card just turned",
    noneTurned: "No card turned",
    yourRow: "Your stock and pile",
    theirRow: (/** @type {string} */ who) => `${who}: stock and pile`,
    holds: (/** @type {number} */ n) => `${n} ${n === 1 ? "card" : "cards"}`,
    yourTurnMark: "your turn",
    playingMark: "playing",
    awayMark: "away",
    // The suit piles in the middle.
    suitPiles: "Suit piles, ace up to king",
    suitUpTo: (/** @type {string} */ suit, /** @type {string} */ top) => `${suit}: up to ${cardName(top)}`,
    suitEmpty: (/** @type {string} */ suit) => `${suit}: empty`,
    suitCaption: (/** @type {string} */ suit) => suit,
    // The bar under your row.
    autoTurn: " Turn a card by itself when that is the only move",
    playing: (/** @type {string} */ who, /** @type {boolean} */ you) => `${who} ${you ? "are" : "is"} playing…`,
    giveOrKeep: (/** @type {string} */ code) => `Your turn: give the ${shortName(code, "en")} to their discard pile, or keep it and end your turn.`,
    giveOrTurn: (/** @type {string} */ code) => `Your turn: give the ${shortName(code, "en")}, or turn a card.`,
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
    rematch: "Play again",
    nextDeal: "Next deal",
    // The score line at the top.
    totalsOf: (/** @type {string} */ a, /** @type {number} */ x, /** @type {string} */ b, /** @type {number} */ y) => `${a} ${x} · ${b} ${y}`,
    score: (/** @type {string} */ totals, /** @type {string} */ length) => `${totals} (${length})`,
    // The turn log.
    turnLog: "Turn log",
    nothingYet: "Nothing yet.",
    turnedWaits: (/** @type {string} */ card) => `${card[0].toUpperCase()}${card.slice(1)}, turned from the stock, waits to be given or kept.`,
    thisTurn: (/** @type {string} */ seat) => `This turn${seat}`,
    turnBefore: (/** @type {string} */ seat) => `The turn before${seat}`,
    logSeat: (/** @type {string} */ who) => ` (${who})`,
    rules: "How to play",
    rulesHref: "/pishe-pasha/rules",
    said: (/** @type {string} */ who, /** @type {string} */ says) => `${who}: ${says}`,
    // A replayed deal's moves (replay.js): the actions name no card; the step's board shows it.
    turned: (/** @type {string} */ who) => `${who} turned a card from the stock.`,
    gave: (/** @type {string} */ who) => `${who} gave a card to the other discard pile.`,
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
      leave: "Leave the guide",
    },
  },
  fa: {
    lang: "fa",
    yourTurn: "نوبت شما",
    you: "شما",
    computer: "رایانه",
    back: "کارت رو به پایین",
    waiting: "منتظر دوستتان هستیم تا پیوند را باز کند…",
    shareLink: "این پیوند را برای کسی بفرستید که می‌خواهید با او بازی کنید:",
    copy: "کپی پیوند",
    copied: "پیوند کپی شد.",
    share: "هم‌رسانی",
    length: (/** @type {{ kind: string, target: number }} */ length) => (length.kind === "points" ? `هر که اول به ${faDigits(length.target)} امتیاز برسد` : "یک دست"),
    stockCaption: (/** @type {number} */ n) => `ذخیره ${faDigits(n)}`,
    stockLabel: (/** @type {number} */ n) => `ذخیره: ${faDigits(n)} کارت`,
    pileCaption: (/** @type {number} */ n) => `دورریز ${faDigits(n)}`,
    pileLabel: (/** @type {number} */ n) => `دورریز: ${faDigits(n)} کارت`,
    turnedCaption: "برگشته",
    turnedLabel: "کارتی که تازه برگشت",
    noneTurned: "کارتی برنگشته",
    yourRow: "ذخیره و دورریز شما",
    theirRow: (/** @type {string} */ who) => `${who}: ذخیره و دورریز`,
    holds: (/** @type {number} */ n) => `${faDigits(n)} کارت`,
    yourTurnMark: "نوبت شما",
    playingMark: "در حال بازی",
    awayMark: "سر میز نیست",
    suitPiles: "خانه‌های چهار خال، از آس تا شاه",
    suitUpTo: (/** @type {string} */ suit, /** @type {string} */ top) => `خانهٔ ${SUIT_FA[suit]}: تا ${cardName(top, "fa")}`,
    suitEmpty: (/** @type {string} */ suit) => `خانهٔ ${SUIT_FA[suit]}: خالی`,
    suitCaption: (/** @type {string} */ suit) => SUIT_FA[suit],
    autoTurn: " وقتی تنها کار برگرداندن کارت است، خودکار برگردان",
    playing: (/** @type {string} */ who, /** @type {boolean} */ yours) => `${who} ${yours ? "بازی می‌کنید" : "بازی می‌کند"}…`,
    giveOrKeep: (/** @type {string} */ code) => `نوبت شما: ${cardName(code, "fa")} را به دورریز حریف بدهید، یا نگهش دارید تا نوبتتان تمام شود.`,
    giveOrTurn: (/** @type {string} */ code) => `نوبت شما: ${cardName(code, "fa")} را بدهید، یا کارتی برگردانید.`,
    turnOnly: "نوبت شما: کارتی برگردانید.",
    noGive: (/** @type {string} */ hint) => `دادن ممکن نیست: ${hint}`,
    give: "دادن",
    giveCard: (/** @type {string} */ card) => `دادن ${card}`,
    turn: "برگرداندن کارت",
    keep: "نگه‌داشتن",
    keepLabel: "نگه‌داشتن (نوبتتان تمام می‌شود)",
    dealWon: (/** @type {string} */ who) => `${who} این دست را ${you(who, "برد", "بردید")}.`,
    dealWhy: (/** @type {string} */ winner, /** @type {string} */ loser, /** @type {number} */ points) =>
      `${winner} زودتر از همهٔ کارت‌ها ${you(winner, "خلاص شد", "خلاص شدید")}: یک امتیاز برای هر یک از ${faDigits(points)} کارتی که ${loser} هنوز ${you(loser, "داشت", "داشتید")}.`,
    points: (/** @type {string} */ why, /** @type {string} */ points) => `${why ? `${why} ` : ""}امتیازها: ${points}.`,
    pointsOf: (/** @type {string} */ a, /** @type {number} */ x, /** @type {string} */ b, /** @type {number} */ y) => `${a} ${faDigits(x)}، ${b} ${faDigits(y)}`,
    rematch: "بازی دوباره",
    nextDeal: "دست بعدی",
    totalsOf: (/** @type {string} */ a, /** @type {number} */ x, /** @type {string} */ b, /** @type {number} */ y) => `${a} ${faDigits(x)} · ${b} ${faDigits(y)}`,
    score: (/** @type {string} */ totals, /** @type {string} */ length) => `${totals} (${length})`,
    turnLog: "گزارش نوبت‌ها",
    nothingYet: "هنوز چیزی نیست.",
    turnedWaits: (/** @type {string} */ card) => `${card}، که از ذخیره برگشت، منتظر است که داده یا نگه داشته شود.`,
    thisTurn: (/** @type {string} */ seat) => `این نوبت${seat}`,
    turnBefore: (/** @type {string} */ seat) => `نوبت پیش${seat}`,
    logSeat: (/** @type {string} */ who) => ` (${who})`,
    rules: "طرز بازی",
    rulesHref: "/fa/pishe-pasha/rules",
    said: (/** @type {string} */ who, /** @type {string} */ says) => `${who}: ${says}`,
    turned: (/** @type {string} */ who) => `${who} کارتی از دسته ${you(who, "برگرداند", "برگرداندید")}.`,
    gave: (/** @type {string} */ who) => `${who} کارتی به دورریز حریف ${you(who, "داد", "دادید")}.`,
    kept: (/** @type {string} */ who) => `${who} کارتِ برگردانده را نگه ${you(who, "داشت", "داشتید")}؛ نوبت تمام شد.`,
    guide: {
      over: {
        title: "این دست تمام شد",
        text: "صفحهٔ پایین می‌گوید چه کسی برد و چرا.",
      },
      computer: {
        title: "نوبت رایانه",
        text: "نوبتش را در گزارش دنبال کنید: کارتی که به خانهٔ خالش بخورد خودش به خانه می‌رود، و رایانه هر کارتی را که بتواند به شما می‌دهد و دورریزتان را بزرگ‌تر می‌کند.",
      },
      keep: {
        title: "بدهید یا نگه دارید",
        text: "کارتی که برگرداندید فقط به دورریز حریف می‌خورد: یک درجه بالاتر یا پایین‌تر از کارت روی آن است. اگر بدهیدش یک کارت کمتر دارید؛ اگر نگهش دارید روی دورریز خودتان می‌رود و نوبتتان تمام می‌شود.",
      },
      give: {
        title: "کارتی برای دادن",
        text: "کارت روی دورریز شما با کارت روی دورریز حریف یک درجه فاصله دارد، پس می‌توانید آن را بدهید: هر کارتی که بدهید شما را به بُرد نزدیک‌تر می‌کند. یا کارتی از ذخیره‌تان برگردانید.",
      },
      turn: {
        title: "کارتی برگردانید",
        text: "چیزی برای دادن نیست، پس کارت روی ذخیره‌تان را برگردانید: اگر به خانهٔ خالش بخورد (از آس تا شاه) به خانه می‌رود، و کارتی که جایی نخورد روی دورریزتان می‌نشیند و نوبتتان تمام می‌شود. هر که زودتر از همهٔ کارت‌ها خلاص شود می‌برد.",
      },
      leave: "بیرون رفتن از راهنما",
    },
  },
};

/** The board's words in `lang` (English where the board is not written in it).
 * @param {string} lang */
export const wordsIn = (lang) => WORDS[/** @type {keyof typeof WORDS} */ (lang)] ?? WORDS.en;

/**
 * A step of a turn as the log says it, in `lang`: the table's own sentence in English, and in Persian
 * worded here from the step's kind, card, source and (for a turn-over) count. A give names the seat
 * that was given the card, `to` as the board calls it ("You", "The computer", a name).
 * @param {{ step: string, card?: string | null, from?: string | null, count?: number | null, says: string }} step the view's step (the table's JSON)
 * @param {string} lang
 * @param {string} to
 */
export function stepSays(step, lang, to) {
  const card = step.card ? cardName(step.card, lang) : "";
  if (lang !== "fa") {
    if (step.step !== "give") return step.says;
    const whence = step.from === "pile" ? "from the top of the discard pile" : "turned from the stock";
    const whom = to === WORDS.en.you || to === WORDS.en.computer ? to.toLowerCase() : to;
    return `${card.replace(/^t/, "T")}, ${whence}, was given to ${whom}.`;
  }
  const whence = step.from === "pile" ? "از روی دورریز" : "برگشته از ذخیره";
  switch (step.step) {
    case "home":
      return `${card}، ${whence}، به خانهٔ ${SUIT_FA[suitOf(/** @type {string} */ (step.card))]} رفت (اجباری).`;
    case "give":
      return `${card}، ${whence}، به ${to} داده شد.`;
    case "keep":
      return `${card}، برگشته از ذخیره، روی دورریز ماند و نوبت تمام شد.`;
    case "discard":
      return `${card}، برگشته از ذخیره، جایی نخورد و روی دورریز رفت و نوبت تمام شد (اجباری).`;
    case "turn-over":
      return `ذخیره خالی بود، پس دورریز (${faDigits(step.count ?? 0)} کارت) برگشت و ذخیرهٔ تازه شد (اجباری).`;
    default:
      throw new Error(`a step this page cannot word: ${step.step}`);
  }
}

/** @param {string} code */
const suitOf = (code) => /** @type {Record<string, string>} */ ({ S: "spades", H: "hearts", D: "diamonds", C: "clubs" })[parseCard(code).suit];

/**
 * Why the seat's pile top cannot be given, in `lang`: the table's own sentence in English, and in
 * Persian worded here from its code and the two piles' tops the view shows.
 * @param {{ cannot_give?: string | null, hint?: string | null }} choices the view's choices (the table's JSON)
 * @param {string | null | undefined} yours the top of the seat's own pile
 * @param {string | null | undefined} theirs the top of the other seat's pile
 * @param {string} lang
 */
export function cannotGive(choices, yours, theirs, lang) {
  if (lang !== "fa") return choices.hint ?? "";
  switch (choices.cannot_give) {
    case "your-pile-empty":
      return "دورریز شما خالی است";
    case "their-pile-empty":
      return "دورریز حریف خالی است";
    case "not-one-apart": {
      const [mine, other] = [rankFa(/** @type {string} */ (yours)), rankFa(/** @type {string} */ (theirs))];
      // The king and the ace are the ends of the ranks, never neighbours: the sentence says so.
      const ends = mine !== other && [mine, other].every((r) => r === RANK_FA.A || r === RANK_FA.K);
      return `${mine} شما با ${other} حریف یک درجه فاصله ندارد${ends ? " (شاه و آس کنار هم نیستند)" : ""}`;
    }
    default:
      return "";
  }
}

/** @type {Record<string, string>} */
const FA_ERRORS = {
  "cannot-give": "اکنون کارتی برای دادن نیست.",
  "your-pile-empty": "دورریز شما خالی است.",
  "their-pile-empty": "دورریز حریف خالی است.",
  "not-one-apart": "این کارت با کارت روی دورریز حریف یک درجه فاصله ندارد.",
  "nothing-to-keep": "کارتی برای نگه‌داشتن برنگشته است.",
  "turned-card-waiting": "کارتی که برگشت منتظر است: اول آن را بدهید یا نگه دارید.",
};

/** A server error, said in the board's language: this game's refusals here, the others' by the
 * table's shared words.
 * @param {import("./socket.js").ErrorFrame} frame
 * @param {string} lang */
export function errorSentence(frame, lang) {
  if (lang !== "fa") return frame.message;
  return FA_ERRORS[frame.code] ?? refusalSentence(frame, lang);
}

/**
 * The coach's moves and the rules' reasons (see table-words.js, `coachSentence`), from the values the
 * table sends: a turn, a give (with the card and whether it was just turned or the top of the seat's
 * pile, when the seat could see it) and a keep with its card, in English and Persian.
 */
/** @type {import("./board.js").CoachWords} */
export const coachWords = {
  move(play, lang) {
    const fa = lang === "fa";
    const card = play.card ? cardName(play.card, lang) : null;
    switch (play.type) {
      case "turn":
        return fa ? "برگرداندن کارت روی ذخیرهٔ خودتان" : "turning the top card of your stock";
      case "give":
        if (!card) return fa ? "دادن کارت به حریف" : "giving the card to their discard pile";
        if (play.from === "turned") return fa ? `دادن ${card}، که تازه برگشته بود، به حریف` : `giving ${card}, just turned, to their discard pile`;
        return fa ? `دادن ${card} از روی دورریز خودتان به حریف` : `giving ${card} from the top of your discard pile to theirs`;
      case "keep":
        if (!card) return fa ? "نگه‌داشتن کارت روی دورریز خودتان" : "keeping the card on your discard pile";
        return fa ? `نگه‌داشتن ${card} روی دورریز خودتان` : `keeping ${card} on your discard pile`;
      default:
        throw new Error(`a move this page cannot word: ${play.type}`);
    }
  },
  rule(rule, lang) {
    if (rule.rule !== "giving-feeds-their-pile") throw new Error(`a reason of the rules this page cannot word: ${rule.rule}`);
    const n = rule.count;
    if (lang === "fa") {
      return `هر کارتی که می‌دهید یکی کمتر برای بیرون‌کردن دارید و یکی بیشتر روی دورریز حریف، که آن‌گاه ${faDigits(n)} کارت دارد.`;
    }
    return `Each card you give is one fewer for you to play off and one more on their pile, which then holds ${cards(n)}.`;
  },
};

/**
 * The moves of a replayed deal, told about the seat that made them (see replay.js), in the page's
 * language.
 * @type {import("./board.js").MoveWords}
 */
export const moveWords = {
  told(play, who, lang) {
    const w = lang === "fa" ? WORDS.fa : WORDS.en;
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
