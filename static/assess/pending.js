/* Focal assessment screen: the operations not yet answered by the server, in the order they
 * were made.
 *
 * The queue is the outbox (static/outbox.js): IndexedDB, shared by the site's tabs, so an
 * operation outlives the tab that made it. A `PendingQueue` mirrors it in memory for the
 * synchronous painting, oldest `created` first (creation time across tabs, strictly increasing
 * within one). What is queued before the outbox opens is kept and written once it does; an
 * operation whose write failed stays in this tab's memory and is sent from here, never lost.
 *
 * It has no page, clock or id source of its own: queue.js makes the screen's one queue with
 * the browser's, and tests/static runs it under node with fakes (docs/architecture.md, "The
 * assessment screen: one highlight, end to end", step 3).
 */
export class PendingQueue {
  #entries = [];
  #outbox = null;
  // Resolves once every write to the outbox asked for so far has landed (or failed).
  #stored = Promise.resolve();
  // The opening of the outbox (`use`), once it has begun.
  #opening = Promise.resolve();
  #created = 0;
  // Reads of the outbox begun so far: only the latest one's answer is kept.
  #reads = 0;
  // This tab's entries that a read may have missed, so that it must not drop them from
  // memory: id → the number of reads begun when its write landed (Infinity until it has).
  #fresh = new Map();
  #now;
  #newId;

  /** `now()`: milliseconds since the epoch (fractions allowed); `newId()`: a fresh op_id. */
  constructor({ now, newId }) {
    this.#now = now;
    this.#newId = newId;
  }

  /** The queued entries ({id: op_id, url, op, created}), oldest first. */
  entries() {
    return this.#entries;
  }

  /** Uses the outbox (`opened`: a promise of it), keeping what was queued before it opened. */
  use(opened) {
    this.#opening = opened.then(async (box) => {
      const early = this.#entries;
      this.#outbox = box;
      for (const entry of early) this.#write(entry);
      await this.sync();
    });
    return this.#opening;
  }

  /** Resolves once every operation queued so far is in the outbox (or its write failed). */
  written() {
    return this.#opening.then(() => this.#store(() => null));
  }

  // Runs `work(outbox)` after every write asked for before (nothing while no outbox is open);
  // resolves to its result, or to null when it failed.
  #store(work) {
    const run = () => (this.#outbox ? work(this.#outbox) : null);
    this.#stored = this.#stored.then(run).catch(() => null);
    return this.#stored;
  }

  /** Reads the outbox again (other tabs add and send entries), after this tab's writes. */
  async sync() {
    await this.#stored;
    if (!this.#outbox) return;
    const read = ++this.#reads;
    const all = await this.#outbox.all();
    if (read !== this.#reads) return; // a later read began meanwhile: its answer is newer
    const ids = new Set(all.map((entry) => entry.id));
    const missed = (e) => !ids.has(e.id) && (this.#fresh.get(e.id) ?? -1) >= read;
    this.#entries = [...all, ...this.#entries.filter(missed)].sort((a, b) => a.created - b.created);
    for (const [id, landed] of this.#fresh) if (landed < read) this.#fresh.delete(id);
  }

  /** Queues `op` for `url` under a fresh op_id with the client's time; `stored` resolves once
   * its write to the outbox has landed (or failed). */
  add(op, url) {
    const time = this.#now();
    this.#created = Math.max(this.#created + 0.001, time);
    const full = { op_id: this.#newId(), client_time: new Date(time).toISOString(), ...op };
    const entry = { id: full.op_id, url, op: full, created: this.#created };
    this.#entries = [...this.#entries, entry];
    this.#fresh.set(entry.id, Infinity);
    return { entry, stored: this.#write(entry) };
  }

  /** Drops an answered entry, here and from the outbox. */
  async remove(entry) {
    this.#entries = this.#entries.filter((e) => e.id !== entry.id);
    this.#fresh.delete(entry.id);
    await this.#store((box) => box.remove(entry.id));
  }

  /** The same operation again under a new op_id (the server had its id for another one: 409
   * `op_id_reused`), in the same place of the queue. */
  async renew(entry) {
    const op = { ...entry.op, op_id: this.#newId() };
    const fresh = { ...entry, id: op.op_id, op };
    this.#entries = this.#entries.map((e) => (e.id === entry.id ? fresh : e));
    this.#fresh.delete(entry.id);
    this.#fresh.set(fresh.id, Infinity);
    this.#write(fresh);
    await this.#store((box) => box.remove(entry.id));
  }

  // Puts `entry` in the outbox; once it is there, a read begun later is its record.
  #write(entry) {
    return this.#store(async (box) => {
      await box.put(entry);
      if (this.#fresh.has(entry.id)) this.#fresh.set(entry.id, this.#reads);
    });
  }
}
