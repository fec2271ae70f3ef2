/* Focal assessment screen: view events, i.e. reports of when the article is shown and when it is
 * left (not Flask views).
 *
 * The assessment analytics (spec section 10; seed 003 Table III) time an article from its first
 * display to its last operation. This script tells the server `shown` when the article is on
 * screen (page loaded, or its tab visible again, or restored from the back/forward cache) and
 * `left` when it goes off screen (tab hidden, page unloaded). Each report has its own id, so a
 * report retried after a network error is stored once. `keepalive` lets the last report of a
 * page that is being unloaded still reach the server. Read-only pages (an organiser looking)
 * have no `viewsUrl` and report nothing.
 *
 * An ES module that assess/main.js imports; it reads the page's settings from assess/page.js.
 */
import { config, csrfToken } from "./assess/page.js";

let onScreen = false;

function report(kind) {
  const body = JSON.stringify({
    kind,
    event_id: crypto.randomUUID(),
    client_time: new Date().toISOString(),
  });
  const send = (attempt) =>
    fetch(config.viewsUrl, {
      method: "POST",
      keepalive: true,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", [config.csrfHeader]: csrfToken },
      body,
    }).catch(() => {
      // network error: once more a little later with the same id (stored at most once)
      if (attempt < 3) setTimeout(() => send(attempt + 1), 1000 * 2 ** attempt);
    });
  send(0);
}

function shown() {
  if (onScreen || document.visibilityState !== "visible") return;
  onScreen = true;
  report("shown");
}

function left() {
  if (!onScreen) return;
  onScreen = false;
  report("left");
}

if (config.viewsUrl) {
  document.addEventListener("visibilitychange", () =>
    document.visibilityState === "visible" ? shown() : left(),
  );
  window.addEventListener("pagehide", left);
  window.addEventListener("pageshow", shown);
  shown();
}
