/* Focal assessment screen: sending queued operations to the server in order, one tab at a time,
 * and what the page says of each answer (retry, renew, conflict: docs/api.md).
 *
 * The sending and its rules (order, retries and their delays, renewed ids) are delivery.js's,
 * which has no page of its own; this module gives it the browser's fetch, timers and Web Locks,
 * the session's CSRF header, and the page's words for what happens.
 */
import { Sender } from "./delivery.js";
import { config, csrfToken } from "./page.js";
import { answered, pending, refreshState, showSaveState, unsaved } from "./queue.js";

// Why an operation waits, in the assessor's words.
function reason({ what, status, body }) {
  if (status === null) return "no connection";
  if (what === "login") return "logged out: log in again (in another tab) and they are sent";
  if (what === "reload") return "the session changed: reload the page and they are sent";
  if (body.code === "busy") return "the server is busy";
  return `HTTP ${status}`;
}

const sender = new Sender({
  queue: pending,
  fetch: (url, init) => fetch(url, init),
  headers: { [config.csrfHeader]: csrfToken },
  clock: {
    setTimeout: (run, delay) => setTimeout(run, delay),
    clearTimeout: (timer) => clearTimeout(timer),
  },
  locks: navigator.locks ?? null,
  on: {
    sending: () => showSaveState("saving", `saving… (${unsaved()})`),
    saved: (entry, state) => answered(entry, state),
    refused: async (entry, body, status) => {
      answered(entry, null);
      reportConflict(entry, body, status);
      await refreshState();
    },
    waiting: (why) => {
      const seconds = Math.round(why.delay / 1000);
      showSaveState("failed", `${unsaved()}: ${reason(why)}; retrying in ${seconds} s…`);
    },
    done: () => showSaveState("saved", "saved"),
  },
});

/** Sends what is queued (main.js calls it when an operation is queued, the page comes back
 * online or opens the outbox). */
export function pump() {
  return sender.pump();
}

/** Whether this tab is sending (or waiting for another tab to finish). */
export const isSending = () => sender.sending;

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

