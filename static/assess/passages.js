/* Focal assessment screen: passages as the server keeps them, and what an operation does to a
 * judgement, so a queued operation shows before the server answers.
 *
 * The merge rule is H-Rule ATOM (spec section 4): passages are sorted, disjoint, non-empty
 * [start, end) pairs, and overlapping or touching ones merge into one. The server's one
 * implementation is evaluation.formats.records.merge_passages (assessor/judging/spans.py
 * builds on it); tests/static/test_passages_js.py runs this module under node on a table of
 * cases and checks that it answers as the Python functions do.
 *
 * Pure functions, no DOM: node imports this module as it is.
 */

/** `passages` sorted, empty ones dropped, overlapping or touching ones merged (ATOM). */
export function mergePassages(passages) {
  const merged = [];
  const sorted = passages.filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const [s, e] of sorted) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

/** The passages with [start, end) highlighted as well. */
export function addPassage(passages, start, end) {
  return mergePassages([...passages, [start, end]]);
}

/** The passages with [start, end) no longer highlighted: a cut passage is split. */
export function removePassage(passages, start, end) {
  const result = [];
  for (const [s, e] of passages) {
    if (e <= start || s >= end) result.push([s, e]);
    else {
      if (s < start) result.push([s, start]);
      if (e > end) result.push([end, e]);
    }
  }
  return mergePassages(result);
}

/** `passages` without any of the text of `others`. */
export function subtract(passages, others) {
  return others.reduce((rest, [s, e]) => removePassage(rest, s, e), passages);
}

/** What `state` will be once the server has applied `op` (the server is the authority; this
 * only lets the page show a queued operation before the answer arrives). */
export function applyLocally(state, op) {
  const next = { ...state, passages: state.passages.map((p) => [...p]) };
  if (op.op === "highlight") {
    next.passages = addPassage(next.passages, op.start, op.end);
    next.status = "relevant";
    next.finished = false;
  } else if (op.op === "unhighlight") {
    next.passages = removePassage(next.passages, op.start, op.end);
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
