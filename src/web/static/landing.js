// A game's landing page: choose the match length (and the computer's level), then play the computer at once or open a friends
// table and pass its link on. The new seat's token is kept in this browser under the table's id, and
// the table in its list of tables (tables.js), which the home page's "Your games" shows.

import { el, showBanner } from "./ui.js";
import { shareBox } from "./share.js";
import { keepSeat } from "./tables.js";
import { askGuide } from "./guide.js";
import { setUpPairing, setUpOpenTables } from "./lobby.js";
import { savedName } from "./social.js";

const FA = document.documentElement.lang === "fa";
const WORDS = FA
  ? { shareLink: "این پیوند را برای کسانی که می‌خواهید با آن‌ها بازی کنید بفرستید:", copy: "کپی پیوند", copied: "پیوند کپی شد.", share: "هم‌رسانی", go: "رفتن سر میز", failed: "میز باز نشد: " }
  : { shareLink: "Send this link to whoever you want to play with:", copy: "Copy link", copied: "Link copied.", share: "Share", go: "Go to the table", failed: "The table could not be opened: " };

/** Opens a table and returns the server's answer, keeping the seat's token; `hints`: a friends
 * table offering the coach's hints to every player; `open`: one listed on the game's page for anyone
 * to join, under the name this browser goes by.
 * @param {string} game
 * @param {string} opponents
 * @param {number | string | null} [length]
 * @param {string | null} [level]
 * @returns {Promise<any>} the server's answer (its JSON): the table, the seat's token, whether it is listed */
export async function createTable(game, opponents, length, level, { hints = false, open = false, guided = false } = {}) {
  /** @type {{ game: string, opponents: string, length?: number | string, level?: string, hints?: boolean, open?: boolean, name?: string, guided?: boolean }} */
  const body = { game, opponents };
  if (length !== undefined && length !== null) body.length = length;
  if (level) body.level = level;
  if (hints) body.hints = true;
  // A guided deal's computers wait for the guide's first words (guide.js).
  if (guided) body.guided = true;
  if (open) {
    body.open = true;
    const name = savedName();
    if (name) body.name = name;
  }
  const answer = await fetch("/api/tables", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await answer.json();
  if (answer.status !== 201) throw new Error(data.message || `status ${answer.status}`);
  keepSeat(data.table, data.token, game);
  if (data.listed) localStorage.setItem(`chaikhana.listed.${data.table}`, "1");
  return data;
}

/** Opens a table and goes there; `guided` asks for the guided first deal (guide.js) at it.
 * @param {string} game
 * @param {string} opponents
 * @param {number | string | null} [length]
 * @param {string | null} [level] */
export async function openTable(game, opponents, length, level, { guided = false } = {}) {
  try {
    const data = await createTable(game, opponents, length, level, { guided });
    if (guided) askGuide(data.table);
    location.assign(`/t/${data.table}`);
  } catch (e) {
    showBanner(WORDS.failed + /** @type {Error} */ (e).message, true);
  }
}

/** @param {HTMLFormElement} form */
function chosenLength(form) {
  const picked = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=length]:checked"));
  if (!picked) return null;
  return /^\d+$/.test(picked.value) ? Number(picked.value) : picked.value;
}

/** @param {HTMLFormElement} form */
function chosenLevel(form) {
  const picked = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=level]:checked"));
  return picked ? picked.value : null;
}

// The level chosen last on this game's landing page, kept in this browser and chosen again next time.
const LEVEL_KEY = (/** @type {string} */ game) => `chaikhana.level.${game}`;

/** @param {HTMLFormElement} form
 * @param {string} game */
function rememberLevel(form, game) {
  const kept = localStorage.getItem(LEVEL_KEY(game));
  const input = kept && form.querySelector(`input[name=level][value="${CSS.escape(kept)}"]`);
  if (input instanceof HTMLInputElement) input.checked = true;
  for (const radio of form.querySelectorAll("input[name=level]")) {
    radio.addEventListener("change", () => {
      const picked = chosenLevel(form);
      if (picked) localStorage.setItem(LEVEL_KEY(game), picked);
    });
  }
}

/** @param {HTMLFormElement} form the landing page's form, which names its game */
export function setUpLanding(form) {
  const game = /** @type {string} */ (form.dataset.game);
  rememberLevel(form, game);
  // The buttons open tables themselves; the form is never sent (no inline handler: the CSP forbids it).
  form.addEventListener("submit", (event) => event.preventDefault());
  const playComputer = () => openTable(game, "computer", chosenLength(form), chosenLevel(form));
  /** @type {Element} */ (form.querySelector("[data-play=computer]")).addEventListener("click", playComputer);
  const pair = setUpPairing(/** @type {HTMLElement} */ (document.getElementById("pairing")), game, () => chosenLength(form), playComputer);
  /** @type {Element} */ (form.querySelector("[data-play=person]")).addEventListener("click", pair);
  // The home page's "Play a person now" comes here to wait at once, at the game's usual length;
  // its "Play with friends" to the button that opens a table, in sight and focused (on a phone it is
  // below the fold).
  if (location.hash === "#person") pair();
  if (location.hash === "#friends") {
    const start = /** @type {Element} */ (form.querySelector("[data-play=friends]"));
    start.scrollIntoView({ block: "center" });
    /** @type {HTMLElement} */ (start).focus({ preventScroll: true });
  }
  setUpOpenTables(/** @type {HTMLElement} */ (document.getElementById("open-tables")), game);
  /** @type {Element} */ (form.querySelector("[data-play=friends]")).addEventListener("click", async () => {
    const out = /** @type {HTMLElement} */ (document.getElementById("friends-link"));
    try {
      const checked = (/** @type {string} */ name) => {
        const box = form.querySelector(`input[name=${name}]`);
        return box instanceof HTMLInputElement && box.checked;
      };
      const data = await createTable(game, "friends", chosenLength(form), null, { hints: checked("hints"), open: checked("open") });
      out.textContent = "";
      out.append(shareBox(data.table, WORDS));
      const go = el("a", "button primary", WORDS.go);
      go.href = `/t/${data.table}`;
      go.id = "go-to-table";
      out.append(go);
      // The link and the way to the table come into sight, however far down the form they land.
      out.scrollIntoView({ block: "nearest" });
    } catch (e) {
      showBanner(WORDS.failed + /** @type {Error} */ (e).message, true);
    }
  });
}
