// Every sentence of the Panjpar board, in English and Persian. The server sends its hints as codes
// with the cards and numbers they are about; they are worded here, in the board's language.

import { cardName, suitName } from "./cards.js";
import { withinSentence as within } from "./ui.js";
import { refusalSentence } from "./table-words.js";
import { faDigits } from "./persian.js";

// A Persian verb agrees with its subject: "شما" (you) takes the second person plural.
const you = (/** @type {string} */ who, /** @type {string} */ third, /** @type {string} */ second) => (who === "شما" ? second : third);


export const WORDS = {
  en: {
    lang: "en",
    you: "You",
    computer: "The computer",
    waiting: "Waiting for your friend to open the link…",
    shareLink: "Send this link to the person you want to play:",
    copy: "Copy link",
    copied: "Link copied.",
    share: "Share",
    guessAsk: "Before the deal, call the colour of the trump card to come:",
    red: "Red",
    black: "Black",
    guessWait: (/** @type {string} */ who) => `${who} is calling the trump colour.`,
    guessMade: (/** @type {string} */ who, /** @type {string} */ colour, /** @type {boolean} */ right) => `${who} called ${colour}: ${right ? "right" : "wrong"}.`,
    trump: (/** @type {string} */ suit) => `Trumps: ${suit}`,
    stockYes: "Cards left to draw: yes",
    stockNo: "Cards left to draw: no",
    trumpUnder: (/** @type {string} */ card) => `Trump card under the pile: ${card}`,
    trumpDrawn: (/** @type {string} */ who) => `${who} drew the trump card.`,
    yourHand: "Your hand",
    theirHand: (/** @type {string} */ who, /** @type {number} */ n) => `${who}: ${n} ${n === 1 ? "card" : "cards"}`,
    back: "a face-down card",
    attackTurn: "Your attack: choose 1, 3 or 5 cards, then press Attack.",
    attackButton: "Attack",
    attackWait: (/** @type {string} */ who) => `${who} is choosing an attack.`,
    defendTurn: "Defend: drag a card from your hand onto the attack card it beats (or choose the attack card, then your card), or pick up.",
    defendWait: (/** @type {string} */ who) => `${who} is defending.`,
    pickUp: "Pick up",
    beaten: "beaten by",
    battle: (/** @type {string} */ who) => (who === "You" ? "Your attack" : `${who}'s attack`),
    lastBattle: (/** @type {string} */ who) => `The last battle: ${who === "You" ? "your" : `${within(who)}'s`} attack`,
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
    pickedUp: (/** @type {number} */ n) => `${n} ${n === 1 ? "card" : "cards"} picked up.`,
    allBeaten: "Every attack card was beaten.",
    target: (/** @type {string} */ card) => `Beating ${card}: choose your card, or drag one onto any attack card. Cards that cannot beat it are dimmed.`,
    noBeater: (/** @type {string} */ card) => `Nothing in your hand beats ${card}: you may beat another card or pick up.`,
    noBeaterOnly: (/** @type {string} */ card) => `Nothing in your hand beats ${card}: pick up.`,
    // The reason follows a colon, as the rest of the sentence: no capital of its own.
    notBeater: (/** @type {string} */ card, /** @type {string} */ why) => `${card.charAt(0).toUpperCase()}${card.slice(1)} cannot beat it: ${why.charAt(0).toLowerCase()}${why.slice(1)}`,
    validAttack: (/** @type {number} */ n) => `${n} ${n === 1 ? "card" : "cards"}: a legal attack.`,
    scoreOf: (/** @type {string} */ a, /** @type {number} */ x, /** @type {string} */ b, /** @type {number} */ y, /** @type {number} */ length) => `Deals won: ${a} ${x}, ${b} ${y} (first to ${length})`,
    dealWon: (/** @type {string} */ who) => `${who} won the deal.`,
    dealWhy: (/** @type {string} */ winner, /** @type {string} */ loser, /** @type {number} */ held) =>
      `Once the pile was empty, ${within(winner)} played out every card first; ${within(loser)} ${loser === "You" ? "were" : "was"} left holding ${held} ${held === 1 ? "card" : "cards"}.`,
    dealDrawn: "Both hands emptied together: a drawn deal, dealt again.",
    matchWon: (/** @type {string} */ who) => `${who} won the match.`,
    hands: "Both hands at the end of the deal",
    nextDeal: "Next deal",
    rematch: "Play again",
    yourTurn: "Your turn",
    you_lower: "you",
    played: (/** @type {string} */ who, /** @type {string} */ cards) => `${who} attacked with ${cards}.`,
    beat: (/** @type {string} */ who, /** @type {string} */ a, /** @type {string} */ w) => `${who} beat ${a} with ${w}.`,
    tookUp: (/** @type {string} */ who, /** @type {number} */ n) => `${who} picked up ${n} ${n === 1 ? "card" : "cards"}.`,
    beatAll: (/** @type {string} */ who, /** @type {[string, string][]} */ pairs) =>
      `${who} beat the whole attack: ${pairs.map(([a, b]) => `${a} with ${b}`).join(", ")}.`,
    called: (/** @type {string} */ who, /** @type {string} */ colour) => `${who} called ${colour} for the trump colour.`,
    pickedUpRest: (/** @type {string} */ who) => `${who} picked up the attack cards left unbeaten.`,
    join: (/** @type {string} */ a, /** @type {string} */ b) => `${a} and ${b}`,
    // The guided first deal's steps (panjpar-guide.js).
    guide: {
      drawing: " After each battle both draw back up to five cards, the attacker first, while the pile lasts.",
      emptied: " The pile is empty: whoever plays out every card first wins the deal.",
      over: { title: "The deal is over", text: "The panel below says who won, and why." },
      guess: {
        title: "Guess the trump colour",
        text: "Before any card is dealt, guess the colour of trumps. Once each of you has five cards, the next card is turned face up under the pile, and its suit is trumps for this deal. Guess right and you attack first; guess wrong and the computer does.",
      },
      theyGuess: { title: "The computer guesses", text: "The computer is guessing the colour of the trump card. Whoever guesses right attacks first." },
      attack: {
        title: "Your attack",
        text: "Lay 1, 3 or 5 cards: any one card, three with a pair, or five with two pairs. Choose them, then press Attack. Cards the computer cannot beat go into its hand.",
      },
      theyAttack: {
        title: "The computer attacks",
        text: "The computer is choosing its attack. You will then beat its cards, or pick up the ones you do not beat.",
      },
      theyDefend: { title: "The computer defends", text: "The computer is beating your cards. Any it cannot beat go into its hand, and you attack again." },
      defend: {
        title: "Beat the attack",
        some: "Beat each attack card with a higher card of its suit, or with a trump (only a higher trump beats a trump). Beat them all and you attack next; otherwise you pick up the rest.",
        none: "Nothing in your hand beats these cards: pick them up. They join your hand, and the computer attacks again.",
      },
      leave: "Leave the guide",
    },
  },
  fa: {
    lang: "fa",
    you: "شما",
    computer: "رایانه",
    waiting: "منتظر دوستتان هستیم تا پیوند را باز کند…",
    shareLink: "این پیوند را برای کسی بفرستید که می‌خواهید با او بازی کنید:",
    copy: "کپی پیوند",
    copied: "پیوند کپی شد.",
    share: "هم‌رسانی",
    guessAsk: "پیش از پخش کارت‌ها، رنگ کارت حکمی را که رو خواهد شد حدس بزنید:",
    red: "قرمز",
    black: "سیاه",
    guessWait: (/** @type {string} */ who) => `${who} رنگ حکم را حدس می‌زند.`,
    guessMade: (/** @type {string} */ who, /** @type {string} */ colour, /** @type {boolean} */ right) => `${who} ${you(who, "گفت", "گفتید")} ${colour === "red" ? "قرمز" : "سیاه"}: ${right ? "درست بود" : "نادرست بود"}.`,
    trump: (/** @type {string} */ suit) => `حکم: ${suit}`,
    stockYes: "کارتی برای برداشتن مانده: بله",
    stockNo: "کارتی برای برداشتن مانده: نه",
    trumpUnder: (/** @type {string} */ card) => `کارت حکم زیر دسته: ${card}`,
    trumpDrawn: (/** @type {string} */ who) => `${who} کارت حکم را ${you(who, "برداشت", "برداشتید")}.`,
    yourHand: "دست شما",
    theirHand: (/** @type {string} */ who, /** @type {number} */ n) => `${who}: ${faDigits(n)} کارت`,
    back: "کارت رو به پایین",
    attackTurn: "نوبت حملهٔ شماست: ۱، ۳ یا ۵ کارت انتخاب کنید و «حمله» را بزنید.",
    attackButton: "حمله",
    attackWait: (/** @type {string} */ who) => `${who} در حال انتخاب حمله است.`,
    defendTurn: "دفاع: کارتی از دستتان را روی کارت حمله‌ای که می‌بُرد بکشید (یا اول کارت حمله و بعد کارت خودتان را انتخاب کنید)، یا کارت‌ها را بردارید.",
    defendWait: (/** @type {string} */ who) => `${who} در حال دفاع است.`,
    pickUp: "برداشتن",
    beaten: "بریده با",
    battle: (/** @type {string} */ who) => (who === "شما" ? "حملهٔ شما" : `حملهٔ ${who}`),
    lastBattle: (/** @type {string} */ who) => `نبرد پیشین: حملهٔ ${who}`,
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
    pickedUp: (/** @type {number} */ n) => `${faDigits(n)} کارت برداشته شد.`,
    allBeaten: "همهٔ کارت‌های حمله بریده شدند.",
    target: (/** @type {string} */ card) => `بریدن ${card}: کارتتان را انتخاب کنید یا آن را روی هر کارت حمله بکشید. کارت‌هایی که آن را نمی‌بُرند کم‌رنگ شده‌اند.`,
    noBeater: (/** @type {string} */ card) => `هیچ کارتی در دست شما ${card} را نمی‌بُرد: کارت دیگری را ببُرید یا بردارید.`,
    noBeaterOnly: (/** @type {string} */ card) => `هیچ کارتی در دست شما ${card} را نمی‌بُرد: بردارید.`,
    notBeater: (/** @type {string} */ card, /** @type {string} */ why) => `${card} آن را نمی‌بُرد: ${why}`,
    validAttack: (/** @type {number} */ n) => `${faDigits(n)} کارت: حملهٔ درست.`,
    scoreOf: (/** @type {string} */ a, /** @type {number} */ x, /** @type {string} */ b, /** @type {number} */ y, /** @type {number} */ length) => `دست‌های برده: ${a} ${faDigits(x)}، ${b} ${faDigits(y)} (هر که اول به ${faDigits(length)} برسد)`,
    dealWon: (/** @type {string} */ who) => `${who} این دست را ${you(who, "برد", "بردید")}.`,
    dealWhy: (/** @type {string} */ winner, /** @type {string} */ loser, /** @type {number} */ held) =>
      `وقتی کارتی برای کشیدن نماند، ${winner} زودتر همهٔ کارت‌ها را بازی ${you(winner, "کرد", "کردید")}؛ ${loser} با ${faDigits(held)} کارت در دست ${you(loser, "ماند", "ماندید")}.`,
    dealDrawn: "هر دو دست با هم خالی شدند: مساوی، دوباره پخش می‌شود.",
    matchWon: (/** @type {string} */ who) => `${who} مسابقه را ${you(who, "برد", "بردید")}.`,
    hands: "هر دو دست در پایان این دور",
    nextDeal: "دست بعدی",
    rematch: "بازی دوباره",
    yourTurn: "نوبت شما",
    you_lower: "شما",
    played: (/** @type {string} */ who, /** @type {string} */ cards) => `${who} با ${cards} ${you(who, "حمله کرد", "حمله کردید")}.`,
    beat: (/** @type {string} */ who, /** @type {string} */ a, /** @type {string} */ w) => `${who} ${a} را با ${w} ${you(who, "برید", "بریدید")}.`,
    tookUp: (/** @type {string} */ who, /** @type {number} */ n) => `${who} ${faDigits(n)} کارت ${you(who, "برداشت", "برداشتید")}.`,
    beatAll: (/** @type {string} */ who, /** @type {[string, string][]} */ pairs) =>
      `${who} همهٔ حمله را ${you(who, "برید", "بریدید")}: ${pairs.map(([a, b]) => `${a} با ${b}`).join("، ")}.`,
    called: (/** @type {string} */ who, /** @type {string} */ colour) => `${who} رنگ حکم را ${colour === "red" ? "قرمز" : "سیاه"} ${you(who, "گفت", "گفتید")}.`,
    pickedUpRest: (/** @type {string} */ who) => `${who} کارت‌های حملهٔ بریده‌نشده را ${you(who, "برداشت", "برداشتید")}.`,
    join: (/** @type {string} */ a, /** @type {string} */ b) => `${a} و ${b}`,
    guide: {
      drawing: " پس از هر نبرد، تا دسته تمام نشده، هر دو تا پنج کارت برمی‌دارند؛ اول مهاجم.",
      emptied: " دسته تمام شده است: هر که زودتر همهٔ کارت‌هایش را بازی کند این دست را می‌برد.",
      over: { title: "این دست تمام شد", text: "صفحهٔ پایین می‌گوید چه کسی برد و چرا." },
      guess: {
        title: "رنگ حکم را حدس بزنید",
        text: "پیش از آنکه کارتی پخش شود، رنگ حکم را حدس بزنید. وقتی هر کدام پنج کارت گرفتید، کارت بعدی رو به بالا زیر دسته گذاشته می‌شود و خالش در این دست حکم است. اگر درست حدس بزنید اول شما حمله می‌کنید، وگرنه رایانه.",
      },
      theyGuess: { title: "رایانه حدس می‌زند", text: "رایانه رنگ کارت حکم را حدس می‌زند. هر که درست حدس بزند اول حمله می‌کند." },
      attack: {
        title: "نوبت حملهٔ شما",
        text: "۱، ۳ یا ۵ کارت بگذارید: هر تک‌کارتی، سه کارت با یک جفت، یا پنج کارت با دو جفت. آن‌ها را انتخاب کنید و «حمله» را بزنید. کارتی که رایانه نتواند ببُرد به دست او می‌رود.",
      },
      theyAttack: {
        title: "رایانه حمله می‌کند",
        text: "رایانه حمله‌اش را انتخاب می‌کند. بعد شما کارت‌هایش را می‌بُرید، یا آن‌هایی را که نمی‌بُرید برمی‌دارید.",
      },
      theyDefend: { title: "رایانه دفاع می‌کند", text: "رایانه کارت‌های شما را می‌بُرد. هر کارتی که نتواند ببُرد به دستش می‌رود و دوباره شما حمله می‌کنید." },
      defend: {
        title: "حمله را ببُرید",
        some: "هر کارت حمله را با کارت بالاتری از همان خال، یا با حکم ببُرید (حکم را فقط حکم بالاتر می‌بُرد). اگر همه را ببُرید نوبت حملهٔ شماست؛ وگرنه بقیه را برمی‌دارید.",
        none: "هیچ کارتی در دست شما این کارت‌ها را نمی‌بُرد: برشان دارید. به دستتان اضافه می‌شوند و رایانه دوباره حمله می‌کند.",
      },
      leave: "بیرون رفتن از راهنما",
    },
  },
};

/** The sentence for a hand card that cannot beat `attack`, by the server's code for why not.
 * @param {string} code
 * @param {string} attack
 * @param {string} lang */
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
 * @param {{ largest: number, capped: boolean, not_an_attack: string[] }} hint the view's hint (the table's JSON)
 * @param {number} n
 * @param {number} defenderHolds
 * @param {string} lang
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

// Panjpar's own refusals in Persian (in English the rules' own sentence is shown). The board offers
// only legal moves, so these come only from a race or a page that is not ours.
/** @type {Record<string, string>} */
const FA_ERRORS = {
  "attack-size": "حمله ۱، ۳ یا ۵ کارت است.",
  "attack-needs-pair": "حملهٔ سه‌کارتی باید یک جفت داشته باشد.",
  "attack-needs-two-pairs": "حملهٔ پنج‌کارتی باید دو جفت جدا داشته باشد.",
  "attack-over-cap": "این حمله از کارت‌هایی که حریف در دست دارد بیشتر است.",
  "not-an-attack-card": "این کارت در این حمله نیست.",
  "already-beaten": "این کارت حمله پیش‌تر بریده شده است.",
  "not-higher": "این کارت از کارت حمله بالاتر نیست.",
  "trump-needs-higher-trump": "حکم را تنها حکمی بالاتر می‌بُرد.",
  "wrong-suit": "این کارت نه هم‌خال کارت حمله است و نه حکم.",
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
 * table sends: an attack with its cards, a defence with each attack card and the card beating it and
 * the cards picked up, a guess with its colour.
 */
/** @type {import("./board.js").CoachWords} */
export const coachWords = {
  move(play, lang, list) {
    const fa = lang === "fa";
    const name = (/** @type {string} */ code) => cardName(code, lang);
    const cards = (/** @type {string[]} */ codes) => list(codes.map(name));
    switch (play.type) {
      case "attack":
        return fa ? `حمله با ${cards(play.cards)}` : `attacking with ${cards(play.cards)}`;
      case "guess":
        return fa ? `حدس ${play.colour === "red" ? "قرمز" : "سیاه"}` : `guessing ${play.colour}`;
      default: {
        const beats = play.beats.map((/** @type {[string, string]} */ [attack, w]) => (fa ? `${name(attack)} با ${name(w)}` : `${name(attack)} with ${name(w)}`));
        const picked = play.pick_up.length ? cards(play.pick_up) : "";
        if (!beats.length) return fa ? `برداشتن ${picked}` : `picking up ${picked}`;
        const beating = fa ? `بریدن ${list(beats)}` : `beating ${list(beats)}`;
        if (!picked) return beating;
        return fa ? `${beating} و برداشتن ${picked}` : `${beating} and picking up ${picked}`;
      }
    }
  },
  rule(rule, lang, list) {
    const fa = lang === "fa";
    switch (rule.rule) {
      case "keeps-trumps": {
        const cards = list(rule.cards.map((/** @type {string} */ code) => cardName(code, lang)));
        if (fa) return `حکم‌تان، ${cards}، برای بعد می‌ماند.`;
        return `It saves your ${rule.cards.length === 1 ? "trump" : "trumps"}, ${cards}, for later.`;
      }
      case "takes-fewer":
        if (fa) return `${faDigits(rule.cards)} کارت کمتر به دستتان می‌آید.`;
        return `You take ${rule.cards} ${rule.cards === 1 ? "card" : "cards"} fewer into your hand.`;
      case "sheds-more":
        if (fa) return `${faDigits(rule.best)} کارت را یک‌جا از دست بیرون می‌کند، نه ${faDigits(rule.made)} کارت.`;
        return `It gets rid of ${rule.best} cards at once rather than ${rule.made}.`;
      default:
        throw new Error(`a reason of the rules this page cannot word: ${rule.rule}`);
    }
  },
};

/**
 * The moves of a replayed deal, as the board's move line tells them: who did what, from the actions
 * the table sends (see replay.js).
 * @type {import("./board.js").MoveWords}
 */
export const moveWords = {
  told(play, who, lang) {
    const w = WORDS[/** @type {keyof typeof WORDS} */ (lang)] ?? WORDS.en;
    const name = (/** @type {string} */ code) => cardName(code, lang);
    switch (play?.type) {
      case "guess":
        return w.called(who, play.colour);
      case "attack":
        return w.played(who, play.cards.map(name).join(", "));
      case "beat":
        return w.beat(who, name(play.attack), name(play.with));
      case "pick-up":
        return w.pickedUpRest(who);
      default:
        throw new Error(`a move this page cannot word: ${play?.type}`);
    }
  },
  // The trump's colour is guessed before a card is dealt.
  before: (lang) => (lang === "fa" ? "پیش از پخش: حدس رنگ حکم" : "Before the deal: the guess of the trump's colour"),
};

export { cardName, suitName, faDigits };
