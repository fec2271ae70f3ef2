/* Focal assessment screen: what the assessor does: highlight, unhighlight, best entry point, not
 * relevant, next, undo (undo restores the exact state before the last action).
 */
import { config, saveEl } from "./page.js";
import { enqueue, localState, readQueue, showSaveState, written } from "./queue.js";
import { pump } from "./send.js";
import { index } from "./text-index.js";

// Undo goes back to the exact state before the last action (status, passages, BEP,
// finished) with one `restore` operation. The stack lives in sessionStorage, per topic, so
// that it survives the page changes that x and j make: an action on another article is
// undone there and the page goes back to it. Each entry keeps the text of its passages,
// which the server checks, since that article's text may not be on this page.
const UNDO_KEY = `focal.undo:${config.poolUrl}`;
const UNDO_LIMIT = 200;

export function readUndo() {
  try {
    return JSON.parse(sessionStorage.getItem(UNDO_KEY)) || [];
  } catch {
    return [];
  }
}

function remember(before) {
  if (!config.opsUrl) return;
  const entry = {
    url: config.opsUrl,
    page: window.location.pathname,
    state: {
      status: before.status,
      passages: before.passages,
      exacts: before.passages.map(([s, e]) => index.slice(s, e)),
      bep: before.bep,
      finished: before.finished,
    },
  };
  sessionStorage.setItem(UNDO_KEY, JSON.stringify([...readUndo(), entry].slice(-UNDO_LIMIT)));
}

export function act(op) {
  remember(localState());
  return enqueue(op);
}

export function highlightRange(range) {
  const offsets = index.offsetsOf(range);
  if (!offsets) return false;
  act({ op: "highlight", ...offsets });
  return true;
}

// Highlights `offsets` ({start, end, exact}, code points).
export function highlightOffsets(offsets) {
  act({ op: "highlight", ...offsets });
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

export function undo() {
  const stack = readUndo();
  const last = stack.pop();
  if (!last) {
    showSaveState("saved", "nothing to undo");
    return;
  }
  sessionStorage.setItem(UNDO_KEY, JSON.stringify(stack));
  enqueue({ op: "restore", ...last.state }, last.url);
  if (last.page !== window.location.pathname) goTo(last.page);
}

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

// Leaving a highlighted article finishes it (which also fixes the suggested BEP); the queue
// survives the navigation, so the assessor never waits for the save.
export function goNext() {
  const state = localState();
  if (config.opsUrl && state.status === "relevant" && !state.finished) act({ op: "finish" });
  goTo(nextUrlAfter(state.status) || config.poolUrl);
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
  goTo(nextUrlAfter("nonrelevant") || config.poolUrl);
}

