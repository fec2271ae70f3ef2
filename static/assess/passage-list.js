/* Focal assessment screen: the passage list beside the text. Every passage of the article
 * on one line: its first words, its length in characters (code points, as stored; "ch"), and
 * where it starts ("section 2, paragraph 3") as the line's tooltip; a click on it
 * scrolls to the passage and selects it, "Remove" removes it (one action, undone with u).
 * Chosen with the keyboard, it also takes the focus to the passage's start grip, whose ← and →
 * move that end (grips.js); Tab goes on to the end grip.
 */
import { unhighlight } from "./actions.js";
import { config } from "./page.js";
import { describePoint } from "./panel.js";
import { focusPassage } from "./selection-bar.js";
import { index } from "./text-index.js";

const listEl = document.getElementById("passage-list");
const emptyEl = document.getElementById("passage-list-empty");
const FIRST_WORDS = 8;
let shown = "";

function firstWords(start, end) {
  const text = index.slice(start, Math.min(end, start + 300)).trim();
  const words = text.split(/\s+/);
  const cut = words.length > FIRST_WORDS || end - start > 300;
  return `${words.slice(0, FIRST_WORDS).join(" ")}${cut ? " …" : ""}`;
}

function goToPassage(passage, byKeyboard) {
  const { node } = index.locate(index.toUnits(passage[0]));
  const element = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
  element?.scrollIntoView({ block: "center" });
  focusPassage(passage, true);
  const grip = document.getElementById("grip-start");
  if (byKeyboard && config.opsUrl && grip && !grip.hidden) grip.focus();
}

// One line per passage: its first words (cut with an ellipsis by CSS), its length and a ×
// that removes it; where it starts ("section 2, paragraph 3") is the line's tooltip.
function item(passage, number) {
  const [start, end] = passage;
  const li = document.createElement("li");
  const where = describePoint(start);
  li.title = `${where}: ${end - start} characters`;
  const go = document.createElement("button");
  go.type = "button";
  go.className = "passage-go";
  go.textContent = firstWords(start, end);
  // The name begins with the words shown (WCAG 2.5.3: a voice command says what it sees).
  go.setAttribute("aria-label", `${go.textContent} (passage ${number}, ${where}): select it`);
  // A click from the keyboard (Enter, Space) has no pointer position: detail is 0.
  go.addEventListener("click", (event) => goToPassage(passage, event.detail === 0));
  const length = document.createElement("span");
  length.className = "passage-length";
  length.textContent = `${end - start} ch`;
  li.append(go, length);
  if (config.opsUrl) {
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "passage-remove";
    remove.textContent = "×";
    remove.title = "remove this passage (undo with u)";
    remove.setAttribute("aria-label", `Remove passage ${number}`);
    remove.addEventListener("click", () => unhighlight(passage));
    li.append(remove);
  }
  return li;
}

export function renderPassageList(state) {
  if (!listEl) return;
  const key = JSON.stringify(state.passages);
  if (key === shown) return;
  shown = key;
  listEl.replaceChildren(...state.passages.map((passage, i) => item(passage, i + 1)));
  if (emptyEl) emptyEl.hidden = state.passages.length > 0;
}

