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
