// The order of sending (static/assess/delivery.js over pending.js and outbox.js, with the
// fakes of fakes.mjs): oldest first, one at a time, one tab at a time; nothing lost (an
// operation queued before the outbox opens, or that it could not store), nothing sent again
// once the server saved it (a late answer, another tab). Run by tests/static/test_node_tests.py
// with `node --test`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Outbox } from "../../static/outbox.js";
import { ARTICLE, deferred, highlight, ids, openSite, settle, until } from "./fakes.mjs";

const SAVED = { status: 200, body: { version: 1, status: "relevant", passages: [[0, 4]] } };

test("a slow answer holds back the newer operations: one at a time, oldest first", async () => {
  const world = openSite();
  const tab = world.tab();
  await tab.opened;
  const slow = deferred();
  world.server.answer(slow.promise);
  const a = tab.queue.add(highlight(0, 4), ARTICLE).entry;
  const pumped = tab.sender.pump();
  await until(() => world.server.requests.length === 1, "the first request");
  const b = tab.queue.add(highlight(6, 9), ARTICLE).entry;
  tab.sender.pump();
  const c = tab.queue.add(highlight(12, 15), ARTICLE).entry;
  tab.sender.pump();
  await settle();
  assert.equal(world.server.requests.length, 1);
  assert.equal(tab.sender.sending, true);
  assert.deepEqual(ids(tab), [a.id, b.id, c.id]);
  slow.resolve(SAVED);
  await pumped;
  assert.deepEqual(world.server.opIds(), [a.id, b.id, c.id]);
  assert.equal(world.server.mostInFlight, 1);
  assert.equal(tab.sender.sending, false);
  assert.deepEqual(ids(tab), []);
  assert.deepEqual(world.storage.ids(), []);
});

test("two tabs: one sends at a time, and what it saved the other never sends", async () => {
  const world = openSite();
  const first = world.tab();
  const second = world.tab();
  await Promise.all([first.opened, second.opened]);
  const slow = deferred();
  world.server.answer(slow.promise);
  const a = first.queue.add(highlight(0, 4), ARTICLE).entry;
  const firstPumped = first.sender.pump();
  await until(() => world.server.requests.length === 1, "the first tab's request");
  const b = second.queue.add(highlight(6, 9), ARTICLE).entry;
  const secondPumped = second.sender.pump();
  await settle();
  assert.equal(world.server.requests.length, 1); // the second tab waits for the lock
  assert.equal(second.sender.sending, true);
  slow.resolve(SAVED);
  await Promise.all([firstPumped, secondPumped]);
  assert.deepEqual(world.server.opIds(), [a.id, b.id]); // each once, oldest first
  assert.equal(world.server.mostInFlight, 1);
  assert.deepEqual(ids(first), []);
  assert.deepEqual(ids(second), []);
  assert.deepEqual(world.storage.ids(), []);
});

test("without Web Locks a tab still sends its queue in order", async () => {
  const world = openSite({ locks: false });
  const tab = world.tab();
  await tab.opened;
  world.server.answer({ status: 502, body: "{}" });
  const a = tab.queue.add(highlight(0, 4), ARTICLE).entry;
  const b = tab.queue.add(highlight(6, 9), ARTICLE).entry;
  await tab.sender.pump();
  await world.clock.advance(1000);
  await until(() => ids(tab).length === 0, "both saved");
  assert.deepEqual(world.server.opIds(), [a.id, a.id, b.id]);
});

test("a read of the outbox answered late does not bring back what was saved since", async () => {
  const world = openSite();
  const tab = world.tab();
  await tab.opened;
  const a = tab.queue.add(highlight(0, 4), ARTICLE);
  await a.stored;
  const late = world.storage.holdReads();
  const stale = tab.queue.sync(); // another tab's message: it reads [a], answered late
  await settle();
  world.storage.release();
  await tab.sender.pump();
  assert.deepEqual(world.server.opIds(), [a.entry.id]);
  late.resolve();
  await stale;
  assert.deepEqual(ids(tab), []);
  await tab.sender.pump();
  assert.deepEqual(world.server.opIds(), [a.entry.id]);
});

test("an operation the outbox could not store is still sent, once, in its place", async () => {
  const world = openSite();
  const tab = world.tab();
  await tab.opened;
  world.storage.failWrites = true;
  const a = tab.queue.add(highlight(0, 4), ARTICLE);
  await a.stored;
  world.storage.failWrites = false;
  const b = tab.queue.add(highlight(6, 9), ARTICLE);
  await b.stored;
  await tab.queue.sync();
  assert.deepEqual(world.storage.ids(), [b.entry.id]);
  assert.deepEqual(ids(tab), [a.entry.id, b.entry.id]); // kept in memory, oldest first
  await tab.sender.pump();
  assert.deepEqual(world.server.opIds(), [a.entry.id, b.entry.id]);
  assert.deepEqual(ids(tab), []);
  assert.deepEqual(world.storage.ids(), []);
});

test("a new page sends what a closed tab left before what it queued itself", async () => {
  const world = openSite();
  const closed = world.tab();
  await closed.opened;
  world.server.answer("network");
  const left = closed.queue.add(highlight(0, 4), ARTICLE).entry;
  await closed.sender.pump(); // refused: it stays in the outbox as the tab closes

  const opening = deferred();
  const page = world.tab({ outbox: opening.promise });
  const mine = page.queue.add(highlight(6, 9), ARTICLE).entry; // before the outbox is open
  assert.deepEqual(ids(page), [mine.id]);
  opening.resolve(new Outbox(world.storage, true));
  await page.opened;
  assert.deepEqual(ids(page), [left.id, mine.id]);
  await page.sender.pump();
  assert.deepEqual(world.server.opIds(), [left.id, left.id, mine.id]);
  assert.deepEqual(world.storage.ids(), []);
});
