/* Focal assessment screen: keyword marks: whole words (a trailing * for word beginnings), painted
 * as a highlight.
 */
import { setHighlight } from "./highlights.js";
import { config } from "./page.js";
import { index } from "./text-index.js";


// A keyword matches whole words, case-insensitively ("art" is not found in "party"); a
// keyword ending in * matches the beginnings of words ("art*": "art", "artist"). Letters,
// digits and marks of any script count as word characters.
const WORD = "[\\p{L}\\p{N}\\p{M}_]";

function keywordPattern(keyword) {
  const prefix = keyword.endsWith("*");
  const word = (prefix ? keyword.slice(0, -1) : keyword).trim();
  if (!word) return null;
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
  return new RegExp(`(?<!${WORD})${escaped}${prefix ? "" : `(?!${WORD})`}`, "giu");
}

function keywordPassages() {
  const found = [];
  for (const keyword of keywords) {
    const pattern = keywordPattern(keyword);
    if (!pattern) continue;
    for (const match of index.text.matchAll(pattern)) {
      const at = match.index;
      found.push([index.toCodePoint(at), index.toCodePoint(at + match[0].length)]);
    }
  }
  return found;
}

// The topic's keywords: the page's, then those of the block htmx swaps in.
let keywords = config.keywords || [];
let showKeywords = localStorage.getItem("focal.keywords-hidden") !== "1";

export function paintKeywords() {
  setHighlight("focal-keyword", showKeywords ? keywordPassages() : [], 2);
  const box = document.getElementById("toggle-keywords");
  if (box) box.checked = showKeywords;
}

export function toggleKeywords(force) {
  showKeywords = force ?? !showKeywords;
  localStorage.setItem("focal.keywords-hidden", showKeywords ? "0" : "1");
  paintKeywords();
}

document.addEventListener("change", (event) => {
  if (event.target.id === "toggle-keywords") toggleKeywords(event.target.checked);
});

// The keyword form is swapped by htmx; the new block carries the keyword list.
document.body.addEventListener("htmx:afterSwap", () => {
  const block = document.getElementById("keywords");
  if (!block?.dataset.keywords) return;
  keywords = JSON.parse(block.dataset.keywords);
  paintKeywords();
});

