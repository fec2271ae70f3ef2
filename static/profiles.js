// Display profiles (docs/profiles.md): the fold control. Parts a profile folds away (front
// matter, header metadata) are hidden by profiles.css until #document has `pf-unfolded`; this
// adds one button above the text (outside #document, so its words are never part of the text
// or of a selection) that toggles it, and remembers the choice for the next article. A page
// whose stored judgement (a passage or the best entry point) touches a folded part opens
// unfolded, so that nothing judged is hidden.
const KEY = "focal-unfolded";

// True when a passage or the best entry point of the page's stored state (code points, as in
// #focal-config) shares a character with the text of a folded element.
function judgedInFolded(docEl) {
  let state;
  try {
    state = JSON.parse(document.getElementById("focal-config").textContent).state || {};
  } catch {
    return false;
  }
  const spans = (state.passages || []).slice();
  if (typeof state.bep === "number") spans.push([state.bep, state.bep + 1]);
  if (spans.length === 0) return false;
  const hidden = [];
  let offset = 0;
  const walker = document.createTreeWalker(docEl, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const length = [...node.data].length;
    if (node.parentElement.closest(".pf-folded, .pf-metadata")) {
      hidden.push([offset, offset + length]);
    }
    offset += length;
  }
  return spans.some(([s, e]) => hidden.some(([a, b]) => Math.max(s, a) < Math.min(e, b)));
}

function setUp() {
  const docEl = document.getElementById("document");
  if (!docEl || docEl.dataset.foldReady) return;
  const folded = docEl.querySelectorAll(".pf-folded, .pf-metadata");
  if (folded.length === 0) return;
  docEl.dataset.foldReady = "1";
  const labels = [...new Set([...folded].map((el) => el.dataset.fold || "folded parts"))];
  const what = labels.join(", ");
  const button = document.createElement("button");
  button.type = "button";
  button.id = "fold-toggle";
  button.className = "pf-fold-control";
  button.setAttribute("aria-controls", "document");
  const show = (open) => {
    docEl.classList.toggle("pf-unfolded", open);
    button.setAttribute("aria-expanded", String(open));
    button.textContent = `${open ? "Hide" : "Show"} ${what}`;
  };
  let stored;
  try {
    stored = window.localStorage.getItem(KEY);
  } catch {
    stored = null; // storage switched off: start folded
  }
  show(stored === "1" || judgedInFolded(docEl));
  button.addEventListener("click", () => {
    const open = !docEl.classList.contains("pf-unfolded");
    show(open);
    try {
      window.localStorage.setItem(KEY, open ? "1" : "0");
    } catch {
      // the choice is then not remembered
    }
  });
  docEl.before(button);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
else setUp();
// htmx swaps the article screen in place: set the control up for the new article too.
document.addEventListener("htmx:afterSettle", setUp);
