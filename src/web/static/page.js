// The entry script of every page but the table: contrast, drawn card examples, the landing form, the
// home page's "Your games", and on the page of a table that takes no more moves (gone.html), this
// browser forgets that table.

import { setUpContrast, chooseLang } from "./ui.js";
import { drawExamples } from "./cards.js";
import { drawGExamples } from "./gcards.js";
import { setUpLanding, openTable } from "./landing.js";
import { setUpYourGames } from "./your-games.js";
import { forget } from "./tables.js";

setUpContrast();
drawExamples();
drawGExamples();
const form = /** @type {HTMLFormElement | null} */ (document.querySelector("form.landing"));
if (form) {
  setUpLanding(form);
  // A game written in more than one language (its form says `data-seat-lang`): starting it from a
  // page in one language seats you at a table in that language.
  if (form.dataset.seatLang !== undefined) {
    for (const b of form.querySelectorAll("[data-play]")) {
      b.addEventListener("click", () => chooseLang(document.documentElement.lang === "fa" ? "fa" : "en"));
    }
  }
}
for (const link of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-quick]"))) {
  link.addEventListener("click", (e) => {
    e.preventDefault();
    const [game, opponents] = /** @type {string} */ (link.dataset.quick).split(" ");
    if (opponents === "computer") openTable(game, opponents);
    else location.assign(/** @type {string} */ (link.getAttribute("href")));
  });
}
// "Play a guided first deal": the game's shortest match (`data-length`) against the standard
// computer, with the guide.
for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-guided]"))) {
  const length = /^\d+$/.test(/** @type {string} */ (b.dataset.length)) ? Number(b.dataset.length) : b.dataset.length;
  b.addEventListener("click", () => {
    // Like a table started from the form, a guided deal of a game written in more than one language
    // (its form or its button says `data-seat-lang`) speaks the language of the page it was started from.
    if (form?.dataset.seatLang !== undefined || b.dataset.seatLang !== undefined) chooseLang(document.documentElement.lang === "fa" ? "fa" : "en");
    openTable(/** @type {string} */ (b.dataset.guided), "computer", length, "standard", { guided: true });
  });
}
const yourGames = document.getElementById("your-games");
if (yourGames) setUpYourGames(yourGames);
// A table's page that says the table is gone for good: its seat token is of no more use here.
if (document.getElementById("gone") && location.pathname.startsWith("/t/")) {
  forget(/** @type {string} */ (location.pathname.split("/").filter(Boolean).pop()));
}
