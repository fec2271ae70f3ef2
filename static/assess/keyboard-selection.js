/* Focal assessment screen: selecting with the keyboard: the page moves a caret through text that
 * is not editable.
 */
import { docEl, wrapEl } from "./page.js";

// Chromium moves no caret through text that is not editable (unless caret browsing is on),
// so Shift+arrows would select nothing: the page moves the selection itself. The first ← or →
// shows the caret before the first character of the body text in view (not in a heading)
// without moving it; then ←/→ move it (Ctrl: by word), Shift+←/→/↑/↓/Home/End extend the
// selection from it, h highlights (in whole words, keys.js). Plain ↑/↓/Home/End still scroll.
const SELECTION_KEYS = {
  ArrowLeft: ["backward", "character"],
  ArrowRight: ["forward", "character"],
  ArrowUp: ["backward", "line"],
  ArrowDown: ["forward", "line"],
  Home: ["backward", "lineboundary"],
  End: ["forward", "lineboundary"],
};
const caretEl = document.getElementById("caret-marker");
let keyboardCaret = false;

function inView(range) {
  const rect = range.getBoundingClientRect();
  return rect.height > 0 && rect.bottom > 0 && rect.top < window.innerHeight;
}

// Headings (the article's title, section titles) are not where reading starts.
// (A profile's headings, or a title element: rendering.py names its div `x-` + the tag.)
const HEADINGS = ".pf-heading, [role='heading'], .x-title, .x-st, .x-atl, .x-article-title";
const inHeading = (node) => Boolean(node.parentElement?.closest?.(HEADINGS));

// A collapsed selection at the first text of the body visible in the viewport (a heading only
// when no other text is in view), at the start of its line.
function caretAtTopOfView(selection) {
  const box = docEl.getBoundingClientRect();
  let heading = null;
  for (let y = Math.max(box.top, 0) + 2; y < Math.min(box.bottom, window.innerHeight); y += 6) {
    const range = document.caretRangeFromPoint?.(box.left + 2, y);
    if (!range || !docEl.contains(range.startContainer)) continue;
    if (!inHeading(range.startContainer)) {
      selection.collapse(range.startContainer, range.startOffset);
      return true;
    }
    heading ??= range;
  }
  if (!heading) return false;
  selection.collapse(heading.startContainer, heading.startOffset);
  return true;
}

export function moveSelection(event) {
  const how = SELECTION_KEYS[event.key];
  if (!how || event.altKey || event.metaKey) return false;
  if (!event.shiftKey && !["ArrowLeft", "ArrowRight"].includes(event.key)) return false;
  const selection = window.getSelection();
  const inside = selection.rangeCount > 0 && docEl.contains(selection.focusNode);
  const lost = inside && selection.isCollapsed && !inView(selection.getRangeAt(0));
  if (!inside || lost) {
    if (!caretAtTopOfView(selection)) return false;
    if (!event.shiftKey) {
      // The first arrow only shows where the caret is: before the line's first character.
      // A point may fall between elements; a step there and back puts it in the text, where
      // the browser itself would put a caret before that character.
      selection.modify("move", "forward", "character");
      selection.modify("move", "backward", "character");
      keyboardCaret = true;
      showCaret();
      return true;
    }
  }
  const granularity = event.ctrlKey && how[1] === "character" ? "word" : how[1];
  selection.modify(event.shiftKey ? "extend" : "move", how[0], granularity);
  keyboardCaret = true;
  showCaret();
  return true;
}

// The caret of a keyboard selection is invisible in text that is not editable: a marker
// outside #document shows where the next Shift+arrow starts.
function showCaret() {
  if (!caretEl || !wrapEl) return;
  const selection = window.getSelection();
  const show =
    keyboardCaret && selection.rangeCount > 0 && docEl.contains(selection.focusNode);
  caretEl.hidden = !show;
  if (!show) return;
  const range = document.createRange();
  range.setStart(selection.focusNode, selection.focusOffset);
  const rect = range.getClientRects()[0] || range.getBoundingClientRect();
  const origin = wrapEl.getBoundingClientRect();
  caretEl.style.left = `${rect.left - origin.left}px`;
  caretEl.style.top = `${rect.top - origin.top}px`;
  caretEl.style.height = `${Math.max(rect.height, 12)}px`;
}

document.addEventListener("mousedown", () => {
  keyboardCaret = false;
  showCaret();
});
document.addEventListener("selectionchange", showCaret);

// True while the selection is the keyboard's (made with Shift+arrows, exact characters).
export function selectionByKeyboard() {
  return keyboardCaret;
}

