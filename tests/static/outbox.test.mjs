// The outbox (static/outbox.js) and the queue that mirrors it (static/assess/pending.js), over
// a storage shared by tabs as IndexedDB is (fakes.mjs): oldest first, what is queued before the
// outbox opens or while a write is on its way is kept, tabs see each other's operations. Run
// by tests/static/test_node_tests.py with `node --test`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PendingQueue } from "../../static/assess/pending.js";
import { Outbox, memoryStorage, openOutbox } from "../../static/outbox.js";
import { SharedStorage, deferred, highlight, idSequence, settle } from "./fakes.mjs";

const URL_A = "/api/assignments/1/documents/a/ops";
const URL_B = "/api/assignments/1/documents/b/ops";

const entry = (id, created) => ({ id, url: URL_A, op: { op_id: id, op: "finish" }, created });
const ids = (entries) => entries.map((e) => e.id);

function queueOver(storage, { now = () => 5000, newId = idSequence() } = {}) {
  const queue = new PendingQueue({ now, newId });
  const opened = queue.use(Promise.resolve(new Outbox(storage, true)));
  return { queue, opened };
}

test("the outbox gives its entries oldest first, whatever order they were written in", async () => {
  const outbox = new Outbox(memoryStorage(), false);
  for (const [id, created] of [["c", 30], ["a", 10], ["d", 40], ["b", 20]]) {
    await outbox.put(entry(id, created));
  }
  assert.deepEqual(ids(await outbox.all()), ["a", "b", "c", "d"]);
  await outbox.put({ ...entry("a", 10), url: URL_B }); // the same id: replaced
  await outbox.remove("c");
  const all = await outbox.all();
  assert.deepEqual(ids(all), ["a", "b", "d"]);
  assert.equal(all[0].url, URL_B);
});

test("a memory storage copies entries in and out, as IndexedDB does", async () => {
  const map = new Map();
  const storage = memoryStorage(map);
  const written = entry("a", 1);
  await storage.put(written);
  written.url = URL_B;
  const [read] = await storage.getAll();
  read.op.op = "restore";
  assert.equal(map.get("a").url, URL_A);
  assert.equal(map.get("a").op.op, "finish");
});

test("where IndexedDB refuses to open, the outbox is in memory and says so", async () => {
  const refusing = {
    open() {
      const req = {};
      queueMicrotask(() => {
        req.error = new Error("refused");
        req.onerror();
      });
      return req;
    },
  };
  for (const factory of [refusing, { open: () => { throw new Error("SecurityError"); } }]) {
    const outbox = await openOutbox(factory);
    assert.equal(outbox.persistent, false);
    await outbox.put(entry("a", 1));
    assert.deepEqual(ids(await outbox.all()), ["a"]);
  }
  assert.equal(globalThis.indexedDB, undefined); // node has none: the default is memory too
  assert.equal((await openOutbox()).persistent, false);
});

test("an operation gets a fresh op_id, the client's time, and a strictly later creation", () => {
  const queue = new PendingQueue({ now: () => Date.UTC(2024, 0, 2, 3, 4, 5, 6), newId: idSequence() });
  const first = queue.add(highlight(0, 4), URL_A).entry;
  const second = queue.add({ op: "set_bep", offset: 2 }, URL_B).entry;
  assert.deepEqual(first.op, {
    op_id: "op-1",
    client_time: "2024-01-02T03:04:05.006Z",
    op: "highlight",
    start: 0,
    end: 4,
    exact: "xxxx",
  });
  assert.equal(first.id, "op-1");
  assert.equal(first.url, URL_A);
  assert.deepEqual([second.id, second.url, second.op.offset], ["op-2", URL_B, 2]);
  assert.ok(second.created > first.created, "the clock stood still: still strictly later");
  assert.deepEqual(ids(queue.entries()), ["op-1", "op-2"]);
});

test("what is queued before the outbox opens is kept, then written after older entries", async () => {
  const storage = new SharedStorage();
  await storage.put(entry("left-by-a-closed-tab", 100));
  const opening = deferred();
  const queue = new PendingQueue({ now: () => 200, newId: idSequence() });
  const opened = queue.use(opening.promise);
  const early = queue.add(highlight(0, 4), URL_A);
  await early.stored;
  assert.deepEqual(ids(queue.entries()), ["op-1"]);
  assert.deepEqual(storage.ids(), ["left-by-a-closed-tab"]);
  opening.resolve(new Outbox(storage, true));
  await opened;
  assert.deepEqual(ids(queue.entries()), ["left-by-a-closed-tab", "op-1"]);
  assert.deepEqual(storage.ids().sort(), ["left-by-a-closed-tab", "op-1"]);
});

test("an operation queued while the outbox is being read is kept, written or not", async () => {
  for (const writeLands of [true, false]) {
    const storage = new SharedStorage();
    const { queue, opened } = queueOver(storage);
    await opened;
    const read = storage.holdReads();
    const reading = queue.sync(); // begun: it reads the outbox as it is now, empty
    await settle();
    storage.release();
    const writes = writeLands ? null : storage.holdWrites();
    const { entry: queued, stored } = queue.add(highlight(0, 4), URL_A);
    if (writeLands) await stored;
    assert.deepEqual(storage.ids(), writeLands ? [queued.id] : []);
    read.resolve();
    await reading;
    assert.deepEqual(ids(queue.entries()), [queued.id], `write landed: ${writeLands}`);
    writes?.resolve();
    await queue.written();
    await queue.sync(); // a read begun after the write: its record
    assert.deepEqual(ids(queue.entries()), [queued.id]);
    assert.deepEqual(storage.ids(), [queued.id]);
  }
});

test("what another tab sent leaves this tab's queue at its next read", async () => {
  const storage = new SharedStorage();
  const newId = idSequence();
  const first = queueOver(storage, { newId });
  const second = queueOver(storage, { newId });
  await Promise.all([first.opened, second.opened]);
  const { entry: sent, stored } = first.queue.add(highlight(0, 4), URL_A);
  await stored;
  await second.queue.sync();
  assert.deepEqual(ids(second.queue.entries()), [sent.id]);
  await second.queue.remove(sent); // the second tab sent it and the server saved it
  await first.queue.sync();
  assert.deepEqual(ids(first.queue.entries()), []);
});

test("two tabs share the outbox: each sees the other's operations, oldest first", async () => {
  const storage = new SharedStorage();
  let now = 0;
  const time = () => (now += 10);
  const newId = idSequence();
  const first = queueOver(storage, { now: time, newId });
  const second = queueOver(storage, { now: time, newId });
  await Promise.all([first.opened, second.opened]);
  const a = first.queue.add(highlight(0, 1), URL_A);
  const b = second.queue.add(highlight(1, 2), URL_B);
  const c = first.queue.add(highlight(2, 3), URL_A);
  await Promise.all([a.stored, b.stored, c.stored]);
  assert.deepEqual(ids(second.queue.entries()), [b.entry.id]); // not read yet
  await Promise.all([first.queue.sync(), second.queue.sync()]);
  const order = [a.entry.id, b.entry.id, c.entry.id];
  assert.deepEqual(ids(first.queue.entries()), order);
  assert.deepEqual(ids(second.queue.entries()), order);
  await second.queue.remove(a.entry); // the other tab sent it
  await first.queue.sync();
  assert.deepEqual(ids(first.queue.entries()), [b.entry.id, c.entry.id]);
});

test("a renewed operation keeps its place and its time under the new id", async () => {
  const storage = new SharedStorage();
  let now = 0;
  const { queue, opened } = queueOver(storage, { now: () => (now += 1), newId: idSequence() });
  await opened;
  const a = queue.add(highlight(0, 4), URL_A);
  const b = queue.add(highlight(5, 9), URL_A);
  await Promise.all([a.stored, b.stored]);
  await queue.renew(a.entry);
  const [renewed, next] = queue.entries();
  assert.equal(renewed.id, "op-3");
  assert.equal(renewed.op.op_id, "op-3");
  assert.equal(renewed.created, a.entry.created);
  assert.deepEqual({ ...renewed.op, op_id: a.entry.id }, a.entry.op);
  assert.equal(next.id, b.entry.id);
  assert.deepEqual(storage.ids().sort(), ["op-2", "op-3"]);
  await queue.sync();
  assert.deepEqual(ids(queue.entries()), ["op-3", "op-2"]);
});
