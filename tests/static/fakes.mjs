// What the browser gives the outbox and its sender (static/outbox.js, static/assess/pending.js,
// static/assess/delivery.js), faked for node's test runner: a storage shared by tabs whose
// answers can be held back, a clock whose time moves only when a test moves it, Web Locks, and
// a server behind `fetch` that answers as a test scripts it and records every request.
// Nothing here waits for real time: `settle` and `until` let the pending promises run.
import { Outbox, memoryStorage } from "../../static/outbox.js";
import { PendingQueue } from "../../static/assess/pending.js";
import { Sender } from "../../static/assess/delivery.js";

/** A promise and the functions that settle it, for answers a test gives when it chooses. */
export function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every promise that can go on do so (one turn of node's event loop; no time passes). */
export function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Turns of the event loop until `condition()` holds; fails naming `what` if it never does. */
export async function until(condition, what, turns = 1000) {
  for (let turn = 0; turn < turns; turn += 1) {
    if (condition()) return;
    await settle();
  }
  throw new Error(`never came true: ${what}`);
}

/** setTimeout and clearTimeout on a time of its own, moved on by `advance` alone. */
export class FakeClock {
  now = 0;
  #timers = new Map();
  #next = 1;

  setTimeout = (run, delay) => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.now + delay, delay, run });
    return id;
  };

  clearTimeout = (id) => {
    this.#timers.delete(id);
  };

  /** The delays (ms) the timers still waiting were set with. */
  waiting() {
    return [...this.#timers.values()].map((timer) => timer.delay);
  }

  /** Moves time on by `ms`, running each timer that falls due, earliest first, and settles. */
  async advance(ms) {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.#timers.entries()]
        .filter(([, timer]) => timer.at <= end)
        .sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      const [id, timer] = due;
      this.#timers.delete(id);
      this.now = timer.at;
      timer.run();
      await settle();
    }
    this.now = end;
    await settle();
  }
}

/** Exclusive Web Locks (`navigator.locks.request(name, callback)`), as one origin's tabs share
 * them: a request runs once every earlier request for the name has finished. */
export class FakeLocks {
  #tails = new Map();

  request(name, callback) {
    const before = this.#tails.get(name) ?? Promise.resolve();
    const run = before.then(() => callback({ name, mode: "exclusive" }));
    this.#tails.set(
      name,
      run.catch(() => null),
    );
    return run;
  }
}

/** A storage as IndexedDB's (memoryStorage, shared by every tab given it) whose reads or
 * writes a test can hold back: `holdReads()` / `holdWrites()` give a gate to open later. */
export class SharedStorage {
  map = new Map();
  #inner = memoryStorage(this.map);
  #readGate = null;
  #writeGate = null;
  failWrites = false;

  holdReads() {
    this.#readGate = deferred();
    return this.#readGate;
  }

  holdWrites() {
    this.#writeGate = deferred();
    return this.#writeGate;
  }

  release() {
    this.#readGate = null;
    this.#writeGate = null;
  }

  ids() {
    return [...this.map.keys()];
  }

  async getAll() {
    const gate = this.#readGate?.promise;
    const snapshot = await this.#inner.getAll(); // what the store held when the read began
    if (gate) await gate;
    return snapshot;
  }

  async put(entry) {
    const gate = this.#writeGate?.promise;
    if (gate) await gate;
    if (this.failWrites) throw new Error("QuotaExceededError");
    await this.#inner.put(entry);
  }

  async delete(id) {
    const gate = this.#writeGate?.promise;
    if (gate) await gate;
    await this.#inner.delete(id);
  }
}

/** A server behind `fetch`: each request takes the next scripted answer (else 200 with a
 * judgement state). An answer is {status, body}, "network" (no connection), or a promise of
 * either (an answer that comes when the test resolves it). */
export class FakeServer {
  static LIMIT = 100;
  requests = [];
  inFlight = 0;
  mostInFlight = 0;
  #answers = [];

  /** Scripts the answers to the next requests, in order. */
  answer(...answers) {
    this.#answers.push(...answers);
  }

  /** The op_ids of the requests, in the order they came. */
  opIds() {
    return this.requests.map((request) => request.op.op_id);
  }

  fetch = async (url, init) => {
    // A sender that never stops would starve the event loop: past this many requests each
    // fails (as no connection would), so that its test ends and fails instead of hanging.
    if (this.requests.length >= FakeServer.LIMIT) throw new TypeError("too many requests");
    const request = { url, init, op: JSON.parse(init.body) };
    this.requests.push(request);
    this.inFlight += 1;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    try {
      const scripted = this.#answers.length > 0 ? this.#answers.shift() : null;
      const answer = (await scripted) ?? {
        status: 200,
        body: { version: this.requests.length, status: "relevant", passages: [] },
      };
      if (answer === "network") throw new TypeError("Failed to fetch");
      const { status, body } = answer;
      return {
        ok: status >= 200 && status < 300,
        status,
        json: async () => (typeof body === "string" ? JSON.parse(body) : body),
      };
    } finally {
      this.inFlight -= 1;
    }
  };
}

/** One tab of the site: its queue over the shared `storage` and its sender, with every call
 * the sender makes to the page recorded in `told` (in order, by kind). `time` gives the
 * creation times (shared by the tabs of one test, as the wall clock is); `outbox`: a promise of
 * the Outbox, to open it later (by default an Outbox over `storage`, open at once). */
export function openTab({ storage, server, clock, locks = null, time, ids, outbox = null }) {
  const queue = new PendingQueue({ now: time, newId: ids });
  const told = [];
  const sender = new Sender({
    queue,
    fetch: server.fetch,
    headers: { "X-CSRF-Token": "token" },
    clock,
    locks,
    on: {
      sending: (entry) => told.push({ kind: "sending", id: entry.id }),
      saved: (entry, state) => told.push({ kind: "saved", id: entry.id, state }),
      refused: (entry, body, status) => told.push({ kind: "refused", id: entry.id, body, status }),
      waiting: (why) => told.push({ kind: "waiting", ...why }),
      done: () => told.push({ kind: "done" }),
    },
  });
  const opened = queue.use(outbox ?? Promise.resolve(new Outbox(storage, true)));
  return { queue, sender, told, opened };
}

/** Creation times 1000, 1001, … ms (one clock for all the tabs of a test). */
export function wallClock() {
  let now = 1000;
  return () => now++;
}

/** op_ids "op-1", "op-2", … (one sequence for all the tabs of a test, as UUIDs never repeat). */
export function idSequence() {
  let next = 0;
  return () => `op-${++next}`;
}

/** A highlight operation of [start, end). */
export function highlight(start, end) {
  return { op: "highlight", start, end, exact: "x".repeat(end - start) };
}

/** A site: one storage, server, clock, Web Locks (none with `locks: false`), wall clock and
 * op_id sequence, shared by its tabs; `tab(options)` opens one (openTab's options). */
export function openSite({ locks = true } = {}) {
  const site = {
    storage: new SharedStorage(),
    server: new FakeServer(),
    clock: new FakeClock(),
    locks: locks ? new FakeLocks() : null,
    time: wallClock(),
    ids: idSequence(),
  };
  site.tab = (options = {}) => openTab({ ...site, ...options });
  return site;
}

/** The operations URL of an article. */
export const ARTICLE = "/api/assignments/1/documents/astral/ops";

/** What a tab's sender told its page, by kind, in order. */
export const kinds = (tab) => tab.told.map((said) => said.kind);

/** The op_ids a tab's queue holds, in order. */
export const ids = (tab) => tab.queue.entries().map((entry) => entry.id);
