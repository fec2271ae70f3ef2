/* Focal assessment screen: keys and buttons: one table of single-key actions (the ? dialog lists
 * them) and the buttons' data-action names.
 */
import {
  goTo,
  goWhenSaved,
  highlightRange,
  markNonRelevantAndGoNext,
  redo,
  setBep,
  undo,
} from "./actions.js";
import { goNext } from "./done.js";
import { setHighlight } from "./highlights.js";
import { moveSelection, selectionByKeyboard } from "./keyboard-selection.js";
import { toggleKeywords } from "./keywords.js";
import { config } from "./page.js";
import { bepToShow } from "./paint.js";
import { localState, showSaveState } from "./queue.js";
import { focusPassage, highlightOffered, offerKind, removeOffered } from "./selection-bar.js";
import { caretOffset } from "./selection.js";
import { index } from "./text-index.js";

const helpEl = document.getElementById("help");
let showRuns = false;

function toggleRuns(force) {
  showRuns = force ?? !showRuns;
  setHighlight("focal-run", showRuns ? config.runPassages || [] : [], 1);
  const box = document.getElementById("toggle-runs");
  if (box) box.checked = showRuns;
}

const KEYS = {
  j: goNext,
  n: goNext,
  k: () => goTo(config.prevUrl),
  p: () => goTo(config.prevUrl),
  x: markNonRelevantAndGoNext,
  u: undo,
  r: () => toggleRuns(),
  w: () => toggleKeywords(),
  e: () => goWhenSaved(config.twoPhaseUrl),
  h: () => highlightSelection(false),
  t: () => toggleTopic(),
  b: () => {
    const offset = caretOffset(window.getSelection());
    const bep = bepToShow(localState());
    if (offset !== null) setBep(offset);
    else if (bep) setBep(bep.offset);
  },
  Delete: () => removeOffered(),
  Backspace: () => removeOffered(),
  "?": () => (helpEl?.open ? helpEl.close() : helpEl?.showModal()),
};

// h highlights the selection grown to whole words, as a mouse selection is; Alt+h highlights
// exactly the characters selected (docs/assessing.md, "Keys").
function highlightSelection(exact) {
  // A touch selection (offered by the selection bar) is highlighted grown to words.
  if (!exact && !selectionByKeyboard() && offerKind() === "highlight") {
    highlightOffered();
    return;
  }
  const selection = window.getSelection();
  if (!selection?.rangeCount || selection.isCollapsed) {
    showSaveState("refused", "select relevant text first, then press h");
    return;
  }
  const done = highlightRange(selection.getRangeAt(0), exact);
  if (done) {
    // Keep a caret at the passage's end, so that the next one can be selected from there.
    const end = index.rangeOf(done.end, done.end);
    selection.collapse(end.endContainer, end.endOffset);
  }
}

// The topic (title, description, narrative) one key away on every article: t opens the fold
// beside the text and brings it into view, or folds it again.
function toggleTopic() {
  const fold = document.getElementById("topic-fold");
  if (!fold) return;
  fold.open = !fold.open;
  if (fold.open) fold.scrollIntoView({ block: "nearest" });
}

// Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z (or Ctrl+Y) redoes: the keys of every editor.
function undoKey(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (key === "z") return event.shiftKey ? redo : undo;
  if (key === "y" && !event.shiftKey) return redo;
  return null;
}

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (target.closest?.("input, textarea, select, [contenteditable]")) return;
  const undoing = undoKey(event);
  if (undoing) {
    event.preventDefault();
    undoing();
    return;
  }
  // Escape drops the selected passage; the help dialog still closes on it by itself.
  if (event.key === "Escape") focusPassage(null);
  if (moveSelection(event)) {
    event.preventDefault();
    return;
  }
  // Alt+h by the key's place, whatever character the layout gives it with Alt.
  if (event.altKey && event.code === "KeyH" && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    highlightSelection(true);
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
  if (action === "nonrelevant") markNonRelevantAndGoNext();
  else if (action === "next") goNext();
  else if (action === "undo") undo();
  else if (action === "redo") redo();
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

// "Highlight selection" is enabled while text of the article is selected.
const highlightButton = document.getElementById("highlight-button");
document.addEventListener("selectionchange", () => {
  if (!highlightButton) return;
  const selection = window.getSelection();
  const docEl = document.getElementById("document");
  highlightButton.disabled = !(
    selection?.rangeCount && !selection.isCollapsed && docEl?.contains(selection.anchorNode)
  );
});

document.getElementById("toggle-runs")?.addEventListener("change", (event) => {
  toggleRuns(event.target.checked);
});

