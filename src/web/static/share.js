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
  if (frame.level) board.append(levelLine(frame, w));
  if (frame.status === "waiting" || !frame.view) {
    board.append(el("p", "status-line", w.waiting));
    board.append(shareBox(frame.table, w));
    root.append(board);
    return null;
  }
  return board;
}

const LEVEL_WORDS = {
  standard: "You are playing the standard computer.",
  strong: "You are playing the strong computer.",
  next: "Next match against:",
  names: { standard: "standard", strong: "strong" },
};

// At a computer table: which level the player faces, and once the match is over, the level of the
// next one (the rematch button reads it).
function levelLine(frame, w) {
  const words = w.level || LEVEL_WORDS;
  const box = el("div", "level-line");
  const shown = el("p", "", words[frame.level]);
  shown.id = "level-shown";
  shown.dataset.level = frame.level;
  box.append(shown);
  if (frame.status === "match-over") {
    const choice = el("fieldset", "row");
    choice.id = "rematch-level";
    choice.append(el("legend", "", words.next));
    for (const level of ["standard", "strong"]) {
      const label = el("label");
      const input = el("input");
      input.type = "radio";
      input.name = "rematch-level";
      input.value = level;
      input.checked = level === frame.level;
      label.append(input, " ", words.names[level]);
      choice.append(label);
    }
    box.append(choice);
  }
  return box;
}
