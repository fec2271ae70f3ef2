/* Focal assessment screen: sending queued operations to the server in order, one tab at a time,
 * and what each answer means (retry, renew, conflict: docs/api.md).
 */
import { config, csrfToken } from "./page.js";
import { finish, readQueue, refreshState, replaceEntry, showSaveState, store, sync, unsaved } from "./queue.js";

let sending = false;
let again = false;
let attempt = 0;
let retryTimer = null;

export async function pump() {
  if (sending) {
    again = true;
    return;
  }
  sending = true;
  clearTimeout(retryTimer);
  try {
    const locks = navigator.locks;
    if (locks) await locks.request("focal-outbox", sendAll);
    else await sendAll();
  } finally {
    sending = false;
  }
  if (again) {
    again = false;
    pump();
  }
}

async function sendAll() {
  for (await sync(); readQueue().length > 0; await sync()) {
    const entry = readQueue()[0];
    showSaveState("saving", `saving… (${unsaved()})`);
    let response;
    try {
      response = await fetch(entry.url, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          [config.csrfHeader]: csrfToken,
        },
        body: JSON.stringify(entry.op),
      });
    } catch {
      response = null; // network failure: retry below
    }
    const body = response ? await response.json().catch(() => ({})) : {};
    const what = outcome(response, body);
    if (what === "saved") {
      await finish(entry, body);
      attempt = 0;
    } else if (what === "renew") {
      await renew(entry);
    } else if (what === "conflict") {
      await finish(entry, null);
      reportConflict(entry, body, response.status);
      await refreshState();
    } else {
      attempt += 1;
      const delay = Math.min(30000, 1000 * 2 ** (attempt - 1));
      const why = !response
        ? "no connection"
        : what === "login"
          ? "logged out: log in again (in another tab) and they are sent"
          : what === "reload"
            ? "the session changed: reload the page and they are sent"
          : body.code === "busy"
            ? "the server is busy"
            : `HTTP ${response.status}`;
      showSaveState("failed", `${unsaved()}: ${why}; retrying in ${Math.round(delay / 1000)} s…`);
      retryTimer = setTimeout(pump, delay);
      return;
    }
  }
  showSaveState("saved", "saved");
}

// What an answer means for the operation (codes: docs/api.md):
//   saved    applied (or applied before: same op_id)
//   retry    not applied, may be sent again as it is: no connection, 5xx and 503 `busy`,
//            408, 429
//   login    not applied until the user logs in again (401) or the session's token works (403)
//   reload   400 for a stale CSRF token: kept until the page is reloaded with the new one
//   renew    409 `op_id_reused`: the id is taken; the same operation goes again with a new id
//   conflict can never apply as it is (409 `stale_version`, `exact_mismatch`, `text_missing`,
//            404, 422): dropped, and the user is told what and why
function outcome(response, body) {
  if (!response) return "retry";
  if (response.ok) return "saved";
  if (response.status >= 500 || [408, 429].includes(response.status)) return "retry";
  if ([401, 403].includes(response.status)) return "login";
  // The session's CSRF token changed (a log-in again, in this or another tab): the page's
  // copy is stale until it is reloaded, and the operation waits in the outbox until then.
  if (response.status === 400 && /CSRF/.test(body.error || "")) return "reload";
  if (response.status === 409 && body.code === "op_id_reused") return "renew";
  return "conflict";
}

async function renew(entry) {
  const op = { ...entry.op, op_id: crypto.randomUUID() };
  const fresh = { ...entry, id: op.op_id, op };
  replaceEntry(entry, fresh);
  await store(async (box) => {
    await box.put(fresh);
    await box.remove(entry.id);
  });
}

const CONFLICTS = {
  stale_version:
    "it was made on an older version of the judgement, changed meanwhile in another tab or by another client. The page now shows the saved judgement: redo the change if it is still needed.",
  exact_mismatch:
    "the article's text on the server is not the text on this page. Reload the page, then redo the change.",
  text_missing:
    "the server has no text for this article (it is known only by id and length), so highlights cannot be saved. Tell the organiser.",
  not_found: "this article is no longer in your assignment.",
};

const OP_NAMES = {
  highlight: "highlight",
  unhighlight: "removal of a highlight",
  set_bep: "best entry point",
  mark_nonrelevant: "“no relevant text”",
  finish: "finishing",
  restore: "undo",
};

// A real conflict is said plainly, in a box that stays until dismissed.
function reportConflict(entry, body, status) {
  const box = document.getElementById("conflict");
  const list = document.getElementById("conflict-list");
  const article = decodeURIComponent(entry.url.split("/documents/")[1]?.split("/")[0] || "");
  const what = OP_NAMES[entry.op.op] || entry.op.op;
  const why = CONFLICTS[body.code] || body.error || `the server refused it (HTTP ${status})`;
  const text = entry.op.exact ? ` of “${entry.op.exact.slice(0, 60)}”` : "";
  const message = `Your ${what}${text} on article ${article} was not saved: ${why}`;
  if (box && list) {
    const item = document.createElement("li");
    item.textContent = message;
    list.append(item);
    box.hidden = false;
  }
  showSaveState("refused", "not saved: see the message above the text");
}

export const isSending = () => sending;

