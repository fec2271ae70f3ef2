/* Focal assessment screen: the entry module (templates/assess/article.html loads it with
 * <script type="module">, the page's only script besides htmx). It imports the screen's other
 * modules, which set up their own listeners when first imported (with the article page's parts
 * outside this folder: the note panel, the display profiles' fold control, the view events),
 * connects the queue to painting and sending, opens the outbox, sends what any tab left, and
 * keeps the page in step with other tabs and the back/forward cache.
 *
 * The modules import one way, with no cycle (page.js and passages.js at the bottom, main.js at
 * the top; queue.js reaches painting and sending only through its `changes` events), so each
 * module is evaluated once, after every module it uses.
 */
import { canHighlight } from "./highlights.js";
import { paintKeywords } from "./keywords.js";
import "./keys.js";
import "./outline.js";
import { config, csrfToken, saveEl } from "./page.js";
import { bepToShow, paint, placeBepMarker } from "./paint.js";
import {
  changes,
  channel,
  flushOnLeave,
  localState,
  normaliseState,
  readQueue,
  receiveState,
  refreshState,
  showSaveState,
  sync,
  unsaved,
  useOutbox,
} from "./queue.js";
import "./selection.js";
import { isSending, pump } from "./send.js";
import "./topic-fold.js";
import "../notes.js";
import { openOutbox } from "../outbox.js";
import "../profiles.js";
import "../view-events.js";

// What the queue reports: a change is painted, a queued operation is sent.
changes.addEventListener("change", () => paint());
changes.addEventListener("queued", () => pump());

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
if (config.nextUrl && config.prefetchNext && !HTMLScriptElement.supports?.("speculationrules")) {
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
    receiveState(normaliseState(data.state));
    const note = document.getElementById("other-tab");
    if (note) note.hidden = false;
  }
  await sync();
  paint();
  if (isSending()) return;
  if (readQueue().length > 0) showSaveState("saving", `${unsaved()} (another tab is saving)`);
  else if (saveEl?.dataset.state === "saving") showSaveState("saved", "saved");
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

// An article opened from the judging order's suggestion says so once: the server logs the
// suggestion as followed (asking for one writes nothing), and the address loses the mark so
// that a reload does not say it again.
if (config.followUrl) {
  fetch(config.followUrl, {
    method: "POST",
    headers: { [config.csrfHeader]: csrfToken },
    credentials: "same-origin",
  }).catch(() => {});
  history.replaceState(history.state, "", window.location.pathname);
}

paintKeywords();
paint();

// The page says how far its scripts are in `data-outbox` on body: "opening" once every module
// has run (their listeners are set), "open" once the outbox is open, what it held is queued
// and the saved state is read. Tests and scripts driving the page wait for it; they reach the
// modules' state by importing them (`import()` of the same URL gives the page's instance).
document.body.dataset.outbox = "opening";

// Open the outbox, keep what was queued meanwhile, then send whatever any tab left in it.
useOutbox(openOutbox()).then(async () => {
  paint();
  await refreshState();
  document.body.dataset.outbox = "open";
  pump();
});
