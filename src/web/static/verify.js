// Verifiable deals: each deal's frames carry a commitment (SHA-256 of the shuffled order and a salt);
// once the deal ends the order and salt come too. This checks, in the browser, that the order hashes
// to the commitment the seat was given before play, that it holds every card once, and that the cards
// this seat was shown as its own were dealt to it. It draws nothing of the game: it only compares.

const WORDS = {
  en: {
    verified: "✓ Deal verified",
    verifiedTitle: "The revealed shuffle matches the commitment this table sent before the deal was played",
    ownChecked: ", and every card you were dealt is where it says.",
    ownUnseen: "; your own cards could not all be checked, as this page did not see the whole deal.",
    failed: "✗ Deal check FAILED: ",
    badHash: "the revealed order does not match the commitment sent before play.",
    repeated: "the revealed order lists a card twice.",
    notDealt: (card) => `you were shown ${card}, which the revealed order did not deal to you.`,
    noCrypto: "This browser cannot compute SHA-256 here (a secure page is needed), so the deal was not checked.",
  },
  fa: {
    verified: "✓ دست بررسی شد",
    verifiedTitle: "ترتیب بُرخوردهٔ آشکارشده با تعهدی که میز پیش از بازی فرستاده بود یکی است",
    ownChecked: " و هر برگی که به شما داده شد همان‌جاست که می‌گوید.",
    ownUnseen: "؛ برگ‌های خودتان همه بررسی نشد، چون این صفحه همهٔ دست را ندیده است.",
    failed: "✗ بررسی دست ناموفق بود: ",
    badHash: "ترتیب آشکارشده با تعهد پیش از بازی نمی‌خواند.",
    repeated: "در ترتیب آشکارشده یک برگ دو بار آمده است.",
    notDealt: (card) => `برگ ${card} به شما نشان داده شد، ولی در ترتیب آشکارشده به شما داده نشده است.`,
    noCrypto: "این مرورگر اینجا نمی‌تواند SHA-256 را حساب کند (صفحهٔ امن لازم است)، پس دست بررسی نشد.",
  },
};

/** The hex SHA-256 of a string, or null where the browser offers no SubtleCrypto. */
async function sha256(text) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The cards a frame shows as this seat's own, as dealt to it (read from the view, never worked out). */
function ownCardsShown(frame, deal) {
  const view = frame.view;
  if (!view) return [];
  if (frame.game === "pishe-pasha") {
    // Cards turned from this seat's stock, until its stock is first rebuilt from its discard pile.
    const cards = [];
    for (const log of [view.last_turn, view.this_turn]) {
      if (!log || log.seat !== frame.seat) continue;
      for (const step of log.steps) {
        if (step.step === "turn-over") deal.stockRebuilt = true;
        if (!deal.stockRebuilt && step.from === "stock" && step.card) cards.push(step.card);
      }
    }
    return cards;
  }
  // Panjpar and Ganjifa: the first hand the deal showed this seat (before any draw or play).
  if (deal.handTaken || !Array.isArray(view.hand) || view.hand.length === 0) return [];
  deal.handTaken = true;
  return view.hand;
}

export class DealCheck {
  constructor(mark, lang) {
    this.mark = mark;
    this.lang = lang;
    this.deal = null;
    this.lastVersion = null;
  }

  /** Follows one view frame: a new commitment starts a deal; a reveal is checked once. */
  async follow(frame) {
    const sealed = frame.deal;
    const continuous = this.lastVersion !== null && frame.version === this.lastVersion + 1;
    this.lastVersion = frame.version;
    if (!sealed) return;
    if (!this.deal || this.deal.commitment !== sealed.commitment) {
      // Seen from its start when the frame before it was the previous deal's, or this is the first deal.
      const fromStart = frame.version === 1 || continuous;
      this.deal = { commitment: sealed.commitment, seen: new Set(), whole: fromStart, checked: false };
      this.show("", "");
    } else if (!continuous) {
      this.deal.whole = false;
    }
    const deal = this.deal;
    if (deal.whole && !sealed.reveal) {
      for (const card of ownCardsShown(frame, deal)) deal.seen.add(card);
    }
    if (sealed.reveal && !deal.checked) {
      deal.checked = true;
      await this.check(frame.seat, sealed.commitment, sealed.reveal, deal);
    }
  }

  async check(seat, committed, reveal, deal) {
    const words = WORDS[this.lang()] || WORDS.en;
    const hash = await sha256(`${reveal.order.join(",")}|${reveal.salt}`);
    if (hash === null) return this.show(words.noCrypto, "unchecked");
    if (hash !== committed) return this.fail(words, words.badHash);
    if (new Set(reveal.order).size !== reveal.order.length) return this.fail(words, words.repeated);
    const mine = new Set(reveal.order.filter((_, i) => reveal.to[i] === seat));
    for (const card of deal.seen) {
      if (!mine.has(card)) return this.fail(words, words.notDealt(card));
    }
    const own = deal.whole && deal.seen.size > 0 ? words.ownChecked : words.ownUnseen;
    this.show(words.verified, "verified", `${words.verifiedTitle}${own}`);
  }

  fail(words, why) {
    this.show(`${words.failed}${why}`, "failed");
  }

  show(text, state, title = "") {
    if (!this.mark) return;
    this.mark.textContent = text;
    this.mark.title = title;
    this.mark.dataset.state = state;
    this.mark.hidden = !text;
  }
}
