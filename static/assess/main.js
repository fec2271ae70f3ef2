/* Focal assessment screen: starting the page: open the outbox, send what any tab left, and keep
 * the page in step with other tabs and the back/forward cache.
 */
"use strict";

(() => {
  const F = window.FocalAssess;
  if (!F) return;
  const { config } = F;

  window.addEventListener("resize", () => F.placeBepMarker(F.bepToShow(F.localState())));
  // A page restored from the back/forward cache shows the state of when it was left.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) F.refreshState().then(F.pump);
  });
  window.addEventListener("online", F.pump);

  if (!F.canHighlight) {
    F.showSaveState("failed", "this browser cannot F.paint highlights (CSS Highlight API missing)");
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
  window.addEventListener("pagehide", F.flushOnLeave);

  // Another tab of the site saved an operation or queued one: a tab on the same article
  // shows the saved judgement (never an older one than it has) and its queued operations.
  F.channel?.addEventListener("message", async ({ data }) => {
    if (data?.kind === "saved" && data.url === config.opsUrl) {
      const state = F.normaliseState(data.state);
      F.receiveState(state);
      const note = document.getElementById("other-tab");
      if (note) note.hidden = false;
    }
    await F.sync();
    F.paint();
    if (F.isSending()) return;
    if (F.readQueue().length > 0) F.showSaveState("saving", `${F.unsaved()} (another tab is saving)`);
    else if (F.saveEl?.dataset.state === "saving") F.showSaveState("saved", "saved");
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") F.refreshState();
  });

  document.getElementById("conflict-dismiss")?.addEventListener("click", () => {
    const box = document.getElementById("conflict");
    if (box) box.hidden = true;
    document.getElementById("conflict-list")?.replaceChildren();
  });
  document.getElementById("conflict-reload")?.addEventListener("click", () => {
    window.location.reload();
  });

  F.paintKeywords();
  F.paint();

  // Open the outbox, keep what was queued meanwhile, then send whatever any tab left in it.
  F.ready = (window.FocalOutbox ? window.FocalOutbox.open() : Promise.resolve(null)).then(
    async (box) => {
      await F.openOutbox(box);
      F.paint();
      await F.refreshState();
      window.focal.outboxReady = true;
      F.pump();
    },
  );

  // For tests and for scripts driving the page.
  window.focal = {
    index: F.index,
    localState: F.localState,
    describePoint: F.describePoint,
    pendingCount: () => F.readQueue().length,
    outboxReady: false,
    undo: F.undo,
    undoCount: () => F.readUndo().length,
  };
})();
