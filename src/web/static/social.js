// Names and quick phrases at a table of friends. A name is remembered on this device and given to
// the table on every (re)connection; the server cleans it and every page shows it as text. A phrase
// travels as its id only and each page words it in its own language, beside the seat that said it,
// unless this browser hides the others' phrases (a player among strangers may).

import { el, button } from "./ui.js";

const NAME_KEY = "chaikhana-name";
const NAME_CHARS = 20;
const SHOWN_MS = 4000;
/** Kept in this browser: the others' phrases are not shown (at a table of strangers, say). */
const MUTED_KEY = "chaikhana.phrases-muted";
const muted = () => localStorage.getItem(MUTED_KEY) === "1";

/** @type {Record<string, Record<string, string>>} */
const PHRASES = {
  hello: { en: "Hello!", fa: "سلام!" },
  "good-luck": { en: "Good luck!", fa: "موفق باشید!" },
  "well-played": { en: "Well played!", fa: "آفرین، خوب بازی کردید!" },
  "good-game": { en: "Good game!", fa: "بازی خوبی بود!" },
  "one-moment": { en: "One moment…", fa: "یک لحظه…" },
  thanks: { en: "Thanks!", fa: "ممنون!" },
  oops: { en: "Oops!", fa: "ای وای!" },
  smile: { en: "🙂", fa: "🙂" },
  tea: { en: "🍵", fa: "🍵" },
  clap: { en: "👏", fa: "👏" },
};

const WORDS = {
  en: {
    name: "Your name",
    save: "Save",
    nameHint: `Shown at your seat to everyone at the table; at most ${NAME_CHARS} characters.`,
    say: "Say…",
    sayLabel: "Quick phrases",
    mute: "Hide the others' phrases",
    player: (/** @type {number} */ n) => `Player ${n}`,
    you: "You",
  },
  fa: {
    name: "نام شما",
    save: "ذخیره",
    nameHint: `کنار جای شما به همه نشان داده می‌شود؛ حداکثر ${NAME_CHARS} حرف.`,
    say: "گفتن…",
    sayLabel: "جمله‌های کوتاه",
    mute: "پنهان کردن جمله‌های دیگران",
    player: (/** @type {number} */ n) => `بازیکن ${n}`,
    you: "شما",
  },
};

export function savedName() {
  return localStorage.getItem(NAME_KEY) || "";
}

/** What a seat is called on the page: the name its person gave, or "Player N" in the page's language.
 * @param {{ seats?: import("./socket.js").SeatInfo[] }} frame
 * @param {number} seat
 * @param {string} [lang] */
export function seatName(frame, seat, lang = "en") {
  const given = frame.seats?.find((s) => s.seat === seat)?.name;
  return given || (WORDS[/** @type {keyof typeof WORDS} */ (lang)] || WORDS.en).player(seat + 1);
}

/**
 * The header's name and phrase controls. `send` puts a frame on the socket (false while offline),
 * `lang` gives the page's language, `board` the element the seats are drawn in; a watcher's page
 * (`watching`) shows the seats' phrases but has neither control.
 * @param {{ send: (frame: import("./socket.js").Frame) => boolean, lang: () => string, board: HTMLElement, watching?: boolean }} page
 */
export function createSocial({ send, lang, board, watching = false }) {
  const w = () => WORDS[/** @type {keyof typeof WORDS} */ (lang())] || WORDS.en;
  const header = /** @type {HTMLElement} */ (document.querySelector("header.site"));
  const nameButton = button(w().name, () => toggle(nameForm, nameButton));
  nameButton.id = "name-button";
  // A watcher has no seat to name, and says nothing to the table.
  nameButton.hidden = watching;
  nameButton.setAttribute("aria-expanded", "false");
  const sayButton = button(w().say, () => toggle(phraseRow, sayButton));
  sayButton.id = "say-button";
  sayButton.setAttribute("aria-expanded", "false");
  sayButton.hidden = true;
  // Into the header's folding part where it has one (the table page's "More" on a phone).
  (document.getElementById("more") || header).append(nameButton, sayButton);

  const nameForm = el("form", "name-form popover");
  nameForm.id = "name-form";
  nameForm.hidden = true;
  const input = el("input");
  input.id = "name-input";
  input.maxLength = NAME_CHARS;
  input.autocomplete = /** @type {AutoFill} */ ("nickname");
  input.value = savedName();
  const label = el("label", "", w().name);
  label.htmlFor = "name-input";
  const hint = el("p", "hint", w().nameHint);
  const save = el("button", "primary", w().save);
  save.type = "submit";
  nameForm.append(label, input, save, hint);
  nameForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input.value.trim().slice(0, NAME_CHARS);
    input.value = name;
    if (name) localStorage.setItem(NAME_KEY, name);
    else localStorage.removeItem(NAME_KEY);
    send({ type: "name", name });
    toggle(nameForm, nameButton, false);
  });

  const phraseRow = el("div", "phrase-row popover");
  phraseRow.id = "phrase-row";
  phraseRow.setAttribute("role", "group");
  phraseRow.hidden = true;
  for (const id of Object.keys(PHRASES)) {
    const b = button(PHRASES[id][lang()] || PHRASES[id].en, () => {
      if (send({ type: "phrase", id })) toggle(phraseRow, sayButton, false);
    });
    b.dataset.phrase = id;
    phraseRow.append(b);
  }
  const mute = button(w().mute, () => {
    if (muted()) localStorage.removeItem(MUTED_KEY);
    else localStorage.setItem(MUTED_KEY, "1");
    mute.setAttribute("aria-pressed", String(muted()));
  }, "phrase-mute");
  mute.id = "phrase-mute";
  mute.setAttribute("aria-pressed", String(muted()));
  phraseRow.append(mute);
  header.after(nameForm, phraseRow);

  return {
    /** The socket is open (again): the table hears this seat's name. */
    opened() {
      const name = savedName();
      if (name) send({ type: "name", name });
    },
    /** Phrases are offered at a friends table only.
     * @param {import("./socket.js").ViewFrame} frame */
    frame(frame) {
      sayButton.hidden = frame.kind !== "friends";
      if (sayButton.hidden) toggle(phraseRow, sayButton, false);
      nameButton.textContent = w().name;
      sayButton.textContent = w().say;
      phraseRow.setAttribute("aria-label", w().sayLabel);
      mute.textContent = w().mute;
      for (const b of /** @type {NodeListOf<HTMLElement>} */ (phraseRow.querySelectorAll("[data-phrase]"))) {
        b.textContent = PHRASES[/** @type {string} */ (b.dataset.phrase)][lang()] || PHRASES[/** @type {string} */ (b.dataset.phrase)].en;
      }
    },
    /** A phrase said at the table: shown for a few seconds beside the seat that said it.
     * @param {import("./socket.js").Frame} frame
     * @param {import("./socket.js").SeatInfo[]} seats
     * @param {number | null | undefined} mySeat */
    heard(frame, seats, mySeat) {
      const words = PHRASES[frame.id];
      if (!words || (muted() && frame.seat !== mySeat)) return;
      const text = words[lang()] || words.en;
      const who = frame.seat === mySeat ? w().you : seatName({ seats }, frame.seat, lang());
      const bubble = el("p", "phrase-bubble");
      bubble.dataset.seat = String(frame.seat);
      bubble.append(el("strong", "", who), " ", text);
      place(bubble, anchorOf(board, frame.seat === mySeat ? null : frame.seat));
      document.body.append(bubble);
      /** @type {HTMLElement} */ (document.getElementById("live")).textContent = `${who}: ${text}`;
      setTimeout(() => bubble.remove(), SHOWN_MS);
    },
  };
}

/** @param {HTMLElement} panel
 * @param {HTMLElement} opener */
function toggle(panel, opener, open = panel.hidden) {
  panel.hidden = !open;
  opener.setAttribute("aria-expanded", String(open));
  if (open) /** @type {HTMLElement | null} */ (panel.querySelector("input, button"))?.focus();
}

/** The seat's place on the board: its hand or its stock; this page's own hand for its own seat.
 * @param {HTMLElement} board
 * @param {number | null} seat */
function anchorOf(board, seat) {
  if (seat === null) return board.querySelector("[data-area=hand]");
  return board.querySelector(`[data-area="hand-${seat}"], [data-area="stock-${seat}"]`);
}

/** Puts the bubble over the top edge of its seat's place, kept inside the screen.
 * @param {HTMLElement} bubble
 * @param {Element | null} anchor */
function place(bubble, anchor) {
  const r = anchor?.getBoundingClientRect();
  const left = r ? Math.min(Math.max(8, r.left), innerWidth - 220) : innerWidth / 2 - 100;
  const top = r ? Math.min(Math.max(8, r.top - 12), innerHeight - 60) : 70;
  bubble.style.left = `${left}px`;
  bubble.style.top = `${top}px`;
}
