/* Focal assessment screen: what the page gives the scripts, read once when the entry module
 * (main.js) is loaded, and the principles every module follows.
 *
 * The screen's scripts are native ES modules, served as they are (no build step):
 * templates/assess/article.html loads main.js with <script type="module">, and main.js imports
 * the rest; each module imports what it uses and exports its functions. Module scripts run once
 * the document is parsed, so the elements below exist. The page gives us:
 *   <div id="document">   the article, every text node verbatim (focal/assessor/web/rendering.py)
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

/** The article's text: every offset of the screen counts over its text nodes. */
export const docEl = document.getElementById("document");

/** The page's settings (URLs, the stored state, keywords, runs), frozen: nothing changes them. */
export const config = Object.freeze(JSON.parse(document.getElementById("focal-config").textContent));

/** The session's CSRF token: a meta tag (base.html), shared with htmx's requests. */
export const csrfToken = document.querySelector('meta[name="csrf-token"]')?.content || "";

/** The box around #document that the markers, grips and the selection bar are placed in. */
export const wrapEl = document.getElementById("document-wrap");

/** "saved", "saving…", "failed": what the page says of its queue (absent when read-only). */
export const saveEl = document.getElementById("save-state");
