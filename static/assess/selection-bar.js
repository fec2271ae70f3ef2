/* Focal assessment screen: the selection bar and the selected passage. A selection made by
 * touch (or with the keyboard) gets a floating "Highlight" button, since no mouse-up follows
 * it; a selection inside a highlighted passage gets "Remove highlight" (removes just that
 * text, splitting the passage); a click on a passage selects it ("Remove passage", and grips
 * at its ends: grips.js). Removing is always one explicit action, undone with u.
 */
import { highlightOffsets, unhighlight } from "./actions.js";
import { focusedPassage, placeGrips, setFocusAt } from "./grips.js";
import { selectionByKeyboard } from "./keyboard-selection.js";
import { wrapEl } from "./page.js";
import { localState } from "./queue.js";
import { index } from "./text-index.js";
import { snapToWords } from "./words.js";

const barEl = document.getElementById("selection-bar");
const buttons = {
  highlight: document.getElementById("bar-highlight"),
  "remove-text": document.getElementById("bar-remove-text"),
  "remove-passage": document.getElementById("bar-remove-passage"),
};
// What the bar offers: {kind, start, end} in code points (kind: a key of `buttons`), or null.
let offer = null;
// True from a mouse press until a touch or a key: mouse-up decides for mouse selections.
let mouseSelecting = false;

function passageContaining(start, end) {
  return localState().passages.find(([s, e]) => s <= start && end <= e) || null;
}

function show(kind, rect) {
  if (!barEl || !wrapEl || !rect) return;
  for (const [name, button] of Object.entries(buttons)) button.hidden = name !== kind;
  barEl.hidden = false;
  const origin = wrapEl.getBoundingClientRect();
  const above = rect.top - origin.top - barEl.offsetHeight - 6;
  barEl.style.top = `${above >= 0 ? above : rect.bottom - origin.top + 6}px`;
  const room = wrapEl.clientWidth - barEl.offsetWidth;
  barEl.style.left = `${Math.max(0, Math.min(rect.left - origin.left, room))}px`;
}

function hide() {
  offer = null;
  if (barEl) barEl.hidden = true;
}

// Offers what a selection of `raw` ({start, end}, code points) can do: remove it when it lies
// inside a passage, else highlight it. With `snap` it grows to whole words (words.js), never
// beyond the passage it removes from. Returns the offer's kind.
export function offerSelection(raw, snap) {
  const inside = passageContaining(raw.start, raw.end);
  const grown = snap ? snapToWords(raw) : raw;
  let { start, end } = grown;
  if (inside) {
    start = Math.max(start, inside[0]);
    end = Math.min(end, inside[1]);
  }
  offer = { kind: inside ? "remove-text" : "highlight", start, end };
  const selection = window.getSelection();
  if (selection.rangeCount > 0) show(offer.kind, selection.getRangeAt(0).getBoundingClientRect());
  return offer.kind;
}

function clearSelection() {
  window.getSelection()?.removeAllRanges();
}

export function highlightOffered() {
  if (offer?.kind !== "highlight") return false;
  const { start, end } = offer;
  hide();
  clearSelection();
  setFocusAt(start);
  highlightOffsets({ start, end, exact: index.slice(start, end) });
  return true;
}

// Selects `passage` (or nothing); with `withBar` the bar offers "Remove passage".
export function focusPassage(passage, withBar = false) {
  setFocusAt(passage ? passage[0] : null);
  hide();
  if (passage && withBar) {
    offer = { kind: "remove-passage", start: passage[0], end: passage[1] };
    show("remove-passage", index.rangeOf(passage[0], passage[1]).getClientRects()[0]);
  }
  placeGrips();
}

// Removes what the bar offers (Delete, or its button); true when there was something.
export function removeOffered() {
  if (offer?.kind === "remove-text") {
    unhighlight([offer.start, offer.end]);
    clearSelection();
  } else if (offer?.kind === "remove-passage") {
    const passage = focusedPassage();
    if (passage) unhighlight(passage);
    setFocusAt(null);
  } else return false;
  hide();
  return true;
}

// After a change: an offered passage that is gone is no longer offered.
export function refreshOffer() {
  if (offer?.kind === "remove-passage" && !focusedPassage()) hide();
}

// What the bar offers ("highlight", "remove-text", "remove-passage"), or null.
export function offerKind() {
  return offer?.kind ?? null;
}

document.addEventListener("pointerdown", (event) => {
  if (event.pointerType === "mouse" && !barEl?.contains(event.target)) mouseSelecting = true;
  else if (event.pointerType !== "mouse") mouseSelecting = false;
  // Dragging a grip (grips.js) moves an end of the selected passage: the bar goes away.
  if (event.button === 0 && event.target.closest?.(".grip") && focusedPassage()) hide();
});
document.addEventListener("keydown", () => {
  mouseSelecting = false;
});

// A selection made by touch or keys: offered as it changes. Touch selections grow to words.
document.addEventListener("selectionchange", () => {
  if (mouseSelecting) return;
  const selection = window.getSelection();
  const range = selection.rangeCount > 0 ? selection.getRangeAt(0) : null;
  const raw = range && !range.collapsed ? index.offsetsOf(range) : null;
  if (raw) offerSelection(raw, !selectionByKeyboard());
  else if (offer && offer.kind !== "remove-passage") hide();
});

// A press on the bar keeps the selection it acts on.
barEl?.addEventListener("mousedown", (event) => event.preventDefault());
buttons.highlight?.addEventListener("click", highlightOffered);
buttons["remove-text"]?.addEventListener("click", removeOffered);
buttons["remove-passage"]?.addEventListener("click", removeOffered);

