/* Focal assessment screen: painting spans of the text with the CSS Custom Highlight API, so
 * that the DOM inside #document is never changed. Each layer (passages, pending, BEP, keywords,
 * runs, a grip's preview) is one named highlight; focal.css gives each its colour.
 */
import { index } from "./text-index.js";

/** False in a browser without the CSS Custom Highlight API: nothing can be painted there. */
export const canHighlight = typeof Highlight === "function" && CSS.highlights !== undefined;

/** Paints `passages` ([start, end) code points) as highlight `name`, replacing what it showed. */
export function setHighlight(name, passages, priority) {
  if (!canHighlight) return;
  const ranges = passages.filter(([s, e]) => e > s).map(([s, e]) => index.rangeOf(s, e));
  const highlight = new Highlight(...ranges);
  highlight.priority = priority;
  CSS.highlights.set(name, highlight);
}
