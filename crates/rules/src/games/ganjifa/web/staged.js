// The staged Ganjifa deal: the server's script of steps (each a view, an action and a line written
// by the rules' side) played back on the Ganjifa board. Play, pause, step back and forward, or jump
// to the next highlight; the page only shows the views it is given.

import { createBoard } from "./ganjifa.js";
import { setUpContrast, showBanner, reducedMotion } from "./ui.js";
import { where, travel } from "./motion.js";

// Plain put-downs pass quickly; the steps that show a rule at work stay up long enough to read.
const PLAIN_MS = 1100;
const HIGHLIGHT_MS = 4200;
const PLAIN_EVENTS = ["trick-won"];

/** One of the page's elements, which the page always has. */
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** One of the page's step buttons. */
const stepButton = (/** @type {string} */ id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));
/**
 * A step of the script (the server's JSON): the view, the rules' events in it and the line said.
 * @typedef {{ view: any, events: string[], line: string }} Step
 */
/** @type {Step[]} */
let steps = [];
let at = 0;
/** @type {ReturnType<typeof setTimeout> | null} */
let timer = null;
/** @type {ReturnType<typeof createBoard> | null} */
let board = null;

const highlight = (/** @type {Step} */ step) => step.events.some((e) => !PLAIN_EVENTS.includes(e));

/** @param {number} index */
function frameOf(index) {
  const step = steps[index];
  const last = step.view.stage === "over";
  const scores = step.view.scores || [0, 0, 0];
  return {
    type: "view",
    version: index,
    table: "",
    game: "ganjifa",
    kind: "computer",
    status: last ? "deal-over" : "playing",
    seat: 0,
    // (The staged deal's seats name no seat number: the board finds each by its place.)
    seats: /** @type {import("./socket.js").SeatInfo[]} */ (/** @type {unknown} */ ([0, 1, 2].map((s) => ({ who: s === 0 ? "person" : "computer", connected: true })))),
    match: { length: { target: 1 }, deals_dealt: last ? 1 : 0, totals: scores },
    view: step.view,
    actions: [],
  };
}

/** @param {number} index */
function show(index) {
  at = Math.max(0, Math.min(index, steps.length - 1));
  // The cards travel as at a live table (none under reduced motion, see motion.js).
  const root = $("board");
  const before = where(root);
  /** @type {ReturnType<typeof createBoard>} */ (board).render(frameOf(at));
  travel(root, before, (key) => /** @type {ReturnType<typeof createBoard>} */ (board).goneTo?.(key));
  $("staged-line").textContent = steps[at].line;
  $("staged-count").textContent = `Step ${at + 1} of ${steps.length}`;
  document.body.dataset.step = String(at);
  stepButton("staged-back").disabled = at === 0;
  stepButton("staged-start").disabled = at === 0;
  stepButton("staged-step").disabled = at === steps.length - 1;
  stepButton("staged-highlight").disabled = !steps.slice(at + 1).some(highlight);
}

/** @param {boolean} on */
function setPlaying(on) {
  clearTimeout(/** @type {number | undefined} */ (timer));
  timer = null;
  const play = $("staged-play");
  play.setAttribute("aria-pressed", String(on));
  play.textContent = on ? "Pause" : at === steps.length - 1 ? "▶ Play again" : "▶ Play";
  document.body.dataset.playing = String(on);
  if (on) tick();
}

function tick() {
  const wait = highlight(steps[at]) ? HIGHLIGHT_MS : PLAIN_MS;
  timer = setTimeout(() => {
    if (at >= steps.length - 1) {
      setPlaying(false);
      return;
    }
    show(at + 1);
    if (at === steps.length - 1) setPlaying(false);
    else tick();
  }, wait);
}

/** @param {number} index */
function go(index) {
  const playing = timer !== null;
  show(index);
  setPlaying(playing && at < steps.length - 1);
}

function nextHighlight() {
  const found = steps.findIndex((s, i) => i > at && highlight(s));
  if (found >= 0) go(found);
}

async function start() {
  setUpContrast();
  board = createBoard($("board"), {
    act: () => {},
    lang: () => "en",
    heading: "Seen from your seat; the computer plays it for you too.",
  });
  try {
    const answer = await fetch("/api/ganjifa/staged");
    if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
    steps = (await answer.json()).steps;
  } catch (e) {
    showBanner(`The staged deal could not be loaded (${/** @type {Error} */ (e).message}). Reload the page to try again.`, true);
    return;
  }
  $("staged-play").addEventListener("click", () => {
    if (timer === null && at === steps.length - 1) show(0);
    setPlaying(timer === null);
  });
  $("staged-step").addEventListener("click", () => go(at + 1));
  $("staged-back").addEventListener("click", () => go(at - 1));
  $("staged-start").addEventListener("click", () => go(0));
  $("staged-highlight").addEventListener("click", nextHighlight);
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || /** @type {Element} */ (e.target).closest("input, textarea")) return;
    if (e.key === "ArrowRight") go(at + 1);
    else if (e.key === "ArrowLeft") go(at - 1);
    else return;
    e.preventDefault();
  });
  document.body.dataset.motion = reducedMotion() ? "reduced" : "full";
  show(0);
  setPlaying(false);
}

start();
