// Every sentence of the Panjpar board, in English and Persian. The server sends its hints as codes
// with the cards and numbers they are about; they are worded here, in the board's language.

import { cardName, suitName } from "./cards.js";
import { withinSentence as within } from "./ui.js";

// A Persian verb agrees with its subject: "شما" (you) takes the second person plural.
const you = (who, third, second) => (who === "شما" ? second : third);

const faDigits = (n) => String(n).replace(/\d/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[d]);

export const WORDS = {
  en: {
    lang: "en",
    you: "You",
    computer: "The computer",
    friend: "Your friend",
    waiting: "Waiting for your friend to open the link…",
    shareLink: "Send this link to the person you want to play:",
    copy: "Copy link",
    copied: "Link copied.",
    share: "Share",
    guessAsk: "Call the colour of the trump card:",
    red: "Red",
    black: "Black",
    guessWait: (who) => `${who} is calling the trump colour.`,
    guessMade: (who, colour, right) => `${who} called ${colour}: ${right ? "right" : "wrong"}.`,
    trump: (suit) => `Trumps: ${suit}`,
    stockYes: "Cards left to draw: yes",
    stockNo: "Cards left to draw: no",
    trumpUnder: (card) => `Trump card under the pile: ${card}`,
    trumpDrawn: (who) => `${who} drew the trump card.`,
    yourHand: "Your hand",
    theirHand: (who, n) => `${who}: ${n} ${n === 1 ? "card" : "cards"}`,
    back: "a face-down card",
    attackTurn: "Your attack: choose 1, 3 or 5 cards, then press Attack.",
    attackButton: "Attack",
    attackWait: (who) => `${who} is choosing an attack.`,
    defendTurn: "Defend: drag a card from your hand onto the attack card it beats (or choose the attack card, then your card), or pick up.",
    defendWait: (who) => `${who} is defending.`,
    pickUp: "Pick up",
    beaten: "beaten by",
    battle: (who) => (who === "You" ? "Your attack" : `${who}'s attack`),
    lastBattle: (who) => `The last battle: ${who === "You" ? "your" : `${within(who)}'s`} attack`,
    noBattle: "No battle yet",
    pile: "The pile",
    outOfPlay: "Out of play",
    moves: "Moves",
    noMoves: "No move yet this deal.",
    rules: "Rules",
    rulesHref: "/panjpar/rules",
    taken: "picked up",
    notSent: "Not sent: the connection is down. Your choice is kept; press again once it is back.",
    trumpUnknown: "Trumps: not turned yet",
    pickedUp: (n) => `${n} ${n === 1 ? "card" : "cards"} picked up.`,
    allBeaten: "Every attack card was beaten.",
    target: (card) => `Beating ${card}: choose your card, or drag one onto any attack card. Cards that cannot beat it are dimmed.`,
    noBeater: (card) => `Nothing in your hand beats ${card}: you may beat another card or pick up.`,
    notBeater: (card, why) => `${card.charAt(0).toUpperCase()}${card.slice(1)} cannot beat it: ${why}`,
    validAttack: (n) => `${n} ${n === 1 ? "card" : "cards"}: a legal attack.`,
    score: (mine, theirs, length) => `Deals won: you ${mine}, them ${theirs} (first to ${length})`,
    scoreOf: (a, x, b, y, length) => `Deals won: ${a} ${x}, ${b} ${y} (first to ${length})`,
    dealWon: (who) => `${who} won the deal.`,
    dealWhy: (winner, loser, held) =>
      `Once the pile was empty, ${within(winner)} played out every card first; ${within(loser)} ${loser === "You" ? "were" : "was"} left holding ${held} ${held === 1 ? "card" : "cards"}.`,
    dealDrawn: "Both hands emptied together: a drawn deal, dealt again.",
    matchWon: (who) => `${who} won the match.`,
    hands: "Both hands at the end of the deal",
    nextDeal: "Next deal",
    rematch: "Play again",
    yourTurn: "Your turn",
    you_lower: "you",
    played: (who, cards) => `${who} attacked with ${cards}.`,
    beat: (who, a, w) => `${who} beat ${a} with ${w}.`,
    tookUp: (who, n) => `${who} picked up ${n} ${n === 1 ? "card" : "cards"}.`,
    join: (a, b) => `${a} and ${b}`,
  },
  fa: {
    lang: "fa",
    you: "شما",
    computer: "رایانه",
    friend: "دوستتان",
    waiting: "منتظر دوستتان هستیم تا پیوند را باز کند…",
    shareLink: "این پیوند را برای کسی بفرستید که می‌خواهید با او بازی کنید:",
    copy: "کپی پیوند",
    copied: "پیوند کپی شد.",
    share: "هم‌رسانی",
    guessAsk: "رنگ کارت حکم را حدس بزنید:",
    red: "قرمز",
    black: "سیاه",
    guessWait: (who) => `${who} رنگ حکم را حدس می‌زند.`,
    guessMade: (who, colour, right) => `${who} ${you(who, "گفت", "گفتید")} ${colour === "red" ? "قرمز" : "سیاه"}: ${right ? "درست بود" : "نادرست بود"}.`,
    trump: (suit) => `حکم: ${suit}`,
    stockYes: "کارتی برای برداشتن مانده: بله",
    stockNo: "کارتی برای برداشتن مانده: نه",
    trumpUnder: (card) => `کارت حکم زیر دسته: ${card}`,
    trumpDrawn: (who) => `${who} کارت حکم را ${you(who, "برداشت", "برداشتید")}.`,
    yourHand: "دست شما",
    theirHand: (who, n) => `${who}: ${faDigits(n)} کارت`,
    back: "کارت رو به پایین",
    attackTurn: "نوبت حملهٔ شماست: ۱، ۳ یا ۵ کارت انتخاب کنید و «حمله» را بزنید.",
    attackButton: "حمله",
    attackWait: (who) => `${who} در حال انتخاب حمله است.`,
    defendTurn: "دفاع: کارتی از دستتان را روی کارت حمله‌ای که می‌بُرد بکشید (یا اول کارت حمله و بعد کارت خودتان را انتخاب کنید)، یا کارت‌ها را بردارید.",
    defendWait: (who) => `${who} در حال دفاع است.`,
    pickUp: "برداشتن",
    beaten: "بریده با",
    battle: (who) => (who === "شما" ? "حملهٔ شما" : `حملهٔ ${who}`),
    lastBattle: (who) => `نبرد پیشین: حملهٔ ${who}`,
    noBattle: "هنوز نبردی نیست",
    pile: "دسته",
    outOfPlay: "بیرون از بازی",
    moves: "حرکت‌ها",
    noMoves: "هنوز حرکتی در این دور نیست.",
    rules: "قواعد",
    rulesHref: "/fa/panjpar/rules",
    taken: "برداشته شد",
    notSent: "فرستاده نشد: ارتباط قطع است. انتخاب شما نگه داشته شده؛ وقتی ارتباط برگشت دوباره بزنید.",
    trumpUnknown: "حکم: هنوز رو نشده",
    pickedUp: (n) => `${faDigits(n)} کارت برداشته شد.`,
    allBeaten: "همهٔ کارت‌های حمله بریده شدند.",
    target: (card) => `بریدن ${card}: کارتتان را انتخاب کنید یا آن را روی هر کارت حمله بکشید. کارت‌هایی که آن را نمی‌بُرند کم‌رنگ شده‌اند.`,
    noBeater: (card) => `هیچ کارتی در دست شما ${card} را نمی‌بُرد: کارت دیگری را ببُرید یا بردارید.`,
    notBeater: (card, why) => `${card} آن را نمی‌بُرد: ${why}`,
    validAttack: (n) => `${faDigits(n)} کارت: حملهٔ درست.`,
    score: (mine, theirs, length) => `دست‌های برده: شما ${faDigits(mine)}، حریف ${faDigits(theirs)} (هر که اول به ${faDigits(length)} برسد)`,
    scoreOf: (a, x, b, y, length) => `دست‌های برده: ${a} ${faDigits(x)}، ${b} ${faDigits(y)} (هر که اول به ${faDigits(length)} برسد)`,
    dealWon: (who) => `${who} این دست را ${you(who, "برد", "بردید")}.`,
    dealWhy: (winner, loser, held) =>
      `وقتی کارتی برای کشیدن نماند، ${winner} زودتر همهٔ کارت‌ها را بازی ${you(winner, "کرد", "کردید")}؛ ${loser} با ${faDigits(held)} کارت در دست ${you(loser, "ماند", "ماندید")}.`,
    dealDrawn: "هر دو دست با هم خالی شدند: مساوی، دوباره پخش می‌شود.",
    matchWon: (who) => `${who} مسابقه را ${you(who, "برد", "بردید")}.`,
    hands: "هر دو دست در پایان این دور",
    nextDeal: "دست بعدی",
    rematch: "بازی دوباره",
    yourTurn: "نوبت شما",
    you_lower: "شما",
    played: (who, cards) => `${who} با ${cards} ${you(who, "حمله کرد", "حمله کردید")}.`,
    beat: (who, a, w) => `${who} ${a} را با ${w} ${you(who, "برید", "بریدید")}.`,
    tookUp: (who, n) => `${who} ${faDigits(n)} کارت ${you(who, "برداشت", "برداشتید")}.`,
    join: (a, b) => `${a} و ${b}`,
  },
};

/** The sentence for a hand card that cannot beat `attack`, by the server's code for why not. */
export function whyNot(code, attack, lang) {
  const fa = lang === "fa";
  switch (code) {
    case "not-higher":
      return fa ? `کمتر از ${cardName(attack, "fa")} است.` : `Lower than ${cardName(attack)}.`;
    case "trump-needs-higher-trump":
      return fa ? "حکم را فقط حکمِ بالاتر می‌بُرد." : "A trump is beaten only by a higher trump.";
    default:
      return fa ? "نه هم‌خال است و نه حکم." : "Not the same suit and not a trump.";
  }
}

/**
 * The sentence for a selection of `n` cards that is not an attack: the server's code for that size,
 * or its cap when the other seat's cards cap the attack below `n`.
 */
export function notAnAttack(hint, n, defenderHolds, lang) {
  const code = n > hint.largest && hint.capped ? "attack-over-cap" : hint.not_an_attack[Math.min(n, hint.not_an_attack.length - 1)];
  const fa = lang === "fa";
  switch (code) {
    case "attack-over-cap":
      if (fa) return `حریف ${faDigits(defenderHolds)} کارت دارد، پس بیش از ${faDigits(hint.largest)} کارت نمی‌توانید بگذارید.`;
      return `The other seat holds ${defenderHolds} ${defenderHolds === 1 ? "card" : "cards"}, so ${
        hint.largest === 1 ? "only one card may be laid" : `at most ${hint.largest} cards may be laid`}.`;
    case "attack-needs-pair":
      return fa ? "سه کارت باید دست‌کم یک جفت داشته باشند." : "Three cards need a pair.";
    case "attack-needs-two-pairs":
      return fa ? "پنج کارت باید دو جفت جدا از هم داشته باشند." : "Five cards need two pairs that share no card.";
    default:
      if (n === 0) return fa ? "برای حمله ۱، ۳ یا ۵ کارت انتخاب کنید." : "Choose 1, 3 or 5 cards to attack with.";
      return fa ? `${faDigits(n)} کارت حمله نیست: ۱، ۳ یا ۵ کارت بگذارید.` : `${n} cards are not an attack: lay 1, 3 or 5.`;
  }
}

const FA_ERRORS = {
  "not-your-turn": "اکنون نوبت شما نیست.",
  "stale-version": "نمای شما کهنه بود؛ نمای تازه آمد. دوباره انتخاب کنید.",
  "rate-limited": "کمی آرام‌تر: پیام‌ها بیش از اندازه تند فرستاده شدند.",
  "wrong-moment": "این کار اکنون ممکن نیست.",
  busy: "میز سرش شلوغ است؛ لحظه‌ای بعد دوباره بکوشید.",
  unavailable: "بازی موقتاً ایستاده است: میز اکنون نمی‌تواند حرکت‌ها را نگه دارد. خودش از سر گرفته می‌شود و چیزی از دست نمی‌رود.",
  "went-back": "میز به لحظه‌ای پیش‌تر برگشت؛ از همین‌جا ادامه دهید.",
};

/** A server error, said in the board's language. */
export function errorSentence(frame, lang) {
  if (lang === "fa") return FA_ERRORS[frame.code] || `کار پذیرفته نشد: ${frame.message}`;
  return frame.message;
}

export { cardName, suitName, faDigits };
