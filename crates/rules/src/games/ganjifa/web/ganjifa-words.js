// Every sentence of the Ganjifa board, in English and (from ganjifa-fa.js) Persian. The server sends
// the ladder's reasons in the view, as an English sentence and as values the Persian board words; the
// board's captions, buttons and the sentences about the lead, the trick and the deal are worded here.

import { gcardName, parseGCard, GSUITS } from "./gcards.js";
import { faDigits } from "./persian.js";
import { FA, reasonFa, refusalFa, coachMoveFa, coachRuleFa } from "./ganjifa-fa.js";

const cardCount = (/** @type {number} */ n) => (n === 1 ? "1 card" : `${n} cards`);
const suitName = (/** @type {string} */ suit) => GSUITS[suit].name;
const highWords = (/** @type {import("./gcards.js").GSuit} */ s) => (s.high === "ten" ? "10 high" : "1 high");
/** What a call asks of the others, said in the guide's steps. */
const call = "the holder of the called suit's hukm (its best card left) must play it, the third player adds any card, and the hukm wins the trick";

export const WORDS = {
  en: {
    lang: "en",
    yourTurn: "Your turn",
    // Two computers at the table, both of the level chosen.
    level: {
      gentle: "You are playing two gentle computers.",
      standard: "You are playing two standard computers.",
      clever: "You are playing two clever computers.",
      strong: "You are playing two strong computers.",
    },
    waiting: "The deal starts once all three seats are taken.",
    shareLink: "Send this link to both people you want to play:",
    shareLinkLast: "One seat is left: send this link to the person you want to play.",
    copy: "Copy link",
    copied: "Link copied.",
    share: "Share",
    you: "You",
    computer: (/** @type {number} */ seat) => `Computer ${seat}`,
    // The lead's ladder and the kinds of trick.
    rungs: { run: "Run (dukkal)", deni: "Deni", choice: "Talafa or utari", blind: "Blind lead" },
    kinds: { opening: "the opening", run: "a run", utari: "an utari", deni: "a deni", talafa: "a talafa", blind: "a blind lead" },
    rung: (/** @type {string} */ name, /** @type {boolean} */ open) => `${name}: ${open ? "open" : "shut"}. `,
    // The buttons of the lead.
    action: {
      run: (/** @type {string} */ suit) => `Lead the run in ${suitName(suit)}`,
      deni: (/** @type {string} */ card) => `Deni: call with the ${gcardName(card)}`,
      burn: (/** @type {string} */ suit) => `Keep the lone Wazir of ${suitName(suit)} (it burns)`,
      talafaOwn: (/** @type {string} */ suit, /** @type {string} */ card) => `Talafa in ${suitName(suit)} with the ${gcardName(card)}`,
      talafaDown: (/** @type {string} */ suit, /** @type {string} */ card) => `Talafa in ${suitName(suit)}, the ${gcardName(card)} face down`,
      utari: (/** @type {number} */ n) => `Utari: lead ${n} ${n === 1 ? "hukm" : "hukms"}`,
      giveUp: "Give up the lead (blind)",
    },
    // Your hand, and a blind pick where it lies.
    yourCards: (/** @type {number} */ n) => `Your cards (${n})`,
    suitGroup: (/** @type {import("./gcards.js").GSuit} */ s) => `${s.name}, ${highWords(s)}`,
    faceUp: (/** @type {string} */ card) => `${gcardName(card)}: face up, the others see it`,
    handEmpty: "Your hand is empty.",
    pickCards: (/** @type {number} */ n) => `The leader's face-down cards (${n}): pick one`,
    pickCard: (/** @type {number} */ i) => `face-down card ${i}`,
    // The other seats.
    leading: "leading",
    toPlay: "to play",
    awayMark: "away",
    holds: (/** @type {number} */ n) => `${cardCount(n)}:`,
    lostLead: (/** @type {number} */ n) => `Lost the lead ${n === 1 ? "once" : `${n} times`}`,
    keptLead: "Has not lost the lead",
    faceDown: (/** @type {number} */ n) => `${cardCount(n)} face down`,
    openCaption: "Face up, seen by all:",
    faceDownWhy: "Cards in hand that only their holder sees; the face-up ones beside them everyone sees.",
    dotsWhy: "A dot for each trick the seat led and did not win. Once all three seats have a dot, the second phase begins.",
    phaseWhy: (/** @type {boolean} */ second) =>
      `Deals go day and night in turn, day first: by day the Mir of Surkh opens the deal, by night the Mir of Safed, taking the opening trick of six cards. ${second ? "The second phase has begun, since every seat has lost the lead once: an utari may lead any number of hukms, and a talafa may be a card of another suit, laid face down." : "The second phase begins once every seat has lost the lead (the dots by each name)."}`,
    won: (/** @type {number} */ n) => `won ${n}`,
    matchTotal: (/** @type {string} */ total) => `total ${total}`,
    // The trick on the felt.
    trick: "The trick",
    trickTitle: (/** @type {boolean} */ current, /** @type {string} */ kind, /** @type {string} */ leader) => `${current ? "This trick" : "The last trick"}: ${kind}, led by ${leader}`,
    trickWon: (/** @type {string} */ title, /** @type {string} */ winner) => `${title}; ${winner} won it`,
    ledTag: "led",
    wonTag: "won",
    playedFaceDown: "a card played face down",
    owes: (/** @type {number} */ n) => `owes ${n}`,
    feltEmpty: "The felt is empty",
    gaveUp: (/** @type {string} */ who) => `${who} gave up the lead: pick one of the cards below`,
    led: (/** @type {string} */ who, /** @type {string} */ kind) => `${who} led ${kind}.`,
    // A replayed deal's moves (replay.js), each told about the seat that made it.
    told: {
      putDown: (/** @type {string} */ who, /** @type {string} */ card) => `${who} put down the ${gcardName(card)}.`,
      run: (/** @type {string} */ who, /** @type {string} */ suit) => `${who} led the run in ${suitName(suit)}.`,
      deni: (/** @type {string} */ who, /** @type {string} */ card) => `${who} called with the ${gcardName(card)} (a deni).`,
      burn: (/** @type {string} */ who, /** @type {string} */ suit) => `${who} kept the lone Wazir of ${suitName(suit)} to burn it.`,
      talafa: (/** @type {string} */ who, /** @type {string} */ suit, /** @type {string} */ card) => `${who} led a talafa in ${suitName(suit)} with the ${gcardName(card)}.`,
      talafaDown: (/** @type {string} */ who, /** @type {string} */ suit, /** @type {string} */ card) => `${who} led a talafa in ${suitName(suit)}, the ${gcardName(card)} face down.`,
      hidden: (/** @type {string} */ who) => `${who} led a talafa with a card face down.`,
      utari: (/** @type {string} */ who, /** @type {string} */ cards) => `${who} led ${cards} at once (an utari).`,
      named: (/** @type {string} */ card) => `the ${gcardName(card)}`,
      giveUp: (/** @type {string} */ who) => `${who} gave up the lead.`,
      pick: (/** @type {string} */ who, /** @type {number} */ back) => `${who} picked card ${back + 1} of the leader's hand, shuffled face down.`,
    },
    wonTrick: (/** @type {string} */ who) => `${who} won the trick.`,
    // The end of a deal.
    dealBest: (/** @type {string} */ top, /** @type {string} */ best) => `The deal is over: ${top} did best (${best}).`,
    dealOver: "The deal is over.",
    bestJoin: " & ",
    scoreLine: (/** @type {string} */ who, /** @type {number} */ won, /** @type {number} */ share, /** @type {string} */ score) => `${who}: won ${won} − share ${share} = ${score}`,
    scoresWhy: "This deal, each seat scores the cards it won less its share of the pack:",
    totals: (/** @type {string} */ list) => `Totals: ${list}.`,
    totalOf: (/** @type {string} */ who, /** @type {string} */ total) => `${who} ${total}`,
    // The action bar.
    leadRun: "Your lead: you hold a run, and you must lead it.",
    leadBurn: "Your lead: call with your lone Wazir, or keep it and it burns.",
    leadDeni: "Your lead: a deni is due. Pick the card to call with.",
    aTalafa: "a talafa",
    anUtari: "an utari",
    leadGiveUp: "Your lead: you must give up the lead; the next seat picks one of your cards.",
    orGiveUp: ", or give up the lead",
    leadMake: (/** @type {string[]} */ can, /** @type {string} */ blind) => `Your lead: make ${can.join(" or ")}${blind}.`,
    isLeading: (/** @type {string} */ who) => (who === "You" ? "You are leading." : `${who} is leading.`),
    isToPlay: (/** @type {string} */ who) => `${who} to play.`,
    pickStatus: "The leader gave up the lead: their whole hand, face-up cards too, is shuffled face down. Pick one; it is led as a call.",
    putDownOne: "Put down 1 card: choose it in your hand.",
    putDown: (/** @type {number} */ n) => `Put down ${n} cards: choose them in your hand, one at a time.`,
    yourMove: "Your move.",
    chooseDeni: "the card to call with for a deni",
    chooseTalafa: "a card for a talafa",
    chooseUtari: "your hukms for an utari",
    notALead: (/** @type {string[]} */ parts) => `Those cards make none of your leads: choose ${parts.join(", or ")} (a card chosen again goes back).`,
    chooseMore: (/** @type {string[]} */ parts) => `Go on choosing: ${parts.join(", or ")}.`,
    chooseInHand: (/** @type {string[]} */ parts) => `Choose in your hand ${parts.join(", or ")}.`,
    whatNow: "What to do now",
    why: "Why?",
    rematch: "Play again",
    nextDeal: "Next deal",
    seatHolds: (/** @type {string} */ who, /** @type {number} */ n) => `${who}: ${cardCount(n)}`,
    seatLostLead: (/** @type {string} */ who, /** @type {number} */ n) => `${who} lost the lead ${n === 1 ? "once" : `${n} times`}`,
    seatKeptLead: (/** @type {string} */ who) => `${who} has not lost the lead`,
    youKeptLead: "You have not lost the lead",
    // The drawers and the top bar.
    close: "Close",
    tracker: "Tracker",
    trackerSuit: (/** @type {import("./gcards.js").GSuit} */ s) => `${s.name} (${s.code}, ${s.high === "ten" ? "10" : "1"} high)`,
    trackerOut: (/** @type {string[]} */ out, /** @type {boolean} */ burnt) => ` ${out.join(" ") || "none out"}${burnt ? " · a card burnt" : ""}`,
    rules: "Rules",
    rulesHref: "/ganjifa/rules",
    phase: (/** @type {boolean} */ day, /** @type {string} */ mir, /** @type {boolean} */ second) => `${day ? "Day" : "Night"}: the ${gcardName(mir)} opens${second ? " · second phase" : ""}`,
    deal: (/** @type {number} */ n, /** @type {number} */ of) => `Deal ${n} of ${of}`,
    totalsLine: (/** @type {string} */ list) => `totals ${list}`,
    ladder: "Your lead: the ladder",
    trackerTitle: "Suit tracker: the cards you have not seen played",
    highKey: "Under its Mir and Wazir, a suit marked 10↑ on its cards ranks its numbers from 10 down to 1; one marked 1↑ from 1 down to 10.",
    // The guided first deal (guide.js).
    guide: {
      over: {
        title: "The deal is over",
        text: "Each seat scored the cards it won less its share of the pack: the panel shows the sums. Play on to see the next deal, or read the rules for the finer points.",
      },
      others: (/** @type {boolean} */ lead) => ({
        title: lead ? "Another seat leads" : "The trick goes round",
        text: lead
          ? "The leader must lead what the ladder asks first: a run of its top cards, else a deni, else a talafa or an utari if it has one, else it gives up the lead. Wait for its lead: you will put down as many cards as it leads."
          : "Only a suit's hukm, its best card not yet played, wins a trick in that suit, and nobody has to follow suit. Watch which cards come out: each one played makes the next card of its suit the hukm.",
      }),
      pick: {
        title: "Pick a face-down card",
        text: `The leader gave up the lead: pick one of their cards unseen. It is led as a call in its suit: ${call}.`,
      },
      run: {
        title: "Lead your run",
        text: "You hold two or more top cards of a suit in a row, and must lead them (all but the lowest). The others each put down as many cards, and you win them all and lead again.",
      },
      deni: (/** @type {boolean} */ burn) => ({
        title: "A deni is due",
        text: `You hold a suit's Wazir while another hand holds its Mir: you must call that suit with a lower card of it, and ${call}.${burn ? " With the Wazir alone you may call with it, or keep it and let it burn (it then ranks lowest)." : ""}`,
      }),
      choose: (/** @type {boolean} */ utari, /** @type {boolean} */ talafa) => ({
        title: "Choose your lead",
        text: `${utari ? "An utari leads your hukms at once, one per suit: the others put down as many cards and you win them all. " : ""}${talafa ? `A talafa calls a suit where you hold its second-best card and someone else the best: ${call}. ` : ""}Choose in your hand, or press a lead's button.`,
      }),
      giveUp: {
        title: "Give up the lead",
        text: `With no hukm, run, deni or talafa to lead, you give up the lead: the next player picks one of your cards unseen, and it is led as a call.`,
      },
      opening: {
        title: "The opening trick",
        text: "The holder of the opening Mir lays it with one other card, the other two put down two cards each, and the opener takes all six and leads. Nobody can win it away: put down cards you can spare.",
      },
      putDown: {
        title: "Put down your cards",
        text: "Put down as many cards as the lead asks, any you like: you do not have to follow suit. Keep your hukms and the cards next below them; throw the cards that cannot win.",
      },
      play: {
        title: "Your play",
        text: "Play a card: only a suit's hukm wins a trick in that suit, and you never have to follow suit.",
      },
      leave: "Leave the guide",
    },
  },
  fa: FA,
};

/** The board's words in `lang` (English for a language it does not speak).
 * @param {string} lang */
export const wordsIn = (lang) => (lang === "fa" ? WORDS.fa : WORDS.en);

/** A rung's reason (the view's `lead_hints` entry) in `lang`: the server's sentence in English, the
 * Persian worded from its values.
 * @param {{ why: string, reason: any }} hint
 * @param {string} lang */
export const rungReason = (hint, lang) => (lang === "fa" ? reasonFa(hint.reason) : hint.why);

/** A score with its sign: +5, −23 (a true minus sign), 0; in Persian digits for "fa".
 * @param {number} n
 * @param {string} lang */
export const signed = (n, lang) => {
  const digits = lang === "fa" ? faDigits : String;
  return n > 0 ? `+${digits(n)}` : n < 0 ? `−${digits(-n)}` : digits(0);
};

/** A refusal in `lang`: the server's sentence in English, the Persian by its code.
 * @param {import("./socket.js").ErrorFrame} frame
 * @param {string} lang */
export const errorSentence = (frame, lang) => (lang === "fa" ? refusalFa(frame.code) : /** @type {string} */ (frame.message));

/**
 * The coach's moves and the rules' reasons (see table-words.js, `coachSentence`), from the values the
 * table sends: the moves are the actions themselves, as the board sends them; in English here, in
 * Persian from ganjifa-fa.js.
 */
/** @type {import("./board.js").CoachWords} */
export const coachWords = {
  move(play, lang, list) {
    if (lang === "fa") return coachMoveFa(play, list);
    switch (play.type) {
      case "put-down":
        return `putting down the ${gcardName(play.card)}`;
      case "run":
        return `leading your run in ${suitName(play.suit)}`;
      case "deni":
        return `calling with the ${gcardName(play.card)} (a deni)`;
      case "burn":
        return `keeping your lone Wazir of ${suitName(play.suit)} to burn it`;
      case "talafa":
        return parseGCard(play.card).suit === play.suit
          ? `a talafa in ${suitName(play.suit)} with the ${gcardName(play.card)}`
          : `a talafa in ${suitName(play.suit)} with the ${gcardName(play.card)} face down`;
      case "utari":
        return `leading ${list(play.cards.map((/** @type {string} */ c) => `the ${gcardName(c)}`))} at once (an utari)`;
      case "give-up-lead":
        return "giving up the lead for a blind pick";
      case "pick":
        return `picking card ${play.back + 1} of the face-down hand`;
      default:
        throw new Error(`a move this page cannot word: ${play.type}`);
    }
  },
  rule(rule, lang) {
    if (lang === "fa") return coachRuleFa(rule);
    switch (rule.rule) {
      case "hukm-kept":
        return `The ${gcardName(rule.hukm)} was the hukm of ${suitName(rule.suit)}, worth keeping to win a trick of your own; the ${gcardName(rule.instead)} was not.`;
      case "lead-given-up":
        return "Giving up the lead lets the next seat pick one of your cards blind, and whoever holds the hukm takes the trick.";
      default:
        throw new Error(`a reason of the rules this page cannot word: ${rule.rule}`);
    }
  },
};

/**
 * The moves of a replayed deal, told about the seat that made them (see replay.js); a move told as
 * none is a talafa whose card another seat laid face down; in the page's language.
 * @type {import("./board.js").MoveWords}
 */
export const moveWords = {
  told(play, who, lang, list) {
    const t = (lang === "fa" ? WORDS.fa : WORDS.en).told;
    if (!play) return t.hidden(who);
    switch (play.type) {
      case "put-down":
        return t.putDown(who, play.card);
      case "run":
        return t.run(who, play.suit);
      case "deni":
        return t.deni(who, play.card);
      case "burn":
        return t.burn(who, play.suit);
      case "talafa":
        return (parseGCard(play.card).suit === play.suit ? t.talafa : t.talafaDown)(who, play.suit, play.card);
      case "utari":
        return t.utari(who, list(play.cards.map(t.named)));
      case "give-up-lead":
        return t.giveUp(who);
      case "pick":
        return t.pick(who, play.back);
      default:
        throw new Error(`a move this page cannot word: ${play.type}`);
    }
  },
};
