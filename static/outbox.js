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
 * An `Outbox` keeps its entries in a storage ({getAll, put, delete}, each answering with a
 * promise): IndexedDB's object store here, or a Map (`memoryStorage`). The storage is given,
 * so that tests/static runs the outbox and the queue over it under node, with a fake.
 *
 * An ES module: the assessment screen (assess/queue.js, through assess/main.js) and the
 * assessor's lists (assessor-lists.js) import `openOutbox` and `OUTBOX_LOCK`.
 */
const DB_NAME = "focal";
const STORE = "outbox";

/** The Web Lock a tab holds while it sends the outbox, so that one tab at a time does. */
export const OUTBOX_LOCK = "focal-outbox";

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function openDatabase(factory) {
  const req = factory.open(DB_NAME, 1);
  req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
  return request(req);
}

// The object store of `db` as a storage: each call is one transaction, answered once it has
// committed.
function databaseStorage(db) {
  async function transaction(mode, work) {
    const tx = db.transaction(STORE, mode);
    const result = await request(work(tx.objectStore(STORE)));
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
    return result;
  }
  return {
    getAll: () => transaction("readonly", (store) => store.getAll()),
    put: (entry) => transaction("readwrite", (store) => store.put(entry)),
    delete: (id) => transaction("readwrite", (store) => store.delete(id)),
  };
}

/** A storage in `map` (a page's memory); entries are copied in and out, as IndexedDB does. */
export function memoryStorage(map = new Map()) {
  return {
    getAll: async () => [...map.values()].map((entry) => structuredClone(entry)),
    put: async (entry) => {
      map.set(entry.id, structuredClone(entry));
    },
    delete: async (id) => {
      map.delete(id);
    },
  };
}

export class Outbox {
  /** `persistent`: whether `storage` outlives the page (IndexedDB) or not (memory). */
  constructor(storage, persistent) {
    this.storage = storage;
    this.persistent = persistent;
  }

  /** Every entry, oldest first. */
  async all() {
    const entries = await this.storage.getAll();
    return entries.sort((a, b) => a.created - b.created);
  }

  put(entry) {
    return this.storage.put(entry);
  }

  remove(id) {
    return this.storage.delete(id);
  }
}

/** The outbox: in IndexedDB (`persistent`), or in this page's memory where that cannot open.
 * `factory`: an IndexedDB factory, the browser's `indexedDB` unless given. */
export async function openOutbox(factory) {
  try {
    const db = await openDatabase(factory ?? globalThis.indexedDB);
    return new Outbox(databaseStorage(db), true);
  } catch {
    return new Outbox(memoryStorage(), false);
  }
}
