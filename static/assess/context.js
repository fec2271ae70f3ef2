/* Focal assessment screen: the page's shared context, loaded first.
 *
 * Plain JavaScript, no build step, no modules: every script of the screen (static/assess/*.js,
 * loaded in order with `defer` by templates/assess/article.html) adds its functions to one
 * object, `window.FocalAssess`, and calls the others' through it once the page has started
 * (main.js, loaded last). The page gives us:
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
  window.FocalAssess = {
    docEl,
    config: JSON.parse(configEl.textContent),
    // The session's CSRF token lives in a meta tag (base.html), shared with htmx's requests.
    csrfToken: document.querySelector('meta[name="csrf-token"]')?.content || "",
    wrapEl: document.getElementById("document-wrap"),
    saveEl: document.getElementById("save-state"),
  };
})();
