/* Focal assessment screen: passages as the server keeps them, and what an operation does to a
 * judgement, so a queued operation shows before the server answers.
 *
 * The merge rule is H-Rule ATOM (spec section 4): passages are sorted, disjoint, non-empty
 * [start, end) pairs, and overlapping or touching ones merge into one; with the text, ends are
 * trimmed of whitespace and gaps of only whitespace and punctuation close (seed 003 §4.2.2). The server's one
 * implementation is focal.evaluation.formats.records.merge_passages (focal/assessor/judging/spans.py
 * builds on it); tests/static/test_passages_js.py runs this module under node on a table of
 * cases and checks that it answers as the Python functions do.
 *
 * Pure functions, no DOM: node imports this module as it is.
 */

// Whitespace and punctuation, as Python reads them (str.isspace, Unicode categories P* and Z*):
// the text of XML holds none of the control characters where the two readings differ.
const SPACE = /^\p{White_Space}$/u;
const NOTHING_BUT_SEPARATORS = /^[\p{White_Space}\p{P}\p{Z}]*$/u;

// [start, end) without the whitespace at its two ends; `text.slice` counts code points.
function trimmed(text, start, end) {
  let s = start;
  let e = end;
  while (s < e && SPACE.test(text.slice(s, s + 1))) s += 1;
  while (e > s && SPACE.test(text.slice(e - 1, e))) e -= 1;
  return [s, e];
}

/** `passages` sorted, empty ones dropped, overlapping or touching ones merged (ATOM).
 *
 * With the article's `text` (anything whose `slice(start, end)` counts code points: the
 * page's text index, or a string of one-unit characters), passages first lose the whitespace
 * at their ends, and with `acrossPunctuation` (the campaign's setting) passages separated
 * only by whitespace and punctuation merge too, as the server's merge_passages does. */
export function mergePassages(passages, text = null, acrossPunctuation = true) {
  const merged = [];
  const kept = text ? passages.map(([s, e]) => trimmed(text, s, e)) : passages;
  const sorted = kept.filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const [s, e] of sorted) {
    const last = merged[merged.length - 1];
    const joined =
      last &&
      (s <= last[1] ||
        (acrossPunctuation && text && NOTHING_BUT_SEPARATORS.test(text.slice(last[1], s))));
    if (joined) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

/** The passages with [start, end) highlighted as well. */
export function addPassage(passages, start, end, text = null, acrossPunctuation = true) {
  return mergePassages([...passages, [start, end]], text, acrossPunctuation);
}

/** The passages with [start, end) no longer highlighted: a cut passage is split. */
export function removePassage(passages, start, end, text = null, acrossPunctuation = true) {
  const result = [];
  for (const [s, e] of passages) {
    if (e <= start || s >= end) result.push([s, e]);
    else {
      if (s < start) result.push([s, start]);
      if (e > end) result.push([end, e]);
    }
  }
  return mergePassages(result, text, acrossPunctuation);
}

/** `passages` without any of the text of `others`. */
export function subtract(passages, others) {
  return others.reduce((rest, [s, e]) => removePassage(rest, s, e), passages);
}

/** What `state` will be once the server has applied `op` (the server is the authority; this
 * only lets the page show a queued operation before the answer arrives). `text` and
 * `acrossPunctuation` as for mergePassages. */
export function applyLocally(state, op, text = null, acrossPunctuation = true) {
  const next = { ...state, passages: state.passages.map((p) => [...p]) };
  if (op.op === "highlight") {
    next.passages = addPassage(next.passages, op.start, op.end, text, acrossPunctuation);
    next.status = "relevant";
    next.finished = false;
  } else if (op.op === "unhighlight") {
    next.passages = removePassage(next.passages, op.start, op.end, text, acrossPunctuation);
    next.finished = false;
    if (next.passages.length === 0) {
      next.status = "unjudged";
      next.bep = null;
    }
  } else if (op.op === "set_bep") {
    next.bep = op.offset;
  } else if (op.op === "mark_nonrelevant") {
    next.passages = [];
    next.bep = null;
    next.status = "nonrelevant";
    next.finished = true;
  } else if (op.op === "finish" && next.status !== "unjudged") {
    if (next.status === "relevant" && next.bep === null) next.bep = next.passages[0][0];
    next.finished = true;
  } else if (op.op === "restore") {
    next.status = op.status;
    next.passages = mergePassages(op.passages);
    next.bep = op.bep ?? null;
    next.finished = Boolean(op.finished);
  }
  return next;
}
