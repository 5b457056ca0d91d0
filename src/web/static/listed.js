// At a table its host listed as open on the game's page: a line saying so, with a button that takes it
// off the list. While the host's page is open it tells the server every half minute that the host is
// still there (a listing whose host has gone leaves the list); the line goes once the server says the
// table is listed no more (its seats all taken, or the host took it off).

import { el, button } from "./ui.js";
import { post } from "./lobby.js";

const WORDS = {
  en: { listed: "Anyone may take a free seat here: the table is on the game's list of open tables.", close: "Take it off the list" },
  fa: { listed: "این میز در فهرست میزهای باز بازی است و هر کسی می‌تواند جای خالی آن را بگیرد.", close: "برداشتن از فهرست" },
};

const EVERY = 30_000;
/** @param {string} table */
const key = (table) => `chaikhana.listed.${table}`;

/** Keeps `table` listed while this page is open, if this browser listed it; `lang()` the page's.
 * @param {string} table
 * @param {string | null} token
 * @param {() => string} lang */
export function keepListed(table, token, lang) {
  if (!localStorage.getItem(key(table))) return;
  const line = /** @type {HTMLElement} */ (document.getElementById("listed"));
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timer = undefined;

  /** @param {boolean} close */
  async function tell(close) {
    const answer = await post("/api/open-tables/host", { table, token, close }).catch(() => null);
    if (!answer) return;
    if (answer.status === 200 && !close) return show();
    // Listed no more: full, taken off, or forgotten.
    localStorage.removeItem(key(table));
    clearInterval(timer);
    line.hidden = true;
    line.textContent = "";
  }

  function show() {
    const w = WORDS[/** @type {keyof typeof WORDS} */ (lang())] || WORDS.en;
    line.replaceChildren(el("span", "", w.listed), button(w.close, () => tell(true)));
    line.hidden = false;
  }

  tell(false);
  timer = setInterval(() => tell(false), EVERY);
}
