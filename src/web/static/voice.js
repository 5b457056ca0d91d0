// Voice at a friends table: a switch, a mute button and who is talking. Audio goes from browser to
// browser over WebRTC, one connection for each pair of seats with voice on; the server only relays the
// handshake (offers, answers, ICE candidates) between seats of this table that have voice on. Of each
// pair, the lower seat makes the offer.

import { el, button } from "./ui.js";
import { seatName } from "./social.js";

const WORDS = {
  en: {
    title: "Voice",
    on: "Voice: on",
    off: "Voice: off",
    mute: "Mute",
    unmute: "Unmute",
    you: "You",
    player: (/** @type {number} */ n) => `Player ${n}`,
    states: {
      off: "voice off",
      asking: "asking for the microphone…",
      waiting: "waiting for the others",
      on: "voice on",
      connecting: "connecting…",
      connected: "connected",
      failed: "could not connect",
      muted: "muted",
      talking: "talking",
    },
    refused: "The microphone was refused, so voice stays off. Allow this page to use the microphone in the browser's site settings, then switch voice on again.",
    noMic: "No microphone was found, so voice stays off.",
    insecure: "This browser offers no microphone to this page (it needs an https address), so voice stays off.",
    micFailed: "The microphone could not be opened, so voice stays off.",
    failed: (/** @type {string} */ who) => `The voice connection with ${who} failed. Across different networks the site needs a relay (TURN) server, which its operator sets up.`,
    moved: "Voice moved to another tab or window of your seat; it is off here.",
  },
  fa: {
    title: "صدا",
    on: "صدا: روشن",
    off: "صدا: خاموش",
    mute: "بستن میکروفون",
    unmute: "باز کردن میکروفون",
    you: "شما",
    player: (/** @type {number} */ n) => `بازیکن ${n}`,
    states: {
      off: "صدا خاموش",
      asking: "در حال گرفتن اجازهٔ میکروفون…",
      waiting: "در انتظار دیگران",
      on: "صدا روشن",
      connecting: "در حال وصل شدن…",
      connected: "وصل است",
      failed: "وصل نشد",
      muted: "میکروفون بسته",
      talking: "در حال حرف زدن",
    },
    refused: "اجازهٔ میکروفون داده نشد و صدا خاموش ماند. در تنظیمات مرورگر به این صفحه اجازهٔ میکروفون بدهید و دوباره صدا را روشن کنید.",
    noMic: "میکروفونی پیدا نشد و صدا خاموش ماند.",
    insecure: "مرورگر به این صفحه میکروفون نمی‌دهد (نشانی باید https باشد) و صدا خاموش ماند.",
    micFailed: "میکروفون باز نشد و صدا خاموش ماند.",
    failed: (/** @type {string} */ who) => `ارتباط صوتی با ${who} برقرار نشد. میان شبکه‌های جدا، سایت به سرور واسط (TURN) نیاز دارد که گردانندهٔ آن راه می‌اندازد.`,
    moved: "صدا به زبانه یا پنجرهٔ دیگری از همین جایگاه رفت و اینجا خاموش است.",
  },
};

/** Root mean square of the samples above which a voice counts as talking. */
const TALKING_LEVEL = 0.015;
/** How often the talking indicators are updated, in milliseconds. */
const METER_EVERY = 150;

/**
 * A connection with another seat: the peer connection, the call it belongs to, its state, the element
 * that plays it and the meter of its voice.
 * @typedef {{ pc: RTCPeerConnection, call: string, state: string, player: HTMLAudioElement, meter: AnalyserNode | null }} Peer
 */

/** The voice panel of one table page. `send` puts a frame on the table's socket; `lang()` is the page's
 * language.
 * @param {HTMLElement} panel
 * @param {(frame: import("./socket.js").Frame) => unknown} send
 * @param {() => string} lang */
export function createVoice(panel, send, lang) {
  /** @type {import("./socket.js").ViewFrame | null} */
  let frame = null;
  let wanted = false;
  let asking = false;
  let muted = false;
  /** @type {MediaStream | null} */
  let mic = null;
  /** @type {AudioContext | null} */
  let audio = null;
  /** @type {RTCIceServer[]} */
  let iceServers = [];
  let message = "";
  /** @type {ReturnType<typeof setInterval> | null} */
  let meterTimer = null;
  // seat -> { pc, call, state, player (an <audio>), meter (an analyser) }
  /** @type {Map<number, Peer>} */
  const peers = new Map();
  /** @type {Set<number>} */
  const talking = new Set();
  /** @type {AnalyserNode | null} */
  let myMeter = null;
  // The controls are redrawn at will; the players sit apart so redrawing never interrupts them.
  const controls = el("div", "voice-panel");
  const players = el("div");
  players.hidden = true;
  panel.replaceChildren(controls, players);

  const w = () => WORDS[/** @type {keyof typeof WORDS} */ (lang())] || WORDS.en;
  // Each seat by the name it gave, or numbered as the board numbers it.
  const who = (/** @type {number} */ seat) => seatName(/** @type {import("./socket.js").ViewFrame} */ (frame), seat, lang());
  const seatVoice = (/** @type {number} */ seat) => Boolean(frame && frame.seats[seat] && frame.seats[seat].voice);
  const active = () => wanted && mic && frame && seatVoice(frame.seat);

  /** @param {number} to
   * @param {string} kind
   * @param {object} data */
  function sendSignal(to, kind, data) {
    send({ type: "signal", to, kind, data });
  }

  /** @param {MediaStream} stream */
  function meterFor(stream) {
    if (!audio) return null;
    const analyser = audio.createAnalyser();
    analyser.fftSize = 512;
    audio.createMediaStreamSource(stream).connect(analyser);
    return analyser;
  }

  /** @param {AnalyserNode} analyser */
  function level(analyser) {
    const samples = new Float32Array(analyser.fftSize);
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const s of samples) sum += s * s;
    return Math.sqrt(sum / samples.length);
  }

  function measure() {
    const now = new Set();
    if (myMeter && !muted && level(myMeter) > TALKING_LEVEL) now.add(/** @type {import("./socket.js").ViewFrame} */ (frame).seat);
    for (const [seat, peer] of peers) {
      if (peer.meter && level(peer.meter) > TALKING_LEVEL) now.add(seat);
    }
    const changed = now.size !== talking.size || [...now].some((s) => !talking.has(s));
    talking.clear();
    for (const s of now) talking.add(s);
    if (changed) draw();
  }

  /** @param {number} seat */
  function closePeer(seat) {
    const peer = peers.get(seat);
    if (!peer) return;
    peers.delete(seat);
    talking.delete(seat);
    peer.pc.close();
    peer.player.srcObject = null;
    peer.player.remove();
  }

  /** @param {number} seat
   * @param {string} call */
  function openPeer(seat, call) {
    closePeer(seat);
    const pc = new RTCPeerConnection({ iceServers });
    const player = el("audio");
    player.autoplay = true;
    players.append(player);
    /** @type {Peer} */
    const peer = { pc, call, state: "connecting", player, meter: null };
    peers.set(seat, peer);
    for (const track of /** @type {MediaStream} */ (mic).getAudioTracks()) pc.addTrack(track, /** @type {MediaStream} */ (mic));
    pc.addEventListener("icecandidate", (e) => {
      if (e.candidate) sendSignal(seat, "ice", { call, candidate: e.candidate.toJSON() });
    });
    pc.addEventListener("track", (e) => {
      player.srcObject = e.streams[0] || new MediaStream([e.track]);
      peer.meter = meterFor(player.srcObject);
    });
    pc.addEventListener("connectionstatechange", () => {
      if (peers.get(seat) !== peer) return;
      peer.state = pc.connectionState;
      if (pc.connectionState === "failed") message = w().failed(who(seat));
      draw();
    });
    return peer;
  }

  /** @param {number} seat */
  async function offerTo(seat) {
    const call = `${/** @type {import("./socket.js").ViewFrame} */ (frame).seat}-${seat}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const peer = openPeer(seat, call);
    try {
      await peer.pc.setLocalDescription(await peer.pc.createOffer());
      if (peers.get(seat) === peer) sendSignal(seat, "offer", { call, sdp: /** @type {RTCSessionDescription} */ (peer.pc.localDescription).sdp });
    } catch (_) {
      if (peers.get(seat) === peer) {
        peer.state = "failed";
        message = w().failed(who(seat));
        draw();
      }
    }
  }

  /** @param {number} seat
   * @param {any} data the other seat's offer (its JSON, relayed by the table) */
  async function answer(seat, data) {
    const peer = openPeer(seat, data.call);
    try {
      await peer.pc.setRemoteDescription({ type: "offer", sdp: data.sdp });
      await peer.pc.setLocalDescription(await peer.pc.createAnswer());
      if (peers.get(seat) === peer) sendSignal(seat, "answer", { call: data.call, sdp: /** @type {RTCSessionDescription} */ (peer.pc.localDescription).sdp });
    } catch (_) {
      if (peers.get(seat) === peer) {
        peer.state = "failed";
        message = w().failed(who(seat));
        draw();
      }
    }
  }

  /** Brings the connections in line with who has voice on now. */
  function reconcile() {
    for (const seat of [...peers.keys()]) {
      if (!active() || !seatVoice(seat)) closePeer(seat);
    }
    if (!active()) return;
    for (const s of /** @type {import("./socket.js").ViewFrame} */ (frame).seats) {
      if (s.seat > /** @type {import("./socket.js").ViewFrame} */ (frame).seat && s.voice && !peers.has(s.seat)) offerTo(s.seat);
    }
  }

  async function switchOn() {
    message = "";
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      message = w().insecure;
      draw();
      return;
    }
    asking = true;
    draw();
    try {
      mic = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
        video: false,
      });
    } catch (e) {
      asking = false;
      const name = e && /** @type {DOMException} */ (e).name;
      message = name === "NotAllowedError" || name === "SecurityError" ? w().refused
        : name === "NotFoundError" ? w().noMic : w().micFailed;
      draw();
      return;
    }
    try {
      const answer = await fetch("/api/voice", { cache: "no-store" });
      if (answer.ok) iceServers = (await answer.json()).iceServers || [];
    } catch (_) {
      // Without the list, peers on one network still find each other.
      iceServers = [];
    }
    asking = false;
    audio = new AudioContext();
    audio.resume().catch(() => {});
    myMeter = meterFor(mic);
    meterTimer = setInterval(measure, METER_EVERY);
    muted = false;
    wanted = true;
    send({ type: "voice", on: true });
    draw();
  }

  /** Ends voice here; `tell` says whether the server still has to hear it. */
  /** @param {boolean} tell */
  function switchOff(tell) {
    wanted = false;
    for (const seat of [...peers.keys()]) closePeer(seat);
    if (mic) for (const track of mic.getTracks()) track.stop();
    mic = null;
    myMeter = null;
    clearInterval(/** @type {number | undefined} */ (meterTimer));
    if (audio) audio.close();
    audio = null;
    talking.clear();
    if (tell) send({ type: "voice", on: false });
    draw();
  }

  /** @param {number} seat */
  function stateOf(seat) {
    if (!seatVoice(seat)) return "off";
    if (seat === /** @type {import("./socket.js").ViewFrame} */ (frame).seat) return muted ? "muted" : talking.has(seat) ? "talking" : "on";
    const peer = peers.get(seat);
    if (!peer) return active() ? "connecting" : "on";
    if (peer.state === "connected" && talking.has(seat)) return "talking";
    return ["connected", "failed"].includes(peer.state) ? peer.state : "connecting";
  }

  // Built once and updated in place, so a redraw never takes the focus from a button.
  const title = el("h2", "voice-title");
  const toggle = button("", () => (wanted ? switchOff(true) : switchOn()), "voice-switch");
  toggle.id = "voice-switch";
  const mute = button("", () => {
    muted = !muted;
    for (const track of /** @type {MediaStream} */ (mic).getAudioTracks()) track.enabled = !muted;
    draw();
  });
  mute.id = "voice-mute";
  const list = el("ul", "voice-seats");
  const row = el("div", "voice-controls");
  row.append(toggle, mute, list);
  const line = el("p", "voice-message");
  line.id = "voice-message";
  line.setAttribute("role", "status");
  controls.append(title, row, line);

  function draw() {
    if (!frame) return;
    panel.hidden = frame.kind !== "friends";
    if (panel.hidden) return;
    const words = w();
    panel.dir = lang() === "fa" ? "rtl" : "ltr";
    title.textContent = words.title;
    toggle.textContent = wanted ? words.on : words.off;
    toggle.setAttribute("aria-pressed", String(wanted));
    toggle.disabled = asking;
    mute.hidden = !wanted;
    mute.textContent = muted ? words.unmute : words.mute;
    mute.setAttribute("aria-pressed", String(muted));
    // A seat nobody has taken yet has no voice to speak of.
    const items = frame.seats.filter((s) => s.who !== "free").map((s) => {
      const state = asking && s.seat === /** @type {import("./socket.js").ViewFrame} */ (frame).seat ? "asking"
        : wanted && s.seat === /** @type {import("./socket.js").ViewFrame} */ (frame).seat && !s.voice ? "waiting" : stateOf(s.seat);
      const item = el("li", "voice-seat");
      item.dataset.seat = String(s.seat);
      item.dataset.state = state;
      item.append(el("span", "voice-dot"));
      item.append(el("span", "", `${s.seat === /** @type {import("./socket.js").ViewFrame} */ (frame).seat ? words.you : who(s.seat)}: ${words.states[/** @type {keyof typeof words.states} */ (state)]}`));
      return item;
    });
    list.replaceChildren(...items);
    // Nobody's voice on: a phone shows the switch alone, and keeps the height for the board.
    row.toggleAttribute("data-quiet", items.every((item) => item.dataset.state === "off"));
    line.textContent = message;
  }

  return {
    /** A view frame: shows who has voice on and connects to them.
     * @param {import("./socket.js").ViewFrame} next */
    render(next) {
      frame = next;
      reconcile();
      draw();
    },
    /** A seats frame: who has voice on now.
     * @param {import("./socket.js").SeatInfo[]} seats */
    seats(seats) {
      if (!frame) return;
      frame = { ...frame, seats };
      reconcile();
      draw();
    },
    /** Draws the bar again, in the page's language now. */
    redraw() {
      draw();
    },
    /** A relayed piece of another seat's handshake (a `signal` frame: its seat, its kind, the
     * browser's own description or candidate).
     * @param {import("./socket.js").Frame} signal */
    signal({ from, kind, data }) {
      if (!active() || !data) return;
      if (kind === "offer") {
        answer(from, data);
        return;
      }
      const peer = peers.get(from);
      if (!peer || peer.call !== data.call) return;
      if (kind === "answer") {
        peer.pc.setRemoteDescription({ type: "answer", sdp: data.sdp }).catch(() => {
          peer.state = "failed";
          message = w().failed(who(from));
          draw();
        });
      } else if (kind === "ice" && data.candidate) {
        peer.pc.addIceCandidate(data.candidate).catch(() => {});
      }
    },
    /** Takes the server's voice errors; true when it was one.
     * @param {import("./socket.js").ErrorFrame} frame */
    error(frame) {
      switch (frame.code) {
        case "voice-moved":
          switchOff(false);
          message = w().moved;
          draw();
          return true;
        case "voice-friends-only":
          switchOff(false);
          message = /** @type {string} */ (frame.message);
          draw();
          return true;
        case "voice-off":
        case "peer-voice-off":
          // A handshake crossed a switch going off: the next seats frame closes that connection.
          return true;
        default:
          return false;
      }
    },
    /** The socket opened again after a break: the seat's voice is switched on anew. */
    reopened() {
      if (!wanted) return;
      for (const seat of [...peers.keys()]) closePeer(seat);
      send({ type: "voice", on: true });
      draw();
    },
  };
}
