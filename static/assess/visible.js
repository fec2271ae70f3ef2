/* Focal assessment screen: the parts of a selection a person can see. A selection made with
 * the keyboard (or by a script) can run through parts the page hides (a display profile's
 * folded front matter or metadata): its range still spans their text nodes, so their text
 * would be stored as relevant although nobody read it. A highlight keeps only the pieces of
 * its range that are rendered.
 */
import { index } from "./text-index.js";

// Whether the element holding a text node is rendered (display: none leaves it no boxes).
function rendered(node, seen) {
  const el = node.parentElement;
  if (!el) return false;
  if (!seen.has(el)) seen.set(el, el.getClientRects().length > 0);
  return seen.get(el);
}

/** The rendered pieces of [start, end) (code points), in order, touching pieces joined. */
export function visibleParts(start, end) {
  const parts = [];
  const seen = new Map();
  for (let i = 0; i < index.nodes.length; i += 1) {
    const node = index.nodes[i];
    const from = index.toCodePoint(index.starts[i]);
    const to = index.toCodePoint(index.starts[i] + node.data.length);
    if (to <= start) continue;
    if (from >= end) break;
    if (!rendered(node, seen)) continue;
    const s = Math.max(from, start);
    const e = Math.min(to, end);
    const last = parts[parts.length - 1];
    if (last && last[1] === s) last[1] = e;
    else parts.push([s, e]);
  }
  return parts;
}
