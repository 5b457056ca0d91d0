// Every sentence of the Ganjifa board in Persian (ganjifa-words.js holds the English and joins the
// two). The suits and ranks go by their Persian names: شاه and وزیر, تاج، سفید، شمشیر، غلام، چنگ، سرخ،
// برات و قماش. A trick is a «دست», a deal a «دور», the lead «شروع», the hukm «حکم».

import { gcardName, parseGCard, GSUITS } from "./gcards.js";
import { faDigits } from "./persian.js";
import { REFUSALS_FA, REFUSED_FA } from "./table-words.js";

/** @typedef {import("./gcards.js").GSuit} GSuit */

// A Persian verb agrees with its subject: "شما" (you) takes the second person plural.
const you = (/** @type {string} */ who, /** @type {string} */ third, /** @type {string} */ second) => (who === "شما" ? second : third);
const card = (/** @type {string} */ code) => gcardName(code, "fa");
const suit = (/** @type {string} */ name) => GSUITS[name].fa;
const high = (/** @type {GSuit} */ s) => (s.high === "ten" ? "۱۰ برتر" : "۱ برتر");
const list = (/** @type {string[]} */ items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join("، ")} و ${items[items.length - 1]}`);
/** A rank as the tracker sends it ("M", "W", "10"), in Persian. */
const rank = (/** @type {string} */ r) => (r === "M" ? "شاه" : r === "W" ? "وزیر" : faDigits(r));
/** What a call asks of the others, said in the guide's steps. */
const call = "هر که حکمِ خالِ خوانده‌شده (بهترین کارتِ ماندهٔ آن) را دارد باید آن را بازی کند، نفر سوم هر کارتی که بخواهد می‌گذارد، و حکم دست را می‌برد";

export const FA = {
  lang: "fa",
  yourTurn: "نوبت شما",
  level: {
    gentle: "حریفان شما دو رایانهٔ ملایم‌اند.",
    standard: "حریفان شما دو رایانهٔ معمولی‌اند.",
    clever: "حریفان شما دو رایانهٔ زیرک‌اند.",
    strong: "حریفان شما دو رایانهٔ قوی‌اند.",
  },
  waiting: "دست وقتی آغاز می‌شود که هر سه جا پر شود.",
  shareLink: "این پیوند را برای هر دو نفری بفرستید که می‌خواهید با آن‌ها بازی کنید:",
  shareLinkLast: "یک جا مانده است: این پیوند را برای کسی بفرستید که می‌خواهید با او بازی کنید.",
  copy: "کپی پیوند",
  copied: "پیوند کپی شد.",
  share: "هم‌رسانی",
  you: "شما",
  computer: (/** @type {number} */ seat) => `رایانهٔ ${faDigits(seat)}`,
  rungs: { run: "دوکال (رشته)", deni: "دنی", choice: "تلفه یا اوتاری", blind: "شروع کور" },
  kinds: { opening: "گشایش", run: "دوکال", utari: "اوتاری", deni: "دنی", talafa: "تلفه", blind: "شروع کور" },
  rung: (/** @type {string} */ name, /** @type {boolean} */ open) => `${name}: ${open ? "باز" : "بسته"}. `,
  action: {
    run: (/** @type {string} */ s) => `شروع دوکالِ ${suit(s)}`,
    deni: (/** @type {string} */ c) => `دنی: خواندن با ${card(c)}`,
    burn: (/** @type {string} */ s) => `نگه داشتن وزیر تنهای ${suit(s)} (می‌سوزد)`,
    talafaOwn: (/** @type {string} */ s, /** @type {string} */ c) => `تلفه در ${suit(s)} با ${card(c)}`,
    talafaDown: (/** @type {string} */ s, /** @type {string} */ c) => `تلفه در ${suit(s)}، ${card(c)} به پشت`,
    utari: (/** @type {number} */ n) => `اوتاری: شروع با ${faDigits(n)} حکم`,
    giveUp: "واگذاشتن شروع (کور)",
  },
  yourCards: (/** @type {number} */ n) => `کارت‌های شما (${faDigits(n)})`,
  suitGroup: (/** @type {GSuit} */ s) => `${s.fa}، ${high(s)}`,
  faceUp: (/** @type {string} */ c) => `${card(c)}: رو، دیگران آن را می‌بینند`,
  handEmpty: "کارتی در دست ندارید.",
  pickCards: (/** @type {number} */ n) => `کارت‌های به‌پشتِ شروع‌کننده (${faDigits(n)}): یکی را بردارید`,
  pickCard: (/** @type {number} */ i) => `کارت به‌پشتِ ${faDigits(i)}`,
  leading: "شروع می‌کند",
  toPlay: "نوبت اوست",
  awayMark: "غایب",
  holds: (/** @type {number} */ n) => `${faDigits(n)} کارت:`,
  lostLead: (/** @type {number} */ n) => `${faDigits(n)} بار شروع را از دست داده`,
  keptLead: "هنوز شروع را از دست نداده",
  faceDown: (/** @type {number} */ n) => `${faDigits(n)} کارت به پشت`,
  openCaption: "رو، پیش چشم همه:",
  faceDownWhy: "کارت‌هایی در دست که تنها دارنده‌شان می‌بیند؛ کارت‌های رو در کنارشان را همه می‌بینند.",
  dotsWhy: "برای هر دستی که این بازیکن شروع کرد و نبرد یک نقطه. وقتی هر سه بازیکن نقطه داشته باشند، مرحلهٔ دوم آغاز می‌شود.",
  phaseWhy: (/** @type {boolean} */ second) =>
    `دست‌ها به نوبت روز و شب‌اند و نخستین روز است: روز شاهِ سرخ و شب شاهِ سفید دست را می‌گشاید و دست گشایش شش‌کارتی را می‌برد. ${second ? "مرحلهٔ دوم آغاز شده، چون هر بازیکن یک بار شروع را از دست داده: اوتاری می‌تواند هر شمار حکم را پیش بیاورد و تلفه می‌تواند کارتی از خال دیگر باشد که رو به پایین گذاشته می‌شود." : "مرحلهٔ دوم وقتی آغاز می‌شود که هر بازیکن یک بار شروع را از دست بدهد (نقطه‌های کنار هر نام)."}`,
  won: (/** @type {number} */ n) => `بُرده ${faDigits(n)}`,
  matchTotal: (/** @type {string} */ total) => `جمع ${total}`,
  trick: "دست روی میز",
  trickTitle: (/** @type {boolean} */ current, /** @type {string} */ kind, /** @type {string} */ leader) => `${current ? "این دست" : "دست پیشین"}: ${kind}، شروع با ${leader}`,
  trickWon: (/** @type {string} */ title, /** @type {string} */ winner) => `${title}؛ ${winner} آن را ${you(winner, "برد", "بردید")}`,
  ledTag: "شروع",
  wonTag: "برد",
  playedFaceDown: "کارتی که به پشت بازی شد",
  owes: (/** @type {number} */ n) => `${faDigits(n)} کارت مانده`,
  feltEmpty: "میز خالی است",
  gaveUp: (/** @type {string} */ who) => `${who} شروع را ${you(who, "واگذاشت", "واگذاشتید")}: یکی از کارت‌های زیر را بردارید`,
  led: (/** @type {string} */ who, /** @type {string} */ kind) => `${who} ${you(who, "شروع کرد", "شروع کردید")}: ${kind}.`,
  told: {
    putDown: (/** @type {string} */ who, /** @type {string} */ c) => `${who} ${card(c)} را ${you(who, "گذاشت", "گذاشتید")}.`,
    run: (/** @type {string} */ who, /** @type {string} */ s) => `${who} دوکالِ ${suit(s)} را ${you(who, "شروع کرد", "شروع کردید")}.`,
    deni: (/** @type {string} */ who, /** @type {string} */ c) => `${who} با ${card(c)} ${you(who, "خواند", "خواندید")} (دنی).`,
    burn: (/** @type {string} */ who, /** @type {string} */ s) => `${who} وزیر تنهای ${suit(s)} را نگه ${you(who, "داشت", "داشتید")} تا بسوزد.`,
    talafa: (/** @type {string} */ who, /** @type {string} */ s, /** @type {string} */ c) => `${who} تلفه در ${suit(s)} را با ${card(c)} ${you(who, "شروع کرد", "شروع کردید")}.`,
    talafaDown: (/** @type {string} */ who, /** @type {string} */ s, /** @type {string} */ c) => `${who} تلفه در ${suit(s)} را ${you(who, "شروع کرد", "شروع کردید")}، ${card(c)} به پشت.`,
    hidden: (/** @type {string} */ who) => `${who} تلفه را با کارتی به پشت ${you(who, "شروع کرد", "شروع کردید")}.`,
    utari: (/** @type {string} */ who, /** @type {string} */ cards) => `${who} ${cards} را با هم ${you(who, "بازی کرد", "بازی کردید")} (اوتاری).`,
    named: card,
    giveUp: (/** @type {string} */ who) => `${who} شروع را ${you(who, "واگذاشت", "واگذاشتید")}.`,
    pick: (/** @type {string} */ who, /** @type {number} */ back) => `${who} کارت به‌پشتِ ${faDigits(back + 1)} را ${you(who, "برداشت", "برداشتید")}.`,
  },
  wonTrick: (/** @type {string} */ who) => `${who} این دست را ${you(who, "برد", "بردید")}.`,
  dealBest: (/** @type {string} */ top, /** @type {string} */ best) => `این دور تمام شد: بهترین نتیجه از آنِ ${top} بود (${best}).`,
  dealOver: "این دور تمام شد.",
  bestJoin: " و ",
  scoreLine: (/** @type {string} */ who, /** @type {number} */ won, /** @type {number} */ share, /** @type {string} */ score) => `${who}: بُرده ${faDigits(won)} − سهم ${faDigits(share)} = ${score}`,
  scoresWhy: "در این دور امتیاز هر کس کارت‌هایی است که برده، منهای سهمش از دسته:",
  totals: (/** @type {string} */ all) => `جمع امتیازها: ${all}.`,
  totalOf: (/** @type {string} */ who, /** @type {string} */ total) => `${who} ${total}`,
  leadRun: "نوبت شروع شماست: دوکال دارید و باید آن را شروع کنید.",
  leadBurn: "نوبت شروع شماست: با وزیر تنهایتان بخوانید، یا نگهش دارید تا بسوزد.",
  leadDeni: "نوبت شروع شماست: دنی لازم است. کارتی را که با آن می‌خوانید انتخاب کنید.",
  aTalafa: "تلفه",
  anUtari: "اوتاری",
  leadGiveUp: "نوبت شروع شماست: باید شروع را واگذارید؛ نفر بعد یکی از کارت‌هایتان را ندیده برمی‌دارد.",
  orGiveUp: "، یا شروع را واگذارید",
  leadMake: (/** @type {string[]} */ can, /** @type {string} */ blind) => `نوبت شروع شماست: ${can.join(" یا ")} بازی کنید${blind}.`,
  isLeading: (/** @type {string} */ who) => `${who} شروع می‌کند.`,
  isToPlay: (/** @type {string} */ who) => `نوبت ${who} است.`,
  pickStatus: "شروع‌کننده شروع را واگذاشت: همهٔ دستش، کارت‌های رو هم، به‌پشت بُر خورده است. یکی را بردارید؛ همان کارت خوانده می‌شود.",
  putDownOne: "۱ کارت بگذارید: آن را در دستتان بزنید.",
  putDown: (/** @type {number} */ n) => `${faDigits(n)} کارت بگذارید: یکی‌یکی آن‌ها را در دستتان بزنید.`,
  yourMove: "نوبت حرکت شماست.",
  chooseDeni: "کارتِ خواندنِ دنی",
  chooseTalafa: "کارتی برای تلفه",
  chooseUtari: "حکم‌هایتان برای اوتاری",
  notALead: (/** @type {string[]} */ parts) => `این کارت‌ها هیچ‌یک از شروع‌های شما نیستند: ${parts.join("، یا ")} را انتخاب کنید (کارتی که دوباره انتخاب شود برمی‌گردد).`,
  chooseMore: (/** @type {string[]} */ parts) => `ادامه دهید: ${parts.join("، یا ")}.`,
  chooseInHand: (/** @type {string[]} */ parts) => `در دستتان ${parts.join("، یا ")} را انتخاب کنید.`,
  whatNow: "اکنون چه باید کرد",
  why: "چرا؟",
  rematch: "بازی دوباره",
  nextDeal: "دور بعد",
  seatHolds: (/** @type {string} */ who, /** @type {number} */ n) => `${who}: ${faDigits(n)} کارت`,
  seatLostLead: (/** @type {string} */ who, /** @type {number} */ n) => `${who} ${faDigits(n)} بار شروع را از دست ${you(who, "داده", "داده‌اید")}`,
  seatKeptLead: (/** @type {string} */ who) => `${who} هنوز شروع را از دست نداده`,
  youKeptLead: "شما هنوز شروع را از دست نداده‌اید",
  close: "بستن",
  tracker: "ردیاب",
  trackerSuit: (/** @type {GSuit} */ s) => `${s.fa} (${s.code}، ${high(s)})`,
  trackerOut: (/** @type {string[]} */ out, /** @type {boolean} */ burnt) => ` ${out.map(rank).join(" ") || "هیچ کارتی بیرون نمانده"}${burnt ? " · یک کارت سوخته" : ""}`,
  rules: "قواعد",
  rulesHref: "/fa/ganjifa/rules",
  phase: (/** @type {boolean} */ day, /** @type {string} */ mir, /** @type {boolean} */ second) => `${day ? "روز" : "شب"}: ${card(mir)} گشایش می‌کند${second ? " · مرحلهٔ دوم" : ""}`,
  deal: (/** @type {number} */ n, /** @type {number} */ of) => `دور ${faDigits(n)} از ${faDigits(of)}`,
  totalsLine: (/** @type {string} */ all) => `جمع: ${all}`,
  ladder: "نردبان شروع شما",
  trackerTitle: "ردیاب خال‌ها: کارت‌هایی که بازی‌شدنشان را ندیده‌اید",
  highKey: "پس از شاه و وزیر، خالی که روی کارت‌هایش ۱۰↑ آمده عددهایش را از ۱۰ به پایین تا ۱ می‌چیند، و خالی با ۱↑ از ۱ به پایین تا ۱۰.",
  guide: {
    over: {
      title: "این دور تمام شد",
      text: "امتیاز هر کس کارت‌هایی است که برده، منهای سهمش از دسته؛ جدول نتیجه حساب را نشان می‌دهد. برای دیدن دور بعد ادامه دهید، یا ریزه‌کاری‌ها را در قواعد بخوانید.",
    },
    others: (/** @type {boolean} */ lead) => ({
      title: lead ? "نفر دیگری شروع می‌کند" : "دست دور میز می‌گردد",
      text: lead
        ? "شروع‌کننده باید همان را پیش بیاورد که نردبان اول می‌خواهد: رشته‌ای از کارت‌های بالای یک خال، وگرنه دنی، وگرنه اگر دارد تلفه یا اوتاری، وگرنه شروع را وامی‌گذارد. منتظر بمانید: به شمار کارت‌هایی که پیش می‌آورد کارت می‌گذارید."
        : "در هر خال فقط حکمِ آن، یعنی بهترین کارتی که هنوز بازی نشده، دست را می‌برد، و هیچ‌کس مجبور نیست هم‌خال بازی کند. ببینید کدام کارت‌ها بیرون می‌آیند: با هر کارتی که بازی شود، کارت بعدیِ همان خال حکم می‌شود.",
    }),
    pick: {
      title: "یک کارت به‌پشت بردارید",
      text: `شروع‌کننده شروع را واگذاشت: یکی از کارت‌هایش را ندیده بردارید. آن کارت در خال خودش خوانده می‌شود: ${call}.`,
    },
    run: {
      title: "دوکالتان را شروع کنید",
      text: "دو یا چند کارتِ بالای یک خال را پشت سر هم دارید و باید آن‌ها را شروع کنید (همه جز پایین‌ترینشان). دیگران هر کدام همان‌قدر کارت می‌گذارند، و شما همه را می‌برید و دوباره شروع می‌کنید.",
    },
    deni: (/** @type {boolean} */ burn) => ({
      title: "نوبت دنی است",
      text: `وزیر خالی را دارید و شاهش در دست دیگری است: باید آن خال را با کارت ضعیف‌تری از همان خال بخوانید، و ${call}.${burn ? " اگر وزیر تنهاست، می‌توانید با خودش بخوانید یا نگهش دارید تا بسوزد (از آن پس پایین‌ترین کارت خالش است)." : ""}`,
    }),
    choose: (/** @type {boolean} */ utari, /** @type {boolean} */ talafa) => ({
      title: "شروعتان را انتخاب کنید",
      text: `${utari ? "اوتاری حکم‌هایتان را یک‌جا شروع می‌کند، از هر خال یکی: دیگران همان‌قدر کارت می‌گذارند و شما همه را می‌برید. " : ""}${talafa ? `تلفه خالی را می‌خواند که دومین کارتش با شماست و بهترینش با دیگری: ${call}. ` : ""}در دستتان انتخاب کنید، یا دکمهٔ یکی از شروع‌ها را بزنید.`,
    }),
    giveUp: {
      title: "شروع را واگذارید",
      text: "نه حکم دارید، نه دوکال، نه دنی و نه تلفه: شروع را واگذارید. نفر بعد یکی از کارت‌هایتان را ندیده برمی‌دارد و همان کارت خوانده می‌شود.",
    },
    opening: {
      title: "دست گشایش",
      text: "دارندهٔ شاهِ گشایش آن را با یک کارت دیگر می‌گذارد، دو نفر دیگر هر کدام دو کارت، و گشاینده هر شش کارت را می‌برد و شروع می‌کند. کسی نمی‌تواند این دست را از او بگیرد: کارت‌هایی بگذارید که به کارتان نمی‌آیند.",
    },
    putDown: {
      title: "کارت‌هایتان را بگذارید",
      text: "به اندازه‌ای که شروع می‌خواهد کارت بگذارید، هر کارتی که بخواهید: لازم نیست هم‌خال بازی کنید. حکم‌ها و کارت‌های درست زیرشان را نگه دارید و کارت‌هایی را بدهید که دستی نمی‌برند.",
    },
    play: {
      title: "نوبت بازی شما",
      text: "یک کارت بازی کنید: در هر خال فقط حکمِ آن دست را می‌برد، و هیچ‌گاه مجبور نیستید هم‌خال بازی کنید.",
    },
    leave: "بیرون رفتن از راهنما",
  },
};

/**
 * A rung's reason in Persian, from the values the view sends beside its English sentence (the
 * table's JSON: `say` names it, with the suits, cards and counts it is about).
 * @param {any} why
 */
export function reasonFa(why) {
  const suits = () => list((why.suits || []).map(suit));
  switch (why.say) {
    case "run-held":
      return `بالاترین کارت‌های ${suit(parseGCard(why.keep).suit)} را پشت سر هم دارید: باید این دوکال، ${list(why.lead.map(card))}، را شروع کنید و ${card(why.keep)} را نگه دارید`;
    case "runs-held":
      return `در ${suits()} دوکال دارید: باید یکی را شروع کنید، همه‌اش را جز پایین‌ترین کارتش`;
    case "no-run":
      return "دو کارتِ بالای هیچ خالی را پشت سر هم ندارید";
    case "run-first":
      return "دوکال دارید، و دوکال بر همه مقدم است";
    case "deni-must":
      return `در ${suits()} وزیر را با کارتی ضعیف‌تر کنارش دارید و شاه در دست دیگری است: دنی لازم است، با یکی از کارت‌های ضعیف‌تر`;
    case "deni-lone":
      return `در ${suits()} تنها کارتتان وزیر است و شاه در دست دیگری است: با وزیر بخوانید، یا نگهش دارید تا بسوزد`;
    case "no-deni":
      return "وزیری ندارید که شاهش در دست دیگری باشد";
    case "deni-first":
      return "اول باید دنی کنید";
    case "choice": {
      const parts = [];
      if (why.talafa.length) parts.push(`تلفه در ${list(why.talafa.map(suit))}`);
      if (why.hukms > 0) {
        const how = why.hukms === 1 ? "" : why.any_set ? " (هر چندتا که بخواهید)" : " (همه با هم)";
        parts.push(`اوتاری با ${faDigits(why.hukms)} حکمتان${how}`);
      }
      return `می‌توانید ${parts.join(" یا ")} بازی کنید`;
    }
    case "no-choice":
      return "نه حکمی دارید و نه تلفه‌ای برایتان باز است";
    case "blind-may":
      return "حکمی در دست ندارید، پس می‌توانید به جای تلفه شروع را کور واگذارید";
    case "blind-must":
      return "نه حکمی دارید و نه تلفه‌ای باز است: باید شروع را واگذارید، و نفر بعد یکی از کارت‌هایتان را به پشت برمی‌دارد";
    case "hold-hukm":
      return "حکم در دست دارید، پس شروع کور برایتان باز نیست";
    default:
      throw new Error(`a reason of the ladder this page cannot word: ${why.say}`);
  }
}

/** @type {Record<string, string>} */
const REFUSALS = {
  "not-your-turn": "اکنون نوبت شما نیست.",
  "deal-over": "این دور تمام شده است و حرکتی نمی‌پذیرد.",
  "wrong-phase": "این حرکت به این لحظه از دور نمی‌خورد.",
  "not-in-hand": "این کارت در دست شما نیست.",
  "put-down-expected": "اکنون باید کارتی بگذارید.",
  "pick-expected": "اکنون باید یکی از کارت‌های به‌پشت را بردارید.",
  "lead-expected": "اکنون نوبت شروع است.",
  "no-such-back": "در آن جا کارت به‌پشتی نیست.",
  "run-first": "اول باید دوکال را شروع کنید.",
  "deni-first": "اول باید دنی کنید.",
  "no-run": "این کارت‌ها دوکالی نیستند که بتوانید شروع کنید.",
  "no-deni": "دنی‌ای برای شما در کار نیست.",
  "deni-low-card": "دنی با کارت ضعیف‌تر خوانده می‌شود.",
  "no-burn": "وزیری برای سوزاندن نیست.",
  "no-talafa": "تلفه‌ای برایتان باز نیست.",
  "talafa-card": "با این کارت نمی‌شود تلفه کرد.",
  "utari-hukms": "اوتاری فقط با حکم‌ها بازی می‌شود.",
  "utari-all": "در مرحلهٔ اول، اوتاری همهٔ حکم‌هایتان را با هم شروع می‌کند.",
  "hold-hukm": "حکمی دارید که باید بازی شود.",
  "no-hukm-out": "حکمی بیرون نیست که آن را بخوانید.",
};

/** A refusal in Persian, by its code (the table's shared ones from table-words.js); one with no words
 * anywhere is said plainly.
 * @param {string} code */
export const refusalFa = (code) => REFUSALS[code] ?? REFUSALS_FA[code] ?? REFUSED_FA;

/** The coach's moves and the rules' reasons in Persian (ganjifa-words.js's `coachWords`).
 * @param {import("./socket.js").Action} play
 * @param {(items: string[]) => string} join */
export function coachMoveFa(play, join) {
  switch (play.type) {
    case "put-down":
      return `گذاشتن ${card(play.card)}`;
    case "run":
      return `شروع دوکالِ ${suit(play.suit)}`;
    case "deni":
      return `خواندن با ${card(play.card)} (دنی)`;
    case "burn":
      return `نگه داشتن وزیر تنهای ${suit(play.suit)} تا بسوزد`;
    case "talafa":
      return parseGCard(play.card).suit === play.suit
        ? `تلفه در ${suit(play.suit)} با ${card(play.card)}`
        : `تلفه در ${suit(play.suit)} با ${card(play.card)} به پشت`;
    case "utari":
      return `شروع یک‌جای ${join(play.cards.map(card))} (اوتاری)`;
    case "give-up-lead":
      return "واگذاشتن شروع برای برداشتن کور";
    case "pick":
      return `برداشتن کارت ${faDigits(play.back + 1)} از کارت‌های به‌پشت`;
    default:
      throw new Error(`a move this page cannot word: ${play.type}`);
  }
}

/** @param {{ rule: string, [field: string]: any }} rule */
export function coachRuleFa(rule) {
  switch (rule.rule) {
    case "hukm-kept":
      return `${card(rule.hukm)} حکمِ ${suit(rule.suit)} بود و ارزش داشت نگهش دارید تا خودتان دستی ببرید؛ ${card(rule.instead)} چنین نبود.`;
    case "lead-given-up":
      return "با واگذاشتن شروع، نفر بعد یکی از کارت‌هایتان را ندیده برمی‌دارد و هر که حکم آن خال را دارد دست را می‌برد.";
    default:
      throw new Error(`a reason of the rules this page cannot word: ${rule.rule}`);
  }
}
