/* Focal assessment screen: the operation queue, the outbox in IndexedDB (static/outbox.js)
 * mirrored in memory for painting, the server's last state, and what the page shows of both.
 *
 * This module holds the screen's shared state (the queue and the server's state), created once
 * when it is first imported; other modules read it through the functions below. It paints and
 * sends nothing itself: it tells `changes` ("change": repaint; "queued": an operation waits to
 * be sent), and main.js connects those to paint.js and send.js.
 */
import { config, csrfToken, saveEl } from "./page.js";
import { applyLocally } from "./passages.js";
import { index } from "./text-index.js";

/** Events of the queue: "change" (what the page shows changed), "queued" (send it). */
export const changes = new EventTarget();
const changed = () => changes.dispatchEvent(new Event("change"));

/** The site's channel between tabs (null where the browser has none). */
export const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("focal") : null;

// The queue is the outbox (static/outbox.js): IndexedDB, shared by the site's tabs, so an
// operation outlives the tab that made it. `queue` mirrors it for the synchronous painting;
// `stored` resolves once every write to it has landed. `saved`: the state the server last
// answered with (the judgement as saved).
let saved = normaliseState(config.state);
let queue = [];
let outbox = null;
let stored = Promise.resolve();
// The opening of the outbox (useOutbox), once it has begun.
let opening = Promise.resolve();
let created = 0;
// Operations queued in this tab whose write to the outbox has not finished yet: a `sync`
// that read the outbox before that write must not drop them from `queue`.
const unwritten = new Set();

export function normaliseState(state) {
  return {
    version: state?.version ?? 0,
    status: state?.status ?? "unjudged",
    passages: (state?.passages ?? []).map(([s, e]) => [s, e]),
    bep: state?.bep ?? null,
    finished: Boolean(state?.finished),
  };
}

export function readQueue() {
  return queue;
}

export function serverState() {
  return saved;
}

// The state another tab saved: adopted unless this tab already has a newer one.
export function receiveState(state) {
  if (state.version >= saved.version) saved = state;
}

// An entry sent again under a new id (its old id was taken).
export function replaceEntry(entry, fresh) {
  queue = queue.map((e) => (e.id === entry.id ? fresh : e));
}

// Uses the outbox (`pending`: a promise of it), keeping what was queued before it opened.
export function useOutbox(pending) {
  opening = pending.then(async (box) => {
    const early = queue;
    outbox = box;
    await store(async (b) => {
      for (const entry of early) await b.put(entry);
    });
    await sync();
  });
  return opening;
}

// Resolves once every operation queued so far is in the outbox (or the write failed).
export function written() {
  return opening.then(() => store(() => null));
}

// Serialise writes to the outbox; `sync` waits for them before reading it back.
export function store(work) {
  stored = stored.then(() => (outbox ? work(outbox) : null)).catch(() => null);
  return stored;
}

export async function sync() {
  await stored;
  if (!outbox) return;
  const all = await outbox.all();
  const read = new Set(all.map((entry) => entry.id));
  queue = [...all, ...queue.filter((entry) => unwritten.has(entry.id) && !read.has(entry.id))];
}

// Our state as it will be: the server's plus every queued operation of this article, merged
// as the server merges (the article's text, the campaign's setting; no text: plain ATOM).
const acrossPunctuation = config.mergeAcrossPunctuation !== false;
export function localState() {
  return queue
    .filter((entry) => entry.url === config.opsUrl)
    .reduce((state, entry) => applyLocally(state, entry.op, index, acrossPunctuation), saved);
}

function announce(message) {
  channel?.postMessage({ ...message, page: window.location.pathname });
}

// `url`: the operations URL of another article of the topic (undo of an action there).
export function enqueue(op, url = config.opsUrl) {
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
  changed();
  changes.dispatchEvent(new Event("queued"));
  return entry;
}

export function showSaveState(kind, message) {
  if (!saveEl) return;
  saveEl.dataset.state = kind;
  saveEl.textContent = message;
}

export function unsaved() {
  return queue.length === 1 ? "1 unsaved" : `${queue.length} unsaved`;
}

// An operation the server answered (`state`: what it saved, or null when it refused).
export async function finish(entry, state) {
  queue = queue.filter((e) => e.id !== entry.id);
  await store((box) => box.remove(entry.id));
  if (state && entry.url === config.opsUrl) saved = normaliseState(state);
  if (state) announce({ kind: "saved", url: entry.url, state });
  changed();
}

export async function refreshState() {
  try {
    const response = await fetch(config.stateUrl, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (response.ok) {
      saved = normaliseState(await response.json());
      changed();
    }
  } catch {
    /* keep what we have; the next operation brings the state anyway */
  }
}

// Leaving the page (closing the tab, following a link): whatever is still queued goes out
// with `keepalive`, which outlives the page. Only the oldest operation of each article is
// sent, since keepalive requests may arrive in any order; everything stays in the outbox
// until answered, and the next page of the site sends the rest (a resend changes nothing).
export function flushOnLeave() {
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

