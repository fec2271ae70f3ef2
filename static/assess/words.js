/* Focal assessment screen: word snapping. A selection made with the mouse or by touch grows to
 * whole words, so that a highlight never starts or ends inside a word by accident (with Alt
 * held a mouse selection keeps its exact characters). Only the ends that fall inside a word
 * move; offsets stay exact code points (the snapping walks the UTF-16 text a code point at a
 * time, so a surrogate pair is never split). A word never runs from one block into the next.
 */
import { docEl } from "./page.js";
import { index } from "./text-index.js";

// The word characters of the keyword marks: letters, digits and marks of any script.
const WORD = /^[\p{L}\p{N}\p{M}_'’]$/u;

// The code point that ends just before UTF-16 unit `units` (null at the start).
function before(units) {
  if (units <= 0) return null;
  const low = index.text.charCodeAt(units - 1);
  const pair = low >= 0xdc00 && low <= 0xdfff && units >= 2;
  return pair ? index.text.slice(units - 2, units) : index.text[units - 1];
}

// The code point that starts at UTF-16 unit `units` (null at the end).
function after(units) {
  if (units >= index.length) return null;
  return String.fromCodePoint(index.text.codePointAt(units));
}

const isWord = (char) => char !== null && WORD.test(char);

// The block (not inline) element that holds a text node, or #document.
function blockOf(node) {
  let el = node.parentElement;
  while (el && el !== docEl && getComputedStyle(el).display.startsWith("inline")) {
    el = el.parentElement;
  }
  return el;
}

// Whether UTF-16 unit `units` is where one block's text ends and another's begins: a title
// and the paragraph after it hold different words even with no space between them in the text.
function blockBreak(units) {
  const next = index.starts.findIndex((s, k) => s === units && index.nodes[k].data.length > 0);
  let previous = next - 1;
  while (previous >= 0 && index.nodes[previous].data.length === 0) previous -= 1;
  if (next < 0 || previous < 0) return false;
  return blockOf(index.nodes[previous]) !== blockOf(index.nodes[next]);
}

// A boundary inside a word moves back to the word's start.
function wordStart(units) {
  if (!isWord(after(units))) return units;
  while (isWord(before(units)) && !blockBreak(units)) units -= before(units).length;
  return units;
}

// A boundary inside a word moves on to the word's end.
function wordEnd(units) {
  if (!isWord(before(units))) return units;
  while (isWord(after(units)) && !blockBreak(units)) units += after(units).length;
  return units;
}

// {start, end, exact} (code points) grown to whole words.
export function snapToWords({ start, end }) {
  const s = index.toCodePoint(wordStart(index.toUnits(start)));
  const e = index.toCodePoint(wordEnd(index.toUnits(end)));
  return { start: s, end: e, exact: index.slice(s, e) };
}

// One boundary (a code point offset) snapped as the start or the end of a passage.
export function snapBoundary(offset, asStart) {
  const units = index.toUnits(offset);
  return index.toCodePoint(asStart ? wordStart(units) : wordEnd(units));
}


// The code point one word boundary away from `offset` in `direction` (+1 or -1): a passage's
// start moves to the start of a word, its end to the end of one (a grip moved with ← and →).
export function nextBoundary(offset, direction, asStart) {
  let units = index.toUnits(offset);
  const step = () => {
    const char = direction > 0 ? after(units) : before(units);
    if (char === null) return false;
    units += direction * char.length;
    return true;
  };
  // Forward to a start: over the rest of this word, then up to the next word. Forward to an
  // end: up to the next word, then over it. Backwards likewise, mirrored.
  const look = () => (direction > 0 ? after(units) : before(units));
  const firstWord = asStart === direction > 0;
  if (firstWord) {
    while (isWord(look()) && step());
    while (look() !== null && !isWord(look()) && step());
  } else {
    while (look() !== null && !isWord(look()) && step());
    while (isWord(look()) && step());
  }
  return index.toCodePoint(units);
}
