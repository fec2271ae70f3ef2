/* Focal assessment screen: the topic description folds away after the first article (the
 * page opens it on the first article of the pool only); opening or closing it is remembered
 * for the topic in this browser, so the assessor's choice holds on the next article. On a
 * narrow screen (the phone layout of focal.css) it starts folded even on the first article, so
 * that the text starts within the first screen: its summary is the topic's title, a tap opens it.
 */
function remember(fold) {
  const key = `focal.topic-open:${fold.dataset.topic}`;
  const remembered = localStorage.getItem(key);
  if (remembered !== null) fold.open = remembered === "1";
  else if (window.matchMedia("(max-width: 50rem)").matches) fold.open = false;
  // Only the assessor's own toggles (a click, Enter or Space on the summary) are remembered.
  fold.querySelector("summary")?.addEventListener("click", () => {
    setTimeout(() => localStorage.setItem(key, fold.open ? "1" : "0"), 0);
  });
}

const fold = document.getElementById("topic-fold");
if (fold) remember(fold);
