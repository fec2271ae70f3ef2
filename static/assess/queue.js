/* Focal assessment screen: the operation queue, the outbox in IndexedDB (static/outbox.js)
 * mirrored in memory for painting, the server's last state, and what the page shows of both.
 */
"use strict";

(() => {
  const F = window.FocalAssess;
  if (!F) return;
  const { config, csrfToken, saveEl } = F;

  /* ---------------------------------------------------------------- operation queue */

  // The queue is the outbox (static/outbox.js): IndexedDB, shared by the site's tabs, so an
  // operation outlives the tab that made it. `queue` mirrors it for the synchronous painting;
  // `stored` resolves once every write to it has landed.
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("focal") : null;
  let serverState = normaliseState(config.state);
  let queue = [];
  let outbox = null;
  let stored = Promise.resolve();
  let created = 0;
  // Operations queued in this tab whose write to the outbox has not finished yet: a `sync`
  // that read the outbox before that write must not drop them from `queue`.
  const unwritten = new Set();

  function normaliseState(state) {
    return {
      version: state?.version ?? 0,
      status: state?.status ?? "unjudged",
      passages: (state?.passages ?? []).map(([s, e]) => [s, e]),
      bep: state?.bep ?? null,
      finished: Boolean(state?.finished),
    };
  }

  function readQueue() {
    return queue;
  }

  function serverState_() {
    return serverState;
  }

  // The state another tab saved: adopted unless this tab already has a newer one.
  function receiveState(state) {
    if (state.version >= serverState.version) serverState = state;
  }

  // An entry sent again under a new id (its old id was taken).
  function replaceEntry(entry, fresh) {
    queue = queue.map((e) => (e.id === entry.id ? fresh : e));
  }

  // Opens the outbox, keeping what was queued before it opened.
  async function openOutbox(box) {
    const early = queue;
    outbox = box;
    await store(async (b) => {
      for (const entry of early) await b.put(entry);
    });
    await sync();
  }

  // Serialise writes to the outbox; `sync` waits for them before reading it back.
  function store(work) {
    stored = stored.then(() => (outbox ? work(outbox) : null)).catch(() => null);
    return stored;
  }

  async function sync() {
    await stored;
    if (!outbox) return;
    const all = await outbox.all();
    const read = new Set(all.map((entry) => entry.id));
    queue = [...all, ...queue.filter((entry) => unwritten.has(entry.id) && !read.has(entry.id))];
  }

  // Our state as it will be: the server's plus every queued operation of this article.
  function localState() {
    return queue
      .filter((entry) => entry.url === config.opsUrl)
      .reduce((state, entry) => F.applyLocally(state, entry.op), serverState);
  }

  function announce(message) {
    channel?.postMessage({ ...message, page: window.location.pathname });
  }

  // `url`: the operations URL of another article of the topic (undo of an action there).
  function enqueue(op, url = config.opsUrl) {
    if (!url) {
      showSaveState("refused", "read-only: nothing is saved");
      return null;
    }
    // Ordered by creation time across tabs; strictly increasing within this one.
    created = Math.max(created + 0.001, performance.timeOrigin + performance.now());
    const full = { op_id: crypto.randomUUID(), client_time: new Date().toISOString(), ...op };
    const entry = { id: full.op_id, url, op: full, created };
    queue = [...queue, entry];
    unwritten.add(entry.id);
    store((box) => box.put(entry)).then(() => {
      unwritten.delete(entry.id);
      announce({ kind: "outbox" });
    });
    F.paint();
    F.pump();
    return entry;
  }

  function showSaveState(kind, message) {
    if (!saveEl) return;
    saveEl.dataset.state = kind;
    saveEl.textContent = message;
  }

  function unsaved() {
    return queue.length === 1 ? "1 unsaved" : `${queue.length} unsaved`;
  }

  // Sends queued operations one at a time, oldest first, one tab at a time (a Web Lock), so
  // that the operations of an article reach the server in the order they were made. Never
  // drops an operation the server did not answer; see `outcome` for what an answer means.

  async function finish(entry, state) {
    queue = queue.filter((e) => e.id !== entry.id);
    await store((box) => box.remove(entry.id));
    if (state && entry.url === config.opsUrl) serverState = normaliseState(state);
    if (state) announce({ kind: "saved", url: entry.url, state });
    F.paint();
  }

  async function refreshState() {
    try {
      const response = await fetch(config.stateUrl, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (response.ok) {
        serverState = normaliseState(await response.json());
        F.paint();
      }
    } catch {
      /* keep what we have; the next operation brings the state anyway */
    }
  }

  // Leaving the page (closing the tab, following a link): whatever is still queued goes out
  // with `keepalive`, which outlives the page. Only the oldest operation of each article is
  // sent, since keepalive requests may arrive in any order; everything stays in the outbox
  // until answered, and the next page of the site sends the rest (a resend changes nothing).
  function flushOnLeave() {
    const seen = new Set();
    for (const entry of queue) {
      if (seen.has(entry.url)) continue;
      seen.add(entry.url);
      fetch(entry.url, {
        method: "POST",
        keepalive: true,
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", [config.csrfHeader]: csrfToken },
        body: JSON.stringify(entry.op),
      }).catch(() => {});
    }
  }

  Object.assign(F, {
    channel,
    serverState: serverState_,
    receiveState,
    replaceEntry,
    openOutbox,
    normaliseState,
    readQueue,
    store,
    sync,
    localState,
    announce,
    enqueue,
    showSaveState,
    unsaved,
    finish,
    refreshState,
    flushOnLeave,
  });
})();
