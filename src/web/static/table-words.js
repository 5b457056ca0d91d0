// Every sentence of the table page around the board (table.js), in English and Persian: joining,
// the connection, watching, the header's controls and the notice of a table gone for good. Each
// board's own sentences are in its words module (panjpar-words.js, pishe-pasha-words.js,
// ganjifa-words.js).

import { faDigits, faNumber } from "./persian.js";

export const WORDS = {
  en: {
    full: "This table is full: every seat has been taken. Watch it, or ask whoever sent you the link for a new one.",
    over: "The match at this table is over, and its seats were all taken. Watch it to see how it ended and replay its deals.",
    watchInstead: "Watch this table",
    brand: "chaikhana",
    home: "/",
    ownTable: "Start a table of your own",
    watching: "You are watching: you see what everyone at the table sees, and no one's hand.",
    watchLink: "Watch link",
    skip: "Skip to the board",
    more: "More",
    watchCopied: (/** @type {string} */ link) => `Watch link copied: ${link} (whoever opens it can watch, never play).`,
    watchShown: (/** @type {string} */ link) => `Watch link: ${link} (whoever opens it can watch, never play).`,
    rules: "Rules",
    newGame: "New game",
    joining: "Taking your seat…",
    hintsOffered: "At this table the host offers the coach's hints to every player: at your turn you may ask the strong computer what it would play, and everyone sees how many hints each player took.",
    agree: "Agree and take the seat",
    reconnecting: "Connection lost. Reconnecting… your seat is kept for you.",
    failed: "The seat could not be taken just now. Reload the page to try again.",
    offline: "Not sent: the connection is down. Your seat is kept; make the move again once it is back.",
    contrast: "High contrast",
    sound: "Sound",
    waking: "The table is waking up… one moment. Your seat is kept for you.",
    shareLink: "The table's link:",
    copy: "Copy link",
    copied: "Link copied.",
    share: "Share",
    guide: "Guide",
    replayBar: "Replay",
    voice: "Voice",
    gone: {
      heads: {
        ended: "The match is over",
        expired: "This table has expired",
        "given-away": "Your seat was given to someone else",
        lost: "This table's record was lost",
        closed: "This table has closed",
      },
      ended: "The other player ended the match while you were away from it.",
      endedByYou: "You ended the match. The table takes no more moves.",
      endedWatched: "One of the players ended the match.",
      expired: (/** @type {number | undefined} */ days) =>
        days ? `This table expired after ${days} days without a move.` : "This table expired: nobody moved at it for too long.",
      "given-away": "While you were away, the others offered your seat to someone else, so this browser can no longer play it.",
      lost: "The server lost this table's record, so this game cannot go on. We are sorry.",
      closed: "There is no table at this address any more; nothing more can be played here.",
      again: (/** @type {string} */ game) => `Start a new table of ${game}`,
      againAny: "Choose a game",
      home: "Home page",
    },
    // Said in English alone: a table of a game this site draws no board for.
    noBoard: (/** @type {string} */ game) => `This site has no board for ${game} tables; they can be played over the WebSocket protocol only.`,
  },
  fa: {
    full: "این میز پر است و همهٔ جاها گرفته شده. تماشایش کنید، یا از کسی که پیوند را فرستاد پیوند تازه‌ای بخواهید.",
    over: "بازی این میز تمام شده و همهٔ جاهایش گرفته شده بود. تماشا کنید تا ببینید چطور تمام شد و دست‌هایش را دوباره ببینید.",
    watchInstead: "تماشای این میز",
    brand: "چایخانه",
    home: "/fa",
    ownTable: "میز خودتان را باز کنید",
    watching: "شما تماشاگرید: هر آنچه همهٔ سر میز می‌بینند می‌بینید، و دست هیچ‌کس را نه.",
    watchLink: "پیوند تماشا",
    skip: "رفتن به میز",
    more: "بیشتر",
    watchCopied: (/** @type {string} */ link) => `پیوند تماشا رونوشت شد: ${link} (هر که بازش کند می‌تواند تماشا کند، نه بازی).`,
    watchShown: (/** @type {string} */ link) => `پیوند تماشا: ${link} (هر که بازش کند می‌تواند تماشا کند، نه بازی).`,
    rules: "قواعد",
    newGame: "بازی تازه",
    joining: "در حال نشستن سر میز…",
    hintsOffered: "میزبان این میز راهنمایی مربی را به همهٔ بازیکنان پیشنهاد کرده است: در نوبت خود می‌توانید بپرسید رایانهٔ قوی چه بازی می‌کرد، و همه می‌بینند هر کس چند بار راهنمایی گرفت.",
    agree: "می‌پذیرم؛ نشستن سر میز",
    reconnecting: "ارتباط قطع شد. دوباره وصل می‌شویم… جای شما نگه داشته شده است.",
    failed: "اکنون نشد سر میز بنشینید. صفحه را دوباره بار کنید.",
    offline: "فرستاده نشد: ارتباط قطع است. جای شما نگه داشته شده؛ وقتی ارتباط برگشت دوباره بازی کنید.",
    contrast: "کنتراست بالا",
    sound: "صدا",
    waking: "میز دارد بیدار می‌شود… لحظه‌ای صبر کنید. جای شما نگه داشته شده است.",
    shareLink: "پیوند میز:",
    copy: "کپی پیوند",
    copied: "پیوند کپی شد.",
    share: "هم‌رسانی",
    guide: "راهنما",
    replayBar: "بازبینی",
    voice: "گفت‌وگوی صوتی",
    gone: {
      heads: {
        ended: "بازی تمام شد",
        expired: "مهلت این میز سر آمد",
        "given-away": "جای شما به کس دیگری داده شد",
        lost: "سابقهٔ این میز از دست رفت",
        closed: "این میز بسته شده است",
      },
      ended: "وقتی شما نبودید، بازیکن دیگر بازی را تمام کرد.",
      endedByYou: "شما بازی را تمام کردید. این میز دیگر حرکتی نمی‌پذیرد.",
      endedWatched: "یکی از بازیکنان بازی را تمام کرد.",
      expired: (/** @type {number | undefined} */ days) =>
        days
          ? `این میز پس از ${faDigits(days)} روز بی‌حرکت بسته شد.`
          : "این میز بسته شد: مدت زیادی کسی در آن بازی نکرد.",
      "given-away": "وقتی شما نبودید، دیگران جایتان را به کس دیگری سپردند و این مرورگر دیگر نمی‌تواند با آن بازی کند.",
      lost: "سرور سابقهٔ این میز را از دست داد و این بازی دیگر ادامه نمی‌یابد. پوزش می‌خواهیم.",
      closed: "دیگر میزی در این نشانی نیست و اینجا بازی نمی‌شود.",
      again: (/** @type {string} */ game) => `میز تازه‌ای از ${game} باز کنید`,
      againAny: "یک بازی انتخاب کنید",
      home: "صفحهٔ اول",
    },
  },
};

// The coach's reasons. The table sends each as a value (`say` names the sentence; the moves come as
// the game writes them, the values as numbers); the sentence is made here, in the page's language,
// with the moves and the rules' reasons worded by the board's own words module (its `coachWords`).

const capital = (/** @type {string} */ phrase) => phrase.charAt(0).toUpperCase() + phrase.slice(1);

export const COACH = {
  en: {
    /** A value as a share or a count: "64%", "14.2 cards". */
    amount: (/** @type {string} */ measure, /** @type {number} */ v) => (measure === "cards" ? `${v.toFixed(1)} cards` : `${Math.round(v * 100)}%`),
    /** What a value says a move did over the deals sampled to agree with what the seat had seen. */
    outcome: (/** @type {string} */ measure, /** @type {number} */ v) =>
      measure === "cards"
        ? `left you ${v.toFixed(1)} cards won by the deal's end, on average over the deals that fit what you had seen`
        : `won the deal in ${Math.round(v * 100)}% of the deals that fit what you had seen`,
    end: { win: "wins the deal", draw: "draws the deal", loss: "loses the deal" },
    hint: (/** @type {string} */ best, /** @type {string} */ outcome) => `Recommended: ${best}. It ${outcome}.`,
    agreed: (/** @type {string} */ made, /** @type {string} */ outcome) => `${capital(made)} was the coach's pick as well: it ${outcome}.`,
    close: (/** @type {string} */ made, /** @type {string} */ best, /** @type {string} */ madeAmount, /** @type {string} */ bestAmount) =>
      `${capital(made)} was about as good as ${best}: ${madeAmount} against ${bestAmount}, a gap too small for the sampling to tell apart.`,
    better: (/** @type {string} */ best, /** @type {string} */ made, /** @type {string} */ outcome, /** @type {string} */ madeAmount) => `${capital(best)} was better than ${made}: it ${outcome}, against ${madeAmount} after ${made}.`,
    only: (/** @type {string} */ play, /** @type {string} */ outcome) => `${capital(play)} was the only real choice, as any other legal move comes to the same: it ${outcome}.`,
    solvedHint: (/** @type {string} */ best, /** @type {string} */ end) => `Recommended: ${best}. It ${end} with best play on both sides: nothing is left to draw, so every card you have not seen is in the other hand.`,
    solvedAgreed: (/** @type {string} */ made, /** @type {string} */ end) => `${capital(made)} was as good as any move: it ${end} with best play on both sides.`,
    solvedBetter: (/** @type {string} */ best, /** @type {string} */ bestEnd, /** @type {string} */ made, /** @type {string} */ madeEnd) =>
      `${capital(best)} ${bestEnd} with best play on both sides, while ${made} ${madeEnd}: nothing was left to draw, so every card you had not seen was in the other hand.`,
    guess: (/** @type {string} */ play, /** @type {number} */ v) =>
      `Either colour is as good a guess, since nothing is seen before it and half the pack is red. After ${play}, the deal is yours in ${Math.round(v * 100)}% of the deals drawn at random.`,
    unseen: "The coach has seen nothing of this deal from your seat.",
    list: (/** @type {string[]} */ items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`),
  },
  fa: {
    amount: (/** @type {string} */ measure, /** @type {number} */ v) => (measure === "cards" ? `${faNumber(v.toFixed(1))} کارت` : `${faNumber(String(Math.round(v * 100)))}٪`),
    outcome: (/** @type {string} */ measure, /** @type {number} */ v) =>
      measure === "cards"
        ? `در دست‌هایی که با دیده‌های شما جور بود، تا پایان دست به‌طور میانگین ${faNumber(v.toFixed(1))} کارت برایتان گرفت`
        : `در ${faNumber(String(Math.round(v * 100)))}٪ دست‌هایی که با دیده‌های شما جور بود برنده شد`,
    end: { win: "دست را می‌برد", draw: "به تساوی می‌رسد", loss: "دست را می‌بازد" },
    hint: (/** @type {string} */ best, /** @type {string} */ outcome) => `پیشنهاد: ${best}. ${outcome}.`,
    agreed: (/** @type {string} */ made, /** @type {string} */ outcome) => `${made} انتخاب مربی هم بود: ${outcome}.`,
    close: (/** @type {string} */ made, /** @type {string} */ best, /** @type {string} */ madeAmount, /** @type {string} */ bestAmount) =>
      `${made} تقریباً هم‌اندازهٔ ${best} خوب بود: ${madeAmount} در برابر ${bestAmount}، فاصله‌ای کوچک‌تر از آنچه نمونه‌گیری از هم جدا کند.`,
    better: (/** @type {string} */ best, /** @type {string} */ made, /** @type {string} */ outcome, /** @type {string} */ madeAmount) => `${best} از ${made} بهتر بود: ${outcome}، در برابر ${madeAmount} پس از ${made}.`,
    only: (/** @type {string} */ play, /** @type {string} */ outcome) => `${play} تنها انتخاب واقعی بود، چون هر حرکت مجاز دیگری به همین می‌رسید: ${outcome}.`,
    solvedHint: (/** @type {string} */ best, /** @type {string} */ end) => `پیشنهاد: ${best}. با بهترین بازی هر دو طرف ${end}: کارتی برای کشیدن نمانده، پس هر کارتی که ندیده‌اید در دست حریف است.`,
    solvedAgreed: (/** @type {string} */ made, /** @type {string} */ end) => `${made} به خوبیِ هر حرکت دیگری بود: با بهترین بازی هر دو طرف ${end}.`,
    solvedBetter: (/** @type {string} */ best, /** @type {string} */ bestEnd, /** @type {string} */ made, /** @type {string} */ madeEnd) =>
      `${best} با بهترین بازی هر دو طرف ${bestEnd}، ولی ${made} ${madeEnd}: کارتی برای کشیدن نمانده بود، پس هر کارتی که ندیده بودید در دست حریف بود.`,
    guess: (/** @type {string} */ play, /** @type {number} */ v) =>
      `هر دو رنگ حدسی به یک اندازه خوب‌اند، چون پیش از حدس چیزی دیده نمی‌شود و نیمی از کارت‌ها قرمزند. پس از ${play}، در ${faNumber(String(Math.round(v * 100)))}٪ دست‌هایی که تصادفی پخش شد برد با شماست.`,
    unseen: "مربی از جای شما چیزی از این دست ندیده است.",
    list: (/** @type {string[]} */ items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join("، ")} و ${items[items.length - 1]}`),
  },
};

/**
 * The coach's reason `why` as a sentence in `lang`, its moves and rules worded by `game` (a board's
 * `coachWords`: `move(play, lang, list)` and `rule(rule, lang, list)`). A reason kept as a sentence by
 * an earlier coach (a string) is shown as it was written.
 * @param {any} why the table's JSON: a reason as the coach sent it, or a sentence
 * @param {string} lang
 * @param {import("./board.js").CoachWords} game
 * @returns {string}
 */
export function coachSentence(why, lang, game) {
  if (typeof why === "string") return why;
  const w = COACH[/** @type {keyof typeof COACH} */ (lang)] ?? COACH.en;
  const move = (/** @type {import("./socket.js").Action} */ play) => game.move(play, lang, w.list);
  const outcome = (/** @type {number} */ v) => w.outcome(why.measure, v);
  const amount = (/** @type {number} */ v) => w.amount(why.measure, v);
  switch (why.say) {
    case "hint":
      return w.hint(move(why.best), outcome(why.value));
    case "agreed":
      return w.agreed(move(why.made), outcome(why.value));
    case "close":
      return w.close(move(why.made), move(why.best), amount(why.made_value), amount(why.best_value));
    case "better": {
      const said = w.better(move(why.best), move(why.made), outcome(why.best_value), amount(why.made_value));
      const rule = why.rule ? game.rule(why.rule, lang, w.list) : "";
      return rule ? `${said} ${rule}` : said;
    }
    case "only":
      return w.only(move(why.play), outcome(why.value));
    case "solved-hint":
      return w.solvedHint(move(why.best), w.end[/** @type {keyof typeof w.end} */ (why.end)]);
    case "solved-agreed":
      return w.solvedAgreed(move(why.made), w.end[/** @type {keyof typeof w.end} */ (why.end)]);
    case "solved-better":
      return w.solvedBetter(move(why.best), w.end[/** @type {keyof typeof w.end} */ (why.best_end)], move(why.made), w.end[/** @type {keyof typeof w.end} */ (why.made_end)]);
    case "guess":
      return w.guess(move(why.play), why.value);
    case "unseen":
      return w.unseen;
    default:
      throw new Error(`the coach said a reason this page cannot word: ${why.say}`);
  }
}

// The table's refusals that every game shares, in Persian (in English the table's own sentence is
// shown); a board words its own game's refusals itself.
/** @type {Record<string, string>} */
export const REFUSALS_FA = {
  "not-your-turn": "اکنون نوبت شما نیست.",
  "stale-version": "نمای شما کهنه بود؛ نمای تازه آمد. دوباره انتخاب کنید.",
  "rate-limited": "کمی آرام‌تر: پیام‌ها بیش از اندازه تند فرستاده شدند.",
  "wrong-moment": "این کار اکنون ممکن نیست.",
  busy: "میز سرش شلوغ است؛ لحظه‌ای بعد دوباره بکوشید.",
  unavailable: "بازی موقتاً ایستاده است: میز اکنون نمی‌تواند حرکت‌ها را نگه دارد. خودش از سر گرفته می‌شود و چیزی از دست نمی‌رود.",
  "went-back": "میز به لحظه‌ای پیش‌تر برگشت؛ از همین‌جا ادامه دهید.",
  "deal-over": "این دست تمام شده است.",
  "wrong-phase": "این کار در این مرحلهٔ دست ممکن نیست.",
  "not-in-hand": "این کارت در دست شما نیست.",
  "bad-action": "این حرکت شناخته نشد.",
  "bad-request": "این درخواست درست نبود.",
  "watchers-cannot-act": "تماشاگر بازی نمی‌کند.",
};

/** What a Persian board says of a refusal it has no sentence for: never the English one. */
export const REFUSED_FA = "این حرکت پذیرفته نشد.";

/** A refusal of the table's shared codes, said in `lang`.
 * @param {import("./socket.js").ErrorFrame} frame
 * @param {string} lang */
export function refusalSentence(frame, lang) {
  if (lang !== "fa") return frame.message;
  return REFUSALS_FA[frame.code] ?? REFUSED_FA;
}
