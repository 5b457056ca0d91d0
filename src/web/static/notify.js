// "Tell me when it's my turn": a switch in the table page's header, remembered on this device. Turned
// on, it asks the browser's permission (Notification.requestPermission); while it is on and allowed,
// a turn that comes while the tab is in the background (document.visibilityState "hidden") shows one
// notification, once per turn, and clicking it brings the tab forward. The page's own Notifications
// API only: no push service, no service worker, nothing leaves the browser.

import { showBanner } from "./ui.js";

const KEY = "chaikhana.turn-alerts";

const WORDS = {
  en: {
    label: "Tell me when it's my turn",
    title: (/** @type {string} */ game) => `Your turn at ${game}`,
    body: "The table is waiting for your move.",
    unsupported: "This browser cannot show notifications.",
    refused: "Notifications are blocked for this site. Allow them in the browser's site settings, then turn this on again.",
  },
  fa: {
    label: "وقتی نوبتم شد خبرم کن",
    title: (/** @type {string} */ game) => `نوبت شما در ${game}`,
    body: "میز منتظر حرکت شماست.",
    unsupported: "این مرورگر نمی‌تواند اعلان نشان دهد.",
    refused: "اعلان‌ها برای این سایت بسته است. در تنظیمات سایت در مرورگر اجازه دهید و دوباره روشنش کنید.",
  },
};

const supported = () => typeof window.Notification === "function";
const allowed = () => supported() && Notification.permission === "granted";

/**
 * Wires the switch `toggle` (a button with aria-pressed). `lang()` gives the page's language and
 * `game()` the game's name as the page shows it.
 * @param {HTMLElement} toggle
 * @param {{ lang: () => string, game: () => string }} page
 */
export function createTurnAlerts(toggle, { lang, game }) {
  const w = () => WORDS[/** @type {keyof typeof WORDS} */ (lang())] || WORDS.en;
  /** @type {Notification | null} */
  let shown = null; // the notification for the current turn, if any
  let told = false; // whether this turn has been told already

  const on = () => localStorage.getItem(KEY) === "on" && allowed();
  const mark = () => toggle.setAttribute("aria-pressed", String(on()));

  toggle.hidden = !supported();
  const label = toggle.querySelector(".turn-alerts-label") || toggle;
  const relabel = () => {
    label.textContent = w().label;
    toggle.title = w().label;
  };
  relabel();
  mark();
  toggle.addEventListener("click", async () => {
    if (on()) {
      localStorage.setItem(KEY, "off");
      mark();
      return;
    }
    if (!supported()) {
      showBanner(w().unsupported, true);
      return;
    }
    let answer = Notification.permission;
    if (answer === "default") {
      try {
        answer = await Notification.requestPermission();
      } catch (_) {
        answer = "denied";
      }
    }
    localStorage.setItem(KEY, answer === "granted" ? "on" : "off");
    mark();
    if (answer !== "granted") showBanner(w().refused, true);
  });

  function close() {
    shown?.close();
    shown = null;
  }
  // Back on the tab, the notification has said what it had to.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") close();
  });

  return {
    /** The turn changed (see ui.js's signalTurn): `mine` says whether it is this seat's now. */
    /** @param {boolean} mine */
    turn(mine) {
      if (!mine) {
        told = false;
        close();
        return;
      }
      if (told || !on() || document.visibilityState !== "hidden") return;
      told = true;
      try {
        shown = new Notification(w().title(game()), {
          body: w().body,
          tag: `chaikhana-turn-${location.pathname}`,
          icon: "/static/favicon.ico",
        });
        shown.addEventListener("click", () => {
          window.focus();
          close();
        });
      } catch (_) {
        // Some browsers allow notifications only from a service worker; the title still says it.
      }
    },
    /** The label, in the page's language. */
    relabel() {
      relabel();
      mark();
    },
  };
}
