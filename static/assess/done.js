/* Focal assessment screen: "Done → next" (j) is always a decision. A relevant article is
 * finished (✓) and the page goes on; an article with no passage is never left unjudged
 * silently: as the campaign's setting says (docs/assessing.md, "Done"), the page asks "No
 * passage highlighted: mark it not relevant?" (the default) or marks it not relevant at once.
 */
import { finishArticle, leave, markNonRelevantAndGoNext } from "./actions.js";
import { config } from "./page.js";
import { localState } from "./queue.js";

const askEl = document.getElementById("done-empty");

// The assessor's answer to the question (the dialog's returnValue): not relevant, leave the
// article not judged (said in so many words), or stay (Esc, or "Stay").
askEl?.addEventListener("close", () => {
  if (askEl.returnValue === "nonrelevant") markNonRelevantAndGoNext();
  else if (askEl.returnValue === "skip") leave("unjudged");
  askEl.returnValue = "";
});

/** Done → next: finish and go on, or decide first about an article with no passage. */
export function goNext() {
  const { status } = localState();
  const judged = status === "relevant" || status === "nonrelevant";
  if (!config.opsUrl || judged) {
    finishArticle();
    leave(status);
    return;
  }
  if (config.doneWithoutPassage === "not_relevant" || !askEl) markNonRelevantAndGoNext();
  else if (!askEl.open) askEl.showModal();
}
