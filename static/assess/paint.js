/* Focal assessment screen: painting the judgement with the CSS Custom Highlight API (the DOM
 * inside #document is never changed), and the best entry point's marker beside the text.
 */
"use strict";

(() => {
  const F = window.FocalAssess;
  if (!F) return;
  const { index, wrapEl } = F;

  /* ---------------------------------------------------------------- painting */

  const canHighlight = typeof Highlight === "function" && CSS.highlights !== undefined;

  function setHighlight(name, passages, priority) {
    if (!canHighlight) return;
    const ranges = passages.filter(([s, e]) => e > s).map(([s, e]) => index.rangeOf(s, e));
    const highlight = new Highlight(...ranges);
    highlight.priority = priority;
    CSS.highlights.set(name, highlight);
  }

  // A keyword matches whole words, case-insensitively ("art" is not found in "party"); a

  function bepToShow(state) {
    if (state.bep !== null) return { offset: state.bep, suggested: false };
    if (state.passages.length > 0) return { offset: state.passages[0][0], suggested: true };
    return null;
  }

  function paint() {
    const state = F.localState();
    const pending = F.subtract(state.passages, F.serverState().passages);
    setHighlight("focal-passage", state.passages, 3);
    setHighlight("focal-pending", pending, 4);
    const bep = bepToShow(state);
    const bepEnd = bep ? Math.min(bep.offset + 1, index.codePointLength) : 0;
    setHighlight("focal-bep", bep && !bep.suggested ? [[bep.offset, bepEnd]] : [], 5);
    placeBepMarker(bep);
    F.updatePanel(state, bep);
    F.renderPassageList?.(state);
    F.placeGrips?.();
    F.refreshOffer?.();
  }

  const markerEl = document.getElementById("bep-marker");

  // The BEP is a point, which a highlight cannot show: a marker outside #document (so it adds
  // no text) is positioned over it instead.
  function placeBepMarker(bep) {
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

  Object.assign(F, { canHighlight, setHighlight, bepToShow, paint, placeBepMarker });
})();
