// The sending of queued operations (static/assess/delivery.js) over the real queue and outbox
// (pending.js, outbox.js), against a fake server, storage, clock and Web Locks (fakes.mjs):
// what each answer does (docs/api.md) and the retry delays (1 s doubling to at most 30 s).
// order.test.mjs has the order. Run by tests/static/test_node_tests.py with `node --test`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { outcome, retryDelay } from "../../static/assess/delivery.js";
import { ARTICLE, deferred, highlight, ids, kinds, openSite, settle, until } from "./fakes.mjs";

test("outcome: what each answer means (docs/api.md)", () => {
  const answer = (status) => ({ ok: status >= 200 && status < 300, status });
  assert.equal(outcome(null, {}), "retry");
  assert.equal(outcome(answer(200), {}), "saved");
  assert.equal(outcome(answer(201), {}), "saved");
  for (const status of [500, 502, 503, 504, 408, 429]) {
    assert.equal(outcome(answer(status), {}), "retry", status);
  }
  assert.equal(outcome(answer(401), {}), "login");
  assert.equal(outcome(answer(403), {}), "login");
  assert.equal(outcome(answer(400), { error: "missing or wrong CSRF token" }), "reload");
  assert.equal(outcome(answer(400), { error: "start must be an integer" }), "conflict");
  assert.equal(outcome(answer(409), { code: "op_id_reused" }), "renew");
  for (const code of ["stale_version", "exact_mismatch", "text_missing"]) {
    assert.equal(outcome(answer(409), { code }), "conflict", code);
  }
  assert.equal(outcome(answer(404), { code: "not_found" }), "conflict");
  assert.equal(outcome(answer(422), {}), "conflict");
});

test("retryDelay: 1 s, doubling, at most 30 s", () => {
  const delays = [1, 2, 3, 4, 5, 6, 7, 20].map(retryDelay);
  assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});

test("an operation goes out as JSON with the page's headers", async () => {
  const world = openSite();
  const tab = world.tab();
  await tab.opened;
  const { entry } = tab.queue.add(highlight(3, 9), ARTICLE);
  await tab.sender.pump();
  const [request] = world.server.requests;
  assert.equal(request.url, ARTICLE);
  assert.equal(request.init.method, "POST");
  assert.equal(request.init.headers["Content-Type"], "application/json");
  assert.equal(request.init.headers["X-CSRF-Token"], "token");
  assert.deepEqual(request.op, entry.op);
  assert.deepEqual({ start: request.op.start, end: request.op.end }, { start: 3, end: 9 });
  assert.deepEqual(kinds(tab), ["sending", "saved", "done"]);
  // The state the server answered is what the page is told was saved.
  assert.deepEqual(tab.told[1].state, { version: 1, status: "relevant", passages: [] });
});

test("no connection: the same op_id again 1 s later, and the operation waits till then", async () => {
  const world = openSite();
  const tab = world.tab();
  await tab.opened;
  world.server.answer("network");
  const { entry } = tab.queue.add(highlight(0, 4), ARTICLE);
  await tab.sender.pump();
  assert.deepEqual(world.server.opIds(), [entry.id]);
  assert.deepEqual(tab.told.at(-1), {
    kind: "waiting",
    what: "retry",
    status: null,
    body: {},
    delay: 1000,
  });
  assert.deepEqual(world.clock.waiting(), [1000]);
  assert.deepEqual(ids(tab), [entry.id]);
  assert.deepEqual(world.storage.ids(), [entry.id]);
  await world.clock.advance(999);
  assert.equal(world.server.requests.length, 1);
  await world.clock.advance(1);
  await until(() => ids(tab).length === 0, "the operation saved");
  assert.deepEqual(world.server.opIds(), [entry.id, entry.id]);
  assert.deepEqual(world.storage.ids(), []);
  assert.deepEqual(kinds(tab), ["sending", "waiting", "sending", "saved", "done"]);
});

test("5xx then 2xx: the same op_id each time, 1 s doubling to at most 30 s", async () => {
  const world = openSite();
  const tab = world.tab();
  await tab.opened;
  const refusals = [500, 502, 503, 504, 500, 503, 500, 502];
  world.server.answer(
    ...refusals.map((status) => ({ status, body: status === 503 ? { code: "busy" } : "{}" })),
  );
  const { entry } = tab.queue.add(highlight(0, 4), ARTICLE);
  await tab.sender.pump();
  const waited = [];
  for (let sent = 1; sent <= refusals.length; sent += 1) {
    assert.equal(world.server.requests.length, sent);
    const [delay] = world.clock.waiting();
    assert.deepEqual(world.clock.waiting(), [delay]); // one timer, never two
    waited.push(delay);
    await world.clock.advance(delay - 1);
    assert.equal(world.server.requests.length, sent, "sent before its delay was over");
    await world.clock.advance(1);
  }
  await until(() => ids(tab).length === 0, "the operation saved");
  assert.deepEqual(waited, [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  assert.equal(world.server.requests.length, refusals.length + 1);
  assert.ok(world.server.opIds().every((id) => id === entry.id));
  const busy = tab.told.filter((said) => said.kind === "waiting" && said.body.code === "busy");
  assert.deepEqual(
    busy.map((said) => said.status),
    [503, 503],
  );
  assert.deepEqual(world.clock.waiting(), []);

  // Saved: the next operation's first wait is 1 s again.
  world.server.answer({ status: 503, body: {} });
  tab.queue.add(highlight(5, 9), ARTICLE);
  await tab.sender.pump();
  assert.deepEqual(world.clock.waiting(), [1000]);
});

for (const [status, body, what] of [
  [408, {}, "retry"],
  [429, { error: "too many requests" }, "retry"],
  [401, { error: "log in" }, "login"],
  [403, { error: "forbidden" }, "login"],
  [400, { error: "missing or wrong CSRF token; reload the page" }, "reload"],
]) {
  test(`${status} (${what}): kept and sent again as it is after 1 s`, async () => {
    const world = openSite();
    const tab = world.tab();
    await tab.opened;
    world.server.answer({ status, body });
    const { entry } = tab.queue.add(highlight(0, 4), ARTICLE);
    await tab.sender.pump();
    assert.deepEqual(tab.told.at(-1), { kind: "waiting", what, status, body, delay: 1000 });
    assert.deepEqual(world.storage.ids(), [entry.id]);
    await world.clock.advance(1000);
    await until(() => ids(tab).length === 0, "the operation saved");
    assert.deepEqual(world.server.opIds(), [entry.id, entry.id]);
    assert.equal(tab.told.filter((said) => said.kind === "refused").length, 0);
  });
}

test("409 op_id_reused: the same operation at once under a new id, in its place", async () => {
  const world = openSite();
  const tab = world.tab();
  await tab.opened;
  world.server.answer({ status: 409, body: { code: "op_id_reused", error: "taken" } });
  const first = tab.queue.add(highlight(0, 4), ARTICLE).entry;
  const second = tab.queue.add(highlight(8, 12), ARTICLE).entry;
  await tab.sender.pump();
  const [refused, renewed, next] = world.server.requests.map((request) => request.op);
  assert.equal(world.server.requests.length, 3);
  assert.equal(refused.op_id, first.id);
  assert.ok(![first.id, second.id].includes(renewed.op_id), renewed.op_id);
  assert.deepEqual({ ...renewed, op_id: first.id }, refused); // nothing else changed
  assert.equal(next.op_id, second.id); // after the renewed one: the order is kept
  assert.deepEqual(world.clock.waiting(), []); // no delay
  assert.deepEqual(kinds(tab), ["sending", "sending", "saved", "sending", "saved", "done"]);
  assert.deepEqual(ids(tab), []);
  assert.deepEqual(world.storage.ids(), []);
});

for (const [status, body] of [
  [409, { code: "stale_version", error: "stale" }],
  [409, { code: "exact_mismatch", error: "text differs" }],
  [409, { code: "text_missing", error: "no text" }],
  [404, { code: "not_found", error: "not in your assignment" }],
  [422, { error: "end beyond the text" }],
  [400, { error: "start must be an integer" }],
]) {
  test(`${status} ${body.code ?? body.error}: shown, dropped, never sent again`, async () => {
    const world = openSite();
    const tab = world.tab();
    await tab.opened;
    world.server.answer({ status, body });
    const refused = tab.queue.add(highlight(0, 4), ARTICLE).entry;
    const after = tab.queue.add(highlight(8, 12), ARTICLE).entry;
    await tab.sender.pump();
    assert.deepEqual(
      tab.told.find((said) => said.kind === "refused"),
      { kind: "refused", id: refused.id, body, status },
    );
    assert.deepEqual(world.server.opIds(), [refused.id, after.id]); // the next one goes on
    await world.clock.advance(120000);
    assert.deepEqual(world.server.opIds(), [refused.id, after.id]);
    assert.deepEqual(world.clock.waiting(), []);
    assert.deepEqual(ids(tab), []);
    assert.deepEqual(world.storage.ids(), []);
  });
}

test("a send asked for during a failing one waits for the retry's delay", async () => {
  const world = openSite();
  const tab = world.tab();
  await tab.opened;
  const slow = deferred();
  world.server.answer(slow.promise);
  const a = tab.queue.add(highlight(0, 4), ARTICLE).entry;
  const pumped = tab.sender.pump();
  await until(() => world.server.requests.length === 1, "the first request");
  const b = tab.queue.add(highlight(6, 9), ARTICLE).entry;
  tab.sender.pump(); // as the queue's "queued" event does
  slow.resolve("network");
  await pumped;
  await settle();
  assert.equal(world.server.requests.length, 1, "sent again before the delay was over");
  assert.deepEqual(world.clock.waiting(), [1000]);
  await world.clock.advance(1000);
  await until(() => ids(tab).length === 0, "both saved");
  assert.deepEqual(world.server.opIds(), [a.id, a.id, b.id]);
});

test("a send asked for while a retry waits (back online) goes at once", async () => {
  const world = openSite();
  const tab = world.tab();
  await tab.opened;
  world.server.answer("network");
  const { entry } = tab.queue.add(highlight(0, 4), ARTICLE);
  await tab.sender.pump();
  assert.deepEqual(world.clock.waiting(), [1000]);
  await tab.sender.pump(); // the page's "online" event
  assert.deepEqual(world.server.opIds(), [entry.id, entry.id]);
  assert.deepEqual(world.clock.waiting(), []); // the retry's timer is gone
  assert.deepEqual(ids(tab), []);
});
