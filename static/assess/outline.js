/* Focal assessment screen: the document outline beside the text. The article's sections
 * (from the element paths, data-path) named by their heading's words, or as "act 2" when
 * they have none; a click scrolls there. Built once, from at most a few hundred sections, so
 * it stays usable for a play of 200,000 characters.
 */
import { docEl } from "./page.js";
import { stepName } from "./panel.js";

const sectionEl = document.getElementById("outline-section");
const listEl = document.getElementById("outline");
const SECTIONS = new Set(["sec", "ss", "ss1", "ss2", "ss3", "section", "subsection", "act",
  "scene", "prologue", "epilogue", "chapter", "abstract", "app", "boxed-text", "induct",
  "ref-list", "ack", "glossary"]);
const NAMES = { "ref-list": "references", ack: "acknowledgements", glossary: "glossary" };
const HEADINGS = new Set(["title", "st", "atl", "article-title", "head", "heading"]);
const LIMIT = 400;

const step = (element) => element.dataset.path.split("/").pop().match(/^([^[]+)\[(\d+)\]$/);

function heading(section) {
  for (const child of section.children) {
    const match = child.dataset?.path ? step(child) : null;
    if (match && HEADINGS.has(match[1])) {
      const text = child.textContent.replace(/\s+/g, " ").trim();
      if (text) return text.length > 80 ? `${text.slice(0, 80)} …` : text;
    }
  }
  return null;
}

function build() {
  if (!listEl || !sectionEl) return;
  const items = [];
  for (const element of docEl.querySelectorAll("[data-path]")) {
    const match = step(element);
    if (!match || !SECTIONS.has(match[1])) continue;
    let depth = 0;
    for (let up = element.parentElement; up && up !== docEl; up = up.parentElement) {
      const outer = up.dataset?.path ? step(up) : null;
      if (outer && SECTIONS.has(outer[1])) depth += 1;
    }
    const name = `${NAMES[match[1]] || stepName(match[1])} ${match[2]}`;
    const title = heading(element);
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = `outline-go depth-${Math.min(depth, 3)}`;
    button.textContent = title ? `${name}: ${title}` : name;
    button.addEventListener("click", () => element.scrollIntoView({ block: "start" }));
    li.append(button);
    items.push(li);
    if (items.length >= LIMIT) break;
  }
  listEl.replaceChildren(...items);
  sectionEl.hidden = items.length === 0;
}

build();
