/* Focal adjudication page: the gold passages edited by hand, with the assessment screen's
 * gestures. A mouse selection in the gold text highlights it (grown to whole words; with Alt
 * held it keeps its exact characters); "Unhighlight the selection" (or the key u) takes the
 * selected characters out; Shift+click puts the best entry point where you click. Offsets are
 * code points of the article's text, which the gold view shows verbatim, so the text before a
 * point counts them. Each edit is sent to the server with an op_id of its own (sent again,
 * it is applied once), and the server answers the gold; the page then shows it again.
 */

const view = document.getElementById("gold-overlay");
const status = document.getElementById("gold-edit-status");
const WORD = /^[\p{L}\p{N}\p{M}_'’]$/u;

// The code-point offset of a DOM point inside the gold view.
function offsetOf(node, offset) {
  const range = document.createRange();
  range.setStart(view, 0);
  range.setEnd(node, offset);
  return Array.from(range.toString()).length;
}

// Grow [start, end) to whole words of the view's text (code points).
function toWords(start, end) {
  const chars = Array.from(view.textContent);
  const isWord = (i) => i >= 0 && i < chars.length && WORD.test(chars[i]);
  let from = start;
  let to = end;
  while (isWord(from - 1) && isWord(from)) from -= 1;
  while (isWord(to - 1) && isWord(to)) to += 1;
  return [from, to];
}

function selectedRange(exact) {
  const selection = getSelection();
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  if (!view.contains(range.startContainer) || !view.contains(range.endContainer)) return null;
  const start = offsetOf(range.startContainer, range.startOffset);
  const end = offsetOf(range.endContainer, range.endOffset);
  if (end <= start) return null;
  return exact ? [start, end] : toWords(start, end);
}

// A fresh op_id (crypto.randomUUID needs a secure context; getRandomValues does not).
function opId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function send(edit, start, end) {
  status.textContent = "saving…";
  status.dataset.state = "saving";
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const response = await fetch(view.dataset.url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
    body: JSON.stringify({ edit, start, end, op_id: opId() }),
  });
  const answer = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    status.textContent = answer.error || "refused";
    status.dataset.state = "error";
    return;
  }
  status.textContent = "saved";
  status.dataset.state = "saved";
  location.reload();
}

function unhighlight() {
  const range = selectedRange(true);
  if (range) send("unhighlight", range[0], range[1]);
}

if (view) {
  view.addEventListener("mouseup", (event) => {
    if (event.shiftKey) return;
    const range = selectedRange(event.altKey);
    if (range) send("highlight", range[0], range[1]);
  });
  view.addEventListener("click", (event) => {
    if (!event.shiftKey) return;
    const caret = document.caretPositionFromPoint
      ? document.caretPositionFromPoint(event.clientX, event.clientY)
      : null;
    const point = caret
      ? [caret.offsetNode, caret.offset]
      : (() => {
          const r = document.caretRangeFromPoint(event.clientX, event.clientY);
          return r ? [r.startContainer, r.startOffset] : null;
        })();
    if (point && view.contains(point[0])) {
      const at = offsetOf(point[0], point[1]);
      send("bep", at, at);
    }
  });
  document.getElementById("gold-unhighlight").addEventListener("click", unhighlight);
  document.addEventListener("keydown", (event) => {
    if (event.key === "u" && !event.ctrlKey && !event.metaKey && !event.altKey) unhighlight();
  });
}
