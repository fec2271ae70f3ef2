/* Focal assessment screen: mouse selection: releasing the button highlights; a click on a passage
 * acts on it; Shift+click moves the best entry point.
 */
import { setBep } from "./actions.js";
import { docEl } from "./page.js";
import { localState } from "./queue.js";
import { focusPassage, highlightOffered, offerSelection } from "./selection-bar.js";
import { index, offsetAtPoint } from "./text-index.js";

/** The code point offset of the caret (the start of `selection`) in the text, or null. */
export function caretOffset(selection) {
  if (!selection || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  if (!docEl.contains(range.startContainer)) return null;
  return index.toCodePoint(index.unitsAt(range.startContainer, range.startOffset));
}

// The stored passage drawn under the pointer, found from the painted ranges' boxes, so that a
// click just beside a passage does not select it.
function passageAtPoint(x, y) {
  for (const passage of localState().passages) {
    for (const rect of index.rangeOf(passage[0], passage[1]).getClientRects()) {
      if (x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom) return passage;
    }
  }
  return null;
}

// Shift+click only ever moves the best entry point. A browser extends the selection on a
// Shift+press (from the caret a first Shift+click left), which would turn the second
// Shift+click into a highlight: the press is kept from selecting at all.
document.addEventListener("mousedown", (event) => {
  if (event.button === 0 && event.shiftKey && docEl.contains(event.target)) {
    event.preventDefault();
  }
});

document.addEventListener("mouseup", (event) => {
  if (event.button !== 0) return;
  // The page's own controls act on their own (a press there keeps the selection).
  if (event.target.closest?.(".selection-bar, .grip, .action-bar")) return;
  if (event.shiftKey) {
    if (!docEl.contains(event.target)) return;
    const offset = offsetAtPoint(event.clientX, event.clientY);
    if (offset !== null) setBep(offset);
    return;
  }
  const selection = window.getSelection();
  if (!selection || selection.rangeCount === 0) return;
  const range = selection.getRangeAt(0);
  if (!range.intersectsNode(docEl)) return;
  if (!range.collapsed) {
    // Mouse-up creates the highlight, grown to whole words unless Alt is held; the live
    // selection is then dropped so that what shows is the stored passage. A selection inside
    // a passage is offered for removal instead (the selection bar, or Delete).
    const raw = index.offsetsOf(range);
    if (!raw) return;
    if (offerSelection(raw, !event.altKey) === "highlight") highlightOffered();
    return;
  }
  if (!docEl.contains(event.target)) return;
  // A click on a passage selects it (its grips and "Remove passage" show); it never removes
  // anything by itself.
  focusPassage(passageAtPoint(event.clientX, event.clientY), true);
});

