/* Focal assessment screen: sending the queued operations to the server, and what each answer
 * means (docs/api.md; docs/architecture.md, "The assessment screen: one highlight, end to
 * end", step 3).
 *
 * One operation at a time, oldest first, from one tab at a time (a Web Lock over the outbox
 * that the site's tabs share): an operation goes out once the one before it is answered, so
 * the server applies them in the order they were made and never sees two at once. An answer
 * that may change (no connection, 5xx, 408, 429; a log-in or a reload awaited) is retried
 * with the same op_id, which the server applies once, 1 s later, then 2, 4, … at most 30 s.
 *
 * It has no page, fetch, timer or lock of its own: send.js gives the browser's, and
 * tests/static gives fakes (a fake clock checks the delays without waiting for them).
 */
import { OUTBOX_LOCK } from "../outbox.js";

export const FIRST_DELAY = 1000;
export const LONGEST_DELAY = 30000;

/** The wait before the `attempt`-th retry in a row (1, 2, …), in milliseconds. */
export function retryDelay(attempt) {
  return Math.min(LONGEST_DELAY, FIRST_DELAY * 2 ** (attempt - 1));
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
/** What `response` (null: no connection) with its JSON `body` means for the operation. */
export function outcome(response, body) {
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

async function jsonOf(response) {
  const body = await response.json().catch(() => null);
  return body !== null && typeof body === "object" ? body : {};
}

export class Sender {
  #queue;
  #fetch;
  #headers;
  #clock;
  #locks;
  #on;
  #sending = false;
  #again = false;
  #attempt = 0;
  #timer = null;

  /**
   * queue    a PendingQueue (pending.js)
   * fetch    the browser's fetch, or one that answers as it does
   * headers  sent with every operation besides the JSON ones (the CSRF token's)
   * clock    {setTimeout, clearTimeout}
   * locks    the browser's `navigator.locks` (null: none, each tab sends alone)
   * on       what the page shows: sending(entry), saved(entry, state),
   *          refused(entry, body, status), waiting({what, status, body, delay}), done()
   */
  constructor({ queue, fetch, headers = {}, clock, locks = null, on = {} }) {
    this.#queue = queue;
    this.#fetch = fetch;
    this.#headers = headers;
    this.#clock = clock;
    this.#locks = locks;
    this.#on = on;
  }

  /** Whether this tab is sending (or waiting for the lock to). */
  get sending() {
    return this.#sending;
  }

  /** Sends what is queued, oldest first, until the queue is empty or an answer asks to wait.
   * Asked while sending, it looks at the queue again afterwards (unless a retry is waited for,
   * which will). */
  async pump() {
    if (this.#sending) {
      this.#again = true;
      return;
    }
    this.#sending = true;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
    let waiting;
    try {
      const run = () => this.#sendAll();
      waiting = await (this.#locks ? this.#locks.request(OUTBOX_LOCK, run) : run());
    } finally {
      this.#sending = false;
    }
    const again = this.#again;
    this.#again = false;
    if (again && !waiting) await this.pump();
  }

  // Sends entry after entry; true when it stopped to wait for a retry.
  async #sendAll() {
    const queue = this.#queue;
    for (await queue.sync(); queue.entries().length > 0; await queue.sync()) {
      const entry = queue.entries()[0];
      this.#on.sending?.(entry);
      const response = await this.#post(entry);
      const body = response ? await jsonOf(response) : {};
      const what = outcome(response, body);
      if (!["saved", "renew", "conflict"].includes(what)) {
        this.#attempt += 1;
        const delay = retryDelay(this.#attempt);
        this.#on.waiting?.({ what, status: response?.status ?? null, body, delay });
        this.#timer = this.#clock.setTimeout(() => this.pump(), delay);
        return true;
      }
      this.#attempt = 0; // the server answered: the next wait starts again at FIRST_DELAY
      if (what === "saved") {
        await queue.remove(entry);
        await this.#on.saved?.(entry, body);
      } else if (what === "renew") {
        await queue.renew(entry);
      } else {
        await queue.remove(entry);
        await this.#on.refused?.(entry, body, response.status);
      }
    }
    this.#on.done?.();
    return false;
  }

  // The answer to `entry`, or null when none came (no connection).
  async #post(entry) {
    const send = this.#fetch;
    try {
      return await send(entry.url, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          ...this.#headers,
        },
        body: JSON.stringify(entry.op),
      });
    } catch {
      return null;
    }
  }
}
