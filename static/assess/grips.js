/* Focal assessment screen: the grips at the start and end of the selected passage. Dragging a
 * grip moves that end: outwards it highlights the text added (touching passages merge),
 * inwards it removes the text left out; the new end snaps to a word boundary unless Alt is
 * held. Each drag is one operation, undone with u. The grips are sliders for the keyboard too:
 * Tab reaches them while a passage is selected, ← and → move that end by a word (with Alt: by a
 * character), each press one operation.
 *
 * The selected passage itself (a click on it, or the passage list, selects it: selection-bar.js)
 * is kept here, as a code point inside it, so that it survives trims through that point.
 */
import { act } from "./actions.js";
import { setHighlight } from "./highlights.js";
import { config, wrapEl } from "./page.js";
import { localState } from "./queue.js";
import { index, offsetAtPoint } from "./text-index.js";
import { nextBoundary, snapBoundary } from "./words.js";

const grips = {
  start: document.getElementById("grip-start"),
  end: document.getElementById("grip-end"),
};
let dragging = null; // {which, passage}
// A code point inside the selected passage, or null when none is selected.
let focusAt = null;

/** The selected passage as it is now ([start, end), code points), or null. */
export function focusedPassage() {
  if (focusAt === null) return null;
  return localState().passages.find(([s, e]) => s <= focusAt && focusAt < e) || null;
}

/** Selects the passage that contains code point `offset` (null: none). */
export function setFocusAt(offset) {
  focusAt = offset;
}

function place(el, rect, atStart, offset) {
  el.setAttribute("aria-valuenow", String(offset));
  const words = index.slice(Math.max(0, offset - 30), offset + 30).trim();
  el.setAttribute("aria-valuetext", `at character ${offset}, near “${words}”`);
  const origin = wrapEl.getBoundingClientRect();
  el.hidden = false;
  el.style.left = `${(atStart ? rect.left : rect.right) - origin.left}px`;
  el.style.top = `${rect.top - origin.top}px`;
  el.style.height = `${Math.max(rect.height, 12)}px`;
}

/** Shows the grips at the ends of the selected passage, or hides them. */
export function placeGrips() {
  if (!grips.start || !grips.end || !wrapEl || dragging) return;
  const passage = config.opsUrl ? focusedPassage() : null;
  if (!passage) {
    grips.start.hidden = true;
    grips.end.hidden = true;
    return;
  }
  const rects = index.rangeOf(passage[0], passage[1]).getClientRects();
  if (rects.length === 0) return;
  place(grips.start, rects[0], true, passage[0]);
  place(grips.end, rects[rects.length - 1], false, passage[1]);
}

// The text between the passage's old end and where the grip is, as a preview.
function preview(offset) {
  const [s, e] = dragging.passage;
  const from = dragging.which === "start" ? s : e;
  const span = offset === null ? [] : [[Math.min(from, offset), Math.max(from, offset)]];
  setHighlight("focal-trim", span, 6);
}

// Moves the `which` end of `passage` to code point `to`: outwards highlights the text added,
// inwards removes the text left out (never past the other end).
function moveEnd(which, passage, to) {
  const [s, e] = passage;
  const span = (a, b) => ({ start: a, end: b, exact: index.slice(a, b) });
  if (which === "start" && to < s) {
    setFocusAt(to);
    act({ op: "highlight", ...span(to, s) });
  } else if (which === "start" && to > s && to < e) {
    setFocusAt(to);
    act({ op: "unhighlight", ...span(s, to) });
  } else if (which === "end" && to > e) {
    act({ op: "highlight", ...span(e, to) });
  } else if (which === "end" && to < e && to > s) {
    act({ op: "unhighlight", ...span(to, e) });
  }
}

function release(event) {
  const { which, passage } = dragging;
  dragging = null;
  for (const grip of Object.values(grips)) grip.classList.remove("dragging");
  setHighlight("focal-trim", [], 6);
  const at = offsetAtPoint(event.clientX, event.clientY);
  if (at !== null) moveEnd(which, passage, event.altKey ? at : snapBoundary(at, which === "start"));
  placeGrips();
}

// ← and → on a grip: that end one word (Alt: one character) left or right.
function keyMove(which, event) {
  const direction = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
  const passage = focusedPassage();
  if (!direction || !passage || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  event.stopPropagation();
  const from = which === "start" ? passage[0] : passage[1];
  const to = event.altKey
    ? Math.min(Math.max(from + direction, 0), index.codePointLength)
    : nextBoundary(from, direction, which === "start");
  moveEnd(which, passage, to);
}

for (const [which, grip] of Object.entries(grips)) {
  if (!grip) continue;
  grip.addEventListener("keydown", (event) => keyMove(which, event));
  grip.addEventListener("pointerdown", (event) => {
    const passage = focusedPassage();
    if (!passage || event.button !== 0) return;
    event.preventDefault();
    grip.setPointerCapture(event.pointerId);
    // The grip lets the pointer through while it moves, so the text under it is found.
    grip.classList.add("dragging");
    dragging = { which, passage };
  });
  grip.addEventListener("pointermove", (event) => {
    if (dragging) preview(offsetAtPoint(event.clientX, event.clientY));
  });
  grip.addEventListener("pointerup", (event) => {
    if (dragging) release(event);
  });
  grip.addEventListener("pointercancel", () => {
    dragging = null;
    grip.classList.remove("dragging");
    setHighlight("focal-trim", [], 6);
  });
}

window.addEventListener("resize", placeGrips);

