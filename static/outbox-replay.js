/* Focal's outbox sent from the assessor's lists (My topics, a topic's pool).
 *
 * An assessor who closed the article's tab while the server was unreachable comes back to the
 * site on these pages, not on that article: operations left in the outbox (static/outbox.js)
 * are sent from here too, oldest first, under the same Web Lock as the assessment screen, and
 * the progress shown is then fetched again. Only operations the server accepts leave the
 * outbox; at the first other answer sending stops and the rest stays for the assessment screen,
 * which retries or explains a refusal (docs/api.md). `#outbox-state` says how many wait.
 */
"use strict";

(() => {
  const stateEl = document.getElementById("outbox-state");
  const token = document.querySelector('meta[name="csrf-token"]')?.content || "";

  function say(message) {
    if (!stateEl) return;
    stateEl.hidden = message === "";
    stateEl.textContent = message;
  }

  const unsaved = (n) => (n === 1 ? "1 unsaved change" : `${n} unsaved changes`);

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
      return response.ok;
    } catch {
      return false; // no connection: kept for later
    }
  }

  async function sendAll() {
    const outbox = await window.FocalOutbox.open();
    if (!outbox.persistent) return;
    const entries = await outbox.all();
    let sent = 0;
    for (const entry of entries) {
      say(`${unsaved(entries.length - sent)} from an earlier visit: sending…`);
      if (!(await send(entry))) break;
      await outbox.remove(entry.id);
      sent += 1;
    }
    const left = entries.length - sent;
    say(left ? `${unsaved(left)} not sent yet: they are kept and sent later.` : "");
    if (sent > 0) document.body.dispatchEvent(new Event("outbox-sent"));
  }

  if (!window.FocalOutbox || !window.indexedDB) return;
  const locks = navigator.locks;
  if (locks) locks.request("focal-outbox", sendAll);
  else sendAll();
})();
