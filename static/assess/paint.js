/* Focal assessment screen: painting the judgement with the CSS Custom Highlight API (the DOM
 * inside #document is never changed), and the best entry point's marker beside the text.
 */
import { setHighlight } from "./highlights.js";
import { placeGrips } from "./grips.js";
import { updatePanel } from "./panel.js";
import { renderPassageList } from "./passage-list.js";
import { subtract } from "./passages.js";
import { localState, serverState } from "./queue.js";
import { refreshOffer } from "./selection-bar.js";
import { index } from "./text-index.js";
import { wrapEl } from "./page.js";

/** Where the best entry point is shown: the stored one, else the suggested start of the first
 * passage (accepted with b), else nowhere. */
export function bepToShow(state) {
  if (state.bep !== null) return { offset: state.bep, suggested: false };
  if (state.passages.length > 0) return { offset: state.passages[0][0], suggested: true };
  return null;
}

/** Paints what the page shows of the judgement: our state as it will be once saved. */
export function paint() {
  const state = localState();
  const pending = subtract(state.passages, serverState().passages);
  setHighlight("focal-passage", state.passages, 3);
  setHighlight("focal-pending", pending, 4);
  const bep = bepToShow(state);
  const bepEnd = bep ? Math.min(bep.offset + 1, index.codePointLength) : 0;
  setHighlight("focal-bep", bep && !bep.suggested ? [[bep.offset, bepEnd]] : [], 5);
  placeBepMarker(bep);
  updatePanel(state, bep);
  renderPassageList(state);
  placeGrips();
  refreshOffer();
}

const markerEl = document.getElementById("bep-marker");

// The BEP is a point, which a highlight cannot show: a marker outside #document (so it adds
// no text) is positioned over it instead.
export function placeBepMarker(bep) {
  if (!markerEl || !wrapEl) return;
  if (!bep || index.nodes.length === 0) {
    markerEl.hidden = true;
    return;
  }
  const range = index.rangeOf(bep.offset, bep.offset);
  const rect = range.getClientRects()[0] || range.getBoundingClientRect();
  const origin = wrapEl.getBoundingClientRect();
  markerEl.hidden = false;
  markerEl.classList.toggle("suggested", bep.suggested);
  markerEl.title = bep.suggested
    ? "suggested best entry point (press b to accept)"
    : "best entry point";
  markerEl.style.left = `${rect.left - origin.left}px`;
  markerEl.style.top = `${rect.top - origin.top}px`;
  markerEl.style.height = `${Math.max(rect.height, 12)}px`;
}

