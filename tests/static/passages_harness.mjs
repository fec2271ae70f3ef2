// Runs the browser's passage functions (static/assess/passages.js, an ES module with no DOM)
// under node for tests/static/test_passages_js.py: reads a JSON list of cases on standard
// input, each {"passages": [[start, end], ...], "remove": [start, end] or null, "text": the
// article's text or null, "across": the campaign's setting}, and prints one JSON list of
// answers, each {"merged": mergePassages(...), "removed": removePassage(...)} ("removed" is
// null without "remove").
import { readFileSync } from "node:fs";
import { mergePassages, removePassage } from "../../static/assess/passages.js";

const cases = JSON.parse(readFileSync(0, "utf8"));
const answers = cases.map(({ passages, remove, text, across }) => {
  const merged = mergePassages(passages, text, across);
  return {
    merged,
    removed: remove ? removePassage(merged, remove[0], remove[1], text, across) : null,
  };
});
process.stdout.write(JSON.stringify(answers));
