/* Focal assessment screen: the operation queue (pending.js: the outbox in IndexedDB,
 * static/outbox.js, mirrored in memory for painting), the server's last state, and what the page
 * shows of both.
 *
 * This module holds the screen's shared state (the queue and the server's state), created once
 * when it is first imported; other modules read it through the functions below. It paints and
 * sends nothing itself: it tells `changes` ("change": repaint; "queued": an operation waits to
 * be sent), and main.js connects those to paint.js and send.js.
 */
import { config, csrfToken, saveEl } from "./page.js";
import { applyLocally } from "./passages.js";
import { PendingQueue } from "./pending.js";
import { index } from "./text-index.js";

/** Events of the queue: "change" (what the page shows changed), "queued" (send it). */
export const changes = new EventTarget();
const changed = () => changes.dispatchEvent(new Event("change"));

/** The site's channel between tabs (null where the browser has none). */
export const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("focal") : null;

/** The operations not answered yet, oldest first: the outbox, shared by the site's tabs, so
 * that an operation outlives the tab that made it (pending.js). send.js sends them. */
export const pending = new PendingQueue({
  now: () => performance.timeOrigin + performance.now(),
  newId: () => crypto.randomUUID(),
});

// The state the server last answered with (the judgement as saved).
let saved = normaliseState(config.state);

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
  return pending.entries();
}

export function serverState() {
  return saved;
}

// The state another tab saved: adopted unless this tab already has a newer one.
export function receiveState(state) {
  if (state.version >= saved.version) saved = state;
}

// Uses the outbox (`opened`: a promise of it), keeping what was queued before it opened.
export function useOutbox(opened) {
  return pending.use(opened);
}

// Resolves once every operation queued so far is in the outbox (or the write failed).
export function written() {
  return pending.written();
}

// Reads the outbox again: what other tabs queued and sent.
export function sync() {
  return pending.sync();
}

// Our state as it will be: the server's plus every queued operation of this article, merged
// as the server merges (the article's text, the campaign's setting; no text: plain ATOM).
const acrossPunctuation = config.mergeAcrossPunctuation !== false;
export function localState() {
  return readQueue()
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
  const { entry, stored } = pending.add(op, url);
  stored.then(() => announce({ kind: "outbox" }));
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
  const count = readQueue().length;
  return count === 1 ? "1 unsaved" : `${count} unsaved`;
}

// An operation the server answered, already out of the queue (`state`: what it saved, or null
// when it refused): the page shows it, and other tabs hear of a saved one.
export function answered(entry, state) {
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
  for (const entry of readQueue()) {
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

