// A game's landing page: choose the match length (and the computer's level), then play the computer at once or open a friends
// table and pass its link on. The new seat's token is kept in this browser under the table's id, and
// the table in its list of tables (tables.js), which the home page's "Your games" shows.

import { el, showBanner } from "./ui.js";
import { shareBox } from "./share.js";
import { keepSeat } from "./tables.js";
import { askGuide } from "./guide.js";

const FA = document.documentElement.lang === "fa";
const WORDS = FA
  ? { shareLink: "این پیوند را برای دوستتان بفرستید:", copy: "کپی پیوند", copied: "پیوند کپی شد.", share: "هم‌رسانی", go: "رفتن سر میز", failed: "میز باز نشد: " }
  : { shareLink: "Send this link to the person you want to play:", copy: "Copy link", copied: "Link copied.", share: "Share", go: "Go to the table", failed: "The table could not be opened: " };

/** Opens a table and returns the server's answer, keeping the seat's token; `hints`: a friends
 * table offering the coach's hints to every player. */
export async function createTable(game, opponents, length, level, hints = false) {
  const body = { game, opponents };
  if (length !== undefined && length !== null) body.length = length;
  if (level) body.level = level;
  if (hints) body.hints = true;
  const answer = await fetch("/api/tables", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await answer.json();
  if (answer.status !== 201) throw new Error(data.message || `status ${answer.status}`);
  keepSeat(data.table, data.token, game);
  return data;
}

/** Opens a table and goes there; `guided` asks for the guided first deal (guide.js) at it. */
export async function openTable(game, opponents, length, level, { guided = false } = {}) {
  try {
    const data = await createTable(game, opponents, length, level);
    if (guided) askGuide(data.table);
    location.assign(`/t/${data.table}`);
  } catch (e) {
    showBanner(WORDS.failed + e.message, true);
  }
}

function chosenLength(form) {
  const picked = form.querySelector("input[name=length]:checked");
  if (!picked) return null;
  return /^\d+$/.test(picked.value) ? Number(picked.value) : picked.value;
}

function chosenLevel(form) {
  const picked = form.querySelector("input[name=level]:checked");
  return picked ? picked.value : null;
}

// The level chosen last on this game's landing page, kept in this browser and chosen again next time.
const LEVEL_KEY = (game) => `chaikhana.level.${game}`;

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

export function setUpLanding(form) {
  const game = form.dataset.game;
  rememberLevel(form, game);
  // The buttons open tables themselves; the form is never sent (no inline handler: the CSP forbids it).
  form.addEventListener("submit", (event) => event.preventDefault());
  form.querySelector("[data-play=computer]").addEventListener("click", () => openTable(game, "computer", chosenLength(form), chosenLevel(form)));
  form.querySelector("[data-play=friends]").addEventListener("click", async () => {
    const out = document.getElementById("friends-link");
    try {
      const hints = form.querySelector("input[name=hints]");
      const offered = hints instanceof HTMLInputElement && hints.checked;
      const data = await createTable(game, "friends", chosenLength(form), null, offered);
      out.textContent = "";
      out.append(shareBox(data.table, WORDS));
      const go = el("a", "button primary", WORDS.go);
      go.href = `/t/${data.table}`;
      go.id = "go-to-table";
      out.append(go);
    } catch (e) {
      showBanner(WORDS.failed + e.message, true);
    }
  });
}
