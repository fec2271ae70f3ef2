/* Focal assessment screen: what the assessor does: highlight, unhighlight, best entry point, not
 * relevant, next, undo (undo restores the exact state before the last action).
 */
import { announce, quoted } from "./announce.js";
import { config, saveEl } from "./page.js";
import { enqueue, localState, readQueue, showSaveState, written } from "./queue.js";
import { pump } from "./send.js";
import { index } from "./text-index.js";
import { visibleParts } from "./visible.js";
import { snapToWords } from "./words.js";

// Undo goes back to the exact state before the last action (status, passages, BEP,
// finished) with one `restore` operation. The stack lives in sessionStorage, per topic, so
// that it survives the page changes that x and j make: an action on another article is
// undone there and the page goes back to it. Each entry keeps the text of its passages,
// which the server checks, since that article's text may not be on this page, and what the
// action was in words, which the undo says ("Undid: passage 'lightvessel …' added").
const UNDO_KEY = `focal.undo:${config.poolUrl}`;
const UNDO_LIMIT = 200;

export function readUndo() {
  try {
    return JSON.parse(sessionStorage.getItem(UNDO_KEY)) || [];
  } catch {
    return [];
  }
}

function remember(before, what) {
  if (!config.opsUrl) return;
  const entry = { ...snapshot(before), what };
  sessionStorage.setItem(UNDO_KEY, JSON.stringify([...readUndo(), entry].slice(-UNDO_LIMIT)));
}

// An operation in words: what the page announces ("Passage added: ‘…’") and what an undo
// of it says ("Undid: passage ‘…’ added").
function describe(op) {
  const text = op.exact === undefined ? "" : quoted(op.exact);
  if (op.op === "highlight") return [`Passage added: ${text}`, `passage ${text} added`];
  if (op.op === "unhighlight") {
    return [`Removed from a passage: ${text}`, `text ${text} removed from a passage`];
  }
  if (op.op === "set_bep") return ["Best entry point set", "best entry point set"];
  if (op.op === "mark_nonrelevant") return ["Marked not relevant", "marked not relevant"];
  if (op.op === "finish") return ["Finished (✓)", "finished (✓)"];
  return [op.op, op.op];
}

export function act(op) {
  const [said, what] = describe(op);
  remember(localState(), what);
  forgetRedo();
  announce(said);
  return enqueue(op);
}

// Highlights the selected `range`: grown to whole words as a mouse selection is
// (words.js), or exactly its characters when `exact` (Alt+h).
export function highlightRange(range, exact = false) {
  const offsets = index.offsetsOf(range);
  if (!offsets) {
    showSaveState("refused", "select relevant text first, then press h");
    return null;
  }
  const chosen = exact ? offsets : snapToWords(offsets);
  return highlightOffsets(chosen) ? chosen : null;
}

// Highlights the rendered pieces of `offsets` ({start, end}, code points): text the page
// hides (folded parts) is never stored (visible.js). One action, undone at once.
export function highlightOffsets({ start, end }) {
  // The server refuses a highlight of whitespace only: such pieces are not sent.
  const parts = visibleParts(start, end).filter(([s, e]) => index.slice(s, e).trim() !== "");
  if (parts.length === 0) {
    showSaveState("refused", "the selection holds no visible words: nothing highlighted");
    return false;
  }
  const [said, what] = describe({ op: "highlight", exact: index.slice(parts[0][0], parts.at(-1)[1]) });
  remember(localState(), what);
  forgetRedo();
  announce(said);
  for (const [s, e] of parts) enqueue({ op: "highlight", start: s, end: e, exact: index.slice(s, e) });
  return true;
}

export function unhighlight([start, end]) {
  act({ op: "unhighlight", start, end, exact: index.slice(start, end) });
}

export function setBep(offset) {
  // The server only takes a BEP on a relevant article; say so instead of sending a refusal.
  if (localState().status !== "relevant") {
    showSaveState("refused", "highlight relevant text before setting a best entry point");
    return;
  }
  act({ op: "set_bep", offset: Math.min(offset, index.codePointLength - 1) });
}

// Redo: each undo keeps the state it replaced (of this page's article), so that Ctrl+Shift+Z
// or "Redo" can restore it; a new action forgets what could be redone.
const REDO_KEY = `focal.redo:${config.poolUrl}`;

export function readRedo() {
  try {
    return JSON.parse(sessionStorage.getItem(REDO_KEY)) || [];
  } catch {
    return [];
  }
}

function forgetRedo() {
  sessionStorage.removeItem(REDO_KEY);
  redoChanged();
}

function redoChanged() {
  const button = document.getElementById("redo-button");
  if (button) button.disabled = readRedo().length === 0;
}

function snapshot(state) {
  return {
    url: config.opsUrl,
    page: window.location.pathname,
    state: {
      status: state.status,
      passages: state.passages,
      exacts: state.passages.map(([s, e]) => index.slice(s, e)),
      bep: state.bep,
      finished: state.finished,
    },
  };
}

export function undo() {
  const stack = readUndo();
  const last = stack.pop();
  if (!last) {
    showSaveState("saved", "nothing to undo");
    return;
  }
  sessionStorage.setItem(UNDO_KEY, JSON.stringify(stack));
  // Only an undo on this page's article can be redone here (its text is on this page).
  if (last.url === config.opsUrl && config.opsUrl) {
    sessionStorage.setItem(REDO_KEY, JSON.stringify([...readRedo(), snapshot(localState())]));
  }
  enqueue({ op: "restore", ...last.state }, last.url);
  redoChanged();
  announce(last.what ? `Undid: ${last.what}` : "Undid the last action");
  if (last.page !== window.location.pathname) goTo(last.page);
}

export function redo() {
  const stack = readRedo();
  const last = stack.pop();
  if (!last || last.url !== config.opsUrl) {
    showSaveState("saved", "nothing to redo");
    return;
  }
  sessionStorage.setItem(REDO_KEY, JSON.stringify(stack));
  remember(localState(), "redo");
  enqueue({ op: "restore", ...last.state }, last.url);
  redoChanged();
  announce("Redone");
}

redoChanged();

// Navigation waits (at most a second) for the queued operations to be in the outbox, never
// for the server.
export function goTo(url) {
  if (!url) return;
  const pause = new Promise((resolve) => setTimeout(resolve, 1000));
  Promise.race([written(), pause]).then(() => window.location.assign(url));
}

// An adaptive judging order chooses the next article on the server, from the judgements it
// holds: it is told this article's judgement too, which may still be on its way there.
function nextUrlAfter(status) {
  if (!config.nextUrl || config.prefetchNext) return config.nextUrl;
  if (status !== "relevant" && status !== "nonrelevant") return config.nextUrl;
  return `${config.nextUrl}&relevant=${status === "relevant" ? 1 : 0}`;
}

// Where "Done → next" leads: the next article, or after the pool's last one the topic's
// summary (the pool page with what is judged and what has no ✓ yet). `status` is this
// article's judgement, for an adaptive judging order.
export function nextPlace(status) {
  return nextUrlAfter(status) || config.summaryUrl || config.poolUrl;
}

// "Done": a highlighted article is finished (✓; which also fixes the suggested BEP).
export function finishArticle() {
  const state = localState();
  if (config.opsUrl && state.status === "relevant" && !state.finished) act({ op: "finish" });
}

// Goes where "Done" leads. The queue survives the navigation, so the assessor never waits for
// the save, except before the summary, which counts what the server has: there the page
// waits for this article's operations to be answered (5 s at most; offline it goes anyway and
// the summary page sends them).
export function leave(status) {
  const place = nextPlace(status);
  if (config.nextUrl || place !== config.summaryUrl) {
    goTo(place);
    return;
  }
  const ours = () => readQueue().filter((entry) => entry.url === config.opsUrl).length;
  const until = Date.now() + 5000;
  const wait = () => {
    if (ours() === 0 || Date.now() > until) goTo(place);
    else setTimeout(wait, 100);
  };
  pump();
  wait();
}


// The two-phase screen is rendered from the stored passages: leave once they are saved.
export async function goWhenSaved(url) {
  if (!url) return;
  const ours = () => readQueue().filter((entry) => entry.url === config.opsUrl).length;
  for (let waited = 0; ours() > 0; waited += 100) {
    if (waited >= 10000 || saveEl?.dataset.state === "failed") {
      showSaveState("failed", "not saved yet: the highlights must be saved first");
      return;
    }
    pump();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  goTo(url);
}

export function markNonRelevantAndGoNext() {
  act({ op: "mark_nonrelevant" });
  leave("nonrelevant");
}

