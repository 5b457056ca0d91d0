// The table page: takes or resumes the seat, opens the socket and hands each frame to the board.

import { TableSocket } from "./socket.js";
import { DealCheck } from "./verify.js";
import { setUpContrast, showBanner, chosenLang, chooseLang } from "./ui.js";
import { createVoice } from "./voice.js";

const BOARDS = {
  panjpar: () => import("./panjpar.js"),
  "pishe-pasha": () => import("./pishe-pasha.js"),
  ganjifa: () => import("./ganjifa.js"),
};

const WORDS = {
  en: {
    full: "This table is full: every seat has been taken. Ask for a new link, or start a table of your own.",
    closed: "This table has closed. Start a new one from the home page.",
    joining: "Taking your seat…",
    reconnecting: "Connection lost. Reconnecting… your seat is kept for you.",
    failed: "The seat could not be taken just now. Reload the page to try again.",
  },
  fa: {
    full: "این میز پر است و همهٔ جاها گرفته شده. پیوند تازه‌ای بخواهید یا میز خودتان را باز کنید.",
    closed: "این میز بسته شده است. از صفحهٔ اول میز تازه‌ای باز کنید.",
    joining: "در حال نشستن سر میز…",
    reconnecting: "ارتباط قطع شد. دوباره وصل می‌شویم… جای شما نگه داشته شده است.",
    failed: "اکنون نشد سر میز بنشینید. صفحه را دوباره بار کنید.",
  },
};

const table = location.pathname.split("/").filter(Boolean).pop();
let lang = chosenLang();
let board = null;
let lastFrame = null;
let socket = null;
const voice = createVoice(
  document.getElementById("voice"),
  (frame) => socket && socket.send(frame),
  () => (lastFrame?.game === "panjpar" ? lang : "en"),
);
const dealCheck = new DealCheck(document.getElementById("deal-check"), () => lang);

function say(text) {
  const opening = document.getElementById("opening");
  if (opening) opening.textContent = text;
}

async function seatToken() {
  const kept = localStorage.getItem(table);
  if (kept) return kept;
  const answer = await fetch(`/api/tables/${table}/join`, { method: "POST" });
  if (answer.status === 201) {
    const ticket = await answer.json();
    localStorage.setItem(table, ticket.token);
    return ticket.token;
  }
  if (answer.status === 409) say(WORDS[lang].full);
  else if (answer.status === 404) say(WORDS[lang].closed);
  else say(WORDS[lang].failed);
  document.body.dataset.refused = String(answer.status);
  return null;
}

async function showFrame(frame, socket) {
  if (!board) {
    const load = BOARDS[frame.game];
    if (!load) {
      say(`This site has no board for ${frame.game} tables; they can be played over the WebSocket protocol only.`);
      return;
    }
    const module = await load();
    const root = document.getElementById("board");
    root.textContent = "";
    document.body.dataset.game = frame.game;
    if (frame.game === "panjpar") document.getElementById("lang-switch").hidden = false;
    board = module.createBoard(root, {
      act: (action) => socket.act(action),
      nextDeal: () => socket.nextDeal(),
      // At a computer table the board's level choice, if shown, sets the next match's level.
      rematch: () => socket.rematch(document.querySelector("#rematch-level input:checked")?.value),
      lang: () => (frame.game === "panjpar" ? lang : "en"),
    });
  }
  lastFrame = frame;
  board.render(frame);
  await dealCheck.follow(frame);
}

async function start() {
  setUpContrast();
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
    b.addEventListener("click", () => {
      lang = b.dataset.lang;
      chooseLang(lang);
      for (const o of document.querySelectorAll("[data-lang]")) {
        o.setAttribute("aria-pressed", String(o.dataset.lang === lang));
      }
      if (board && lastFrame) board.render(lastFrame);
      voice.redraw();
    });
  }
  say(WORDS[lang].joining);
  const token = await seatToken();
  if (!token) return;
  let pending = Promise.resolve();
  let opened = false;
  socket = new TableSocket(table, token, {
    onView: (frame) => {
      voice.render(frame);
      pending = pending.then(() => showFrame(frame, socket));
    },
    onError: (frame) => {
      if (voice.error(frame)) return;
      if (board) board.error(frame);
      else showBanner(frame.message, true);
    },
    onSeats: (seats) => {
      voice.seats(seats);
      if (lastFrame) lastFrame = { ...lastFrame, seats };
      if (board && lastFrame) board.render(lastFrame);
    },
    onSignal: (frame) => voice.signal(frame),
    onState: (state) => {
      if (state === "open" && opened) voice.reopened();
      if (state === "open") opened = true;
      if (state === "open") showBanner("");
      else if (state === "reconnecting") showBanner(WORDS[lang].reconnecting);
      else if (state === "closed") showBanner(WORDS[lang].closed, true);
    },
  });
}

start();
