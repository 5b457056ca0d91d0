// The friends link: shown with a copy button, and the phone's share sheet where there is one.

import { el, button } from "./ui.js";

export function shareBox(table, w) {
  const box = el("div", "share");
  const link = `${location.origin}/t/${table}`;
  box.append(el("p", "", w.shareLink));
  const row = el("div", "link-box");
  row.dir = "ltr";
  const input = el("input");
  input.value = link;
  input.readOnly = true;
  input.id = "share-link";
  input.setAttribute("aria-label", w.shareLink);
  row.append(input);
  const said = el("span", "", "");
  said.setAttribute("aria-live", "polite");
  row.append(button(w.copy, async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch (_) {
      input.select();
      document.execCommand("copy");
    }
    said.textContent = w.copied;
  }));
  if (navigator.share) {
    row.append(button(w.share, () => navigator.share({ title: "chaikhana", url: link }).catch(() => {})));
  }
  row.append(said);
  box.append(row);
  return box;
}

// The top of every board: the score line and the "your turn" badge. While seats are still free it
// adds the waiting line and the link to share, puts the board in `root` and returns null; otherwise it
// returns the board for the game to fill.
export function boardTop(root, frame, score, w) {
  const board = el("div", "table");
  board.dataset.status = frame.status;
  const head = el("div", "row");
  head.append(score);
  const badge = el("span", "your-turn", w.yourTurn);
  badge.id = "turn-badge";
  badge.hidden = frame.actions.length === 0;
  head.append(badge);
  board.append(head);
  if (frame.status === "waiting" || !frame.view) {
    board.append(el("p", "status-line", w.waiting));
    board.append(shareBox(frame.table, w));
    root.append(board);
    return null;
  }
  return board;
}
