/* Focal assessment screen: keys and buttons: one table of single-key actions (the ? dialog lists
 * them) and the buttons' data-action names.
 */
"use strict";

(() => {
  const F = window.FocalAssess;
  if (!F) return;
  const { config } = F;

  const helpEl = document.getElementById("help");
  let showRuns = false;

  function toggleRuns(force) {
    showRuns = force ?? !showRuns;
    F.setHighlight("focal-run", showRuns ? config.runPassages || [] : [], 1);
    const box = document.getElementById("toggle-runs");
    if (box) box.checked = showRuns;
  }

  const KEYS = {
    j: F.goNext,
    n: F.goNext,
    k: () => F.goTo(config.prevUrl),
    p: () => F.goTo(config.prevUrl),
    x: F.markNonRelevantAndGoNext,
    u: F.undo,
    r: () => toggleRuns(),
    w: () => F.toggleKeywords(),
    e: () => F.goWhenSaved(config.twoPhaseUrl),
    h: () => {
      // A touch selection (offered by the selection bar) is highlighted grown to words.
      if (!F.selectionByKeyboard() && F.offerKind() === "highlight") {
        F.highlightOffered();
        return;
      }
      const selection = window.getSelection();
      if (selection?.rangeCount && F.highlightRange(selection.getRangeAt(0))) {
        // Keep a caret at the end, so that the next passage can be selected from there.
        selection.collapseToEnd();
      }
    },
    b: () => {
      const offset = F.caretOffset(window.getSelection());
      const bep = F.bepToShow(F.localState());
      if (offset !== null) F.setBep(offset);
      else if (bep) F.setBep(bep.offset);
    },
    Delete: () => F.removeOffered(),
    Backspace: () => F.removeOffered(),
    "?": () => (helpEl?.open ? helpEl.close() : helpEl?.showModal()),
  };

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target.closest?.("input, textarea, select, [contenteditable]")) return;
    // Escape drops the selected passage; the help dialog still closes on it by itself.
    if (event.key === "Escape") F.focusPassage(null);
    if (F.moveSelection(event)) {
      event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const handler = KEYS[event.key];
    if (!handler) return;
    event.preventDefault();
    handler();
  });

  // Buttons in the page name their action with data-action (and work without a keyboard).
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-action]");
    if (!button) return;
    const action = button.dataset.action;
    if (action === "nonrelevant") F.markNonRelevantAndGoNext();
    else if (action === "next") F.goNext();
    else if (action === "undo") F.undo();
    else if (action === "bep") KEYS.b();
    else if (action === "highlight") KEYS.h();
    else if (action === "help") KEYS["?"]();
    else if (action === "twophase") KEYS.e();
    else return;
    event.preventDefault();
  });

  // A press on "highlight" keeps the selection it is about to highlight.
  document.addEventListener("mousedown", (event) => {
    if (event.target.closest?.('[data-action="highlight"]')) event.preventDefault();
  });

  document.getElementById("toggle-runs")?.addEventListener("change", (event) => {
    toggleRuns(event.target.checked);
  });

  Object.assign(F, { KEYS, toggleRuns });
})();
