// Dragging a card onto a target with pointer events, so a mouse, a finger and a pen all work. A press
// that barely moves stays a click; a drag shows a copy of the card under the pointer and, dropped on
// one of `targets`, calls `onDrop(target)`. `onOver(target or null)` follows the pointer.

const START_PX = 8;
let quietUntil = 0;

/**
 * @param {HTMLElement} card
 * @param {{ targets: string, onOver?: (target: HTMLElement | null) => void, onDrop: (target: HTMLElement) => void }} options
 */
export function draggable(card, { targets, onOver = () => {}, onDrop }) {
  card.classList.add("draggable");
  // The click that ends a drag is not a click.
  card.addEventListener("click", (e) => {
    if (performance.now() < quietUntil) {
      e.stopImmediatePropagation();
      e.preventDefault();
    }
  }, { capture: true });
  card.addEventListener("pointerdown", (down) => {
    if (down.button !== 0) return;
    for (const old of document.querySelectorAll(".drag-ghost")) old.remove();
    /** @type {HTMLElement | null} */
    let ghost = null;
    /** @type {HTMLElement | null} */
    let over = null;
    /** @type {(e: PointerEvent) => HTMLElement | null} */
    const targetAt = (e) => document.elementFromPoint(e.clientX, e.clientY)?.closest(targets) || null;
    /** @param {PointerEvent} e */
    const move = (e) => {
      if (!ghost) {
        if (Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) < START_PX) return;
        ghost = /** @type {HTMLElement} */ (card.cloneNode(true));
        ghost.className = `${card.className} drag-ghost`;
        ghost.setAttribute("aria-hidden", "true");
        document.body.append(ghost);
        card.classList.add("dragging");
      }
      ghost.style.left = `${e.clientX}px`;
      ghost.style.top = `${e.clientY}px`;
      const now = targetAt(e);
      if (now !== over) {
        over?.classList.remove("drop-over");
        over = now;
        over?.classList.add("drop-over");
        onOver(over);
      }
    };
    /** @param {PointerEvent} e */
    const end = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", end);
      if (!ghost) return;
      ghost.remove();
      card.classList.remove("dragging");
      over?.classList.remove("drop-over");
      quietUntil = performance.now() + 300;
      const target = e.type === "pointerup" ? targetAt(e) : null;
      if (target) onDrop(target);
      else onOver(null);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
  });
}
