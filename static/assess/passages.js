/* Focal assessment screen: passages as the server keeps them (ATOM: sorted, disjoint, touching
 * ones merged), and what an operation does to a judgement, so a queued operation shows before the
 * server answers.
 */
"use strict";

(() => {
  const F = window.FocalAssess;
  if (!F) return;

  /* ---------------------------------------------------------------- passages (ATOM) */

  // Passages are sorted, disjoint [start, end) pairs; overlapping or touching ones merge.
  function addPassage(passages, start, end) {
    const result = [];
    for (const [s, e] of passages) {
      if (e < start || s > end) result.push([s, e]);
      else {
        start = Math.min(start, s);
        end = Math.max(end, e);
      }
    }
    result.push([start, end]);
    return result.sort((a, b) => a[0] - b[0]);
  }

  function removePassage(passages, start, end) {
    const result = [];
    for (const [s, e] of passages) {
      if (e <= start || s >= end) result.push([s, e]);
      else {
        if (s < start) result.push([s, start]);
        if (e > end) result.push([end, e]);
      }
    }
    return result;
  }

  function addAll(passages) {
    return passages.reduce((merged, [s, e]) => addPassage(merged, s, e), []);
  }

  function subtract(passages, others) {
    return others.reduce((rest, [s, e]) => removePassage(rest, s, e), passages);
  }

  // What our state will be once the server has applied `op` (the server is the authority; this
  // only lets the page show a queued operation before the answer arrives).
  function applyLocally(state, op) {
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
      next.passages = addAll(op.passages);
      next.bep = op.bep ?? null;
      next.finished = Boolean(op.finished);
    }
    return next;
  }

  Object.assign(F, { addPassage, removePassage, addAll, subtract, applyLocally });
})();
