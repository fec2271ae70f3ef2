// Runs the browser's passage functions (static/assess/passages.js, an ES module with no DOM)
// under node for tests/static/test_passages_js.py: reads a JSON list of cases on standard
// input, each {"passages": [[start, end], ...], "remove": [start, end] or null}, and prints one
// JSON list of answers, each {"merged": mergePassages(passages), "removed": removePassage(...)}
// ("removed" is null without "remove").
import { readFileSync } from "node:fs";
import { mergePassages, removePassage } from "../../static/assess/passages.js";

const cases = JSON.parse(readFileSync(0, "utf8"));
const answers = cases.map(({ passages, remove }) => ({
  merged: mergePassages(passages),
  removed: remove ? removePassage(mergePassages(passages), remove[0], remove[1]) : null,
}));
process.stdout.write(JSON.stringify(answers));
