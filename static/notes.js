/* Focal article page: the flag-and-note panel (templates/assess/_notes.html).
 *
 * htmx posts the form and swaps the panel with the server's answer; a note the server refuses
 * comes back (422) with the error beside the text as sent. This script covers what htmx leaves
 * alone: a request refused before the view (a stale CSRF token: 400) or lost on the network is
 * not swapped, so it says "Not saved" and why, and the text stays in the box. It also marks the
 * panel "unsaved" while the text differs from what was saved, warns before leaving the page
 * with such changes, and saves with Ctrl+Enter (Cmd+Enter) in the text box.
 */
const panel = () => document.getElementById("notes");
const status = () => document.getElementById("note-status");
let dirty = false;

function say(state, message) {
  const element = status();
  if (!element) return;
  element.dataset.state = state;
  element.textContent = message;
}

function inPanel(event) {
  const element = event.detail?.elt || event.target;
  return Boolean(element?.closest?.("#notes"));
}

// The text of an error page (Flask's pages put the reason in a <p>), never its markup.
function reasonOf(xhr) {
  if (!xhr || !xhr.responseText) return "";
  const page = new DOMParser().parseFromString(xhr.responseText, "text/html");
  const paragraph = page.querySelector("p");
  return (paragraph || page.body)?.textContent.trim().slice(0, 300) || "";
}

document.addEventListener("input", (event) => {
  if (!event.target.closest?.("#note-form")) return;
  dirty = true;
  say("dirty", "Unsaved changes.");
});
document.addEventListener("change", (event) => {
  if (event.target.id !== "note-flag") return;
  dirty = true;
  say("dirty", "Unsaved changes.");
});

document.addEventListener("keydown", (event) => {
  if (event.target.id !== "note-input") return;
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    document.getElementById("note-form")?.requestSubmit();
  }
});

document.body.addEventListener("htmx:beforeRequest", (event) => {
  if (inPanel(event)) say("saving", "Saving…");
});
document.body.addEventListener("htmx:afterSwap", (event) => {
  if (!panel() || !inPanel(event)) return;
  dirty = status()?.dataset.state === "error";
});
document.body.addEventListener("htmx:responseError", (event) => {
  if (!inPanel(event)) return;
  const xhr = event.detail.xhr;
  const reason = reasonOf(xhr) || `the server answered ${xhr?.status}`;
  say("error", `Not saved: ${reason}. Your text is kept here.`);
});
document.body.addEventListener("htmx:sendError", (event) => {
  if (!inPanel(event)) return;
  say("error", "Not saved: the server could not be reached. Your text is kept here; save again.");
});

window.addEventListener("beforeunload", (event) => {
  if (!dirty || !panel()) return;
  event.preventDefault();
  event.returnValue = "";
});
