/* Focal assessment screen: what the assessor does: highlight, unhighlight, best entry point, not
 * relevant, next, undo (undo restores the exact state before the last action).
 */
"use strict";

(() => {
  const F = window.FocalAssess;
  if (!F) return;
  const { config, docEl, index } = F;

  /* ---------------------------------------------------------------- actions */

  // Undo goes back to the exact state before the last action (status, passages, BEP,
  // finished) with one `restore` operation. The stack lives in sessionStorage, per topic, so
  // that it survives the page changes that x and j make: an action on another article is
  // undone there and the page goes back to it. Each entry keeps the text of its passages,
  // which the server checks, since that article's text may not be on this page.
  const UNDO_KEY = `focal.undo:${config.poolUrl}`;
  const UNDO_LIMIT = 200;

  function readUndo() {
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

  function act(op) {
    remember(F.localState());
    return F.enqueue(op);
  }

  function highlightRange(range) {
    const offsets = index.offsetsOf(range);
    if (!offsets) return false;
    act({ op: "highlight", ...offsets });
    return true;
  }

  // Highlights `offsets` ({start, end, exact}, code points).
  function highlightOffsets(offsets) {
    act({ op: "highlight", ...offsets });
  }

  function unhighlight([start, end]) {
    act({ op: "unhighlight", start, end, exact: index.slice(start, end) });
  }

  function setBep(offset) {
    // The server only takes a BEP on a relevant article; say so instead of sending a refusal.
    if (F.localState().status !== "relevant") {
      F.showSaveState("refused", "highlight relevant text before setting a best entry point");
      return;
    }
    act({ op: "set_bep", offset: Math.min(offset, index.codePointLength - 1) });
  }

  function undo() {
    const stack = readUndo();
    const last = stack.pop();
    if (!last) {
      F.showSaveState("saved", "nothing to undo");
      return;
    }
    sessionStorage.setItem(UNDO_KEY, JSON.stringify(stack));
    F.enqueue({ op: "restore", ...last.state }, last.url);
    if (last.page !== window.location.pathname) goTo(last.page);
  }


  // Navigation waits (at most a second) for the queued operations to be in the outbox, never
  // for the server.
  function goTo(url) {
    if (!url) return;
    const pause = new Promise((resolve) => setTimeout(resolve, 1000));
    const written = F.ready.then(() => F.store(() => null));
    Promise.race([written, pause]).then(() => window.location.assign(url));
  }

  // Leaving a highlighted article finishes it (which also fixes the suggested BEP); the queue
  // survives the navigation, so the assessor never waits for the save.
  function goNext() {
    const state = F.localState();
    if (config.opsUrl && state.status === "relevant" && !state.finished) act({ op: "finish" });
    goTo(config.nextUrl || config.poolUrl);
  }

  // The two-phase screen is rendered from the stored passages: leave once they are saved.
  async function goWhenSaved(url) {
    if (!url) return;
    const ours = () => F.readQueue().filter((entry) => entry.url === config.opsUrl).length;
    for (let waited = 0; ours() > 0; waited += 100) {
      if (waited >= 10000 || F.saveEl?.dataset.state === "failed") {
        F.showSaveState("failed", "not saved yet: the highlights must be saved first");
        return;
      }
      F.pump();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    goTo(url);
  }

  function markNonRelevantAndGoNext() {
    act({ op: "mark_nonrelevant" });
    goTo(config.nextUrl || config.poolUrl);
  }

  Object.assign(F, {
    act,
    highlightOffsets,
    highlightRange,
    unhighlight,
    setBep,
    undo,
    readUndo,
    goTo,
    goNext,
    goWhenSaved,
    markNonRelevantAndGoNext,
  });
})();
