/* Focal assessment screen: selection → code-point offsets → idempotent operations.
 *
 * Plain JavaScript, no build step. The page gives us:
 *   <div id="document">   the article, every text node verbatim (assessor/web/rendering.py)
 *   <script type="application/json" id="focal-config">  URLs, CSRF token, state, keywords, runs
 *
 * Principles (docs: architecture, "The assessment screen"):
 *   - Offsets are computed over the text nodes of #document, never over rendered text, so they
 *     equal the server's offsets into Document.text (after UTF-16 → code point conversion).
 *   - Highlights are painted from the stored state (plus our own queued operations), never from
 *     the live selection: what you see is what the server has (or will have once saved).
 *   - Every action is an operation with a client id. Operations go out one at a time, in order,
 *     from the outbox in IndexedDB (static/outbox.js, shared by the site's tabs), and a failed
 *     send is retried with the same id (the server applies an op_id once), so nothing is lost
 *     on a network error, a reload or a closed tab: the next page of the site sends it.
 *   - The DOM inside #document is never changed: the CSS Custom Highlight API paints ranges.
 */
"use strict";

(() => {
  const docEl = document.getElementById("document");
  const configEl = document.getElementById("focal-config");
  if (!docEl || !configEl) return;
  const config = JSON.parse(configEl.textContent);
  // The session's CSRF token lives in a meta tag (base.html), shared with htmx's requests.
  const csrfToken = document.querySelector('meta[name="csrf-token"]')?.content || "";

  /* ---------------------------------------------------------------- text index */

  // Index of the first element of sorted `values` that is >= `x` (or > x with `strict`).
  function lowerBound(values, x, strict = false) {
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (values[mid] < x || (strict && values[mid] === x)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // One pass over the text nodes of #document: prefix sums in UTF-16 units (what DOM offsets
  // count) and the positions of surrogate pairs (what makes UTF-16 differ from code points).
  class TextIndex {
    constructor(root) {
      this.nodes = [];
      this.starts = [];
      const parts = [];
      let total = 0;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        this.nodes.push(node);
        this.starts.push(total);
        parts.push(node.data);
        total += node.data.length;
      }
      this.text = parts.join("");
      this.length = total;
      this.position = new Map(this.nodes.map((node, i) => [node, i]));
      this.pairUnits = []; // UTF-16 index of each high surrogate that starts a pair
      this.pairCodePoints = []; // the code-point offset of the same character
      for (const match of this.text.matchAll(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)) {
        this.pairCodePoints.push(match.index - this.pairUnits.length);
        this.pairUnits.push(match.index);
      }
      this.codePointLength = total - this.pairUnits.length;
    }

    toCodePoint(units) {
      // Every pair that ends at or before `units` counts one unit more than one code point.
      return units - lowerBound(this.pairUnits, units - 1);
    }

    toUnits(codePoint) {
      return codePoint + lowerBound(this.pairCodePoints, codePoint);
    }

    // The DOM position (text node, offset) of a UTF-16 offset into the text.
    locate(units) {
      if (this.nodes.length === 0) return { node: docEl, offset: 0 };
      const i = Math.max(0, lowerBound(this.starts, units, true) - 1);
      const node = this.nodes[i];
      return { node, offset: Math.min(units - this.starts[i], node.data.length) };
    }

    // UTF-16 offset of a DOM boundary point (container, offset), clamped to #document.
    unitsAt(container, offset) {
      if (container !== docEl && !docEl.contains(container)) {
        const before = container.compareDocumentPosition(docEl) & Node.DOCUMENT_POSITION_FOLLOWING;
        return before ? 0 : this.length;
      }
      if (container.nodeType === Node.TEXT_NODE) {
        const i = this.position.get(container);
        return i === undefined ? 0 : this.starts[i] + offset;
      }
      // An element boundary: the point sits before child `offset`, i.e. at the first text node
      // that follows in document order (inside that child or after it).
      const walker = document.createTreeWalker(docEl, NodeFilter.SHOW_TEXT);
      let next = null;
      if (offset < container.childNodes.length) {
        const child = container.childNodes[offset];
        if (child.nodeType === Node.TEXT_NODE) next = child;
        else {
          walker.currentNode = child;
          next = walker.nextNode();
        }
      } else {
        let last = container;
        while (last.lastChild) last = last.lastChild;
        walker.currentNode = last;
        next = walker.nextNode();
      }
      const i = next ? this.position.get(next) : undefined;
      return i === undefined ? this.length : this.starts[i];
    }

    // {start, end, exact} in code points for a DOM Range, or null when it holds no text.
    offsetsOf(range) {
      if (!range.intersectsNode(docEl)) return null;
      const startUnits = this.unitsAt(range.startContainer, range.startOffset);
      const endUnits = this.unitsAt(range.endContainer, range.endOffset);
      const start = this.toCodePoint(startUnits);
      const end = this.toCodePoint(endUnits);
      if (end <= start) return null;
      return { start, end, exact: this.slice(start, end) };
    }

    slice(start, end) {
      return this.text.slice(this.toUnits(start), this.toUnits(end));
    }

    rangeOf(start, end) {
      const from = this.locate(this.toUnits(start));
      const to = this.locate(this.toUnits(end));
      const range = new Range();
      range.setStart(from.node, from.offset);
      range.setEnd(to.node, to.offset);
      return range;
    }
  }

  const index = new TextIndex(docEl);

  /* ---------------------------------------------------------------- passages (ATOM) */

  // Passages are sorted, disjoint [start, end) pairs; overlapping or touching ones merge.
  function addPassage(passages, start, end) {
    const result = [];
    for (const [s, e] of passages) {
      if (e < start || s > end) result.push([s, e]);
      else {
        start = Math.min(start, s);
        end = Math.max(end, e);
      }
    }
    result.push([start, end]);
    return result.sort((a, b) => a[0] - b[0]);
  }

  function removePassage(passages, start, end) {
    const result = [];
    for (const [s, e] of passages) {
      if (e <= start || s >= end) result.push([s, e]);
      else {
        if (s < start) result.push([s, start]);
        if (e > end) result.push([end, e]);
      }
    }
    return result;
  }

  function addAll(passages) {
    return passages.reduce((merged, [s, e]) => addPassage(merged, s, e), []);
  }

  function subtract(passages, others) {
    return others.reduce((rest, [s, e]) => removePassage(rest, s, e), passages);
  }

  // What our state will be once the server has applied `op` (the server is the authority; this
  // only lets the page show a queued operation before the answer arrives).
  function applyLocally(state, op) {
    const next = { ...state, passages: state.passages.map((p) => [...p]) };
    if (op.op === "highlight") {
      next.passages = addPassage(next.passages, op.start, op.end);
      next.status = "relevant";
      next.finished = false;
    } else if (op.op === "unhighlight") {
      next.passages = removePassage(next.passages, op.start, op.end);
      next.finished = false;
      if (next.passages.length === 0) {
        next.status = "unjudged";
        next.bep = null;
      }
    } else if (op.op === "set_bep") {
      next.bep = op.offset;
    } else if (op.op === "mark_nonrelevant") {
      next.passages = [];
      next.bep = null;
      next.status = "nonrelevant";
      next.finished = true;
    } else if (op.op === "finish" && next.status !== "unjudged") {
      if (next.status === "relevant" && next.bep === null) next.bep = next.passages[0][0];
      next.finished = true;
    } else if (op.op === "restore") {
      next.status = op.status;
      next.passages = addAll(op.passages);
      next.bep = op.bep ?? null;
      next.finished = Boolean(op.finished);
    }
    return next;
  }

  /* ---------------------------------------------------------------- operation queue */

  // The queue is the outbox (static/outbox.js): IndexedDB, shared by the site's tabs, so an
  // operation outlives the tab that made it. `queue` mirrors it for the synchronous painting;
  // `stored` resolves once every write to it has landed.
  const saveEl = document.getElementById("save-state");
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("focal") : null;
  let serverState = normaliseState(config.state);
  let queue = [];
  let outbox = null;
  let stored = Promise.resolve();
  let sending = false;
  let again = false;
  let attempt = 0;
  let retryTimer = null;
  let created = 0;
  // Operations queued in this tab whose write to the outbox has not finished yet: a `sync`
  // that read the outbox before that write must not drop them from `queue`.
  const unwritten = new Set();

  function normaliseState(state) {
    return {
      version: state?.version ?? 0,
      status: state?.status ?? "unjudged",
      passages: (state?.passages ?? []).map(([s, e]) => [s, e]),
      bep: state?.bep ?? null,
      finished: Boolean(state?.finished),
    };
  }

  function readQueue() {
    return queue;
  }

  // Serialise writes to the outbox; `sync` waits for them before reading it back.
  function store(work) {
    stored = stored.then(() => (outbox ? work(outbox) : null)).catch(() => null);
    return stored;
  }

  async function sync() {
    await stored;
    if (!outbox) return;
    const all = await outbox.all();
    const read = new Set(all.map((entry) => entry.id));
    queue = [...all, ...queue.filter((entry) => unwritten.has(entry.id) && !read.has(entry.id))];
  }

  // Our state as it will be: the server's plus every queued operation of this article.
  function localState() {
    return queue
      .filter((entry) => entry.url === config.opsUrl)
      .reduce((state, entry) => applyLocally(state, entry.op), serverState);
  }

  function announce(message) {
    channel?.postMessage({ ...message, page: window.location.pathname });
  }

  // `url`: the operations URL of another article of the topic (undo of an action there).
  function enqueue(op, url = config.opsUrl) {
    if (!url) {
      showSaveState("refused", "read-only: nothing is saved");
      return null;
    }
    // Ordered by creation time across tabs; strictly increasing within this one.
    created = Math.max(created + 0.001, performance.timeOrigin + performance.now());
    const full = { op_id: crypto.randomUUID(), client_time: new Date().toISOString(), ...op };
    const entry = { id: full.op_id, url, op: full, created };
    queue = [...queue, entry];
    unwritten.add(entry.id);
    store((box) => box.put(entry)).then(() => {
      unwritten.delete(entry.id);
      announce({ kind: "outbox" });
    });
    paint();
    pump();
    return entry;
  }

  function showSaveState(kind, message) {
    if (!saveEl) return;
    saveEl.dataset.state = kind;
    saveEl.textContent = message;
  }

  function unsaved() {
    return queue.length === 1 ? "1 unsaved" : `${queue.length} unsaved`;
  }

  // Sends queued operations one at a time, oldest first, one tab at a time (a Web Lock), so
  // that the operations of an article reach the server in the order they were made. Never
  // drops an operation the server did not answer; see `outcome` for what an answer means.
  async function pump() {
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
    for (await sync(); queue.length > 0; await sync()) {
      const entry = queue[0];
      showSaveState("saving", `saving… (${unsaved()})`);
      let response = null;
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
    queue = queue.map((e) => (e.id === entry.id ? fresh : e));
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

  async function finish(entry, state) {
    queue = queue.filter((e) => e.id !== entry.id);
    await store((box) => box.remove(entry.id));
    if (state && entry.url === config.opsUrl) serverState = normaliseState(state);
    if (state) announce({ kind: "saved", url: entry.url, state });
    paint();
  }

  async function refreshState() {
    try {
      const response = await fetch(config.stateUrl, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (response.ok) {
        serverState = normaliseState(await response.json());
        paint();
      }
    } catch {
      /* keep what we have; the next operation brings the state anyway */
    }
  }

  // Leaving the page (closing the tab, following a link): whatever is still queued goes out
  // with `keepalive`, which outlives the page. Only the oldest operation of each article is
  // sent, since keepalive requests may arrive in any order; everything stays in the outbox
  // until answered, and the next page of the site sends the rest (a resend changes nothing).
  function flushOnLeave() {
    const seen = new Set();
    for (const entry of queue) {
      if (seen.has(entry.url)) continue;
      seen.add(entry.url);
      fetch(entry.url, {
        method: "POST",
        keepalive: true,
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", [config.csrfHeader]: csrfToken },
        body: JSON.stringify(entry.op),
      }).catch(() => {});
    }
  }

  /* ---------------------------------------------------------------- painting */

  const canHighlight = typeof Highlight === "function" && CSS.highlights !== undefined;
  let showRuns = false;

  function setHighlight(name, passages, priority) {
    if (!canHighlight) return;
    const ranges = passages.filter(([s, e]) => e > s).map(([s, e]) => index.rangeOf(s, e));
    const highlight = new Highlight(...ranges);
    highlight.priority = priority;
    CSS.highlights.set(name, highlight);
  }

  // A keyword matches whole words, case-insensitively ("art" is not found in "party"); a
  // keyword ending in * matches the beginnings of words ("art*": "art", "artist"). Letters,
  // digits and marks of any script count as word characters.
  const WORD = "[\\p{L}\\p{N}\\p{M}_]";

  function keywordPattern(keyword) {
    const prefix = keyword.endsWith("*");
    const word = (prefix ? keyword.slice(0, -1) : keyword).trim();
    if (!word) return null;
    const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
    return new RegExp(`(?<!${WORD})${escaped}${prefix ? "" : `(?!${WORD})`}`, "giu");
  }

  function keywordPassages() {
    const found = [];
    for (const keyword of config.keywords || []) {
      const pattern = keywordPattern(keyword);
      if (!pattern) continue;
      for (const match of index.text.matchAll(pattern)) {
        const at = match.index;
        found.push([index.toCodePoint(at), index.toCodePoint(at + match[0].length)]);
      }
    }
    return found;
  }

  let showKeywords = localStorage.getItem("focal.keywords-hidden") !== "1";

  function paintKeywords() {
    setHighlight("focal-keyword", showKeywords ? keywordPassages() : [], 2);
    const box = document.getElementById("toggle-keywords");
    if (box) box.checked = showKeywords;
  }

  function toggleKeywords(force) {
    showKeywords = force ?? !showKeywords;
    localStorage.setItem("focal.keywords-hidden", showKeywords ? "0" : "1");
    paintKeywords();
  }

  function bepToShow(state) {
    if (state.bep !== null) return { offset: state.bep, suggested: false };
    if (state.passages.length > 0) return { offset: state.passages[0][0], suggested: true };
    return null;
  }

  function paint() {
    const state = localState();
    const pending = subtract(state.passages, serverState.passages);
    setHighlight("focal-passage", state.passages, 3);
    setHighlight("focal-pending", pending, 4);
    const bep = bepToShow(state);
    const bepEnd = bep ? Math.min(bep.offset + 1, index.codePointLength) : 0;
    setHighlight("focal-bep", bep && !bep.suggested ? [[bep.offset, bepEnd]] : [], 5);
    placeBepMarker(bep);
    updatePanel(state, bep);
  }

  const markerEl = document.getElementById("bep-marker");
  const wrapEl = document.getElementById("document-wrap");

  // The BEP is a point, which a highlight cannot show: a marker outside #document (so it adds
  // no text) is positioned over it instead.
  function placeBepMarker(bep) {
    if (!markerEl || !wrapEl) return;
    if (!bep || index.nodes.length === 0) {
      markerEl.hidden = true;
      return;
    }
    const range = index.rangeOf(bep.offset, bep.offset);
    const rect = range.getClientRects()[0] || range.getBoundingClientRect();
    const origin = wrapEl.getBoundingClientRect();
    markerEl.hidden = false;
    markerEl.classList.toggle("suggested", bep.suggested);
    markerEl.title = bep.suggested
      ? "suggested best entry point (press b to accept)"
      : "best entry point";
    markerEl.style.left = `${rect.left - origin.left}px`;
    markerEl.style.top = `${rect.top - origin.top}px`;
    markerEl.style.height = `${Math.max(rect.height, 12)}px`;
  }

  const STATUS_LABELS = {
    unjudged: "not judged yet",
    relevant: "relevant",
    nonrelevant: "not relevant",
    not_relevant: "not relevant",
  };

  // Where a point of the text is, in words: the element path of the element around it
  // (data-path, rendering.py), without the article and body steps and inline markup, named
  // ("section 2, paragraph 3"); an assessor reads this, never a character offset.
  const STEP_NAMES = {
    sec: "section", ss: "subsection", ss1: "subsection", ss2: "subsection", ss3: "subsection",
    p: "paragraph", ip: "paragraph", ip1: "paragraph", para: "paragraph", title: "title",
    st: "heading", "article-title": "title", abstract: "abstract", fm: "front matter",
    bm: "back matter", list: "list", item: "item", "list-item": "item", table: "table",
    caption: "caption", fig: "figure", act: "act", scene: "scene", speech: "speech",
    line: "line", text: "text", label: "label", "boxed-text": "box",
  };
  const SKIPPED = new Set(["article", "bdy", "body", "front", "back", "it", "i", "b", "em",
    "sup", "sub", "xref", "italic", "bold", "u", "ref", "collectionlink", "unknownlink",
    "emph2", "emph3", "emph4", "emph5", "wikipedialink", "weblink", "outsidelink"]);

  function describePoint(offset) {
    if (index.nodes.length === 0) return "start of the text";
    const { node } = index.locate(index.toUnits(offset));
    const element = (node.nodeType === Node.TEXT_NODE ? node.parentElement : node)
      ?.closest("[data-path]");
    const steps = (element?.dataset.path || "")
      .split("/")
      .map((step) => step.match(/^([^[]+)\[(\d+)\]$/))
      .filter((match) => match && !SKIPPED.has(match[1]))
      .map(([, name, n]) => `${STEP_NAMES[name] || name} ${n}`);
    return steps.length ? steps.join(", ") : "start of the text";
  }

  function updatePanel(state, bep) {
    const set = (id, text) => {
      const el = document.getElementById(id);
      if (el) el.textContent = text;
    };
    set("status-text", STATUS_LABELS[state.status] || state.status);
    const chars = state.passages.reduce((sum, [s, e]) => sum + e - s, 0);
    set("passage-count", `${state.passages.length} passage(s), ${chars} characters`);
    set("bep-text", bep ? `${describePoint(bep.offset)}${bep.suggested ? " (suggested)" : ""}` : "none");
    document.body.dataset.status = state.status;
  }

  /* ---------------------------------------------------------------- actions */

  // Undo goes back to the exact state before the last action (status, passages, BEP,
  // finished) with one `restore` operation. The stack lives in sessionStorage, per topic, so
  // that it survives the page changes that x and j make: an action on another article is
  // undone there and the page goes back to it. Each entry keeps the text of its passages,
  // which the server checks, since that article's text may not be on this page.
  const UNDO_KEY = `focal.undo:${config.poolUrl}`;
  const UNDO_LIMIT = 200;

  function readUndo() {
    try {
      return JSON.parse(sessionStorage.getItem(UNDO_KEY)) || [];
    } catch {
      return [];
    }
  }

  function remember(before) {
    if (!config.opsUrl) return;
    const entry = {
      url: config.opsUrl,
      page: window.location.pathname,
      state: {
        status: before.status,
        passages: before.passages,
        exacts: before.passages.map(([s, e]) => index.slice(s, e)),
        bep: before.bep,
        finished: before.finished,
      },
    };
    sessionStorage.setItem(UNDO_KEY, JSON.stringify([...readUndo(), entry].slice(-UNDO_LIMIT)));
  }

  function act(op) {
    remember(localState());
    return enqueue(op);
  }

  function highlightRange(range) {
    const offsets = index.offsetsOf(range);
    if (!offsets) return false;
    act({ op: "highlight", ...offsets });
    return true;
  }

  function unhighlight([start, end]) {
    act({ op: "unhighlight", start, end, exact: index.slice(start, end) });
  }

  function setBep(offset) {
    // The server only takes a BEP on a relevant article; say so instead of sending a refusal.
    if (localState().status !== "relevant") {
      showSaveState("refused", "highlight relevant text before setting a best entry point");
      return;
    }
    act({ op: "set_bep", offset: Math.min(offset, index.codePointLength - 1) });
  }

  function undo() {
    const stack = readUndo();
    const last = stack.pop();
    if (!last) {
      showSaveState("saved", "nothing to undo");
      return;
    }
    sessionStorage.setItem(UNDO_KEY, JSON.stringify(stack));
    enqueue({ op: "restore", ...last.state }, last.url);
    if (last.page !== window.location.pathname) goTo(last.page);
  }

  function caretOffset(selection) {
    if (!selection || selection.rangeCount === 0) return null;
    const range = selection.getRangeAt(0);
    if (!docEl.contains(range.startContainer)) return null;
    return index.toCodePoint(index.unitsAt(range.startContainer, range.startOffset));
  }

  // The stored passage drawn under the pointer, found from the painted ranges' boxes, so that a
  // click just beside a passage does not remove it.
  function passageAtPoint(x, y) {
    for (const passage of localState().passages) {
      for (const rect of index.rangeOf(passage[0], passage[1]).getClientRects()) {
        if (x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom) return passage;
      }
    }
    return null;
  }

  // Navigation waits (at most a second) for the queued operations to be in the outbox, never
  // for the server.
  function goTo(url) {
    if (!url) return;
    const pause = new Promise((resolve) => setTimeout(resolve, 1000));
    Promise.race([ready.then(() => stored), pause]).then(() => window.location.assign(url));
  }

  // Leaving a highlighted article finishes it (which also fixes the suggested BEP); the queue
  // survives the navigation, so the assessor never waits for the save.
  function goNext() {
    const state = localState();
    if (config.opsUrl && state.status === "relevant" && !state.finished) act({ op: "finish" });
    goTo(config.nextUrl || config.poolUrl);
  }

  // The two-phase screen is rendered from the stored passages: leave once they are saved.
  async function goWhenSaved(url) {
    if (!url) return;
    const ours = () => readQueue().filter((entry) => entry.url === config.opsUrl).length;
    for (let waited = 0; ours() > 0; waited += 100) {
      if (waited >= 10000 || saveEl?.dataset.state === "failed") {
        showSaveState("failed", "not saved yet: the highlights must be saved first");
        return;
      }
      pump();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    goTo(url);
  }

  function markNonRelevantAndGoNext() {
    act({ op: "mark_nonrelevant" });
    goTo(config.nextUrl || config.poolUrl);
  }

  /* ---------------------------------------------------------------- events */

  // The text offset under a viewport point, or null outside the text.
  function offsetAtPoint(x, y) {
    const range = document.caretRangeFromPoint?.(x, y);
    if (!range || !docEl.contains(range.startContainer)) return null;
    return index.toCodePoint(index.unitsAt(range.startContainer, range.startOffset));
  }

  // Shift+click only ever moves the best entry point. A browser extends the selection on a
  // Shift+press (from the caret a first Shift+click left), which would turn the second
  // Shift+click into a highlight: the press is kept from selecting at all.
  document.addEventListener("mousedown", (event) => {
    if (event.button === 0 && event.shiftKey && docEl.contains(event.target)) {
      event.preventDefault();
    }
  });

  document.addEventListener("mouseup", (event) => {
    if (event.button !== 0) return;
    if (event.shiftKey) {
      if (!docEl.contains(event.target)) return;
      const offset = offsetAtPoint(event.clientX, event.clientY);
      if (offset !== null) setBep(offset);
      return;
    }
    const selection = window.getSelection();
    if (!selection || selection.rangeCount === 0) return;
    const range = selection.getRangeAt(0);
    if (!range.intersectsNode(docEl)) return;
    if (!range.collapsed) {
      // Mouse-up creates the highlight; the live selection is then dropped so that what shows
      // is the stored passage.
      if (highlightRange(range)) selection.removeAllRanges();
      return;
    }
    if (!docEl.contains(event.target)) return;
    const passage = passageAtPoint(event.clientX, event.clientY);
    if (passage) unhighlight(passage);
  });

  /* ---------------------------------------------------------------- keyboard selection */

  // Chromium moves no caret through text that is not editable (unless caret browsing is on),
  // so Shift+arrows would select nothing: the page moves the selection itself. The caret
  // starts at the top of what is in view; ←/→ move it (Ctrl: by word), Shift+←/→/↑/↓/Home/End
  // extend the selection from it, h highlights. Plain ↑/↓/Home/End still scroll the page.
  const SELECTION_KEYS = {
    ArrowLeft: ["backward", "character"],
    ArrowRight: ["forward", "character"],
    ArrowUp: ["backward", "line"],
    ArrowDown: ["forward", "line"],
    Home: ["backward", "lineboundary"],
    End: ["forward", "lineboundary"],
  };
  const caretEl = document.getElementById("caret-marker");
  let keyboardCaret = false;

  function inView(range) {
    const rect = range.getBoundingClientRect();
    return rect.height > 0 && rect.bottom > 0 && rect.top < window.innerHeight;
  }

  // A collapsed selection at the first text position visible in the viewport.
  function caretAtTopOfView(selection) {
    const box = docEl.getBoundingClientRect();
    for (let y = Math.max(box.top, 0) + 2; y < Math.min(box.bottom, window.innerHeight); y += 6) {
      const range = document.caretRangeFromPoint?.(box.left + 2, y);
      if (range && docEl.contains(range.startContainer)) {
        selection.collapse(range.startContainer, range.startOffset);
        return true;
      }
    }
    return false;
  }

  function moveSelection(event) {
    const how = SELECTION_KEYS[event.key];
    if (!how || event.altKey || event.metaKey) return false;
    if (!event.shiftKey && !["ArrowLeft", "ArrowRight"].includes(event.key)) return false;
    const selection = window.getSelection();
    const inside = selection.rangeCount > 0 && docEl.contains(selection.focusNode);
    const lost = inside && selection.isCollapsed && !inView(selection.getRangeAt(0));
    if ((!inside || lost) && !caretAtTopOfView(selection)) return false;
    const granularity = event.ctrlKey && how[1] === "character" ? "word" : how[1];
    selection.modify(event.shiftKey ? "extend" : "move", how[0], granularity);
    keyboardCaret = true;
    showCaret();
    return true;
  }

  // The caret of a keyboard selection is invisible in text that is not editable: a marker
  // outside #document shows where the next Shift+arrow starts.
  function showCaret() {
    if (!caretEl || !wrapEl) return;
    const selection = window.getSelection();
    const show =
      keyboardCaret && selection.rangeCount > 0 && docEl.contains(selection.focusNode);
    caretEl.hidden = !show;
    if (!show) return;
    const range = document.createRange();
    range.setStart(selection.focusNode, selection.focusOffset);
    const rect = range.getClientRects()[0] || range.getBoundingClientRect();
    const origin = wrapEl.getBoundingClientRect();
    caretEl.style.left = `${rect.left - origin.left}px`;
    caretEl.style.top = `${rect.top - origin.top}px`;
    caretEl.style.height = `${Math.max(rect.height, 12)}px`;
  }

  document.addEventListener("mousedown", () => {
    keyboardCaret = false;
    showCaret();
  });
  document.addEventListener("selectionchange", showCaret);

  const helpEl = document.getElementById("help");

  function toggleRuns(force) {
    showRuns = force ?? !showRuns;
    setHighlight("focal-run", showRuns ? config.runPassages || [] : [], 1);
    const box = document.getElementById("toggle-runs");
    if (box) box.checked = showRuns;
  }

  const KEYS = {
    j: goNext,
    n: goNext,
    k: () => goTo(config.prevUrl),
    p: () => goTo(config.prevUrl),
    x: markNonRelevantAndGoNext,
    u: undo,
    r: () => toggleRuns(),
    w: () => toggleKeywords(),
    e: () => goWhenSaved(config.twoPhaseUrl),
    h: () => {
      const selection = window.getSelection();
      if (selection?.rangeCount && highlightRange(selection.getRangeAt(0))) {
        // Keep a caret at the end, so that the next passage can be selected from there.
        selection.collapseToEnd();
      }
    },
    b: () => {
      const offset = caretOffset(window.getSelection());
      const bep = bepToShow(localState());
      if (offset !== null) setBep(offset);
      else if (bep) setBep(bep.offset);
    },
    "?": () => (helpEl?.open ? helpEl.close() : helpEl?.showModal()),
  };

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target.closest?.("input, textarea, select, [contenteditable]")) return;
    if (moveSelection(event)) {
      event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const handler = KEYS[event.key];
    if (!handler) return;
    event.preventDefault();
    handler();
  });

  // Buttons in the page name their action with data-action (and work without a keyboard).
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-action]");
    if (!button) return;
    const action = button.dataset.action;
    if (action === "nonrelevant") markNonRelevantAndGoNext();
    else if (action === "next") goNext();
    else if (action === "undo") undo();
    else if (action === "bep") KEYS.b();
    else if (action === "help") KEYS["?"]();
    else if (action === "twophase") KEYS.e();
    else return;
    event.preventDefault();
  });

  document.getElementById("toggle-runs")?.addEventListener("change", (event) => {
    toggleRuns(event.target.checked);
  });
  document.addEventListener("change", (event) => {
    if (event.target.id === "toggle-keywords") toggleKeywords(event.target.checked);
  });

  // The keyword form is swapped by htmx; the new block carries the keyword list.
  document.body.addEventListener("htmx:afterSwap", () => {
    const block = document.getElementById("keywords");
    if (!block?.dataset.keywords) return;
    config.keywords = JSON.parse(block.dataset.keywords);
    paintKeywords();
  });

  window.addEventListener("resize", () => placeBepMarker(bepToShow(localState())));
  // A page restored from the back/forward cache shows the state of when it was left.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) refreshState().then(pump);
  });
  window.addEventListener("online", pump);

  if (!canHighlight) {
    showSaveState("failed", "this browser cannot paint highlights (CSS Highlight API missing)");
  }

  // The page prefetches the next article with speculation rules (article.html); elsewhere a
  // <link rel=prefetch> is the best a browser offers.
  if (config.nextUrl && !HTMLScriptElement.supports?.("speculationrules")) {
    const link = document.createElement("link");
    link.rel = "prefetch";
    link.href = config.nextUrl;
    document.head.append(link);
  }

  // Leaving: what is queued goes out with keepalive (and stays in the outbox until answered).
  window.addEventListener("pagehide", flushOnLeave);

  // Another tab of the site saved an operation or queued one: a tab on the same article
  // shows the saved judgement (never an older one than it has) and its queued operations.
  channel?.addEventListener("message", async ({ data }) => {
    if (data?.kind === "saved" && data.url === config.opsUrl) {
      const state = normaliseState(data.state);
      if (state.version >= serverState.version) serverState = state;
      const note = document.getElementById("other-tab");
      if (note) note.hidden = false;
    }
    await sync();
    paint();
    if (!sending && queue.length > 0) showSaveState("saving", `${unsaved()} (another tab is saving)`);
    else if (!sending && saveEl?.dataset.state === "saving") showSaveState("saved", "saved");
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshState();
  });

  document.getElementById("conflict-dismiss")?.addEventListener("click", () => {
    const box = document.getElementById("conflict");
    if (box) box.hidden = true;
    document.getElementById("conflict-list")?.replaceChildren();
  });
  document.getElementById("conflict-reload")?.addEventListener("click", () => {
    window.location.reload();
  });

  paintKeywords();
  paint();

  // Open the outbox, keep what was queued meanwhile, then send whatever any tab left in it.
  const ready = (window.FocalOutbox ? window.FocalOutbox.open() : Promise.resolve(null)).then(
    async (box) => {
      const early = queue;
      outbox = box;
      await store(async (b) => {
        for (const entry of early) await b.put(entry);
      });
      await sync();
      paint();
      await refreshState();
      window.focal.outboxReady = true;
      pump();
    },
  );

  // For tests and for scripts driving the page.
  window.focal = {
    index,
    localState,
    describePoint,
    pendingCount: () => readQueue().length,
    outboxReady: false,
    undo,
    undoCount: () => readUndo().length,
  };
})();
