/* Focal assessment screen: what the assessor just did, in words ("Passage added: 'lightvessel
 * …'", "Undid: passage 'lightvessel …' added"), shown for a few seconds under the action bar
 * and read by a screen reader (a polite live region): highlights are painted with the CSS
 * Custom Highlight API, which the accessibility tree does not see.
 */
const announcerEl = document.getElementById("announcer");
const SHOWN_MS = 6000;
const QUOTED_WORDS = 6;
let timer = null;

/** Says `text` (replacing what was said); it stays in view for a few seconds. */
export function announce(text) {
  if (!announcerEl) return;
  // A live region announces a change: the same words twice are said twice.
  announcerEl.textContent = "";
  announcerEl.textContent = text;
  delete announcerEl.dataset.faded;
  clearTimeout(timer);
  // Out of sight after a while; the words stay until the next announcement.
  timer = setTimeout(() => {
    announcerEl.dataset.faded = "";
  }, SHOWN_MS);
}

/** The first words of `text` in quotes, cut with an ellipsis: how a passage is named. */
export function quoted(text) {
  const words = text.trim().split(/\s+/);
  const cut = words.length > QUOTED_WORDS;
  return `‘${words.slice(0, QUOTED_WORDS).join(" ")}${cut ? " …" : ""}’`;
}
