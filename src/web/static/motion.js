// Cards that travel. A board notes where its cards are (`where`) before it draws a frame, and after
// drawing asks them to travel (`travel`): each card drawn again slides from where it was to where it
// is now, a card new to the board slides in from the area it came from (its `data-from`, an area's
// `data-area` name: the stock, another seat's hand), and a card that left the board is drawn for a
// moment flying to the area `goneTo` names. Every card is already in its place when this starts:
// the motion only eases the eye there, never holds up a click, and there is none at all when the
// player prefers reduced motion. Cards are told apart by `data-card` (a face-down card needs a key of
// its own, such as "back:1:3").

import { reducedMotion } from "./ui.js";

/** How long a card travels, in ms. */
export const TRAVEL_MS = 280;

/** Each card's place and markup by its key, and each area's place by its name.
 * @typedef {{ cards: Map<string, { rect: DOMRect, html: string }>, areas: Map<string, DOMRect> }} Places */

/** The elements under `root` that `selector` finds, each an HTML element with its `dataset`.
 * @param {ParentNode} root
 * @param {string} selector */
const elementsIn = (root, selector) => /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(selector));

/** Where every card and area under `root` is now.
 * @param {ParentNode} root
 * @returns {Places} */
export function where(root) {
  const cards = new Map();
  for (const card of elementsIn(root, "[data-card]")) {
    cards.set(card.dataset.card, { rect: card.getBoundingClientRect(), html: card.outerHTML });
  }
  const areas = new Map();
  for (const area of elementsIn(root, "[data-area]")) {
    areas.set(area.dataset.area, area.getBoundingClientRect());
  }
  return { cards, areas };
}

/** Moves each card from where it was (in `before`, from `where`) to where it is now; `goneTo(key)`
 * names the area a card that left went to, or nothing. Answers how many cards travelled.
 * @param {ParentNode} root
 * @param {Places | null | undefined} before
 * @param {(key: string) => string | null | undefined} [goneTo] */
export function travel(root, before, goneTo = () => null) {
  if (!before || reducedMotion()) return 0;
  let moved = 0;
  const now = new Set();
  for (const card of elementsIn(root, "[data-card]")) {
    const key = /** @type {string} */ (card.dataset.card);
    now.add(key);
    const was = before.cards.get(key)?.rect ?? areaRect(root, before, card.dataset.from);
    if (!was) continue;
    const here = card.getBoundingClientRect();
    const dx = centre(was).x - centre(here).x;
    const dy = centre(was).y - centre(here).y;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    const fresh = !before.cards.has(key);
    card.animate(
      [
        { transform: `translate(${dx}px, ${dy}px)`, opacity: fresh ? 0.4 : 1 },
        { transform: "none", opacity: 1 },
      ],
      { duration: TRAVEL_MS, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
    moved += 1;
  }
  for (const [key, { rect, html }] of before.cards) {
    if (now.has(key)) continue;
    const to = areaRect(root, before, goneTo(key));
    if (to) {
      flyAway(rect, html, to);
      moved += 1;
    }
  }
  return moved;
}

/** @param {ParentNode} root
 * @param {Places} before
 * @param {string | null | undefined} name */
function areaRect(root, before, name) {
  if (!name) return null;
  const area = root.querySelector(`[data-area="${CSS.escape(name)}"]`);
  return area ? area.getBoundingClientRect() : before.areas.get(name) ?? null;
}

/** @param {DOMRect} rect */
function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** A stand-in for a card no longer drawn, flying from `from` to `to` and then gone.
 * @param {DOMRect} from
 * @param {string} html
 * @param {DOMRect} to */
function flyAway(from, html, to) {
  const holder = document.createElement("div");
  holder.innerHTML = html;
  const ghost = /** @type {HTMLElement | null} */ (holder.firstElementChild);
  if (!ghost) return;
  ghost.removeAttribute("id");
  ghost.setAttribute("aria-hidden", "true");
  ghost.tabIndex = -1;
  Object.assign(ghost.style, {
    position: "fixed",
    left: `${from.left}px`,
    top: `${from.top}px`,
    width: `${from.width}px`,
    height: `${from.height}px`,
    margin: "0",
    pointerEvents: "none",
    zIndex: "20",
  });
  document.body.append(ghost);
  const dx = centre(to).x - centre(from).x;
  const dy = centre(to).y - centre(from).y;
  const flight = ghost.animate(
    [
      { transform: "none", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(0.7)`, opacity: 0.2 },
    ],
    { duration: TRAVEL_MS, easing: "cubic-bezier(.4,0,.6,1)" },
  );
  flight.onfinish = () => ghost.remove();
  flight.oncancel = () => ghost.remove();
}
