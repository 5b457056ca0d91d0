// Fair and verifiable deals (the scheme is explained on /fair). Before each deal the table commits to
// a secret of its own (its SHA-256 comes in every frame as `shuffle.commitment`); this page adds a
// random number of its own to it, drawn here, and keeps it. The deal's seed comes from the secret and
// every seat's number. Each place of the shuffled order is committed to on its own (`deal.commitment`).
// Once the deal ends the table shows its secret, the numbers and every place this seat may learn; this
// checks, in the browser, that the places hash to the commitment sent before play, that no card comes
// twice, that the cards this seat was shown as its own were dealt to it, that the secret is the one
// committed to before this page sent its number, and that the seed came from this page's number. It
// draws nothing of the game: it only compares.

const WORDS = {
  en: {
    verified: "✓ Deal verified",
    fair: "✓ Fair deal: shuffled with your number",
    verifiedTitle: "The revealed deal matches the commitment this table sent before the deal was played",
    fairTitle: "This deal was shuffled with your number; nobody could choose it alone. ",
    lateNumber: "Your number came after this deal was shuffled, so it was shuffled from the table's secret and the other numbers. ",
    skipped: (seats) => `No number came from ${seats} (a computer, or a page that did not answer in time). `,
    ownChecked: "Every card you were dealt is where it says.",
    ownUnseen: "Your own cards could not all be checked, as this page did not see the whole deal.",
    failed: "✗ Deal check FAILED: ",
    badHash: "the revealed deal does not match the commitment sent before play.",
    repeated: "the revealed order lists a card twice.",
    notDealt: (card) => `you were shown ${card}, which the revealed order did not deal to you.`,
    badSecret: "the table's secret is not the one it committed to before the deal.",
    badSeed: "the deal's seed was not worked out from the secret and the numbers.",
    notYours: "the number shown as yours is not the one this page sent.",
    noCrypto: "This browser cannot compute SHA-256 here (a secure page is needed), so the deal was not checked.",
    how: "How this works",
  },
  fa: {
    verified: "✓ دست بررسی شد",
    fair: "✓ دست منصفانه: با عدد شما بُر خورد",
    verifiedTitle: "دست آشکارشده با تعهدی که میز پیش از بازی فرستاده بود یکی است",
    fairTitle: "این دست با عدد شما بُر خورد؛ هیچ‌کس به‌تنهایی نمی‌توانست آن را انتخاب کند. ",
    lateNumber: "عدد شما پس از بُر خوردن این دست رسید، پس این دست با راز میز و عددهای دیگر بُر خورد. ",
    skipped: (seats) => `از ${seats} عددی نرسید (رایانه، یا صفحه‌ای که به‌موقع پاسخ نداد). `,
    ownChecked: "هر برگی که به شما داده شد همان‌جاست که می‌گوید.",
    ownUnseen: "برگ‌های خودتان همه بررسی نشد، چون این صفحه همهٔ دست را ندیده است.",
    failed: "✗ بررسی دست ناموفق بود: ",
    badHash: "دست آشکارشده با تعهد پیش از بازی نمی‌خواند.",
    repeated: "در ترتیب آشکارشده یک برگ دو بار آمده است.",
    notDealt: (card) => `برگ ${card} به شما نشان داده شد، ولی در ترتیب آشکارشده به شما داده نشده است.`,
    badSecret: "راز میز همانی نیست که پیش از دست به آن متعهد شده بود.",
    badSeed: "بذر این دست از راز و عددها به دست نیامده است.",
    notYours: "عددی که به نام شما آمده همانی نیست که این صفحه فرستاد.",
    noCrypto: "این مرورگر اینجا نمی‌تواند SHA-256 را حساب کند (صفحهٔ امن لازم است)، پس دست بررسی نشد.",
    how: "این چگونه کار می‌کند",
  },
};

/** The hex SHA-256 of a string, or null where the browser offers no SubtleCrypto. */
export async function sha256(text) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The seed the table's secret and the seats' numbers give, as 16 hex digits (see table::shuffle). */
export async function seedFrom(secret, contributions) {
  const digest = await sha256(`chaikhana-shuffle|${secret}|${contributions.map((c) => c || "").join(",")}`);
  return digest && digest.slice(0, 16);
}

/** The commitment a reveal's places give: each shown place hashed, each hidden one as given. */
export async function commitmentOf(reveal) {
  const leaves = [];
  for (let i = 0; i < reveal.order.length; i += 1) {
    if (reveal.order[i] === null) leaves.push(reveal.hidden[i]);
    else leaves.push(await sha256(`${i}|${reveal.order[i]}|${reveal.to[i]}|${reveal.salts[i]}`));
  }
  return sha256(leaves.join(","));
}

/** 16 random bytes from the browser, as 32 hex digits. */
function freshNumber() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
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
  /** `mark` shows the result; `send` sends a frame on the table's socket (none for a watcher). */
  constructor(mark, lang, send = null, store = globalThis.sessionStorage) {
    this.mark = mark;
    this.lang = lang;
    this.send = send;
    this.store = store;
    this.deal = null;
    this.lastVersion = null;
    // The coming deal's shuffle commitment in the last frame: the one the next deal must reveal.
    this.lastShuffle = null;
    this.numbers = new Map();
  }

  /** Follows one view frame: a new commitment starts a deal; a reveal is checked once. */
  async follow(frame) {
    const sealed = frame.deal;
    const continuous = this.lastVersion !== null && frame.version === this.lastVersion + 1;
    this.lastVersion = frame.version;
    const shuffledBy = this.lastShuffle;
    if (frame.shuffle) this.lastShuffle = frame.shuffle.commitment;
    this.contribute(frame);
    if (!sealed) return;
    if (!this.deal || this.deal.commitment !== sealed.commitment) {
      // Seen from its start when the frame before it was the previous deal's, or this is the first deal.
      const fromStart = frame.version === 1 || continuous;
      this.deal = { commitment: sealed.commitment, seen: new Set(), whole: fromStart, checked: false, shuffle: fromStart ? shuffledBy : null };
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
      await this.check(frame, sealed.commitment, sealed.reveal, deal);
    }
  }

  /** Adds this page's number to the coming deal's shuffle, once, and keeps it for the check. */
  contribute(frame) {
    const shuffle = frame.shuffle;
    if (!shuffle || frame.seat === null || frame.seat === undefined) return;
    if (!this.send || !globalThis.crypto?.getRandomValues) return;
    const key = `chaikhana-shuffle:${shuffle.commitment}`;
    if (shuffle.contributed[frame.seat] || this.remembered(key)) return;
    const value = freshNumber();
    try {
      this.store?.setItem(key, value);
    } catch (_) {
      // A browser that keeps nothing still plays; its number is then not checked after the deal.
    }
    this.numbers.set(key, value);
    this.send({ type: "contribute", commitment: shuffle.commitment, value });
  }

  remembered(key) {
    if (this.numbers.has(key)) return this.numbers.get(key);
    try {
      return this.store?.getItem(key) || null;
    } catch (_) {
      return null;
    }
  }

  async check(frame, committed, reveal, deal) {
    const seat = frame.seat;
    const words = WORDS[this.lang()] || WORDS.en;
    const hash = await commitmentOf(reveal);
    if (hash === null) return this.show(words.noCrypto, "unchecked");
    if (hash !== committed) return this.fail(words, words.badHash);
    const shown = reveal.order.filter((card) => card !== null);
    if (new Set(shown).size !== shown.length) return this.fail(words, words.repeated);
    const mine = new Set(reveal.order.filter((_, i) => reveal.to[i] === seat));
    for (const card of deal.seen) {
      if (!mine.has(card)) return this.fail(words, words.notDealt(card));
    }
    const own = deal.whole && deal.seen.size > 0 ? words.ownChecked : words.ownUnseen;
    const shuffle = reveal.shuffle;
    if (!shuffle || !shuffle.secret) return this.show(words.verified, "verified", `${words.verifiedTitle}. ${own}`);
    if ((await sha256(shuffle.secret)) !== shuffle.commitment) return this.fail(words, words.badSecret);
    // The secret must be the one committed to in the frames before the deal, when numbers were sent.
    if (deal.shuffle && shuffle.commitment !== deal.shuffle) return this.fail(words, words.badSecret);
    if ((await seedFrom(shuffle.secret, shuffle.contributions)) !== reveal.seed) return this.fail(words, words.badSeed);
    const missing = shuffle.contributions
      .map((c, s) => (c === null ? s : null))
      .filter((s) => s !== null && s !== seat)
      .map((s) => (frame.seats?.[s]?.name || `seat ${s + 1}`));
    const skipped = missing.length ? words.skipped(missing.join(", ")) : "";
    const mineSent = seat === null || seat === undefined ? null : this.remembered(`chaikhana-shuffle:${shuffle.commitment}`);
    if (mineSent && shuffle.contributions[seat] === mineSent) {
      return this.show(words.fair, "fair", `${words.fairTitle}${skipped}${own}`);
    }
    if (mineSent && shuffle.contributions[seat] !== null) return this.fail(words, words.notYours);
    const late = mineSent ? words.lateNumber : "";
    this.show(words.verified, "verified", `${words.verifiedTitle}. ${late}${skipped}${own}`);
  }

  fail(words, why) {
    this.show(`${words.failed}${why}`, "failed");
  }

  show(text, state, title = "") {
    if (!this.mark) return;
    const words = WORDS[this.lang()] || WORDS.en;
    this.mark.textContent = text;
    this.mark.title = title;
    this.mark.dataset.state = state;
    this.mark.hidden = !text;
    if (text && globalThis.document) {
      const how = document.createElement("a");
      how.href = this.lang() === "fa" ? "/fa/fair" : "/fair";
      how.textContent = words.how;
      how.className = "deal-check-how";
      this.mark.append(" ", how);
    }
  }
}
