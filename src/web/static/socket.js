// The table's WebSocket: connects and says the seat's token in its first frame (a watcher, with no
// token, connects through the watch link's id), reconnects with back-off (the seat resumes), keeps the view's version, and asks for a resync when it sees a gap. A view older than the
// last one is stale and dropped, except the first after (re)connecting or the answer to a resync:
// that is the table as the server holds it now, and the page follows it (saying so if it went back).

export class TableSocket {
  /** `token` is the seat's; null for a watcher, whose `table` is the watch link's id. */
  constructor(table, token, handlers) {
    this.table = table;
    this.token = token;
    this.page = token === null ? `/w/${table}` : `/t/${table}`;
    // onView, onError, onSeats, onState, onSignal, onPhrase
    this.handlers = handlers;
    this.version = null;
    this.view = null;
    this.delay = 500;
    this.sent = 0;
    this.closedForGood = false;
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
    ws.addEventListener("close", () => {
      if (this.ws !== ws || this.closedForGood) return;
      this.handlers.onState("reconnecting");
      setTimeout(() => this.retry(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    });
  }

  async retry() {
    // A table that has closed answers its page with 404: stop trying then.
    try {
      const answer = await fetch(this.page, { method: "GET", cache: "no-store" });
      if (answer.status === 404) {
        this.closedForGood = true;
        this.handlers.onState("closed");
        return;
      }
    } catch (_) {
      // The server is unreachable for now; the socket below fails too and tries again.
    }
    this.connect();
  }

  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch (_) {
      return;
    }
    switch (frame.type) {
      case "view": {
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
        const { ack: _answered, ...last } = this.view ?? {};
        const view = frame.view && last.view ? { ...last.view, ...frame.view } : frame.view;
        this.view = { ...last, ...frame, view };
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
      case "phrase":
        this.handlers.onPhrase(frame);
        break;
      default:
        break;
    }
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  /** Plays one of the frame's offered actions, exactly as offered. */
  act(action) {
    this.sent += 1;
    return this.send({ type: "action", version: this.version, id: `a${this.sent}`, action });
  }

  nextDeal() {
    return this.send({ type: "next-deal", version: this.version });
  }

  rematch(level) {
    const frame = { type: "rematch", version: this.version };
    if (level) frame.level = level;
    return this.send(frame);
  }
}
