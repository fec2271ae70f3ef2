/* Focal's assessor lists (My topics, a topic's pool): sending the outbox left by a closed tab,
 * and fetching the list again when what it shows is stale.
 *
 * An assessor who closed the article's tab while the server was unreachable comes back to the
 * site on these pages, not on that article: operations left in the outbox (static/outbox.js)
 * are sent from here too, oldest first, under the same Web Lock as the assessment screen, and
 * the list is then fetched again. Only operations the server accepts leave the outbox; at the
 * first other answer sending stops and the rest stays for the assessment screen, which retries
 * or explains a refusal (docs/api.md). `#outbox-state` says how many wait. Each state saved is
 * announced on the site's BroadcastChannel, as the assessment screen does, so that a tab open
 * on that article shows it.
 *
 * The list is fetched again on a `list-stale` event on body (its hx-trigger): after sending, and
 * when the back button brings the page back from the browser's cache (`pageshow` with
 * `persisted`). Not an hx-trigger filter (`pageshow[persisted]`): htmx evaluates filters with
 * eval, which the site's configuration forbids, and then treats the filter as always true.
 */
import { OUTBOX_LOCK, openOutbox } from "./outbox.js";

const stateEl = document.getElementById("outbox-state");
const token = document.querySelector('meta[name="csrf-token"]')?.content || "";
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("focal") : null;

function say(message) {
  if (!stateEl) return;
  stateEl.hidden = message === "";
  stateEl.textContent = message;
}

const unsaved = (n) => (n === 1 ? "1 unsaved change" : `${n} unsaved changes`);

// The state the server saved, or null when the operation was not applied.
async function send(entry) {
  try {
    const response = await fetch(entry.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRF-Token": token,
      },
      body: JSON.stringify(entry.op),
    });
    return response.ok ? await response.json().catch(() => null) : null;
  } catch {
    return null; // no connection: kept for later
  }
}

async function sendAll() {
  const outbox = await openOutbox();
  if (!outbox.persistent) return;
  const entries = await outbox.all();
  let sent = 0;
  for (const entry of entries) {
    say(`${unsaved(entries.length - sent)} from an earlier visit: sending…`);
    const state = await send(entry);
    if (!state) break;
    await outbox.remove(entry.id);
    channel?.postMessage({ kind: "saved", url: entry.url, state, page: window.location.pathname });
    sent += 1;
  }
  const left = entries.length - sent;
  say(left ? `${unsaved(left)} not sent yet: they are kept and sent later.` : "");
  if (sent > 0) document.body.dispatchEvent(new Event("list-stale"));
}

window.addEventListener("pageshow", (event) => {
  if (event.persisted) document.body.dispatchEvent(new Event("list-stale"));
});

if (window.indexedDB) {
  const locks = navigator.locks;
  if (locks) locks.request(OUTBOX_LOCK, sendAll);
  else sendAll();
}
