// The table's WebSocket: connects and says the seat's token in its first frame (a watcher, with no
// token, connects through the watch link's id), reconnects with back-off (the seat resumes), keeps the view's version, and asks for a resync when it sees a gap. A view older than the
// last one is stale and dropped, except the first after (re)connecting or the answer to a resync:
// that is the table as the server holds it now, and the page follows it (saying so if it went back).
//
// How a connection ends decides what comes next (docs/protocol.md). A table that is waking or
// recovering (its page answers 503, the socket closes with 1012 or 1013, or an `unavailable` error)
// is tried again with back-off, forever: `onState("waking")`. A table gone for good (the socket
// closes with 4410 to 4413, or the hello is refused with the same codes, or its page answers 410)
// is not tried again: `onState("gone", {reason, days})`, the reason being "ended", "expired",
// "given-away", "lost", or "closed" for a table the server does not know (404).

/**
 * A frame the table sends (docs/protocol.md): its `type`, then fields that depend on the type; the
 * server's JSON, of no shape known here past `type`.
 * @typedef {{ type: string, [field: string]: any }} Frame
 */

/**
 * One of the moves a view offers, sent back exactly as offered (the game's JSON).
 * @typedef {{ type: string, [field: string]: any }} Action
 */

/**
 * One seat as every seat sees it (protocol/to_browser.rs, `SeatInfo`): who sits there ("person",
 * "computer" or "free"), whether its socket is open, its voice, whether it asked for the next deal,
 * its person's name, since when (Unix ms) it has been away, whether its person has ever come to it
 * and whether it may be offered. A page's
 * own frames (a replay's, the staged deal's) give only some of it.
 * @typedef {{ seat: number, who: string, connected?: boolean, voice?: boolean, ready?: boolean, name?: string | null, away_since?: number | null, arrived?: boolean, offerable?: boolean }} SeatInfo
 */

/**
 * A table's view (a `view` frame) as the socket keeps it: the last one with each new one laid over
 * it. `view` is the game's own view of the deal (the server's JSON, each game its shape).
 * @typedef {{ type: string, version: number, game: string, status: string, actions: Action[], view: any, seats: SeatInfo[], [field: string]: any }} ViewFrame
 */

/** A refusal: an `error` frame's code and words. @typedef {{ code: string, message?: string, [field: string]: any }} ErrorFrame */

/** Why a table is gone for good, and what its page or frame said. @typedef {{ reason: string, days?: number, message?: string }} Gone */

/**
 * What a table page does with what the socket hears.
 * @typedef {Object} SocketHandlers
 * @property {(view: ViewFrame) => void} onView
 * @property {(error: ErrorFrame) => void} onError an error frame, or one the socket makes ("went-back")
 * @property {(seats: SeatInfo[], watching: number) => void} onSeats
 * @property {(state: string, detail?: Gone) => void} onState
 * @property {(frame: Frame) => void} onSignal
 * @property {(frame: Frame) => void} onPhrase
 * @property {(frame: Frame) => void} [onReplay]
 * @property {(frame: Frame) => void} [onShuffle]
 * @property {(frame: Frame) => void} [onCoach]
 */

/** The codes of a seat refused for good, as error frames and join answers give them, and what each means.
 * @type {Record<string, string>} */
export const GONE_CODES = {
  "match-ended": "ended",
  "table-expired": "expired",
  "seat-given-away": "given-away",
  "record-lost": "lost",
};
/** The same, as the close codes of a socket. @type {Record<number, string>} */
const GONE_CLOSES = { 4410: "ended", 4411: "expired", 4412: "given-away", 4413: "lost" };
/** Closes that say the server is restarting or the table not ready: try again, calmly. */
const WAKING_CLOSES = new Set([1012, 1013]);
/** How long an `unavailable` error may leave the socket open before the page closes it to retry. */
const UNAVAILABLE_GRACE_MS = 3000;

/** The reason a 410 page gives (src/web/gone.html writes it in `data-gone-reason`).
 * @param {string} html */
function goneReason(html) {
  const found = /data-gone-reason="([a-z-]*)"/.exec(html);
  return found && found[1] ? found[1] : "closed";
}

export class TableSocket {
  /** `token` is the seat's; null for a watcher, whose `table` is the watch link's id.
   * @param {string} table
   * @param {string | null} token
   * @param {SocketHandlers} handlers */
  constructor(table, token, handlers) {
    this.table = table;
    this.token = token;
    this.page = token === null ? `/w/${table}` : `/t/${table}`;
    // onView, onError, onSeats, onState, onSignal, onPhrase, onReplay, onCoach
    this.handlers = handlers;
    /** @type {number | null} */
    this.version = null;
    /** @type {ViewFrame | null} */
    this.view = null;
    this.delay = 500;
    this.sent = 0;
    this.closedForGood = false;
    /** @type {WebSocket | undefined} */
    this.ws = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.graceTimer = undefined;
    // A page left for another (kept in the browser's back/forward cache) closes its socket, so that
    // the table shows the seat away at once rather than connected to a page nobody sees; coming back
    // to it opens a new one.
    addEventListener("pagehide", () => this.suspend());
    addEventListener("pageshow", (event) => {
      if (event.persisted) this.resume();
    });
    this.connect();
  }

  suspend() {
    if (this.closedForGood) return;
    this.suspended = true;
    this.ws?.close(1000, "page left");
  }

  resume() {
    if (!this.suspended || this.closedForGood) return;
    this.suspended = false;
    this.delay = 500;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const path = this.token === null ? `/ws/w/${this.table}` : `/ws/${this.table}`;
    const url = `${scheme}://${location.host}${path}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      // A seat's token goes in the first frame, never in the address (proxies log addresses).
      if (this.token !== null) ws.send(JSON.stringify({ type: "hello", token: this.token }));
      this.delay = 500;
      this.fresh = true;
      this.handlers.onState("open");
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => {
      clearTimeout(this.graceTimer);
      if (this.ws !== ws || this.closedForGood || this.suspended) return;
      const gone = GONE_CLOSES[event.code];
      if (gone) {
        this.gone({ reason: gone });
        return;
      }
      const waking = WAKING_CLOSES.has(event.code) || this.unavailable;
      this.unavailable = false;
      this.handlers.onState(waking ? "waking" : "reconnecting");
      setTimeout(() => this.retry(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    });
  }

  /** The table is gone for good: no more tries.
   * @param {Gone} detail */
  gone(detail) {
    if (this.closedForGood) return;
    this.closedForGood = true;
    clearTimeout(this.graceTimer);
    try {
      this.ws?.close();
    } catch (_) {
      // Already closed.
    }
    this.handlers.onState("gone", detail);
  }

  async retry() {
    // The table's page says whether there is still a table to come back to: 404 (no such table) and
    // 410 (ended, expired, lost) stop the tries; 503 (waking, recovering) never does.
    try {
      const answer = await fetch(this.page, { method: "GET", cache: "no-store" });
      if (answer.status === 404) {
        this.gone({ reason: "closed" });
        return;
      }
      if (answer.status === 410) {
        this.gone({ reason: goneReason(await answer.text()) });
        return;
      }
      if (answer.status === 503) this.handlers.onState("waking");
    } catch (_) {
      // The server is unreachable for now; the socket below fails too and tries again.
    }
    if (!this.closedForGood) this.connect();
  }

  /** @param {string} text */
  receive(text) {
    /** @type {any} */ // the server's JSON: a frame of any type, checked below by its type
    let frame;
    try {
      frame = JSON.parse(text);
    } catch (_) {
      return;
    }
    switch (frame.type) {
      case "view": {
        if (this.unavailable) {
          // It woke after all: back to playing.
          this.unavailable = false;
          clearTimeout(this.graceTimer);
          this.handlers.onState("open");
        }
        const settled = this.fresh || this.resyncing;
        this.fresh = false;
        const wentBack = this.version !== null && frame.version < this.version;
        if (wentBack) {
          if (!settled) return;
          this.resyncing = false;
        } else if (this.version !== null && frame.version > this.version + 1 && !this.resyncing) {
          // Frames were missed: this view is whole, but ask once for the current one to be sure.
          this.resyncing = true;
          this.send({ type: "resync" });
        } else {
          this.resyncing = false;
        }
        this.version = frame.version;
        // The server leaves out the parts it sent this socket unchanged, and the fields of the deal
        // view (see docs/protocol.md): the page draws the last view with this one laid over it. An
        // `ack` answers one frame only.
        const { ack: _answered, ...last } = /** @type {Partial<ViewFrame>} */ (this.view ?? {});
        const view = frame.view && last.view ? { ...last.view, ...frame.view } : frame.view;
        this.view = /** @type {ViewFrame} */ ({ ...last, ...frame, view });
        this.handlers.onView(this.view);
        if (wentBack) {
          this.handlers.onError({
            code: "went-back",
            message: "The table went back to an earlier moment; play on from here.",
          });
        }
        break;
      }
      case "replay":
        this.handlers.onReplay?.(frame);
        break;
      case "error":
        // The shuffle's number is sent by the deal check, not by a player: a refusal (the deal was
        // already dealt) changes nothing to show.
        if (frame.code === "contribution-refused") break;
        if (GONE_CODES[frame.code]) {
          this.gone({ reason: GONE_CODES[frame.code], days: frame.days, message: frame.message });
          break;
        }
        // The table is waking or recovering: say so calmly and try again once the socket closes
        // (closing it here if the server leaves it open).
        if (frame.code === "unavailable") {
          this.unavailable = true;
          this.handlers.onState("waking");
          const ws = this.ws;
          clearTimeout(this.graceTimer);
          this.graceTimer = setTimeout(() => {
            if (this.ws === ws && this.unavailable && ws && ws.readyState === WebSocket.OPEN) ws.close();
          }, UNAVAILABLE_GRACE_MS);
          break;
        }
        // A token that holds no seat here will not hold one on the next try: stay closed, saying why.
        if (frame.code === "wrong-token") this.closedForGood = true;
        this.handlers.onError(frame);
        break;
      case "seats":
        this.handlers.onSeats(frame.seats, frame.watching);
        break;
      case "signal":
        this.handlers.onSignal(frame);
        break;
      case "shuffle":
        this.handlers.onShuffle?.(frame);
        break;
      case "phrase":
        this.handlers.onPhrase(frame);
        break;
      case "hint":
      case "analysing":
      case "analysis":
        this.handlers.onCoach?.(frame);
        break;
      default:
        break;
    }
  }

  /** @param {Record<string, any>} frame a frame for the table (docs/protocol.md) */
  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  /** Plays one of the frame's offered actions, exactly as offered.
   * @param {Action} action */
  act(action) {
    this.sent += 1;
    return this.send({ type: "action", version: this.version, id: `a${this.sent}`, action });
  }

  nextDeal() {
    return this.send({ type: "next-deal", version: this.version });
  }

  /** @param {string} [level] */
  rematch(level) {
    /** @type {{ type: string, version: number | null, level?: string }} */
    const frame = { type: "rematch", version: this.version };
    if (level) frame.level = level;
    return this.send(frame);
  }
}
