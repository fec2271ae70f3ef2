/* Focal assessment screen: the judgement panel: status, passages, and where the best entry point
 * is in words.
 */
import { index } from "./text-index.js";

const STATUS_LABELS = {
  unjudged: "not judged yet",
  relevant: "relevant",
  nonrelevant: "not relevant",
  not_relevant: "not relevant",
};

// Where a point of the text is, in words: the element path of the element around it
// (data-path, rendering.py), without the root element, body steps and inline markup, named
// ("section 2, paragraph 3"); an assessor reads this, never a character offset.
const STEP_NAMES = {
  sec: "section", ss: "subsection", ss1: "subsection", ss2: "subsection", ss3: "subsection",
  p: "paragraph", ip: "paragraph", ip1: "paragraph", para: "paragraph", title: "title",
  st: "heading", "article-title": "title", abstract: "abstract", fm: "front matter",
  bm: "back matter", list: "list", item: "item", "list-item": "item", table: "table",
  caption: "caption", fig: "figure", act: "act", scene: "scene", speech: "speech",
  line: "line", text: "text", label: "label", "boxed-text": "box",
};
const SKIPPED = new Set(["article", "bdy", "body", "front", "back", "it", "i", "b", "em",
  "sup", "sub", "xref", "italic", "bold", "u", "ref", "collectionlink", "unknownlink",
  "emph2", "emph3", "emph4", "emph5", "wikipedialink", "weblink", "outsidelink"]);

export function describePoint(offset) {
  if (index.nodes.length === 0) return "start of the text";
  const { node } = index.locate(index.toUnits(offset));
  const element = (node.nodeType === Node.TEXT_NODE ? node.parentElement : node)
    ?.closest("[data-path]");
  const steps = (element?.dataset.path || "")
    .split("/")
    .slice(2) // the root element is the whole document
    .map((step) => step.match(/^([^[]+)\[(\d+)\]$/))
    .filter((match) => match && !SKIPPED.has(match[1]))
    // A section inside a section is a subsection: "section 2, subsection 1", never
    // "section 2, section 1", which reads as the same place said twice.
    .map(([, name, n], i, all) => {
      const nested = name === "sec" && all.slice(0, i).some(([, outer]) => outer === "sec");
      return `${nested ? "subsection" : STEP_NAMES[name] || name} ${n}`;
    });
  return steps.length ? steps.join(", ") : "start of the text";
}

export function updatePanel(state, bep) {
  const set = (id, text) => {
    const el = document.getElementById(id);
    if (el) el.textContent = text;
  };
  const status = STATUS_LABELS[state.status] || state.status;
  set("status-text", status);
  const chars = state.passages.reduce((sum, [s, e]) => sum + e - s, 0);
  set("passage-count", `${state.passages.length} passage(s), ${chars} characters`);
  const where = bep ? `${describePoint(bep.offset)}${bep.suggested ? " (suggested)" : ""}` : "none";
  set("bep-text", where);
  // The action bar's summary (shown on a phone, where the panel is below the article).
  set("bar-status", status);
  set("bar-passages", String(state.passages.length));
  set("bar-bep", where);
  document.body.dataset.status = state.status;
}

// The name of an element path's step ("sec": "section").
export function stepName(name) {
  return STEP_NAMES[name] || name;
}

