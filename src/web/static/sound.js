// The table's sounds: a card played, your turn, a deal won or lost. Files the project makes itself
// (tools/make-assets.py, CC0). Nothing plays before the player's first touch or key on the page
// (browsers forbid it anyway), and the switch in the header (`[data-sound-switch]`, pressed while
// sounds are on) is remembered on the device: a player who wants silence, a screen-reader user among
// them, turns it off once.

const KEY = "chaikhana.sound";
const NAMES = ["card", "turn", "won", "lost"];
/** @type {AudioContext | null} */
let context = null;
/** @type {Map<string, AudioBuffer>} */
const sounds = new Map();

function on() {
  return localStorage.getItem(KEY) !== "off";
}

/** Plays one of the sounds, if sounds are on and the page may make them.
 * @param {string} name */
export function play(name) {
  if (!context || !on()) return;
  const buffer = sounds.get(name);
  if (!buffer) return;
  const source = context.createBufferSource();
  source.buffer = buffer;
  source.connect(context.destination);
  source.start();
}

/** Loads the sounds once the player has touched the page (when the browser lets it make any). */
async function wake() {
  if (context || !window.AudioContext) return;
  context = new AudioContext();
  for (const name of NAMES) {
    try {
      const answer = await fetch(`/static/sounds/${name}.wav`);
      sounds.set(name, await context.decodeAudioData(await answer.arrayBuffer()));
    } catch (_) {
      // A sound that cannot be loaded is left out; the table works without it.
    }
  }
}

/** Wires every `[data-sound-switch]` button and waits for the first touch or key. */
export function setUpSound() {
  const show = () => {
    for (const b of document.querySelectorAll("[data-sound-switch]")) {
      b.setAttribute("aria-pressed", String(on()));
    }
  };
  for (const b of document.querySelectorAll("[data-sound-switch]")) {
    b.addEventListener("click", () => {
      localStorage.setItem(KEY, on() ? "off" : "on");
      show();
    });
  }
  show();
  for (const kind of ["pointerdown", "keydown"]) {
    window.addEventListener(kind, () => wake(), { once: true, capture: true });
  }
}
