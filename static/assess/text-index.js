/* Focal assessment screen: the article's text as the server counts it: code-point offsets over the
 * text nodes of #document, mapped to and from DOM positions (UTF-16 units). Architecture, "The
 * assessment screen": offsets are computed over the text nodes, never over rendered text.
 */
import { docEl } from "./page.js";

// Index of the first element of sorted `values` that is >= `x` (or > x with `strict`).
function lowerBound(values, x, strict = false) {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < x || (strict && values[mid] === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// One pass over the text nodes of #document: prefix sums in UTF-16 units (what DOM offsets
// count) and the positions of surrogate pairs (what makes UTF-16 differ from code points).
class TextIndex {
  constructor(root) {
    this.nodes = [];
    this.starts = [];
    const parts = [];
    let total = 0;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      this.nodes.push(node);
      this.starts.push(total);
      parts.push(node.data);
      total += node.data.length;
    }
    this.text = parts.join("");
    this.length = total;
    this.position = new Map(this.nodes.map((node, i) => [node, i]));
    this.pairUnits = []; // UTF-16 index of each high surrogate that starts a pair
    this.pairCodePoints = []; // the code-point offset of the same character
    for (const match of this.text.matchAll(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)) {
      this.pairCodePoints.push(match.index - this.pairUnits.length);
      this.pairUnits.push(match.index);
    }
    this.codePointLength = total - this.pairUnits.length;
  }

  toCodePoint(units) {
    // Every pair that ends at or before `units` counts one unit more than one code point.
    return units - lowerBound(this.pairUnits, units - 1);
  }

  toUnits(codePoint) {
    return codePoint + lowerBound(this.pairCodePoints, codePoint);
  }

  // The DOM position (text node, offset) of a UTF-16 offset into the text.
  locate(units) {
    if (this.nodes.length === 0) return { node: docEl, offset: 0 };
    const i = Math.max(0, lowerBound(this.starts, units, true) - 1);
    const node = this.nodes[i];
    return { node, offset: Math.min(units - this.starts[i], node.data.length) };
  }

  // UTF-16 offset of a DOM boundary point (container, offset), clamped to #document.
  unitsAt(container, offset) {
    if (container !== docEl && !docEl.contains(container)) {
      const before = container.compareDocumentPosition(docEl) & Node.DOCUMENT_POSITION_FOLLOWING;
      return before ? 0 : this.length;
    }
    if (container.nodeType === Node.TEXT_NODE) {
      const i = this.position.get(container);
      return i === undefined ? 0 : this.starts[i] + offset;
    }
    // An element boundary: the point sits before child `offset`, i.e. at the first text node
    // that follows in document order (inside that child or after it).
    const walker = document.createTreeWalker(docEl, NodeFilter.SHOW_TEXT);
    let next;
    if (offset < container.childNodes.length) {
      const child = container.childNodes[offset];
      if (child.nodeType === Node.TEXT_NODE) next = child;
      else {
        walker.currentNode = child;
        next = walker.nextNode();
      }
    } else {
      let last = container;
      while (last.lastChild) last = last.lastChild;
      walker.currentNode = last;
      next = walker.nextNode();
    }
    const i = next ? this.position.get(next) : undefined;
    return i === undefined ? this.length : this.starts[i];
  }

  // {start, end, exact} in code points for a DOM Range, or null when it holds no text.
  offsetsOf(range) {
    if (!range.intersectsNode(docEl)) return null;
    const startUnits = this.unitsAt(range.startContainer, range.startOffset);
    const endUnits = this.unitsAt(range.endContainer, range.endOffset);
    const start = this.toCodePoint(startUnits);
    const end = this.toCodePoint(endUnits);
    if (end <= start) return null;
    return { start, end, exact: this.slice(start, end) };
  }

  slice(start, end) {
    return this.text.slice(this.toUnits(start), this.toUnits(end));
  }

  rangeOf(start, end) {
    const from = this.locate(this.toUnits(start));
    const to = this.locate(this.toUnits(end));
    const range = new Range();
    range.setStart(from.node, from.offset);
    range.setEnd(to.node, to.offset);
    return range;
  }
}

/** The article's text index, built once: the page never changes the DOM inside #document. */
export const index = new TextIndex(docEl);

/** The text offset (code points) under a viewport point, or null outside the text. */
export function offsetAtPoint(x, y) {
  const range = document.caretRangeFromPoint?.(x, y);
  if (!range || !docEl.contains(range.startContainer)) return null;
  return index.toCodePoint(index.unitsAt(range.startContainer, range.startOffset));
}
