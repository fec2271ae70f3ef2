/* Focal's outbox: the operations not yet answered by the server, kept in IndexedDB.
 *
 * IndexedDB belongs to the origin, not to a tab: an operation queued in a tab that is then
 * closed (while the network is down or the server slow) is still there when any page of the
 * site loads again, and that page sends it. Operations carry their op_id, so a resend of one
 * the server already applied changes nothing (docs/api.md).
 *
 * Entries: {id: op_id, url, op, created}; sent oldest `created` first. Where IndexedDB cannot
 * be opened (a browser that refuses it), the outbox lives in the page's memory only and says so.
 *
 * An ES module: the assessment screen (assess/queue.js, through assess/main.js) and the
 * assessor's lists (assessor-lists.js) import `openOutbox`.
 */
const DB_NAME = "focal";
const STORE = "outbox";

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function openDatabase() {
  const req = indexedDB.open(DB_NAME, 1);
  req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
  return request(req);
}

class Outbox {
  constructor(db) {
    this.db = db; // null: memory only
    this.memory = new Map();
    this.persistent = db !== null;
  }

  async transaction(mode, work) {
    if (!this.db) return work(null);
    const tx = this.db.transaction(STORE, mode);
    const result = await work(tx.objectStore(STORE));
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
    return result;
  }

  // Every entry, oldest first.
  async all() {
    const entries = this.db
      ? await this.transaction("readonly", (store) => request(store.getAll()))
      : [...this.memory.values()];
    return entries.sort((a, b) => a.created - b.created);
  }

  put(entry) {
    if (!this.db) return Promise.resolve(this.memory.set(entry.id, entry));
    return this.transaction("readwrite", (store) => request(store.put(entry)));
  }

  remove(id) {
    if (!this.db) return Promise.resolve(this.memory.delete(id));
    return this.transaction("readwrite", (store) => request(store.delete(id)));
  }
}

/** The outbox: in IndexedDB (`persistent`), or in this page's memory where that cannot open. */
export async function openOutbox() {
  try {
    return new Outbox(await openDatabase());
  } catch {
    return new Outbox(null);
  }
}
